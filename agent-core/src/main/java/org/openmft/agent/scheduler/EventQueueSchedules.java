package org.openmft.agent.scheduler;

import java.util.List;
import org.openmft.agent.messaging.EventQueueRecords;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * What {@code fteCleanAgent -ss} does to a stopped agent's scheduled transfers: removes every
 * schedule record ({@link EventQueueScheduleStore}) from its {@code SYSTEM.FTE.EVENT.<AGENT>} queue
 * in one transaction, and nothing else there: its resource monitors stay, and so does the highest
 * id given, so a schedule created afterwards does not take the id of a removed one. The agent
 * publishes its (now empty) ScheduleList when it next starts.
 */
public final class EventQueueSchedules {
    private EventQueueSchedules() {
    }

    /**
     * @param connector the agent's queue manager
     * @param agent the agent, which must be stopped (the caller holds its lock)
     * @return the ids of the schedules removed, in queue order, each once
     * @throws QueueManagerException (unavailable) when the queue cannot be cleaned; nothing was removed
     */
    public static List<String> removeAll(QueueManagerConnector connector, String agent) throws QueueManagerException {
        return EventQueueRecords.removeAll(connector, agent, EventQueueScheduleStore.SCHEDULE, "scheduled transfers");
    }
}
