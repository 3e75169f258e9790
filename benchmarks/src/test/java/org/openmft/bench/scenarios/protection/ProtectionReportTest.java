package org.openmft.bench.scenarios.protection;

import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openmft.bench.report.JsonFiles;

import com.fasterxml.jackson.databind.JsonNode;
import org.openmft.agent.protection.ProtectionLevel;

/** The message protection section's arithmetic and text, on synthetic runs. */
class ProtectionReportTest {
    private static final long GIB = Scale.GIB;
    private static final Scale SCALE = Scale.FULL.withRepetitions(2);
    private static final ProtectionReport.Load IDLE = new ProtectionReport.Load(0.1, 0.02, 2);

    /** A run of 1 GiB taking {@code seconds}, with {@code source} and {@code destination} CPU seconds and 1 s more. */
    private static ProtectionReport.Run run(ProtectionLevel level, int rep, double seconds, double source,
            double destination) {
        long s = (long) (source * 1e9);
        long d = (long) (destination * 1e9);
        return new ProtectionReport.Run(level, rep, GIB, (long) (seconds * 1e9),
                new FileShapeRun.Cpu(s + d + 1_000_000_000L, s, d, 1_000_000_000L), 500_000_000L, 0, null);
    }

    private static ProtectionReport report(List<ProtectionReport.Run> runs, ProtectionReport.Load load) {
        Section.Context context = new Section.Context(false, null, Path.of("/somewhere/work"), Path.of("results"),
                Path.of("img"), "img", Map.of("cores (available to the JVM)", "2"), "abc123", Map.of(), false,
                line -> { });
        return new ProtectionReport(context, SCALE, Instant.EPOCH, Instant.EPOCH.plusSeconds(95), load, runs);
    }

    @Test
    void comparisonsWithNoneArePairedWithinARepetition() {
        // Privacy takes 1.25 times as long as none in each repetition though the machine's speed halves
        // between them; the warm-up, repetition 0, is not compared.
        ProtectionReport r = report(List.of(
                run(ProtectionLevel.NONE, 0, 100, 1, 1), run(ProtectionLevel.PRIVACY, 0, 1, 1, 1),
                run(ProtectionLevel.NONE, 1, 4, 1, 1), run(ProtectionLevel.PRIVACY, 1, 5, 2, 3),
                run(ProtectionLevel.NONE, 2, 8, 1, 1), run(ProtectionLevel.PRIVACY, 2, 10, 1.5, 2)), IDLE);

        assertThat(r.againstNone(ProtectionLevel.PRIVACY, ProtectionReport.RATE))
                .allSatisfy(v -> assertThat(v).isCloseTo(0.8, within(1e-9))).hasSize(2);
        assertThat(r.againstNone(ProtectionLevel.PRIVACY, ProtectionReport.CPU))
                .containsExactly(3.0, 1.5);
        assertThat(r.againstNone(ProtectionLevel.PRIVACY, ProtectionReport.SOURCE_CPU)).containsExactly(1.0, 0.5);
        assertThat(r.againstNone(ProtectionLevel.PRIVACY, ProtectionReport.DESTINATION_CPU)).containsExactly(2.0, 1.0);
        assertThat(r.median(ProtectionLevel.NONE, ProtectionReport.Run::cpuSecondsPerGib)).isCloseTo(3.0, within(1e-9));
        assertThat(r.againstNone(ProtectionLevel.INTEGRITY, ProtectionReport.RATE)).isEmpty();
    }

    @Test
    void aFailedNoneRunGivesNoComparisonForItsRepetition() {
        List<ProtectionReport.Run> runs = new ArrayList<>(List.of(run(ProtectionLevel.INTEGRITY, 1, 2, 1, 1),
                run(ProtectionLevel.NONE, 2, 1, 1, 1), run(ProtectionLevel.INTEGRITY, 2, 2, 1, 1)));
        runs.add(run(ProtectionLevel.NONE, 1, 1, 1, 1).withFailure("destination check failed"));

        assertThat(report(runs, IDLE).againstNone(ProtectionLevel.INTEGRITY, ProtectionReport.RATE))
                .containsExactly(0.5);
    }

    @Test
    void theSectionHasARowPerPolicyTheCostAgainstNoneAndNoPathOfTheMachine() {
        List<ProtectionReport.Run> runs = new ArrayList<>();
        for (int rep = 0; rep <= 2; rep++) {
            runs.add(run(ProtectionLevel.NONE, rep, 4, 1, 1));
            runs.add(run(ProtectionLevel.INTEGRITY, rep, 5, 1.5, 1.5));
            runs.add(run(ProtectionLevel.PRIVACY, rep, 8, 2.5, 3));
        }

        String md = report(runs, IDLE).markdown();

        assertThat(md).startsWith("## Message protection: cost per policy\n")
                .contains("HMAC-SHA256", "AES-256-GCM", "medians of 2 repetitions", "**full**: one file of 1 GiB")
                .contains("| none | 4.00 | **268** | 268, 268 | 3.00 | 1.00 | 1.00 | 1.00 | 0.75 | 0.13 | baseline |"
                        + " baseline | 0 |")
                .contains("| integrity | 5.00 | **215** | 215, 215 | 4.00 | 1.50 | 1.50 | 1.00 | 0.80 | 0.10 | -20%"
                        + " (-20% to -20%) | +1.00 s/GiB (+33%), runs +1.00 to +1.00 | 0 |")
                .contains("| privacy | 8.00 | **134** | 134, 134 | 6.50 | 2.50 | 3.00 | 1.00 | 0.81 | 0.06 | -50%")
                .contains("- privacy: +3.50 CPU s/GiB (+1.50 on the source agent's threads, +2.00 on the"
                        + " destination's), at 50% of none's rate (134 against 268 MB/s).")
                .contains("Other processes kept 0.02 of the 2 cores busy")
                .doesNotContain("Not an idle machine", "FAILED", "/somewhere", "noise");
    }

    @Test
    void runsThatDisagreeOnTheSignAreSaidToBeWithinTheNoise() {
        // Integrity is 20% slower in one repetition and 50% faster in the other, and cheaper in one.
        String md = report(List.of(
                run(ProtectionLevel.NONE, 1, 4, 1, 1), run(ProtectionLevel.INTEGRITY, 1, 5, 1.5, 1.5),
                run(ProtectionLevel.NONE, 2, 6, 2, 2), run(ProtectionLevel.INTEGRITY, 2, 4, 1.5, 1.5),
                run(ProtectionLevel.PRIVACY, 1, 4, 2, 2), run(ProtectionLevel.PRIVACY, 2, 6, 3, 3)), IDLE).markdown();

        assertThat(md).contains("| +15% (-20% to +50%) |", "runs -1.00 to +1.00 |")
                .contains("Its runs were from 20% slower to 50% faster than none's: the difference in rate is within"
                        + " this run's noise. Some of its runs used less CPU than none's: the difference in CPU is"
                        + " within this run's noise.");
        assertThat(md.lines().filter(l -> l.startsWith("- privacy:"))).singleElement().asString()
                .doesNotContain("noise");
    }

    @Test
    void aBusyMachineIsSaidSoAndAFailedPolicyHasNoFigure() {
        List<ProtectionReport.Run> runs = List.of(run(ProtectionLevel.NONE, 1, 4, 1, 1),
                run(ProtectionLevel.INTEGRITY, 1, 5, 1, 1),
                run(ProtectionLevel.PRIVACY, 1, 8, 1, 1).withFailure("transfer ended with result 67"));

        String md = report(runs, new ProtectionReport.Load(3.5, 0.9, 2)).markdown();

        assertThat(md).contains("**Not an idle machine.** Other processes kept 0.90 of the 2 cores busy on average"
                + " while the section ran; the 1-minute load average was 3.50 when it started.")
                .contains("| privacy | FAILED: repetition 1: transfer ended with result 67 |")
                .contains("### Failures\n\n- privacy repetition 1: transfer ended with result 67")
                .doesNotContain("- privacy:");
        assertThat(new ProtectionReport.Load(0.6, 0.0, 2).idle()).as("a load average at the start").isFalse();
        assertThat(new ProtectionReport.Load(Double.NaN, Double.NaN, 2).idle()).as("nothing known").isTrue();
    }

    @Test
    void everyRunWarmUpIncludedIsInTheCsvAndTheJson() {
        ProtectionReport r = report(List.of(run(ProtectionLevel.NONE, 0, 4, 1, 1), run(ProtectionLevel.NONE, 1, 4, 1,
                1), run(ProtectionLevel.INTEGRITY, 1, 5, 1, 1).withFailure("a \"quoted\" reason")), IDLE);

        assertThat(r.csv().lines()).hasSize(4).element(1).asString()
                .startsWith("none,0,1073741824,4.0000,268.4355,3.0000,3.0000,1.0000,1.0000,1.0000,0.5000,0,");
        assertThat(r.csv()).contains(",\"a \"\"quoted\"\" reason\"\n");
        JsonNode json = JsonFiles.read(r.json());
        assertThat(json.get("section").asText()).isEqualTo("protection");
        assertThat(json.get("scale").asText()).isEqualTo("full");
        assertThat(json.get("repetitions").asInt()).isEqualTo(2);
        assertThat(json.get("runs")).hasSize(3);
        assertThat(json.get("runs").get(2).get("failure").asText()).isEqualTo("a \"quoted\" reason");
        JsonNode integrity = json.get("policies").findParents("policy").stream()
                .filter(p -> p.get("policy").asText().equals("integrity")).findFirst().orElseThrow();
        assertThat(integrity.get("median_mb_per_s").isNull()).as("only a failed run: no median").isTrue();
    }
}
