package org.openmft.cli.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.zip.CRC32C;

/**
 * What a test does on a host of {@link NetworkHosts}, as one JVM started there once
 * ({@code HostProcess.start(hosts, "A", NetProbe.class)}) and asked in lines, so that a poll does
 * not start a JVM each time. It prints {@code ready}, then answers each command with {@code ok ...}
 * or {@code fail <exception>}:
 * <ul>
 * <li>{@code connect <address> <port> <timeout ms>}: opens and closes a TCP connection.
 * <li>{@code rtt <address> <port> <count>}: over one connection to an echo server, sends one byte
 * and waits for it {@code count} times; {@code ok <shortest round trip, ns>}.
 * <li>{@code bulk <address> <port> <bytes>}: sends that many pseudo-random bytes to an echo server
 * while reading them back; {@code ok <CRC-32C sent> <CRC-32C received> <bytes received> <ns>}.
 * <li>{@code echo-server <address>}: starts an {@link EchoServer}; {@code ok <port>}.
 * <li>{@code udp-listen <address>}, {@code udp-receive <timeout ms>}: a datagram socket, and the
 * text of the next datagram; {@code udp-send <address> <port> <text>} sends one.
 * </ul>
 */
final class NetProbe {
    private final List<AutoCloseable> open = new ArrayList<>();
    private DatagramSocket udp;

    private NetProbe() {
    }

    public static void main(String[] args) throws Exception {
        NetProbe probe = new NetProbe();
        System.out.println("ready");
        System.out.flush();
        try {
            HostProcess.answer(probe::answer);
        } finally {
            for (AutoCloseable c : probe.open) {
                c.close();
            }
        }
    }

    private String answer(String[] w) throws Exception {
        switch (w[0]) {
            case "connect":
                try (Socket s = new Socket()) {
                    s.connect(address(w[1], w[2]), Integer.parseInt(w[3]));
                }
                return "ok";
            case "rtt":
                return "ok " + roundTrip(address(w[1], w[2]), Integer.parseInt(w[3]));
            case "bulk":
                return "ok " + bulk(address(w[1], w[2]), Long.parseLong(w[3]));
            case "echo-server":
                EchoServer server = EchoServer.start(InetAddress.getByName(w[1]), 0);
                open.add(server);
                return "ok " + server.port();
            case "udp-listen":
                udp = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(w[1]), 0));
                open.add(udp);
                return "ok " + udp.getLocalPort();
            case "udp-receive":
                DatagramPacket p = new DatagramPacket(new byte[1500], 1500);
                udp.setSoTimeout(Integer.parseInt(w[1]));
                udp.receive(p);
                return "ok " + new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8);
            case "udp-send":
                try (DatagramSocket s = new DatagramSocket()) {
                    byte[] text = w[3].getBytes(StandardCharsets.UTF_8);
                    s.send(new DatagramPacket(text, text.length, address(w[1], w[2])));
                }
                return "ok";
            default:
                return "fail unknown command " + String.join(" ", w);
        }
    }

    private static InetSocketAddress address(String host, String port) throws IOException {
        return new InetSocketAddress(InetAddress.getByName(host), Integer.parseInt(port));
    }

    /** The shortest of {@code count} one-byte round trips to an echo server, in nanoseconds. */
    static long roundTrip(InetSocketAddress echo, int count) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(echo, 10_000);
            s.setTcpNoDelay(true);
            s.setSoTimeout(30_000);
            long shortest = Long.MAX_VALUE;
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                s.getOutputStream().write(i);
                if (s.getInputStream().read() != (i & 0xff)) {
                    throw new IOException("the echo did not send back byte " + i);
                }
                shortest = Math.min(shortest, System.nanoTime() - start);
            }
            return shortest;
        }
    }

    /**
     * Sends {@code bytes} pseudo-random bytes to an echo server while reading them back:
     * {@code <CRC-32C sent> <CRC-32C received> <bytes received> <ns>}.
     */
    static String bulk(InetSocketAddress echo, long bytes) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(echo, 10_000);
            s.setSoTimeout(120_000);
            long start = System.nanoTime();
            CompletableFuture<Long> sent = CompletableFuture.supplyAsync(() -> send(s, bytes));
            CRC32C received = new CRC32C();
            long count = 0;
            byte[] buffer = new byte[64 * 1024];
            InputStream in = s.getInputStream();
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                received.update(buffer, 0, n);
                count += n;
            }
            long nanos = System.nanoTime() - start;
            return sent.get() + " " + received.getValue() + " " + count + " " + nanos;
        }
    }

    /** Sends {@code bytes} pseudo-random bytes, then half-closes; returns their CRC-32C. */
    private static long send(Socket s, long bytes) {
        SplittableRandom random = new SplittableRandom(bytes);
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[32 * 1024];
        try {
            OutputStream out = s.getOutputStream();
            for (long left = bytes; left > 0; left -= buffer.length) {
                random.nextBytes(buffer);
                int n = (int) Math.min(left, buffer.length);
                crc.update(buffer, 0, n);
                out.write(buffer, 0, n);
            }
            s.shutdownOutput();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return crc.getValue();
    }
}
