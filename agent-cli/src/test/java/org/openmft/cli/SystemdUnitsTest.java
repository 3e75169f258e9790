package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped systemd units and the drop-ins 'mft agent unit' and 'mft logger unit' write, checked by systemd's own
 * {@code systemd-analyze verify} (offline: it needs no running systemd). Without systemd-analyze
 * the check is skipped, saying why, unless {@value #REQUIRE_ENV} is 1 (as {@code .ci/run} sets it):
 * then it fails, so that CI cannot pass by skipping it.
 */
class SystemdUnitsTest {
    /** Set to 1 to make a missing systemd-analyze a failure instead of a skip. */
    static final String REQUIRE_ENV = "OPENMFT_REQUIRE_SYSTEMD";
    private static final Path SHIPPED = Path.of("src/dist/systemd");
    private static final String LAUNCHER = "/opt/openmft/bin/mft";

    @TempDir Path dir;

    @Test
    void theDropInMapsIbmRestartPropertiesOntoSystemd() {
        String unit = SystemdUnits.agentDropIn("SRC", Path.of("agent.properties"), 4, 120, "QM1",
                SystemdUnits.QueueManagerLink.AFTER, List.of("/srv/out", "!/srv/out/secret", "/srv/in box"));
        assertThat(unit).contains("StartLimitIntervalSec=120\n", "StartLimitBurst=5\n", "Restart=on-failure\n",
                "Wants=openmft-qmgr@QM1.service\n", "After=openmft-qmgr@QM1.service\n",
                "ReadWritePaths=-/srv/out\n", "ReadWritePaths=\"-/srv/in box\"\n")
                .doesNotContain("secret", "Conflicts");
        String never = SystemdUnits.agentDropIn("B1", Path.of("agent.properties"), 0, 60, "QM1",
                SystemdUnits.QueueManagerLink.HOSTS, List.of());
        assertThat(never).contains("Restart=no\n", "StartLimitBurst=1\n", "Conflicts=openmft-qmgr@QM1.service\n")
                .doesNotContain("After=", "ReadWritePaths");
        assertThat(SystemdUnits.agentDropIn("R1", Path.of("agent.properties"), 4, 120, "QM9",
                SystemdUnits.QueueManagerLink.NONE, List.of())).doesNotContain("QM9.service");
        String logger = SystemdUnits.loggerDropIn("LOG1", Path.of("logger.properties"), "QM1",
                SystemdUnits.QueueManagerLink.AFTER, true);
        assertThat(logger).contains("Wants=openmft-qmgr@QM1.service\n", "After=openmft-qmgr@QM1.service\n",
                "After=postgresql.service\n").doesNotContain("Restart");
        assertThat(SystemdUnits.loggerDropIn("LOG1", Path.of("logger.properties"), "QM9",
                SystemdUnits.QueueManagerLink.NONE, false)).doesNotContain("QM9", "postgresql");
        assertThat(SystemdUnits.localPostgresql(Optional.of("jdbc:postgresql://localhost:5432/mft"))).isTrue();
        assertThat(SystemdUnits.localPostgresql(Optional.of("jdbc:postgresql://127.0.0.1/mft"))).isTrue();
        assertThat(SystemdUnits.localPostgresql(Optional.of("jdbc:postgresql:mft"))).isTrue();
        assertThat(SystemdUnits.localPostgresql(Optional.of("jdbc:postgresql://db.example.com/mft"))).isFalse();
        assertThat(SystemdUnits.localPostgresql(Optional.of("jdbc:h2:file:/tmp/x"))).isFalse();
        assertThat(SystemdUnits.localPostgresql(Optional.empty())).isFalse();
        assertThat(SystemdUnits.sandboxEntries(Optional.of("/a" + java.io.File.pathSeparator + "/b")))
                .containsExactly("/a", "/b");
    }

    @Test
    void systemdAnalyzeFindsNoProblemInTheShippedUnitsAndTheDropInsOfAnAgentAndALogger() throws Exception {
        Optional<Path> analyze = systemdAnalyze();
        if (analyze.isEmpty()) {
            String reason = "systemd-analyze is not on the PATH (Debian's systemd package)";
            if ("1".equals(System.getenv(REQUIRE_ENV))) {
                throw new AssertionError(REQUIRE_ENV + "=1 and " + reason);
            }
            Assumptions.assumeTrue(false, reason);
        }
        // verify checks that ExecStart's program exists: point it at an executable of the test's own.
        Path launcher = Files.writeString(dir.resolve("mft"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> units = new ArrayList<>();
        for (String kind : List.of("qmgr", "agent", "logger")) {
            String template = Files.readString(SHIPPED.resolve("openmft-" + kind + "@.service"));
            assertThat(template).contains(LAUNCHER + " " + kind + " start %i -F", "RestartPreventExitStatus=78",
                    "Type=notify\n", "NotifyAccess=main\n");
            String instance = "openmft-" + kind + "@" + (kind.equals("qmgr") ? "QM1" : "SRC") + ".service";
            Files.writeString(dir.resolve(instance), template.replace(LAUNCHER, launcher.toString()));
            units.add(instance);
        }
        Path dropIns = Files.createDirectories(dir.resolve("openmft-agent@SRC.service.d"));
        Files.writeString(dropIns.resolve("openmft.conf"), SystemdUnits.agentDropIn("SRC",
                Path.of("agent.properties"), 4, 120, "QM1", SystemdUnits.QueueManagerLink.AFTER,
                List.of("/srv/out", "/srv/in box")));
        Path loggerDropIns = Files.createDirectories(dir.resolve("openmft-logger@SRC.service.d"));
        Files.writeString(loggerDropIns.resolve("openmft.conf"), SystemdUnits.loggerDropIn("SRC",
                Path.of("logger.properties"), "QM1", SystemdUnits.QueueManagerLink.AFTER, true));

        List<String> cmd = new ArrayList<>(List.of(analyze.get().toString(), "verify", "--man=no"));
        cmd.addAll(units);
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("systemd-analyze verify ended").isTrue();
        // Unknown keys and bad values are warnings with exit code 0: any line naming our units fails too.
        List<String> problems = output.lines().filter(l -> l.contains("openmft")).toList();
        assertThat(problems).as("systemd-analyze verify (exit code %d) on %s:%n%s", p.exitValue(), units, output)
                .isEmpty();
        assertThat(p.exitValue()).as("systemd-analyze verify exit code; its output:%n%s", output).isZero();
    }

    private static Optional<Path> systemdAnalyze() throws IOException {
        for (String entry : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(entry.isEmpty() ? "." : entry, "systemd-analyze");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
