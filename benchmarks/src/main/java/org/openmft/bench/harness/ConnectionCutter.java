package org.openmft.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP relay between one client (an agent) and a queue manager's listener that can cut every
 * connection through it at once, as a network failure or a firewall's reset would. New
 * connections are relayed again straight after a cut.
 *
 * <p>Otherwise the relay tries to be invisible. A connection the queue manager resets is reset
 * towards the client too. While the queue manager does not accept connections (killed, not yet
 * started again) the relay stops listening, so the client's connection is refused as it would be
 * without the relay: a connection accepted and then closed or reset before the handshake makes
 * the Artemis client wait its call timeout (30 s) instead of failing at once. The relay notices
 * the queue manager going when a connection's queue manager side ends, and probes it before it
 * passes the end on to the client; it listens again on the same port once a probe connects.
 *
 * <p>Plain blocking sockets: one accepting thread and two copying threads per connection, all
 * named {@code soak-relay-<name>-...} and daemons; {@link #close()} ends them. Thread-safe.
 */
public final class ConnectionCutter implements AutoCloseable {
    private static final int BUFFER_BYTES = 64 * 1024;
    private static final long PROBE_PAUSE_MILLIS = 100;

    private final String name;
    private final int targetPort;
    private final int port;
    private final Thread acceptor;
    private final List<Pair> open = new ArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger refusals = new AtomicInteger();
    private final AtomicLong bytesRelayed = new AtomicLong();
    private final Object listening = new Object();
    /** The listening socket, or null while the queue manager does not accept connections. */
    private ServerSocket server;
    private volatile boolean closed;

    /** One relayed connection: the client's socket and ours to the queue manager. */
    private record Pair(Socket client, Socket upstream) {
        void close() {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    /**
     * Listens on a free port of the loopback interface and relays to {@code targetPort} there.
     *
     * @param name a name for the threads, e.g. the agent's
     */
    public ConnectionCutter(String name, int targetPort) throws IOException {
        this.name = name;
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.port = server.getLocalPort();
        this.acceptor = new Thread(this::acceptLoop, "soak-relay-" + name + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port clients connect to instead of the queue manager's. */
    public int port() {
        return port;
    }

    /** Connections accepted since the start. */
    public int accepted() {
        return accepted.get();
    }

    /** Times the relay stopped listening because the queue manager did not accept connections. */
    public int refusals() {
        return refusals.get();
    }

    public long bytesRelayed() {
        return bytesRelayed.get();
    }

    /**
     * Resets every relayed connection, both sides, at once.
     *
     * @return how many connections were cut
     */
    public int cutAll() {
        List<Pair> cut;
        synchronized (open) {
            cut = new ArrayList<>(open);
            open.clear();
        }
        for (Pair p : cut) {
            // A reset (RST), not an orderly close: what a failing network or a firewall gives.
            resetOnClose(p.client());
            resetOnClose(p.upstream());
            p.close();
        }
        return cut.size();
    }

    private void acceptLoop() {
        while (!closed) {
            ServerSocket listener;
            synchronized (listening) {
                listener = server;
            }
            if (listener == null) {
                listenAgainWhenUpstreamAccepts();
                continue;
            }
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                // Closed: the relay ends, or stopped listening for a while.
                continue;
            }
            int n = accepted.incrementAndGet();
            Socket upstream = new Socket();
            try {
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                upstream.connect(upstreamAddress(), 5000);
            } catch (IOException e) {
                // The queue manager went between the probe and this connection: reset it, and
                // refuse the next ones.
                resetOnClose(client);
                closeQuietly(client);
                closeQuietly(upstream);
                stopListening();
                continue;
            }
            Pair pair = new Pair(client, upstream);
            synchronized (open) {
                if (closed) {
                    pair.close();
                    return;
                }
                open.add(pair);
            }
            start(pair, client, upstream, false, "soak-relay-" + name + "-" + n + "-up");
            start(pair, upstream, client, true, "soak-relay-" + name + "-" + n + "-down");
        }
    }

    private InetSocketAddress upstreamAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
    }

    /** Whether the queue manager accepts a connection right now (twice, a pause apart). */
    private boolean upstreamAccepts() {
        for (int i = 0; i < 2; i++) {
            try (Socket probe = new Socket()) {
                probe.connect(upstreamAddress(), 1000);
            } catch (IOException e) {
                return false;
            }
            if (i == 0) {
                try {
                    TimeUnit.MILLISECONDS.sleep(PROBE_PAUSE_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    private void stopListening() {
        ServerSocket s;
        synchronized (listening) {
            s = server;
            server = null;
        }
        if (s != null) {
            refusals.incrementAndGet();
            try {
                s.close();
            } catch (IOException e) {
                // Closing is all that is wanted.
            }
        }
    }

    private void listenAgainWhenUpstreamAccepts() {
        try {
            if (!upstreamAccepts()) {
                TimeUnit.MILLISECONDS.sleep(PROBE_PAUSE_MILLIS);
                return;
            }
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
            synchronized (listening) {
                if (closed) {
                    s.close();
                    return;
                }
                server = s;
            }
        } catch (IOException e) {
            // The port is not free again yet: the next round tries again.
            try {
                TimeUnit.MILLISECONDS.sleep(PROBE_PAUSE_MILLIS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void start(Pair pair, Socket from, Socket to, boolean fromUpstream, String threadName) {
        Thread t = new Thread(() -> copy(pair, from, to, fromUpstream), threadName);
        t.setDaemon(true);
        t.start();
    }

    /**
     * Copies one direction until either side ends; then the whole connection is closed, in order
     * when this side ended in order, with a reset when it was reset, so that the client sees what
     * it would have seen without the relay. When the queue manager's side ended, the relay first
     * checks whether the queue manager still accepts connections, so that the client's reconnection
     * is refused, not accepted, if it does not.
     */
    private void copy(Pair pair, Socket from, Socket to, boolean fromUpstream) {
        byte[] buffer = new byte[BUFFER_BYTES];
        boolean orderly = false;
        try (InputStream in = from.getInputStream()) {
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                bytesRelayed.addAndGet(n);
            }
            orderly = true;
        } catch (IOException e) {
            // Reset, cut, or closed by the other direction's thread: the connection is over.
        } finally {
            boolean ours;
            synchronized (open) {
                ours = open.remove(pair);
            }
            if (ours && fromUpstream && !closed && !upstreamAccepts()) {
                stopListening();
            }
            if (ours && !orderly) {
                resetOnClose(pair.client());
                resetOnClose(pair.upstream());
            }
            pair.close();
        }
    }

    private static void resetOnClose(Socket s) {
        try {
            s.setSoLinger(true, 0);
        } catch (IOException e) {
            // Already closed: nothing to reset.
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // Closing is all that is wanted.
        }
    }

    @Override
    public void close() {
        closed = true;
        int refused = refusals.get();
        stopListening();
        // Closing is not a refusal.
        refusals.set(refused);
        cutAll();
        try {
            acceptor.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
