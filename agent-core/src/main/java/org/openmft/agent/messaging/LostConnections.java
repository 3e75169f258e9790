package org.openmft.agent.messaging;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;

/**
 * Closes connections an agent has found lost, off the thread that is about to reconnect.
 *
 * <p>Why: closing a JMS connection closes its sessions, and a provider may do that with a call
 * that waits for the queue manager's answer. When the queue manager has already dropped the
 * connection (it restarted, or it closed the connections of a user whose authorities changed)
 * and the client has not yet heard, that answer never comes and the close waits out the
 * provider's call timeout (Artemis's {@code callTimeout}, 30 s by default), holding the agent's
 * reconnect for as long: a request put meanwhile waited 30 s for its acknowledgement. So a lost
 * connection is handed here: the agent reconnects at once, and the old connection is closed
 * beside it, within that timeout at worst. A lease on a {@link SharedConnections shared}
 * connection is also marked so that no new lease is given on that connection.
 *
 * <p>Bounded: one closing thread, made when needed and ended when idle, and a queue of
 * {@value #QUEUE} closes; beyond it the caller closes the connection itself, as before.
 * Thread-safe.
 */
public final class LostConnections {
    static final int QUEUE = 256;
    private static final ThreadPoolExecutor CLOSER = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUE), r -> {
                Thread t = new Thread(r, "openmft-lost-connection-closer");
                t.setDaemon(true);
                return t;
            }, (r, pool) -> r.run());

    static {
        CLOSER.allowCoreThreadTimeOut(true);
    }

    private LostConnections() {
    }

    /** Closes {@code connection}, lost, without waiting for it; null is ignored. */
    public static void close(Connection connection) {
        if (connection == null) {
            return;
        }
        SharedConnections.lost(connection);
        CLOSER.execute(() -> {
            try {
                connection.close();
            } catch (JMSException | RuntimeException e) {
                // Lost already: nothing more to do.
            }
        });
    }
}
