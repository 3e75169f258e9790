package org.openmft.agent.messaging;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Queue;
import javax.jms.Session;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * The transacted session the stores of an agent's {@code SYSTEM.FTE.EVENT.<AGENT>} queue (resource
 * monitors, scheduled transfers) share in shape: one persistent producer to the EVENT queue for
 * records and one to the agent's COMMAND queue for the requests they submit, so that a record's
 * replacement and its requests commit together. Opened on first use; {@link #close} drops it and
 * the next use opens a new one.
 *
 * <p>Not thread-safe: each store calls it under its own lock.
 */
public final class EventQueueSession implements AutoCloseable {
    private final QueueManagerConnector connector;
    private final String queueName;
    private final String commandQueue;
    private Connection connection;
    private Session session;
    private Queue queue;
    private MessageProducer records;
    private MessageProducer commands;

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
        if (session == null) {
            connection = connector.connect();
            try {
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

    /**
     * @param e a failure of the session
     * @return what to say about it
     */
    public static String describe(Exception e) {
        return e instanceof JMSException j ? ProviderErrors.describe(j) : e.getMessage();
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
    }
}
