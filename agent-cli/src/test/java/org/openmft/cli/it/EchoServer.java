package org.openmft.cli.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A TCP echo server: every byte a client sends comes back to it. Its {@code main} runs one inside a
 * host ({@code HostProcess.start(hosts, "B", EchoServer.class, address)}): it prints
 * {@code listening <port>} and ends when its standard input closes.
 */
final class EchoServer implements AutoCloseable {
    private final ServerSocket server;

    private EchoServer(ServerSocket server) {
        this.server = server;
        daemon("echo accept " + port(), this::accept);
    }

    /** Listens on {@code address}:{@code port} ({@code 0}: any free port). */
    static EchoServer start(InetAddress address, int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(address, port));
        return new EchoServer(s);
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                daemon("echo " + client.getRemoteSocketAddress(), () -> echo(client));
            } catch (IOException e) {
                // Closed.
            }
        }
    }

    private static void echo(Socket client) {
        try (client; InputStream in = client.getInputStream(); OutputStream out = client.getOutputStream()) {
            client.setTcpNoDelay(true);
            byte[] buffer = new byte[64 * 1024];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
            }
            client.shutdownOutput();
        } catch (IOException e) {
            // The client went.
        }
    }

    static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    /** {@code EchoServer <address> [port]}. */
    public static void main(String[] args) throws IOException {
        try (EchoServer s = start(InetAddress.getByName(args[0]), args.length > 1 ? Integer.parseInt(args[1]) : 0)) {
            System.out.println("listening " + s.port());
            System.out.flush();
            HostProcess.answer(words -> "fail unknown command " + String.join(" ", words));
        }
    }
}
