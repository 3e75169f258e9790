package org.openmft.agent.monitor;

import java.util.ArrayList;
import java.util.List;
import javax.jms.Connection;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.Session;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * What {@code fteCleanAgent -ms} does to a stopped agent's monitors: removes every monitor record
 * ({@link EventQueueMonitorStore}) from its {@code SYSTEM.FTE.EVENT.<AGENT>} queue in one
 * transaction, and nothing else there (scheduled transfers may live on the same queue).
 */
public final class EventQueueMonitors {
    private EventQueueMonitors() {
    }

    /**
     * @param connector the agent's queue manager
     * @param agent the agent, which must be stopped (the caller holds its lock)
     * @return the names of the monitors removed, in queue order, each once
     * @throws QueueManagerException (unavailable) when the queue cannot be cleaned; nothing was removed
     */
    public static List<String> removeAll(QueueManagerConnector connector, String agent) throws QueueManagerException {
        String queue = QueueNames.event(agent);
        List<String> names = new ArrayList<>();
        try (Connection connection = connector.connect()) {
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            if (!connector.queueExists(session, queue)) {
                return names;
            }
            connection.start();
            try (MessageConsumer consumer = session.createConsumer(session.createQueue(queue),
                    EventQueueMonitorStore.MONITOR + " IS NOT NULL")) {
                Message m;
                while ((m = consumer.receive(200)) != null) {
                    String name = m.getStringProperty(EventQueueMonitorStore.MONITOR);
                    if (name != null && !names.contains(name)) {
                        names.add(name);
                    }
                }
            }
            session.commit();
            return names;
        } catch (JMSException e) {
            throw new QueueManagerException("cannot remove the monitors from " + queue + " on "
                    + connector.description() + ": " + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
        }
    }
}
