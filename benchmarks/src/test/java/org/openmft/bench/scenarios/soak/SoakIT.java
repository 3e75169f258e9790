package org.openmft.bench.scenarios.soak;

import org.openmft.bench.harness.Distribution;
import org.openmft.bench.measure.MachineInfo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick soak as CI runs it: real queue manager and agent processes of the built distribution
 * ({@code agent-cli/target/openmft}, built earlier in the reactor), every kind of fault at least
 * once while transfers run, and at the end every transfer intact. The seed is fixed
 * ({@link SoakScenario#CI_SEED}), so CI runs one sequence of files, transfers and faults every time;
 * it is printed and in the report, and {@code -Dsoak.seed=N} runs another. The report and, on failure, every process's
 * log are left in {@code target/soak-it}.
 */
class SoakIT {
    @TempDir
    Path work;

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void everyTransferEndsIntactThroughCrashesAndCutConnections() throws Exception {
        long seed = Long.getLong("soak.seed", SoakScenario.CI_SEED);
        Path results = Files.createDirectories(Path.of("target", "soak-it"));
        System.out.println("SoakIT: seed " + seed + " (repeat with -Dsoak.seed=" + seed + ")");

        SoakResult r = SoakScenario.run(SoakScenario.Settings.quick(seed), Distribution.locate(), work, results,
                System.out::println);
        r.machine = MachineInfo.describe(work);
        String report = new SoakReport(r).markdown();
        assertThat(report).as("the report names the seed that repeats the run").contains("seed " + seed);
        Files.writeString(results.resolve("soak-quick.md"), report);
        Files.writeString(results.resolve("soak-quick-transfers.csv"), SoakReport.transfersCsv(r.transfers));
        Files.writeString(results.resolve("soak-quick-faults.csv"), SoakReport.faultsCsv(r.faults));

        String context = "seed " + seed + "; report in " + results.toAbsolutePath().resolve("soak-quick.md") + ":\n"
                + report;
        assertThat(r.failure).as(context).isNull();
        assertThat(r.completed).as(context).isPositive().isEqualTo(r.submitted);
        assertThat(r.failed).as("transfers that did not end with result 0 and every MD5 equal; " + context)
                .isEmpty();
        assertThat(r.bytesLost).as(context).isZero();
        assertThat(r.filesWrittenAgain).as(context).isEmpty();
        for (Map.Entry<SoakScenario.FaultKind, int[]> e : r.faultCounts().entrySet()) {
            assertThat(e.getValue()[0]).as("%s injected; %s", e.getKey(), context).isPositive();
            assertThat(e.getValue()[1]).as("%s survived; %s", e.getKey(), context).isEqualTo(e.getValue()[0]);
        }
        assertThat(r.ok()).as(context).isTrue();
    }
}
