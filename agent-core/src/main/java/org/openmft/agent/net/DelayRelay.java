package org.openmft.agent.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay that delays traffic as a long link would, where there is no netem: it accepts
 * connections on one address and forwards each to a target, holding every segment it reads for a
 * one-way delay in each direction (a round trip through it takes twice that), optionally at a
 * capped rate.
 *
 * <p>Each segment read is stamped with the time it is due at the other side (read time plus the
 * delay, or, under a rate cap, the time it finishes leaving a link of that rate plus the delay) and
 * queued; a writer sends it when it is due. So the delay is per segment, not a pause of the stream:
 * up to a window of bytes per direction ({@link #WINDOW} unless chosen) are in flight at once, as
 * in a long fat pipe, and the sender is held back (TCP's own flow control) only when that window is
 * full. The window caps each direction at window ÷ one-way delay (the default: about 335 MB/s at a
 * 25 ms round trip, 84 MB/s at 100 ms); a benchmark of a faster link chooses a larger one. Segments keep their
 * order: a shorter delay set meanwhile never overtakes data already queued.
 *
 * <p>Not used by the agents or queue managers: it is the long link of the tests that run hosts of
 * their own and of the benchmarks that measure rate against round-trip time (this machine's kernel
 * has no netem). The tests also run it as its own process inside a network namespace.
 */
public final class DelayRelay implements AutoCloseable {
    /** Bytes per direction and connection that may be held at once, unless chosen: 4 MiB. */
    public static final int WINDOW = 4 << 20;
    private static final int SEGMENT = 16 * 1024;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final int windowBytes;
    private volatile long delayNanos;
    private volatile long bytesPerSecond;
    private final AtomicLong toTarget = new AtomicLong();
    private final AtomicLong fromTarget = new AtomicLong();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private DelayRelay(ServerSocket server, InetSocketAddress target, Duration delay, long bytesPerSecond,
            int windowBytes) {
        this.server = server;
        this.target = target;
        this.windowBytes = windowBytes;
        setDelay(delay);
        setBandwidth(bytesPerSecond);
        thread("relay accept " + address(), this::accept);
    }

    /**
     * Listens on {@code listen} (port 0: any free one; see {@link #address}) and forwards each
     * connection to {@code target}, {@code oneWayDelay} each way, at most {@code bytesPerSecond}
     * each way ({@code 0}: no cap).
     */
    public static DelayRelay start(InetSocketAddress listen, InetSocketAddress target, Duration oneWayDelay,
            long bytesPerSecond) throws IOException {
        return start(listen, target, oneWayDelay, bytesPerSecond, WINDOW);
    }

    /**
     * As {@link #start(InetSocketAddress, InetSocketAddress, Duration, long)}, holding up to
     * {@code windowBytes} per direction and connection in flight.
     */
    public static DelayRelay start(InetSocketAddress listen, InetSocketAddress target, Duration oneWayDelay,
            long bytesPerSecond, int windowBytes) throws IOException {
        if (windowBytes < SEGMENT) {
            throw new IllegalArgumentException("window bytes: " + windowBytes + " (at least " + SEGMENT + ")");
        }
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(listen);
        return new DelayRelay(s, target, oneWayDelay, bytesPerSecond, windowBytes);
    }

    /** Where it listens. */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** The one-way delay of the segments read from now on. */
    public void setDelay(Duration oneWayDelay) {
        delayNanos = oneWayDelay.toNanos();
    }

    /** The rate cap of each direction, in bytes per second, from now on; {@code 0}: none. */
    public void setBandwidth(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("bytes per second: " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
    }

    /** Bytes delivered to the target so far, over all connections. */
    public long bytesToTarget() {
        return toTarget.get();
    }

    /** Bytes delivered back to the clients so far, over all connections. */
    public long bytesFromTarget() {
        return fromTarget.get();
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                thread("relay connect " + client.getRemoteSocketAddress(), () -> connect(client));
            } catch (IOException e) {
                // Closed.
            }
        }
    }

    private void connect(Socket client) {
        Socket upstream = new Socket();
        sockets.add(upstream);
        try {
            upstream.connect(target, 10_000);
            client.setTcpNoDelay(true);
            upstream.setTcpNoDelay(true);
            AtomicInteger open = new AtomicInteger(2);
            Runnable oneEnded = () -> {
                if (open.decrementAndGet() == 0) {
                    closeQuietly(client);
                    closeQuietly(upstream);
                }
            };
            new Direction(client, upstream, toTarget, oneEnded).start("to " + target);
            new Direction(upstream, client, fromTarget, oneEnded).start("from " + target);
        } catch (IOException e) {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    /** A segment and when it is due at the other side; no bytes: the end of the stream. */
    private record Segment(byte[] bytes, long due) {
    }

    /** One direction of one connection: a reader stamping segments, a writer sending them when due. */
    private final class Direction {
        private final Socket from;
        private final Socket to;
        private final AtomicLong delivered;
        private final Runnable ended;
        private final ArrayDeque<Segment> queue = new ArrayDeque<>();
        private int queuedBytes;
        private long lastDeparture;
        private long lastDue;
        private boolean aborted;

        Direction(Socket from, Socket to, AtomicLong delivered, Runnable ended) {
            this.from = from;
            this.to = to;
            this.delivered = delivered;
            this.ended = ended;
        }

        void start(String name) {
            thread("relay read " + name, this::read);
            thread("relay write " + name, this::write);
        }

        private void read() {
            byte[] buffer = new byte[SEGMENT];
            try {
                InputStream in = from.getInputStream();
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    put(Arrays.copyOf(buffer, n));
                }
                put(new byte[0]);
            } catch (IOException | InterruptedException e) {
                abort();
            }
        }

        /** Stamps and queues a segment, waiting while the window is full. */
        private synchronized void put(byte[] bytes) throws InterruptedException {
            while (queuedBytes > 0 && queuedBytes + bytes.length > windowBytes && !aborted) {
                wait();
            }
            if (aborted) {
                throw new InterruptedException("aborted");
            }
            long now = System.nanoTime();
            long rate = bytesPerSecond;
            long departure = now;
            if (rate > 0) {
                departure = Math.max(now, lastDeparture) + bytes.length * 1_000_000_000L / rate;
                lastDeparture = departure;
            }
            lastDue = Math.max(lastDue, departure + delayNanos);
            queue.add(new Segment(bytes, lastDue));
            queuedBytes += bytes.length;
            notifyAll();
        }

        private synchronized Segment take() throws InterruptedException {
            while (queue.isEmpty() && !aborted) {
                wait();
            }
            if (aborted) {
                throw new InterruptedException("aborted");
            }
            return queue.peek();
        }

        private synchronized void remove(Segment s) {
            queue.remove();
            queuedBytes -= s.bytes().length;
            notifyAll();
        }

        private void write() {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Segment s = take();
                    for (long wait = s.due() - System.nanoTime(); wait > 0; wait = s.due() - System.nanoTime()) {
                        LockSupport.parkNanos(wait);
                        if (closed) {
                            throw new InterruptedException("closed");
                        }
                    }
                    if (s.bytes().length == 0) {
                        to.shutdownOutput();
                        ended.run();
                        return;
                    }
                    out.write(s.bytes());
                    delivered.addAndGet(s.bytes().length);
                    remove(s);
                }
            } catch (IOException | InterruptedException e) {
                abort();
            }
        }

        /**
         * A reset or a close on either side ends this direction's reader and writer and closes
         * both sockets, which ends the other direction's reader, and so its writer.
         */
        private synchronized void abort() {
            aborted = true;
            notifyAll();
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void thread(String name, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } finally {
                threads.remove(Thread.currentThread());
            }
        }, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // Closed enough.
        }
        sockets.remove(s);
    }

    /** Stops listening and drops every connection. */
    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        sockets.forEach(this::closeQuietly);
        threads.forEach(Thread::interrupt);
    }
}
