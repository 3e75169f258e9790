package org.openmft.agent.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.RoleChangeRig;
import org.openmft.agent.transfer.state.StateTag;

/**
 * An administrator grants the agent's user a role while its monitors run: the queue manager closes
 * the agent's connections, and with them the EVENT queue store's session. The next save opens a new
 * session and succeeds; the EVENT queue then holds exactly the new record and the COMMAND queue
 * exactly the tasks of both saves, nothing lost, nothing twice.
 */
class EventQueueStoreReconnectIT {
    @TempDir
    Path dir;

    @Test
    void aSaveAfterTheQueueManagerClosedTheSessionSucceedsOnANewOne() throws Exception {
        try (RoleChangeRig rig = new RoleChangeRig(dir, "MONA")) {
            StateTag tag = StateTag.of(new byte[32]);
            EventQueueMonitorStore store = new EventQueueMonitorStore(rig.agentConnector(), "MONA", tag);
            try {
                store.save(record(Map.of("/in/a", new FileHistory(1, 1, 0, true))), List.of("<task>1</task>"));
                rig.grantRole(); // closes the agent's connections
                Map<String, FileHistory> both = Map.of("/in/a", new FileHistory(1, 1, 0, true),
                        "/in/b", new FileHistory(2, 2, 0, true));
                store.save(record(both), List.of("<task>2</task>"));
            } finally {
                store.close();
            }

            EventQueueMonitorStore reader = new EventQueueMonitorStore(rig.agentConnector(), "MONA", tag);
            try {
                List<MonitorRecord> records = reader.load();
                assertThat(records).hasSize(1);
                assertThat(records.get(0).history()).containsOnlyKeys("/in/a", "/in/b");
            } finally {
                reader.close();
            }
            assertThat(rig.browse(QueueNames.event("MONA"))).as("one record on the EVENT queue").hasSize(1);
            List<String> tasks = new ArrayList<>();
            for (Message m : rig.browse(QueueNames.command("MONA"))) {
                tasks.add(((TextMessage) m).getText());
            }
            assertThat(tasks).containsExactly("<task>1</task>", "<task>2</task>");
        }
    }

    private static MonitorRecord record(Map<String, FileHistory> history) {
        return new MonitorRecord("M", "<monitor/>", true, "u", "id", true, history);
    }
}
