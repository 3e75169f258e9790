package org.openmft.agent.monitor;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.transfer.queue.QueueWriter;

/**
 * Browses the queue a queue monitor watches, on the agent's own queue manager, without taking
 * anything off it. Bounded: one poll browses at most {@link #MAX_MESSAGES} messages. Not
 * thread-safe: {@link MonitorService} calls it under its lock.
 */
final class QueueScanner implements AutoCloseable {
    /** Most messages one poll browses; the rest are seen once the first ones are consumed. */
    static final int MAX_MESSAGES = 100_000;
    static final String ENCODING = "JMS_IBM_Encoding";

    private final QueueManagerConnector connector;
    private Connection connection;
    private Session session;

    QueueScanner(QueueManagerConnector connector) {
        this.connector = connector;
    }

    /**
     * @param queue the monitored queue
     * @return its messages in queue order, or {@code null} when the queue does not exist
     * @throws QueueManagerException when it cannot be browsed now
     */
    List<QueueMessage> browse(String queue) throws QueueManagerException {
        try {
            if (session == null) {
                connection = connector.connect();
                session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                connection.start();
            }
            if (!connector.queueExists(session, queue)) {
                return null;
            }
            List<QueueMessage> out = new ArrayList<>();
            try (QueueBrowser browser = session.createBrowser(session.createQueue(queue))) {
                Enumeration<?> e = browser.getEnumeration();
                while (e.hasMoreElements() && out.size() < MAX_MESSAGES) {
                    out.add(snapshot((Message) e.nextElement()));
                }
            }
            return out;
        } catch (JMSException | RuntimeException e) {
            close();
            String why = ProviderErrors.describe(e);
            throw new QueueManagerException("cannot browse queue " + queue + " on " + connector.description() + ": "
                    + why, QueueManagerException.UNAVAILABLE, e);
        }
    }

    private static QueueMessage snapshot(Message m) throws JMSException {
        String id = m.getJMSMessageID() == null ? "" : m.getJMSMessageID();
        if (id.startsWith("ID:")) {
            id = id.substring(3);
        }
        Map<String, String> properties = new HashMap<>();
        for (Enumeration<?> names = m.getPropertyNames(); names.hasMoreElements();) {
            String name = (String) names.nextElement();
            if (name.startsWith("JMS") || name.startsWith("_")) {
                continue; // JMS's and the provider's own properties, not the user's
            }
            Object value = m.getObjectProperty(name);
            if (value != null) {
                properties.put(name.startsWith("usr.") ? name.substring(4) : name, value.toString());
            }
        }
        String group = m.getStringProperty("JMSXGroupID");
        // IBM MQ's JMS mapping of MQMF_LAST_MSG_IN_GROUP, also what OpenMFT's file to message puts.
        boolean last = m.propertyExists(QueueWriter.LAST_IN_GROUP) && m.getBooleanProperty(QueueWriter.LAST_IN_GROUP);
        String encoding = m.propertyExists(ENCODING) ? String.valueOf(m.getObjectProperty(ENCODING)) : null;
        return new QueueMessage(id, group == null || group.isEmpty() ? null : group, last, encoding, properties);
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (JMSException e) {
                // Already broken.
            }
        }
        connection = null;
        session = null;
    }
}
