package org.openmft.agent.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.RoleChangeRig;
import org.openmft.agent.transfer.state.StateTag;

/**
 * The schedules' store across a role change of the agent's user (the queue manager closes its
 * connections): the next save, which replaces a record and submits an occurrence, succeeds on a new
 * session; one record and the id counter stay, and each occurrence is on the COMMAND queue once.
 */
class EventQueueScheduleStoreReconnectIT {
    @TempDir
    Path dir;

    @Test
    void aSaveAfterTheQueueManagerClosedTheSessionSucceedsOnANewOne() throws Exception {
        try (RoleChangeRig rig = new RoleChangeRig(dir, "SCHA")) {
            StateTag tag = StateTag.of(new byte[32]);
            EventQueueScheduleStore store = new EventQueueScheduleStore(rig.agentConnector(), "SCHA", tag);
            try {
                store.save(1, new ScheduleRecord(1, "<request/>", "UTC", 100, "u"), "<occurrence>1</occurrence>");
                rig.grantRole(); // closes the agent's connections
                store.save(1, new ScheduleRecord(1, "<request/>", "UTC", 200, "u"), "<occurrence>2</occurrence>");
            } finally {
                store.close();
            }
            EventQueueScheduleStore reader = new EventQueueScheduleStore(rig.agentConnector(), "SCHA", tag);
            try {
                List<ScheduleRecord> records = reader.load();
                assertThat(records).extracting(ScheduleRecord::next).containsExactly(200L);
                assertThat(reader.highestId()).isEqualTo(1);
            } finally {
                reader.close();
            }
            assertThat(rig.browse(QueueNames.event("SCHA"))).as("the record and the id counter").hasSize(2);
            assertThat(rig.browse(QueueNames.command("SCHA"))).as("each occurrence once").hasSize(2);
        }
    }
}
