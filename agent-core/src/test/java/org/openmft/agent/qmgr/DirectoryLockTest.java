package org.openmft.agent.qmgr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryLockTest {
    @TempDir
    Path dir;

    @Test
    void oneHolderAtATimeWithItsPidRecorded() throws Exception {
        assertThat(DirectoryLock.isHeld(dir, "x")).isFalse();
        assertThat(DirectoryLock.holderPid(dir, "x")).isEmpty();
        Optional<DirectoryLock> first = DirectoryLock.tryAcquire(dir, "x");
        assertThat(first).isPresent();
        assertThat(DirectoryLock.tryAcquire(dir, "x")).isEmpty();
        assertThat(DirectoryLock.isHeld(dir, "x")).isTrue();
        assertThat(DirectoryLock.holderPid(dir, "x")).hasValue(ProcessHandle.current().pid());
        // Probing does not disturb the holder's pid file.
        assertThat(Files.readString(dir.resolve("x.pid")).trim()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
        first.get().close();
        assertThat(dir.resolve("x.pid")).doesNotExist();
        assertThat(DirectoryLock.isHeld(dir, "x")).isFalse();
        try (DirectoryLock again = DirectoryLock.tryAcquire(dir, "x").orElseThrow()) {
            assertThat(again).isNotNull();
        }
    }

    @Test
    void aStalePidFileWithoutTheLockDoesNotCount() throws Exception {
        Files.writeString(dir.resolve("y.pid"), "999999");
        Files.createFile(dir.resolve("y.lock"));
        assertThat(DirectoryLock.isHeld(dir, "y")).isFalse();
        assertThat(DirectoryLock.holderPid(dir, "y")).isEmpty();
    }

    @Test
    void settingsValidateAndRoundTrip() throws Exception {
        QueueManagerSettings s = new QueueManagerSettings("QM.A_1", dir.resolve("qm"), "0.0.0.0", 1414);
        s.store();
        assertThat(QueueManagerSettings.load(dir.resolve("qm"))).isEqualTo(s);
        assertThat(s.loopbackUrl()).isEqualTo("tcp://127.0.0.1:1414");
        assertThat(new QueueManagerSettings("Q", dir, "::1", 5).loopbackUrl()).isEqualTo("tcp://[::1]:5");
        assertThatThrownBy(() -> new QueueManagerSettings("BAD NAME", dir, "127.0.0.1", 1414))
                .hasMessageContaining("BAD NAME").hasMessageContaining("1 to 48");
        assertThatThrownBy(() -> new QueueManagerSettings("Q", dir, "127.0.0.1", 70000))
                .hasMessageContaining("70000");
        assertThatThrownBy(() -> new QueueManagerSettings("X".repeat(49), dir, "127.0.0.1", 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
