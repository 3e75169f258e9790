package org.openmft.agent.qmgr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The limits derive from the agent's settings, are kept in qmgr.properties, and a bad one is named. */
class QueueManagerLimitsTest {
    @TempDir
    Path dir;

    @Test
    void defaultsComeFromWhatAgentsSend() {
        assertThat(QueueManagerLimits.DEFAULTS.commandMessageMaxBytes()).isEqualTo(9L << 20);
        assertThat(QueueManagerLimits.DEFAULTS.dataMessageMaxBytes()).isEqualTo(5L << 20);
        MessageSizeCap cap = new MessageSizeCap(QueueManagerLimits.DEFAULTS);
        assertThat(cap.limitFor("SYSTEM.FTE.COMMAND.AGENT1").maxBytes()).isEqualTo(9L << 20);
        assertThat(cap.limitFor("SYSTEM.FTE.CMD.RJCT.AGENT1").maxBytes()).isEqualTo(9L << 20);
        assertThat(cap.limitFor("SYSTEM.FTE.DATA.AGENT1").maxBytes()).isEqualTo(5L << 20);
        assertThat(cap.limitFor("SYSTEM.DEAD.LETTER.QUEUE").maxBytes()).isEqualTo(100L << 20);
    }

    @Test
    void changedLimitsAreStoredAndReadBack() throws IOException {
        QueueManagerSettings s = new QueueManagerSettings("QM1", dir, "127.0.0.1", 1414)
                .withLimits(QueueManagerLimits.DEFAULTS.withAddressDiskMaxBytes(100L << 20));
        s.store();

        assertThat(Files.readString(dir.resolve(QueueManagerSettings.FILE_NAME)))
                .contains("limits.addressDiskMaxBytes=104857600").doesNotContain("limits.commandMessageMaxBytes");
        assertThat(QueueManagerSettings.load(dir).limits()).isEqualTo(s.limits());
    }

    @Test
    void aBadLimitStopsTheQueueManagerWithItsName() throws IOException {
        Files.writeString(dir.resolve(QueueManagerSettings.FILE_NAME), "name=QM1\nlimits.addressDiskMaxBytes=1024\n");

        assertThatThrownBy(() -> QueueManagerSettings.load(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining("limits.addressDiskMaxBytes=1024 is not allowed: at least 10485760 bytes");
    }
}
