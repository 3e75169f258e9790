package org.openmft.agent.messaging;

import java.util.ArrayList;
import java.util.List;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * What {@code fteCleanAgent -ms} and {@code -ss} do to a stopped agent's EVENT queue, which holds
 * both its resource monitors and its scheduled transfers: takes off, in one transaction, the
 * records carrying one property (the monitor's name, the schedule's id) and nothing else.
 */
public final class EventQueueRecords {
    private EventQueueRecords() {
    }

    /**
     * @param connector the agent's queue manager
     * @param agent the agent, which must be stopped (the caller holds its lock)
     * @param property the property that marks the records to remove
     * @param what what they are, for the error message
     * @return the distinct values of {@code property} removed, in queue order
     * @throws QueueManagerException (unavailable) when the queue cannot be cleaned; nothing was removed
     */
    public static List<String> removeAll(QueueManagerConnector connector, String agent, String property, String what)
            throws QueueManagerException {
        String queue = QueueNames.event(agent);
        List<String> values = new ArrayList<>();
        try (Connection connection = connector.connect()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            if (!connector.queueExists(session, queue)) {
                return values;
            }
            connection.start();
            try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue),
                    property + " IS NOT NULL")) {
                Message m;
                while ((m = consumer.receive(200)) != null) {
                    String value = m.getStringProperty(property);
                    if (value != null && !values.contains(value)) {
                        values.add(value);
                    }
                }
            }
            session.commit();
            return values;
        } catch (JMSException e) {
            throw new QueueManagerException("cannot remove the " + what + " from " + queue + " on "
                    + connector.description() + ": " + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
        }
    }
}
