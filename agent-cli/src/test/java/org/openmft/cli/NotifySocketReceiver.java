package org.openmft.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainDatagramSocketAddress;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;

/**
 * systemd's side of the readiness protocol, for tests: a unix datagram socket bound where
 * {@code NOTIFY_SOCKET} points, collecting the messages a daemon sends. Netty's native socket
 * stands in for systemd's receiving end because the JDK has no unix datagrams.
 */
public final class NotifySocketReceiver implements AutoCloseable {
    private final Socket socket;
    private final String address;
    private final List<String> received = new ArrayList<>();

    private NotifySocketReceiver(Socket socket, String address) {
        this.socket = socket;
        this.address = address;
    }

    /** Why this platform cannot run the receiver (Netty's native transport is missing), if it cannot. */
    public static Optional<String> unavailable() {
        return Epoll.isAvailable() ? Optional.empty()
                : Optional.of("Netty's native unix transport is not available: " + Epoll.unavailabilityCause());
    }

    /** A receiver bound at {@code path} (a file system socket). */
    public static NotifySocketReceiver at(Path path) throws IOException {
        return bind(path.toString(), path.toString());
    }

    /** A receiver bound at an abstract socket name, which NOTIFY_SOCKET writes as {@code @name}. */
    public static NotifySocketReceiver abstractNamed(String name) throws IOException {
        return bind("\0" + name, "@" + name);
    }

    private static NotifySocketReceiver bind(String bindAddress, String address) throws IOException {
        Epoll.ensureAvailability();
        Socket socket = Socket.newSocketDomainDgram();
        socket.bind(new DomainSocketAddress(bindAddress));
        return new NotifySocketReceiver(socket, address);
    }

    /** The value for NOTIFY_SOCKET. */
    public String address() {
        return address;
    }

    /**
     * Waits until a message containing {@code line} (one of its lines) arrived, at most {@code timeout}.
     *
     * @return every message received so far
     */
    public List<String> await(String line, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            drain();
            if (received.stream().anyMatch(m -> m.lines().anyMatch(line::equals))) {
                return List.copyOf(received);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no message with the line " + line + " on " + address + " within "
                        + timeout + "; received: " + received);
            }
            Thread.sleep(50);
        }
    }

    /** Every message received so far, without waiting. */
    public List<String> received() throws IOException {
        drain();
        return List.copyOf(received);
    }

    private void drain() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(4096);
        DomainDatagramSocketAddress from;
        while ((from = socket.recvFromDomainSocket(buffer, 0, buffer.capacity())) != null) {
            byte[] bytes = new byte[from.receivedAmount()];
            buffer.get(0, bytes);
            received.add(new String(bytes, StandardCharsets.UTF_8));
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
