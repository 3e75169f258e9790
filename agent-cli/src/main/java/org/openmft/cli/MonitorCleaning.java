package org.openmft.cli;

import java.util.List;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;

import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.monitor.EventQueueMonitors;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.coordination.publish.CoordinationPublisher;
import org.openmft.coordination.publish.Publication;

/**
 * {@code fteCleanAgent -ms}: removes a stopped agent's resource monitors (their records on its
 * EVENT queue, definitions and history together) and clears their retained listings on the
 * coordination queue manager with empty publications, so fteListMonitors no longer shows them.
 * A listing that cannot be cleared is a warning: the monitors are gone whatever it says.
 */
final class MonitorCleaning {
    private MonitorCleaning() {
    }

    static void clean(DataDirectory dd, String coordination, QueueManagerConnector agentQMgr, String agent) throws QueueManagerException {
        List<String> removed = EventQueueMonitors.removeAll(agentQMgr, agent);
        System.out.println("  resource monitors: " + (removed.isEmpty() ? "nothing to clean"
                : "removed " + String.join(", ", removed)));
        if (removed.isEmpty()) {
            return;
        }
        String where = "coordination queue manager " + coordination;
        try {
            CoordinationConfig coordinationConfig = SetupCommands.loadCoordination(dd, coordination);
            QueueManagerConnector connector = QueueManagerConnector.forCommand(coordinationConfig.endpoint(),
                    dd.qmgrsDir(), null);
            where = connector.description();
            try (Connection connection = connector.connect()) {
                for (String monitor : removed) {
                    CoordinationPublisher.publish(connection, coordinationConfig.provider(), new Publication(
                            Publication.Kind.LISTING, Publications.monitorList(agent, monitor), "",
                            "fteCleanAgent:" + agent + ":" + monitor + ":" + System.currentTimeMillis()));
                }
            }
        } catch (CommandFailure | QueueManagerException | JMSException | RuntimeException e) {
            String reason = ProviderErrors.describe(e);
            System.out.println("  The listings of the removed monitors could not be cleared from " + where + " ("
                    + reason + "); fteListMonitors may still show them.");
        }
    }
}
