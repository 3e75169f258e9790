package org.openmft.agent.qmgr.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A channel definition's heartbeat (IBM's HBINT): kept with it, and what the bridge is given. */
class ChannelDefinitionTest {
    @TempDir
    Path qmgr;

    private static ChannelDefinition withHeartbeat(int seconds) {
        return new ChannelDefinition("QMB", "127.0.0.1", 1414, Path.of("/etc/mft/qma-to-qmb.xml"), null, null, false,
                1, seconds);
    }

    @Test
    void theHeartbeatIsKeptWithTheDefinitionAndReadBack() throws Exception {
        withHeartbeat(2).store(qmgr);
        assertTrue(Files.readString(ChannelDefinition.file(qmgr, "QMB")).contains("heartbeat=2\n"));
        assertEquals(withHeartbeat(2), ChannelDefinition.loadAll(qmgr).get("QMB"));
    }

    @Test
    void withoutAHeartbeatTodaysTenSecondsApplyAndADefinitionWrittenBeforeTheSettingReadsSo() throws Exception {
        ChannelDefinition d = new ChannelDefinition("QMB", "127.0.0.1", 1414, Path.of("/etc/mft/x.xml"), null, null,
                false);
        assertEquals(10, d.heartbeatSeconds());
        assertEquals(10_000, d.heartbeatMillis());
        assertEquals(30_000, d.connectionTtlMillis());
        assertEquals(30_000, d.maxRetryMillis());
        d.store(qmgr);
        assertTrue(!Files.readString(ChannelDefinition.file(qmgr, "QMB")).contains("heartbeat"));
        assertEquals(d, ChannelDefinition.loadAll(qmgr).get("QMB"));
    }

    @Test
    void aShortHeartbeatShortensTheTimeToLiveAndTheLongestRetryALongOneOnlyTheTimeToLive() {
        assertEquals(2_000, withHeartbeat(2).heartbeatMillis());
        assertEquals(6_000, withHeartbeat(2).connectionTtlMillis());
        assertEquals(6_000, withHeartbeat(2).maxRetryMillis());
        assertEquals(900_000, withHeartbeat(300).connectionTtlMillis());
        assertEquals(30_000, withHeartbeat(300).maxRetryMillis());
        assertEquals(999_999L * 3000, withHeartbeat(999_999).connectionTtlMillis());
    }

    @Test
    void anAbsurdHeartbeatIsRefusedNamingIt() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> withHeartbeat(0));
        assertTrue(e.getMessage().contains("heartbeat 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> withHeartbeat(1_000_000));
        withHeartbeat(2).store(qmgr);
        Path file = ChannelDefinition.file(qmgr, "QMB");
        Files.writeString(file, Files.readString(file).replace("heartbeat=2", "heartbeat=soon"));
        java.io.IOException bad = assertThrows(java.io.IOException.class, () -> ChannelDefinition.loadAll(qmgr));
        assertTrue(bad.getMessage().contains(file.toString()), bad.getMessage());
    }
}
