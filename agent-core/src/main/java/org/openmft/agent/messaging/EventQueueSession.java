package org.openmft.agent.messaging;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.qmgr.QueueManagerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transacted session the stores of an agent's {@code SYSTEM.FTE.EVENT.<AGENT>} queue (resource
 * monitors, scheduled transfers) share in shape: one persistent producer to the EVENT queue for
 * records and one to the agent's COMMAND queue for the requests they submit, so that a record's
 * replacement and its requests commit together. Opened on first use; {@link #close} drops it and
 * the next use opens a new one.
 *
 * <p>The queue manager may close the session under a store: Artemis fails an agent's connections
 * when an administrator changes its user's roles. {@link #transact} then opens a new session and
 * runs the work once more, so such a change does not fail the next save. It retries only what
 * never reached a commit, which the queue manager rolled back with the session: the JMS client's
 * own refusal of a closed session or connection ({@link jakarta.jms.IllegalStateException}), or the
 * connection failing before the commit was asked. A failure whose outcome is unknown (the
 * connection broke during the commit) is not retried; the store fails and its caller decides again
 * from the state it knows. Bounded: one retry.
 *
 * <p>Not thread-safe: each store calls it under its own lock.
 */
public final class EventQueueSession implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EventQueueSession.class);
    private final QueueManagerConnector connector;
    private final String queueName;
    private final String commandQueue;
    private Connection connection;
    private Session session;
    private Queue queue;
    private MessageProducer records;
    private MessageProducer commands;
    /** Set by the connection's exception listener: the queue manager closed or lost it. */
    private volatile boolean broken;

    /** Work done in the session's transaction, which {@link #transact} commits. */
    @FunctionalInterface
    public interface Work {
        /**
         * @param session the transacted session, not to be committed by the work
         * @throws JMSException when the queue manager refuses or fails it
         * @throws QueueManagerException when the queue manager cannot be reached
         */
        void run(Session session) throws JMSException, QueueManagerException;
    }

    /**
     * @param connector the agent's queue manager
     * @param agent the agent
     */
    public EventQueueSession(QueueManagerConnector connector, String agent) {
        this.connector = connector;
        this.queueName = QueueNames.event(agent);
        this.commandQueue = QueueNames.command(agent);
    }

    /** @return {@code SYSTEM.FTE.EVENT.<AGENT>} */
    public String queueName() {
        return queueName;
    }

    /** @return {@code SYSTEM.FTE.COMMAND.<AGENT>} */
    public String commandQueue() {
        return commandQueue;
    }

    /**
     * @return the session, opened (and its connection started) when there is none
     * @throws JMSException when it cannot be opened; nothing is left open
     * @throws QueueManagerException when the queue manager cannot be reached
     */
    public Session session() throws JMSException, QueueManagerException {
        if (broken) {
            close();
        }
        if (session == null) {
            connection = connector.connect();
            try {
                connection.setExceptionListener(e -> broken = true);
                session = connection.createSession(true, Session.SESSION_TRANSACTED);
                queue = session.createQueue(queueName);
                records = session.createProducer(queue);
                records.setDeliveryMode(DeliveryMode.PERSISTENT);
                commands = session.createProducer(session.createQueue(commandQueue));
                commands.setDeliveryMode(DeliveryMode.PERSISTENT);
                connection.start();
            } catch (JMSException | RuntimeException e) {
                close();
                throw e;
            }
        }
        return session;
    }

    /**
     * Runs {@code work} in the session and commits; when the session or its connection turns out
     * closed before the commit (the queue manager closed it since the last use), opens a new
     * session and does it once more.
     *
     * @param work what to do; it may be run twice, so it must start from the state the store knew
     *     before the first run and leave what it changes in memory to its caller, after this returns
     * @throws JMSException when it fails otherwise, or again after the retry; then nothing or, when
     *     the connection broke during the commit, possibly all of it was committed
     * @throws QueueManagerException when the queue manager cannot be reached
     */
    public void transact(Work work) throws JMSException, QueueManagerException {
        for (int attempt = 1;; attempt++) {
            Session s = session();
            boolean committing = false;
            try {
                work.run(s);
                committing = true;
                s.commit();
                return;
            } catch (JMSException e) {
                boolean neverCommitted = e instanceof jakarta.jms.IllegalStateException
                        || (!committing && (broken || CONNECTION_FAILURES.contains(ProviderErrors.reason(e))));
                if (attempt > 1 || !neverCommitted) {
                    throw e;
                }
                log.info("The session on {} was closed under it ({}); opening a new one and trying once more",
                        queueName, ProviderErrors.describe(e));
                close();
            }
        }
    }

    /** The providers' reasons for a connection that failed or closed under a call. */
    private static final java.util.Set<String> CONNECTION_FAILURES = java.util.Set.of("Artemis UNBLOCKED",
            "Artemis NOT_CONNECTED", "Artemis DISCONNECTED", "Artemis OBJECT_CLOSED", "MQRC 2009");

    /** @return the EVENT queue, once {@link #session()} opened it */
    public Queue queue() {
        return queue;
    }

    /** @return the persistent producer to the EVENT queue, once {@link #session()} opened it */
    public MessageProducer records() {
        return records;
    }

    /** @return the persistent producer to the COMMAND queue, once {@link #session()} opened it */
    public MessageProducer commands() {
        return commands;
    }

    /**
     * Takes one message off the EVENT queue under the session's transaction.
     *
     * @param messageId the message
     * @param what what it is, for the error
     * @throws JMSException when it is no longer there (another instance took it, or the queue was cleaned)
     */
    public void take(String messageId, String what) throws JMSException {
        try (MessageConsumer c = session.createConsumer(queue, "JMSMessageID = '" + messageId + "'")) {
            if (c.receive(5000) == null) {
                throw new JMSException(what + " (message " + messageId + ") is no longer on " + queueName);
            }
        }
    }

    /**
     * @param m a record message
     * @param maxBytes the largest record
     * @return its body, or null when it is not a bytes message or larger than {@code maxBytes}
     * @throws JMSException when it cannot be read
     */
    public static byte[] body(Message m, int maxBytes) throws JMSException {
        if (!(m instanceof BytesMessage bytes) || bytes.getBodyLength() > maxBytes) {
            return null;
        }
        byte[] body = new byte[(int) bytes.getBodyLength()];
        bytes.readBytes(body);
        return body;
    }

    /**
     * @param body bytes
     * @return their SHA-256 in hexadecimal, as the records' state tags cover them
     */
    public static String digest(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Drops the connection; the next {@link #session()} opens a new one. */
    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (JMSException e) {
                // Closing a broken connection: nothing more to do.
            }
        }
        connection = null;
        session = null;
        broken = false;
    }
}
