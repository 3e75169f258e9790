package org.openmft.bench.scenarios.channels;

import org.openmft.bench.Scale;
import org.openmft.bench.harness.TwoQueueManagers;
import org.openmft.bench.scenarios.fileshapes.FileSetCells;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix.FileSet;

/** The write-ups of the two-queue-manager sections: medians, pair-by-pair ratios, IBM's cell shapes. */
class ChannelReportsTest {
    private static final FileShapeRun.Cpu CPU = new FileShapeRun.Cpu(4_000_000_000L, 1_000_000_000L, 1_000_000_000L,
            2_000_000_000L);

    private static ChannelRun run(String cell, String variant, int rep, long bytes, double seconds) {
        return new ChannelRun(cell, variant, rep, bytes, 1, (long) (seconds * 1e9), CPU, 0, null);
    }

    @Test
    void theLoadNoteStatesTheLoadAndClaimsNothingAboutWhoElseRan() {
        String note = ChannelReports.busyNote(0.48, 5.15, Map.of("cores (available to the JVM)", "2"));
        assertThat(note).contains("0.48 when the section started and 5.15 when it ended, on 2 cores")
                .contains("this section's own processes").doesNotContain("engineers").doesNotContain("busy machine");
        assertThat(ChannelReports.busyNote(Double.NaN, Double.NaN, Map.of())).contains("unknown");
    }

    @Test
    void ratesInIbmsUnitAndCpuAsAShareOfTheCores() {
        ChannelRun r = run("c", "v", 1, 2000 * Scale.MIB, 89.44);
        assertThat(r.ibmMegabits()).isCloseTo(2000 * 8 / 89.44, within(1e-9));
        assertThat(r.cpuPercent(r.cpu().source(), 2)).isCloseTo(100.0 / (89.44 * 2), within(1e-9));
        assertThat(ChannelReports.ibmTime(89.44)).isEqualTo("89.44 s");
        assertThat(ChannelReports.ibmRate(1056.8)).isEqualTo("1,056.80 Mb");
        assertThat(ChannelReports.ibmPercent(14.2)).isEqualTo("14%");
        assertThat(ChannelReports.ibmTime(Double.NaN)).isEqualTo("—");
    }

    @Test
    void ratiosArePairedWithinARepetitionAndFailuresAreNotFigures() {
        List<ChannelRun> runs = new ArrayList<>(List.of(run("c", "a", 1, 100_000_000, 1), run("c", "b", 1, 100_000_000, 2),
                run("c", "a", 2, 100_000_000, 4), run("c", "b", 2, 100_000_000, 2)));
        runs.add(new ChannelRun("c", "a", 3, 100_000_000, 1, 1, CPU, 0, "broken"));
        // Repetition 1: a is twice b's rate; repetition 2: half; the median of 2 and 0.5.
        assertThat(ChannelRun.medianRatio(runs, "c", "a", "b")).isCloseTo(1.25, within(1e-9));
        assertThat(ChannelRun.median(runs, "c", "a", ChannelRun::seconds)).isCloseTo(2.5, within(1e-9));
        assertThat(ChannelRun.failures(runs)).containsExactly("c, a, repetition 3: broken");
        assertThat(ChannelRun.rates(runs, "c", "a")).isEqualTo("100, 25, —");
        assertThat(runs.get(4).csv()).endsWith(",\"broken\"\n").startsWith("\"c\",\"a\",3,");
    }

    @Test
    void latencyIsEachRunAgainstItsOwnWindowAtZeroInTheSameRepetition() throws Exception {
        List<ChannelRun> runs = List.of(run("RTT 0 ms", LatencySuite.FIXED, 1, 1_000_000_000, 10),
                run("RTT 25 ms", LatencySuite.FIXED, 1, 1_000_000_000, 20),
                run("RTT 0 ms", LatencySuite.FIXED, 2, 1_000_000_000, 5),
                run("RTT 25 ms", LatencySuite.FIXED, 2, 1_000_000_000, 20),
                run("RTT 0 ms", LatencySuite.ADAPTIVE, 1, 1_000_000_000, 10),
                run("RTT 25 ms", LatencySuite.ADAPTIVE, 1, 1_000_000_000, 11));
        LatencyReport report = new LatencyReport(runs, "honoured by this build");
        assertThat(report.fractionOfZero(LatencySuite.FIXED, 25)).isCloseTo((0.5 + 0.25) / 2, within(1e-9));
        assertThat(report.fractionOfZero(LatencySuite.ADAPTIVE, 25)).isCloseTo(10.0 / 11, within(1e-9));
        assertThat(report.fractionOfZero(LatencySuite.ADAPTIVE, 100)).isNaN();
        String md = report.markdown("RUN\n", "BUSY", "", List.of());
        assertThat(md).contains("| 25 ms | 20.00 s | 50.0 | **38%** | 11.00 s | 90.9 | **91%** |")
                .contains("| 100 ms | — |").contains("| 59.36 | 100% |").contains("| 18.91 | 32% |");
    }

    @Test
    void seed000ChannelsRowsHaveIbmsShapeBesideOurs() {
        FileSet set = new FileSet(2000, Scale.MIB, 1);
        FileSetCells.Cell md5 = new FileSetCells.Cell(set, false, true, false);
        List<ChannelRun> runs = List.of(run(md5.id(), FileShapesOverChannels.ONE, 1, set.totalBytes(), 10),
                run(md5.id(), FileShapesOverChannels.TWO, 1, set.totalBytes(), 20));
        String md = new FileShapesOverChannelsReport(List.of(set), runs, 2, "TOPOLOGY").markdown("RUN\n", "BUSY", "", List.of());
        assertThat(md).contains("| Source:1MB SingleTransfer | MD5 | 10.00 s | 1,600.00 Mb | 20.00 s | **800.00 Mb** |"
                + " 3% | 3% | 5% | 50% | 13% | 14% | 122.30 s | 133.97 Mb | 6.1x |");
        assertThat(md).contains("**This run: TOPOLOGY.**");
        // The cell without a run is reported as not measured, IBM's figure still beside it.
        assertThat(md).contains("| Source:1MB SingleTransfer | none | — | — | — | **—** |").contains("89.44 s");
    }

    @Test
    void seed002FindsTheBestChunkSizeOfEachRow() {
        FileSet set = new FileSet(1000, Scale.MIB, 1);
        FileSetCells.Cell cell = new FileSetCells.Cell(set, true, true, false);
        List<ChannelRun> runs = List.of(run(ChunkSizeTables.cellId(262144, cell), ChunkSizeTables.VARIANT, 1, set.totalBytes(), 9),
                run(ChunkSizeTables.cellId(524288, cell), ChunkSizeTables.VARIANT, 1, set.totalBytes(), 8));
        ChunkSizeTablesReport report = new ChunkSizeTablesReport(List.of(set), List.of(262144, 524288), runs, 2,
                "TOPOLOGY");
        assertThat(report.bestChunk(cell)).contains(524288);
        assertThat(ChunkSizeTablesReport.ibmBest(cell).orElseThrow().seconds()).isEqualTo(88.28);
        String md = report.markdown("RUN\n", "BUSY", "", List.of());
        assertThat(md).contains("### 262144 ChunkSize").contains("| Source:1MB Single Transfer |")
                .contains("| 1MB Single Instance Transfer | 8.00 s | 524288 Bytes | 88.28 s | 524288 Bytes |")
                .contains("101.19 s | 80.95 Mb | 11.2x |");
    }

    @Test
    void channelOptionsRotateTheirOrderAndGiveEveryPairItsOwnAgents() {
        assertThat(ChannelOptionsSuite.rotate(List.of(1, 2, 3), 1)).containsExactly(2, 3, 1);
        assertThat(ChannelOptionsSuite.rotate(List.of(1, 2, 3), 3)).containsExactly(1, 2, 3);
        Map<String, TwoQueueManagers.Pair> pairs = ChannelOptionsSuite.pairs();
        List<String> agents = new ArrayList<>();
        pairs.values().forEach(p -> {
            agents.add(p.source());
            agents.add(p.destination());
        });
        assertThat(agents).doesNotHaveDuplicates().hasSize(10);
        assertThat(ChannelOptionsSuite.settingOf("openmft.compression=zstd")).containsEntry("openmft.compression", "zstd");
        assertThat(ChannelOptionsSuite.settingOf(ChannelOptionsSuite.multi(true)))
                .containsEntry("agentMultipleChannelsEnabled", "true");
        Map<ChannelRun, Long> wire = new HashMap<>();
        ChannelRun r = run("text, 100 Mbit/s", "openmft.compression=lz4", 1, 1000, 1);
        wire.put(r, 400L);
        assertThat(new ChannelOptionsReport(List.of(r), wire).wireRatio("text, 100 Mbit/s", "openmft.compression=lz4"))
                .isCloseTo(0.4, within(1e-9));
        assertThat(Path.of(ChannelOptionsSuite.NAME)).isNotNull();
    }
}
