package org.openmft.agent.messaging;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.jms.JMSException;
import jakarta.jms.Session;

import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ClientConsumer;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.jms.client.ActiveMQMessage;
import org.apache.activemq.artemis.jms.client.ActiveMQSession;

/**
 * Consumers of one queue kept open, one per selector, in a transacted Artemis session, that take
 * one message when asked and hold none ahead: so a message replaced again and again under the same
 * selector (a transfer's state record at each checkpoint) is taken without creating and closing a
 * consumer each time (two round trips to the queue manager and a consumer set up there).
 *
 * <p>A JMS consumer would do for the taking, but it is given messages ahead of {@code receive}
 * (the connection's consumer window), and a message given ahead is hidden from browsers and other
 * consumers until it is taken: records would vanish from view while their transfer runs. These are
 * Artemis core consumers with a window of 0, given a message only when they ask; they acknowledge
 * within the session's transaction, so what they take is removed by its commit and comes back by
 * its rollback, as with a JMS consumer of the session.
 *
 * <p>At most {@code most} consumers are kept; the one used least recently is closed to make room.
 * Not thread-safe: used by the session's thread, as the session is.
 */
public final class KeptConsumers implements AutoCloseable {
    private final ClientSession session;
    private final SimpleString queue;
    private final int most;
    private final Map<String, ClientConsumer> bySelector = new LinkedHashMap<>(16, 0.75f, true);

    /** What came of a {@link #take}. */
    public enum Taken {
        /** The message asked for was taken (removed when the transaction commits). */
        TAKEN,
        /** No message came within the wait. */
        NONE,
        /** Another message came first; it was given back, and the selector's consumer closed. */
        OTHER
    }

    private KeptConsumers(ClientSession session, String queue, int most) {
        this.session = session;
        this.queue = SimpleString.of(queue);
        this.most = most;
    }

    /**
     * Kept consumers for a transacted session, when its provider allows them.
     *
     * @param session   a transacted session
     * @param queueName the queue they take from
     * @param most      how many consumers are kept at most (at least 1)
     * @return null when the session is not an Artemis session (then a consumer per take it is)
     */
    public static KeptConsumers of(Session session, String queueName, int most) {
        if (most < 1) {
            throw new IllegalArgumentException("most must be at least 1: " + most);
        }
        return session instanceof ActiveMQSession a ? new KeptConsumers(a.getCoreSession(), queueName, most) : null;
    }

    /**
     * Takes, within the session's transaction, the first message {@code selector} selects when it is
     * the one whose JMS message id is {@code messageId}.
     *
     * @param selector      a selector of message properties (no {@code JMS} header names)
     * @param messageId     the JMS message id expected
     * @param timeoutMillis how long to wait for a message
     */
    public Taken take(String selector, String messageId, long timeoutMillis) throws JMSException {
        try {
            ClientConsumer c = bySelector.get(selector);
            if (c == null) {
                c = session.createConsumer(queue, SimpleString.of(selector), 0, -1, false);
                bySelector.put(selector, c);
                evictBeyond(most);
            }
            ClientMessage m = c.receive(timeoutMillis);
            if (m == null) {
                return Taken.NONE;
            }
            if (!messageId.equals(ActiveMQMessage.createMessage(m, session).getJMSMessageID())) {
                // Not acknowledged: closing the consumer gives it back to the queue.
                close(selector);
                return Taken.OTHER;
            }
            m.acknowledge();
            return Taken.TAKEN;
        } catch (ActiveMQException e) {
            closeAll();
            JMSException j = new JMSException(e.getMessage(), e.getType().name());
            j.setLinkedException(e);
            j.initCause(e);
            throw j;
        }
    }

    /** Closes the consumer of {@code selector}, if one is kept. */
    public void close(String selector) {
        ClientConsumer c = bySelector.remove(selector);
        if (c != null) {
            closeQuietly(c);
        }
    }

    /** Closes every kept consumer (after a failure of the session, whose consumers may be gone). */
    @Override
    public void close() {
        closeAll();
    }

    /** How many consumers are kept now. */
    public int kept() {
        return bySelector.size();
    }

    private void closeAll() {
        evictBeyond(0);
    }

    private void evictBeyond(int keep) {
        for (Iterator<ClientConsumer> i = bySelector.values().iterator(); bySelector.size() > keep && i.hasNext();) {
            ClientConsumer c = i.next();
            i.remove();
            closeQuietly(c);
        }
    }

    private static void closeQuietly(ClientConsumer c) {
        try {
            c.close();
        } catch (ActiveMQException e) {
            // The session is broken; whoever uses it next reports that.
        }
    }
}
