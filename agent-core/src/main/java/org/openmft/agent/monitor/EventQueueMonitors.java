package org.openmft.agent.monitor;

import java.util.List;
import org.openmft.agent.messaging.EventQueueRecords;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * What {@code fteCleanAgent -ms} does to a stopped agent's monitors: removes every monitor record
 * ({@link EventQueueMonitorStore}) from its {@code SYSTEM.FTE.EVENT.<AGENT>} queue in one
 * transaction, and nothing else there (scheduled transfers live on the same queue).
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
        return EventQueueRecords.removeAll(connector, agent, EventQueueMonitorStore.MONITOR, "monitors");
    }
}
