package org.openmft.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Socket;

/**
 * systemd's readiness protocol ({@code sd_notify}): a daemon in the foreground under a
 * {@code Type=notify} unit tells systemd when it really serves ({@code READY=1}) and when it
 * begins to stop ({@code STOPPING=1}), with one datagram each on the unix socket named by
 * {@value #SOCKET_ENV}. Without that variable (not under systemd, or another unit type) nothing
 * is sent.
 *
 * <p>Java 17 has no unix datagram sockets ({@code SocketChannel} does stream sockets only), so the
 * datagram goes out through Netty's native unix socket, which the distribution already ships for
 * Artemis (its epoll transport): no new dependency, no native library of our own, and no
 * {@code systemd-notify} child process (whose message systemd may attribute to no unit once that
 * child has ended, and which a unit would have to accept from any process with
 * {@code NotifyAccess=all}). Netty's native transport exists for Linux on x86_64 in the
 * distribution; elsewhere sending fails, is logged as an error naming why, and systemd's
 * {@code TimeoutStartSec} then fails the start visibly.
 *
 * <p>A failure to notify never stops the daemon: it is logged once per message and the daemon
 * serves on. Thread-safe (each message opens, uses and closes its own socket).
 */
final class SystemdNotify {
    /** The variable in which systemd names the socket: a path, or {@code @name} in the abstract namespace. */
    static final String SOCKET_ENV = "NOTIFY_SOCKET";
    private static final Logger LOG = LoggerFactory.getLogger(SystemdNotify.class);

    private SystemdNotify() {
    }

    /** Tells systemd that this daemon serves; {@code status} is shown by {@code systemctl status}. */
    static void ready(String status) {
        notify(System.getenv(), "READY=1\nSTATUS=" + oneLine(status));
    }

    /** Tells systemd that this daemon is stopping (before it stops its work, not after). */
    static void stopping(String status) {
        notify(System.getenv(), "STOPPING=1\nSTATUS=" + oneLine(status));
    }

    /**
     * Sends {@code message} to the socket named in {@code env}, if any.
     *
     * @return why it was not sent, when the socket was named but could not be reached
     */
    static Optional<String> notify(Map<String, String> env, String message) {
        String socket = env.get(SOCKET_ENV);
        if (socket == null || socket.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> failure = send(socket, message);
        failure.ifPresent(why -> LOG.error("Cannot tell systemd '{}' through {}={}: {}", message.replace('\n', ' '),
                SOCKET_ENV, socket, why));
        return failure;
    }

    private static Optional<String> send(String socket, String message) {
        if (!socket.startsWith("/") && !socket.startsWith("@")) {
            return Optional.of("not an absolute path nor an abstract socket name (@name)");
        }
        if (!Epoll.isAvailable()) {
            return Optional.of("Netty's native unix transport is not available on this platform ("
                    + Epoll.unavailabilityCause() + "); run the unit with Type=exec instead of Type=notify");
        }
        // An abstract socket's name starts with a NUL byte, which systemd writes as '@'.
        byte[] address = (socket.startsWith("@") ? "\0" + socket.substring(1) : socket)
                .getBytes(StandardCharsets.UTF_8);
        byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        Socket datagram = null;
        try {
            datagram = Socket.newSocketDomainDgram();
            int sent = datagram.sendToDomainSocket(buffer, 0, bytes.length, address);
            return sent == bytes.length ? Optional.empty()
                    : Optional.of("only " + sent + " of " + bytes.length + " bytes were sent");
        } catch (java.io.FileNotFoundException e) {
            return Optional.of("no socket listens there");
        } catch (IOException | RuntimeException e) {
            return Optional.of(e.toString());
        } finally {
            if (datagram != null) {
                try {
                    datagram.close();
                } catch (IOException e) {
                    LOG.debug("Closing the notification socket failed", e);
                }
            }
        }
    }

    private static String oneLine(String status) {
        return status.replace('\n', ' ');
    }
}
