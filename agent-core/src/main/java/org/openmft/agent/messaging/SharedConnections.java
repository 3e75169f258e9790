package org.openmft.agent.messaging;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.ExceptionListener;
import jakarta.jms.JMSException;
import jakarta.jms.Session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One physical connection per queue manager and login, lent out as many connections: the control
 * work of the agents of one process (their command loops, monitor and schedule stores,
 * publication outboxes) goes over one connection per identity instead of four per agent. An
 * Artemis connection carries many sessions, and a JMS session is single-threaded, so each part
 * keeps a session of its own; only the connection is shared.
 *
 * <p>The key is the queue manager's URL, the user and the password: the queue manager authenticates
 * a connection once, and stamps every message sent on it with that user ({@code JMSXUserID}, on
 * which authority checks and the host's administrator check depend). A connection is shared only
 * by parts that log in as the same user with the same password, so no agent ever sends as another
 * user; an agent with credentials of its own shares only with its own parts.
 *
 * <p>A lease is a {@link Connection}: its {@code createSession} opens a session on the shared
 * connection; its {@code close} closes the sessions it opened (the shared connection closes with
 * its last lease); its {@code setExceptionListener} is told when the shared connection fails (each
 * lease's own listener, so every agent that uses it reconnects as it did with a connection of its
 * own); its {@code stop} does nothing (it would stop the deliveries of every lease) and
 * {@code setClientID} is refused. A failed connection is forgotten at once: the next lease opens a
 * new one.
 *
 * <p>Thread-safe.
 */
public final class SharedConnections {
    private static final Logger log = LoggerFactory.getLogger(SharedConnections.class);

    /** Opens a physical connection. */
    @FunctionalInterface
    public interface Opener {
        Connection open() throws org.openmft.agent.qmgr.QueueManagerException;
    }

    /** The process's shared connections. */
    public static final SharedConnections PROCESS = new SharedConnections();

    /**
     * After a failed open, how long the next leases of that login fail at once with the same
     * error instead of trying again: hundreds of agents reconnecting each on its own back-off must
     * not queue up hundreds of connection attempts (each as slow as the network's time-out) behind
     * one another.
     */
    static final long FAILED_OPEN_HOLD_MILLIS = 1000;

    private final Map<List<String>, Shared> connections = new HashMap<>();
    /** One lock per login, so that a slow connect holds up only the leases of that login. */
    private final Map<List<String>, Slot> slots = new HashMap<>();

    /** The opening of one login's connection: its lock and its last failure. */
    private static final class Slot {
        long failedAt;
        org.openmft.agent.qmgr.QueueManagerException failure;
    }

    /**
     * A lease on the connection shared by {@code url} and {@code user}/{@code password}, opened
     * with {@code opener} when there is none (or it failed).
     */
    public Connection lease(String url, String user, String password, Opener opener)
            throws org.openmft.agent.qmgr.QueueManagerException {
        List<String> key = java.util.Arrays.asList(url, user, password);
        Slot slot;
        synchronized (this) {
            Shared s = connections.get(key);
            if (s != null && !s.failed) {
                return s.lease();
            }
            slot = slots.computeIfAbsent(key, k -> new Slot());
        }
        synchronized (slot) {
            synchronized (this) {
                Shared s = connections.get(key);
                if (s != null && !s.failed) {
                    return s.lease();
                }
            }
            if (slot.failure != null && System.nanoTime() - slot.failedAt < FAILED_OPEN_HOLD_MILLIS * 1_000_000) {
                throw slot.failure;
            }
            Shared opened;
            try {
                opened = new Shared(key, opener.open());
                slot.failure = null;
            } catch (org.openmft.agent.qmgr.QueueManagerException e) {
                slot.failure = e;
                slot.failedAt = System.nanoTime();
                throw e;
            }
            synchronized (this) {
                connections.put(key, opened);
                return opened.lease();
            }
        }
    }

    /**
     * Whether {@code lease} is a lease of this class and, if it is, gives no new lease on its
     * connection: its holder found the connection lost (see {@link LostConnections}) before the
     * provider said so, and the next lease of that login opens a new one. The leases already
     * given keep the connection until its failure reaches them or they are closed.
     */
    static boolean lost(Connection lease) {
        if (!Proxy.isProxyClass(lease.getClass()) || !(Proxy.getInvocationHandler(lease) instanceof Lease l)) {
            return false;
        }
        l.shared.owner().forget(l.shared);
        return true;
    }

    /** How many physical connections are open now (for tests and measurements). */
    public synchronized int open() {
        return connections.size();
    }

    private synchronized void forget(Shared s) {
        connections.remove(s.key, s);
    }

    /** One physical connection and its leases. */
    private final class Shared {
        private final List<String> key;
        private final Connection connection;
        private final List<Lease> leases = new ArrayList<>();
        private volatile boolean failed;

        SharedConnections owner() {
            return SharedConnections.this;
        }

        Shared(List<String> key, Connection connection) throws org.openmft.agent.qmgr.QueueManagerException {
            this.key = key;
            this.connection = connection;
            try {
                connection.setExceptionListener(this::failed);
            } catch (JMSException e) {
                closeQuietly();
                throw new org.openmft.agent.qmgr.QueueManagerException("cannot use the connection: "
                        + ProviderErrors.describe(e), org.openmft.agent.qmgr.QueueManagerException.UNAVAILABLE, e);
            }
        }

        Connection lease() {
            Lease lease = new Lease(this);
            synchronized (leases) {
                leases.add(lease);
            }
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, lease);
        }

        private void failed(JMSException e) {
            failed = true;
            forget(this);
            List<Lease> told;
            synchronized (leases) {
                told = List.copyOf(leases);
            }
            log.debug("A shared connection failed ({} lease(s) told): {}", told.size(), ProviderErrors.describe(e));
            for (Lease l : told) {
                l.failed(e);
            }
            closeQuietly();
        }

        void released(Lease lease) {
            boolean last;
            synchronized (leases) {
                leases.remove(lease);
                last = leases.isEmpty();
            }
            if (last) {
                synchronized (SharedConnections.this) {
                    synchronized (leases) {
                        if (!leases.isEmpty()) {
                            return;
                        }
                    }
                    forget(this);
                }
                closeQuietly();
            }
        }

        private void closeQuietly() {
            try {
                connection.close();
            } catch (JMSException | RuntimeException e) {
                // Already broken.
            }
        }
    }

    /** One part's view of a shared connection. */
    private static final class Lease implements InvocationHandler {
        private final Shared shared;
        private final List<Session> sessions = new ArrayList<>();
        private volatile ExceptionListener listener;
        private boolean closed;

        Lease(Shared shared) {
            this.shared = shared;
        }

        void failed(JMSException e) {
            ExceptionListener l = listener;
            if (l != null) {
                try {
                    l.onException(e);
                } catch (RuntimeException x) {
                    log.warn("An exception listener failed: {}", x.toString());
                }
            }
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "close":
                    close();
                    return null;
                case "setExceptionListener":
                    listener = (ExceptionListener) args[0];
                    if (shared.failed && listener != null) {
                        listener.onException(new JMSException("the shared connection failed"));
                    }
                    return null;
                case "getExceptionListener":
                    return listener;
                case "stop":
                    return null;
                case "setClientID":
                    throw new jakarta.jms.IllegalStateException("a shared connection takes no client id");
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "lease on " + shared.connection;
                default:
                    break;
            }
            synchronized (this) {
                if (closed) {
                    throw new jakarta.jms.IllegalStateException("the connection is closed");
                }
            }
            Object result;
            try {
                result = method.invoke(shared.connection, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (result instanceof Session s) {
                synchronized (this) {
                    // Sessions the part closed itself are forgotten, so a long lease holds only open ones.
                    sessions.removeIf(Lease::isClosed);
                    sessions.add(s);
                }
            }
            return result;
        }

        /** JMS has no isClosed; every provider's getTransacted throws on a closed session. */
        private static boolean isClosed(Session s) {
            try {
                s.getTransacted();
                return false;
            } catch (JMSException | RuntimeException e) {
                return true;
            }
        }

        private void close() {
            List<Session> open;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                open = List.copyOf(sessions);
                sessions.clear();
            }
            for (Session s : open) {
                try {
                    s.close();
                } catch (JMSException | RuntimeException e) {
                    // Broken with the connection.
                }
            }
            shared.released(this);
        }
    }
}
