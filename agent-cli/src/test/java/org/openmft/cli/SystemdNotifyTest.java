package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sd_notify's datagrams reach a socket bound where NOTIFY_SOCKET points, as systemd's would. */
class SystemdNotifyTest {
    @TempDir Path dir;

    @Test
    void readyAndStoppingReachAFileSystemSocketAndAnAbstractOne() throws Exception {
        NotifySocketReceiver.unavailable().ifPresent(why -> Assumptions.assumeTrue(false, why));
        try (NotifySocketReceiver systemd = NotifySocketReceiver.at(dir.resolve("notify"))) {
            assertThat(SystemdNotify.notify(Map.of(SystemdNotify.SOCKET_ENV, systemd.address()),
                    "READY=1\nSTATUS=Agent SRC is running")).isEmpty();
            assertThat(systemd.await("READY=1", Duration.ofSeconds(10)))
                    .containsExactly("READY=1\nSTATUS=Agent SRC is running");
        }
        try (NotifySocketReceiver systemd = NotifySocketReceiver.abstractNamed("openmft-test-"
                + ProcessHandle.current().pid())) {
            assertThat(systemd.address()).startsWith("@");
            assertThat(SystemdNotify.notify(Map.of(SystemdNotify.SOCKET_ENV, systemd.address()), "STOPPING=1"))
                    .isEmpty();
            assertThat(systemd.await("STOPPING=1", Duration.ofSeconds(10))).containsExactly("STOPPING=1");
        }
    }

    @Test
    void withoutTheVariableNothingIsSentAndABadOrAbsentSocketIsReportedNotThrown() {
        assertThat(SystemdNotify.notify(Map.of(), "READY=1")).isEmpty();
        assertThat(SystemdNotify.notify(Map.of(SystemdNotify.SOCKET_ENV, "relative/notify"), "READY=1")).get()
                .asString().contains("abstract");
        NotifySocketReceiver.unavailable().ifPresent(why -> Assumptions.assumeTrue(false, why));
        assertThat(SystemdNotify.notify(Map.of(SystemdNotify.SOCKET_ENV, dir.resolve("nobody").toString()),
                "READY=1")).get().asString().contains("no socket listens there");
    }
}
