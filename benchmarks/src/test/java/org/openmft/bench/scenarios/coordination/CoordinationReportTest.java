package org.openmft.bench.scenarios.coordination;

import org.openmft.bench.Scale;
import org.openmft.bench.report.Goals;
import org.openmft.bench.report.Report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import javax.imageio.ImageIO;

import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.openmft.bench.report.CsvTable;
import org.openmft.bench.report.JsonFiles;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.io.TempDir;

class CoordinationReportTest {
    private static final String SECTION = CoordinationReport.BEGIN + "\n## Coordination\nnew\n" + CoordinationReport.END
            + "\n";

    @Test
    void aSectionGoesBeforeTheObservationsTheFirstTime() {
        String report = "# OpenMFT performance\n\n## Seed 000\nfigures\n\n## Observations\n- x\n";
        String spliced = CoordinationReport.splice(report, SECTION);
        assertThat(spliced).isEqualTo("# OpenMFT performance\n\n## Seed 000\nfigures\n\n" + SECTION
                + "\n## Observations\n- x\n");
    }

    @Test
    void aSectionReplacesTheOldOneAndLeavesTheRestAlone() {
        String old = CoordinationReport.BEGIN + "\n## Coordination\nold\n" + CoordinationReport.END + "\n";
        String report = "# head\n\n" + old + "\n## Observations\n- x\n";
        String spliced = CoordinationReport.splice(report, SECTION);
        assertThat(spliced).isEqualTo("# head\n\n" + SECTION + "\n## Observations\n- x\n");
        assertThat(CoordinationReport.splice(spliced, SECTION)).isEqualTo(spliced);
    }

    @Test
    void withoutObservationsTheSectionIsAppended() {
        assertThat(CoordinationReport.splice("# head\n", SECTION)).isEqualTo("# head\n\n" + SECTION);
    }

    @Test
    void threadsAreGroupedByBrokerAndRole() {
        assertThat(CoordinationScenario.artemisName("QMAGENT")).isEqualTo("-q-m-a-g-e-n-t");
        assertThat(CoordinationScenario.classify("Thread-3 (activemq-q-m-a-g-e-n-t)"))
                .isEqualTo(CoordinationScenario.G_AGENT_QM);
        assertThat(CoordinationScenario.classify("Thread-1 (activemq-remoting-tcp--q-m-c-o-o-r-d)"))
                .isEqualTo(CoordinationScenario.G_COORDINATION_QM);
        assertThat(CoordinationScenario.classify(
                "Thread-8 (activemq-org.apache.activemq.artemis.core.remoting.impl.invm.-in-v-m-connector)"))
                .isEqualTo(CoordinationScenario.G_IN_VM);
        assertThat(CoordinationScenario.classify("openmft-publisher")).isEqualTo(CoordinationScenario.G_PUBLISHERS);
        assertThat(CoordinationScenario.classify("openmft-SRC001-publisher")).isEqualTo(CoordinationScenario.G_PUBLISHERS);
        assertThat(CoordinationScenario.classify("openmft-SRC001-transfer-0c2430a"))
                .isEqualTo(CoordinationScenario.G_AGENTS);
        assertThat(CoordinationScenario.classify("bench-logger")).isEqualTo(CoordinationScenario.G_LOGGER);
        assertThat(CoordinationScenario.classify("Thread-0 (activemq-client-global)"))
                .isEqualTo(CoordinationScenario.G_CLIENT);
    }

    @Test
    void percentilesAreNearestRank() {
        double[] v = {5, 1, 4, 2, 3};
        assertThat(CoordinationResult.Stats.percentile(v, 50)).isEqualTo(3);
        assertThat(CoordinationResult.Stats.percentile(v, 95)).isEqualTo(5);
        assertThat(CoordinationResult.Stats.max(v)).isEqualTo(5);
        assertThat(CoordinationResult.Stats.mean(v)).isEqualTo(3);
        assertThat(CoordinationResult.Stats.percentile(new double[0], 50)).isNaN();
    }

    @Test
    void cellsFollowSeed001() {
        var quick = CoordinationScenario.cells(Scale.QUICK, null);
        assertThat(quick).extracting(CoordinationScenario.Cell::agents).containsOnly(100);
        var full = CoordinationScenario.cells(Scale.FULL, null);
        assertThat(full).extracting(CoordinationScenario.Cell::seedMegabytes)
                .containsExactly(10, 10, 10, 10, 10, 10, 100, 100, 100, 100, 100);
        assertThat(full).extracting(CoordinationScenario.Cell::agents)
                .containsExactly(100, 200, 300, 400, 500, 500, 100, 200, 300, 400, 500);
        assertThat(full).filteredOn(c -> c.statusRateLimit() == 1).extracting(CoordinationScenario.Cell::agents)
                .containsExactly(500);
        assertThat(CoordinationScenario.cells(Scale.FULL, 40)).extracting(CoordinationScenario.Cell::agents)
                .containsOnly(40);
        assertThat(ManyAgentsIbmFigures.find(500, 10)).hasValueSatisfying(f -> assertThat(f.averageSeconds()).isEqualTo(19.46));
    }

    @Test
    void aSweepOfAgentCountsIsChartedBesideIbmsFigures(@TempDir Path dir) throws Exception {
        List<CoordinationResult> results = List.of(result(100, 2.0, 1.5), result(200, 4.0, 3.0));
        Report.Context c = new Report.Context(Scale.FULL, 262_144, Map.of(), Instant.parse("2026-11-22T10:00:00Z"),
                Duration.ofMinutes(3), Map.of(), "abc1234", 0.05, null);
        String md = new CoordinationReport(c, results).withCharts(dir, "img").markdown();

        assertThat(md).contains("## Coordination at scale: 100 to 200 agents on one queue manager (seed 001)")
                .contains("![Average time per transfer by agent count (seed 001)](img/seed001-time-per-transfer.png)")
                .contains("| 2.42 |", "| 5.49 |");
        for (String png : List.of("seed001-time-per-transfer.png", "seed001-agent-qm-cores.png")) {
            assertThat(ImageIO.read(Files.newInputStream(dir.resolve(png)))).as(png).isNotNull();
        }
    }

    @Test
    void oneAgentCountDrawsNoChart(@TempDir Path dir) {
        Report.Context c = new Report.Context(Scale.FULL, 262_144, Map.of(), Instant.parse("2026-11-22T10:00:00Z"),
                Duration.ofMinutes(3), Map.of(), "abc1234", 0.05, null);
        String md = new CoordinationReport(c, List.of(result(500, 30.0, 20.0))).withCharts(dir, "img").markdown();
        assertThat(md).contains("500 agents on one queue manager").doesNotContain("![");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void theRawNumbersReadBackAsCsvAndJson() {
        CoordinationResult failed = result(200, 4.0, 3.0);
        failed.failure = "agent A17, \"busy\"";
        failed.transferSeconds = new double[] {3.0, Double.NaN};
        List<CoordinationResult> results = List.of(result(100, 2.0, 1.5), failed);
        Report.Context c = new Report.Context(Scale.FULL, 262_144, Map.of("agentChunkSize", "262144"),
                Instant.parse("2026-11-22T10:00:00Z"), Duration.ofMinutes(3), Map.of(), "abc1234", 0.05, null);

        List<CSVRecord> rows = CsvTable.read(CoordinationReport.csv(results));
        assertThat(rows).extracting(r -> r.get("agents")).containsExactly("100", "200");
        assertThat(rows.get(1).get("failure")).isEqualTo("agent A17, \"busy\"");
        assertThat(rows.get(0).get("failure")).isEmpty();
        assertThat(rows.get(0).get("set_seconds")).isEqualTo("2.0000");

        JsonNode json = JsonFiles.read(CoordinationReport.json(c, results));
        assertThat(json.get("revision").asText()).isEqualTo("abc1234");
        assertThat(json.get("agentProperties").get("agentChunkSize").asText()).isEqualTo("262144");
        JsonNode second = json.get("cells").get(1);
        assertThat(second.get("agents").asInt()).isEqualTo(200);
        assertThat(second.get("failure").asText()).isEqualTo("agent A17, \"busy\"");
        assertThat(second.get("transferSeconds").get(1).isNull()).as("an unknown time is null").isTrue();
        assertThat(second.get("cpuNanos").get(CoordinationScenario.G_AGENT_QM).asLong()).isEqualTo(1_000_000_000L);
    }

    @Test
    void issue18FiguresAreTheWorstCellAgainstIbmAndTheIdleCostAndFootprintOfTheLargestCell() {
        // IBM's averages: 2.42 s (100 agents, 10 x 1 MB), 19.46 s (500): ratios 1.21 and 0.973.
        CoordinationResult small = result(100, 2.5, 2.0);
        CoordinationResult large = result(500, 25.0, 20.0);
        large.agentsStarted = 500;
        large.heapBeforeMib = 100;
        large.heapAfterMib = 500;
        large.threadsBefore = 40;
        large.threadsAfter = 2540;
        large.idleSeconds = 10;
        large.idleCpuNanos.put(CoordinationScenario.G_AGENTS, 600_000_000L);
        large.idleCpuNanos.put(CoordinationScenario.G_AGENT_QM, 400_000_000L);
        Report.Context c = new Report.Context(Scale.FULL, 262_144, Map.of(), Instant.parse("2026-11-22T10:00:00Z"),
                Duration.ofMinutes(3), Map.of(), "abc1234", 0.05, null);

        Map<String, Double> h = new CoordinationReport(c, List.of(small, large)).headline();

        assertThat(h.get(Goals.SEED001_IBM_OVER_OURS_MIN)).isCloseTo(19.46 / 20.0, within(1e-9));
        assertThat(h.get(Goals.IDLE_500_CORES)).isCloseTo(0.1, within(1e-9));
        assertThat(h.get(Goals.HEAP_PER_AGENT)).isCloseTo(0.8, within(1e-9));
        assertThat(h.get(Goals.THREADS_PER_AGENT)).isCloseTo(5.0, within(1e-9));

        // A failed cell leaves "every cell" unjudged.
        small.fail("a transfer ended with result 40");
        assertThat(new CoordinationReport(c, List.of(small, large)).headline().get(Goals.SEED001_IBM_OVER_OURS_MIN))
                .isNaN();
    }

    /** A measured cell of {@code agents} agents moving 10 x 1 MiB per pair. */
    private static CoordinationResult result(int agents, double set, double average) {
        CoordinationResult r = new CoordinationResult(new CoordinationScenario.Cell(agents, Scale.MIB, 30, 300, 1));
        r.wallSeconds = set;
        r.roundSeconds = new double[] {set};
        r.transferSeconds = new double[] {average, average};
        r.bytes = agents / 2 * 10 * Scale.MIB;
        r.cpuIntervalSeconds = set;
        r.cpuNanos.put(CoordinationScenario.G_AGENT_QM, 1_000_000_000L);
        r.cpuNanos.put(CoordinationScenario.G_IN_VM, 500_000_000L);
        return r;
    }
}
