package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DaemonsTest {
    private static final String CLI = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    @Test
    void aDaemonLeavesOutTheOptionsTheLauncherGaveShortLivedCommands() {
        List<String> args = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx1g",
                "-Dopenmft.cliJvmOptions=" + CLI, "-Dopenmft.home=/opt/openmft");

        assertThat(Daemons.daemonJvmArguments(args, CLI)).containsExactly("-Xmx1g", "-Dopenmft.home=/opt/openmft");
    }

    @Test
    void theSameOptionGivenAgainOnPurposeStays() {
        List<String> args = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:+UseSerialGC",
                "-Dopenmft.cliJvmOptions=" + CLI);

        assertThat(Daemons.daemonJvmArguments(args, CLI)).containsExactly("-XX:+UseSerialGC");
    }

    @Test
    void optionsNotLedByTheLaunchersAreAllInherited() {
        // Started without the launcher (java -cp ... org.openmft.cli.Mft), or with the options replaced.
        List<String> args = List.of("-Xmx1g", "-XX:+UseSerialGC");

        assertThat(Daemons.daemonJvmArguments(args, "")).containsExactly("-Xmx1g", "-XX:+UseSerialGC");
        assertThat(Daemons.daemonJvmArguments(args, CLI)).containsExactly("-Xmx1g", "-XX:+UseSerialGC");
    }
}
