package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.harness.TestFiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.openmft.bench.report.JsonFiles;

import com.fasterxml.jackson.databind.JsonNode;
import org.openmft.bench.scenarios.fileshapes.FileShapeIbmFigures.Figure;
import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix.FileSet;
import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix.MatrixScale;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun.Cell;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun.Cpu;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun.Group;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun.Kind;

/** The seed 000 matrix's arithmetic and write-up, from synthetic runs and IBM figures. */
class FileShapeReportTest {
    private static final FileSet SET = new FileSet(20, 100 * Scale.MIB, 100);
    private static final MatrixScale SCALE = new MatrixScale("test", List.of(SET), List.of(65_536, 262_144), 2, false);
    private static final Group SMALL = new Group(ConnectionMode.BINDINGS, 65_536, SET);
    private static final Group LARGE = new Group(ConnectionMode.BINDINGS, 262_144, SET);
    private static final Cell WITH_FIGURE = new Cell(LARGE, false, true, false);
    /** Bindings: IBM has no agent queue manager of its own here, so no AgentQ-CPU. */
    private static final Figure FIGURE = new Figure(ConnectionMode.BINDINGS, 262_144, false, true, 100, false,
            Double.NaN, 2, 25, 50, 46.89, 349.4, "table 2.1.2.8");
    private static final Group CLIENT = new Group(ConnectionMode.CLIENT, 262_144, SET);
    private static final Cell CLIENT_CELL = new Cell(CLIENT, true, false, false);
    /** Client: AgentQ-CPU 8% of the agent queue manager's 8-vCPU machine. */
    private static final Figure CLIENT_FIGURE = new Figure(ConnectionMode.CLIENT, 262_144, true, false, 100, false,
            8, 2, 10, 9, 82.97, 197.46, "table 2.2.3.1");
    private static final Function<Cell, Optional<Figure>> IBM = c -> c.equals(WITH_FIGURE) ? Optional.of(FIGURE)
            : c.equals(CLIENT_CELL) ? Optional.of(CLIENT_FIGURE) : Optional.empty();

    @Test
    void timesFasterIsIbmsTimeOverOursForTheSameBytesAndComparesRatesForFewer() {
        assertThat(FileShapeReport.timesFaster(9.378, FileShapeReport.IBM_SET_BYTES, FIGURE))
                .isCloseTo(5.0, within(1e-3));
        // Half IBM's bytes in the same time is half the rate.
        assertThat(FileShapeReport.timesFaster(9.378, FileShapeReport.IBM_SET_BYTES / 2, FIGURE))
                .isCloseTo(2.5, within(1e-3));
        // 25% of 4 vCPUs over 40 s.
        assertThat(FileShapeReport.ibmCpuSeconds(25, 40)).isCloseTo(40.0, within(1e-9));
    }

    @Test
    void ibmsAgentQueueManagerCpuIsOfItsOwnEightVcpuMachineAndOnlyInClientMode() {
        assertThat(FileShapeReport.IBM_AGENT_QM_VCPUS).isEqualTo(8);
        // 8% of 8 vCPUs over 82.97 s.
        assertThat(FileShapeReport.ibmQmCpuSeconds(CLIENT_FIGURE)).isCloseTo(53.1008, within(1e-9));
        assertThat(FileShapeReport.ibmQmCpuSeconds(FIGURE)).isNaN();
    }

    @Test
    void clientCellsShowIbmsAgentQueueManagerCpuAndBindingsCellsADash() {
        List<FileShapeRun> runs = List.of(raw(LARGE, 1, 2_000_000_000L), agent(WITH_FIGURE, 1, 9_378_000_000L, null),
                raw(CLIENT, 1, 2_000_000_000L), agent(CLIENT_CELL, 1, 16_594_000_000L, null));
        FileShapeReport report = report(runs, List.of());
        String md = report.markdown("", "");

        assertThat(md).contains("| IBM CPU s source / destination | IBM CPU s QM | x faster |")
                .contains("had a machine of its own, of 8 vCPUs")
                // bindings: IBM's queue managers are inside its agents' figures
                .contains("| 46.89 | 46.9 / 93.8 | — | **5.0x** |")
                // client: 10% and 9% of 4 vCPUs, 8% of 8 vCPUs, over 82.97 s
                .contains("| 262144 | text | none | one | 16.59 |")
                .contains("| 82.97 | 33.2 / 29.9 | 53.1 | **5.0x** |");
        String csv = report.csv();
        assertThat(csv.lines().findFirst().orElseThrow())
                .contains(",ibm_cpu_source_s,ibm_cpu_destination_s,ibm_cpu_qm_s,x_faster,");
        assertThat(csv).contains(",46.8900,46.8900,93.7800,,5.0000,")
                .contains(",82.9700,33.1880,29.8692,53.1008,5.0000,");
        Section.Context context = new Section.Context(false, null, java.nio.file.Path.of("work"),
                java.nio.file.Path.of("results"), java.nio.file.Path.of("img"), "img", Map.of(), "abc123", Map.of(),
                false, line -> { });
        String json = report.json(context, java.time.Instant.EPOCH, java.time.Instant.EPOCH.plusSeconds(60));
        JsonNode runNodes = JsonFiles.read(json).get("runs");
        assertThat(runNodes.findValues("ibm_cpu_destination_s")).extracting(JsonNode::asDouble).contains(93.78)
                .anySatisfy(v -> assertThat(v).isCloseTo(29.8692, within(1e-4)));
        assertThat(runNodes.findValues("ibm_cpu_qm_s")).anySatisfy(v -> assertThat(v.isNull()).isTrue())
                .anySatisfy(v -> assertThat(v.asDouble()).isCloseTo(53.1008, within(1e-4)));
    }

    @Test
    void eachCellIsComparedWithTheRawJmsRunOfItsOwnGroupAndRepetition() {
        List<FileShapeRun> runs = new ArrayList<>();
        // Raw JMS rates differ by group and repetition: 1000, 2000, 4000, 8000 MB/s worth of time.
        runs.add(raw(SMALL, 1, SET.totalBytes() / 1000));
        runs.add(raw(LARGE, 1, SET.totalBytes() / 2000));
        runs.add(raw(SMALL, 2, SET.totalBytes() / 4000));
        runs.add(raw(LARGE, 2, SET.totalBytes() / 8000));
        FileShapeRun small1 = agent(new Cell(SMALL, false, true, false), 1, SET.totalBytes() / 500, null);
        FileShapeRun large2 = agent(WITH_FIGURE, 2, SET.totalBytes() / 2000, null);
        runs.add(small1);
        runs.add(large2);
        FileShapeReport report = report(runs, List.of());

        assertThat(report.rawJmsFor(small1)).contains(runs.get(0));
        assertThat(report.rawJmsFor(large2)).contains(runs.get(3));
        // Twice the raw run's time is half its rate; a quarter of the rate for large2.
        assertThat(FileShapeReport.fractionOfRaw(small1, runs.get(0))).isCloseTo(0.5, within(1e-9));
        assertThat(FileShapeReport.fractionOfRaw(large2, report.rawJmsFor(large2).orElseThrow()))
                .isCloseTo(0.25, within(1e-9));
        assertThat(report.csv()).contains(",50.0000,").contains(",25.0000,");
    }

    @Test
    void theMarkdownShowsIbmsFigureWhereThereIsOneAndNaElsewhere() {
        List<FileShapeRun> runs = List.of(raw(LARGE, 1, 2_000_000_000L), agent(WITH_FIGURE, 1, 9_378_000_000L, null),
                raw(SMALL, 1, 2_000_000_000L), agent(new Cell(SMALL, true, false, true), 1, 20_000_000_000L, null));
        String md = report(runs, List.of()).markdown("| run | |\n|---|---|\n", "");

        assertThat(md).contains("| 262144 | binary | MD5 | one | 9.38 |")
                .contains("| 46.89 | 46.9 / 93.8 | — | **5.0x** |")
                .contains("| 65536 | text | none | 10 parallel | 20.00 |").contains("| n/a | n/a | n/a | n/a |")
                .contains("1 of 1").doesNotContain("### Failures");
        assertThat(report(runs, List.of()).failures()).isEmpty();
    }

    @Test
    void failedRunsAndOtherFailuresReachTheOutcomeAndTheMarkdown() {
        FileShapeRun bad = agent(WITH_FIGURE, 1, 1_000_000_000L, "destination check failed: file-01.bin: MD5 x");
        FileShapeReport report = report(List.of(raw(LARGE, 1, 2_000_000_000L), bad),
                List.of("7 cells at agentChunkSize 262144 not measured"));

        assertThat(report.failures()).containsExactly(WITH_FIGURE.label() + " repetition 1: "
                + "destination check failed: file-01.bin: MD5 x", "7 cells at agentChunkSize 262144 not measured");
        String md = report.markdown("", "");
        assertThat(md).contains("**failed**").contains("### Failures").contains("7 cells at agentChunkSize 262144");
        assertThat(report.csv()).contains(",false,destination check failed: file-01.bin: MD5 x");
    }

    @Test
    void peersAreComparedWithTheAgentCellTheyRanBeside() {
        Cell beside = new Cell(LARGE, false, false, false);
        FileShapeRun agent = agent(beside, 1, 6_000_000_000L, null);
        FileShapeRun cp = new FileShapeRun(Kind.PEER, LARGE, null, "cp", 1, SET.totalBytes(), SET.count(),
                2_000_000_000L, Cpu.total(1_500_000_000L), 0, null);
        FileShapeReport report = new FileShapeReport(SCALE, List.of(raw(LARGE, 1, 1), agent, cp), IBM,
                List.of(new FileShapeReport.PeerInfo("cp", "`cp`", null),
                        new FileShapeReport.PeerInfo("rsync", "rsync", "rsync is not installed")),
                List.of(), true, Map.of());

        assertThat(report.agentBeside(cp)).contains(agent);
        assertThat(report.markdown("", "")).contains("| `cp` | 20 x 100 MiB | 2.00 |").contains("| 6.00 | 3.0 |")
                .contains("| rsync | all | not run: rsync is not installed |");
    }

    @Test
    void parallelCellsSplitTheFilesIntoTenTransfersOfATenthEach() {
        List<Integer> files = java.util.stream.IntStream.range(0, 25).boxed().toList();
        List<List<Integer>> parts = FileShapeMatrix.split(files, FileShapeMatrix.PARALLEL_TRANSFERS);
        assertThat(parts).hasSize(10).allMatch(p -> p.size() == 2 || p.size() == 3);
        assertThat(parts.stream().flatMap(List::stream).toList()).isEqualTo(files);
        assertThat(FileShapeMatrix.split(files.subList(0, 20), 10)).allMatch(p -> p.size() == 2);
    }

    @Test
    void theMatrixSetsTheChunkSizeAndIbmsLimitsWhateverTheRunnerPasses() {
        Map<String, String> p = FileShapeMatrix.agentProperties(Map.of("agentChunkSize", "262144",
                "maxSourceTransfers", "5", "agentWindowSize", "20"), 65_536);
        assertThat(p).containsEntry("agentChunkSize", "65536").containsEntry("maxSourceTransfers", "25")
                .containsEntry("maxDestinationTransfers", "25").containsEntry("agentWindowSize", "20");
        assertThat(MatrixScale.FULL.cellsPerRepetition()).isEqualTo(192);
        assertThat(MatrixScale.FULL.fileSets()).allMatch(s -> s.totalBytes() == FileShapeReport.IBM_SET_BYTES);
    }

    @Test
    void textModeWithLfAndAnAsciiCompatibleCharsetIsTheIdentity() {
        assertThat(FileShapeFiles.textConversionIsIdentity(java.nio.charset.StandardCharsets.UTF_8, "\n")).isTrue();
        assertThat(FileShapeFiles.textConversionIsIdentity(java.nio.charset.StandardCharsets.UTF_8, "\r\n"))
                .isFalse();
        assertThat(FileShapeFiles.textConversionIsIdentity(java.nio.charset.Charset.forName("IBM1047"), "\n"))
                .isFalse();
    }

    @Test
    void textFilesArePrintableAsciiLinesEndedByLfAndTheirConvertedFormIsComputedIndependently(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path file = dir.resolve("t.txt");
        String md5 = FileShapeFiles.writeText(file, 5000, 1);
        byte[] bytes = java.nio.file.Files.readAllBytes(file);
        assertThat(bytes).hasSize(5000);
        assertThat(bytes[4999]).isEqualTo((byte) '\n');
        for (byte b : bytes) {
            assertThat(b == '\n' || b >= 0x20 && b < 0x7f).as("byte %d", b).isTrue();
        }
        assertThat(md5).isEqualTo(TestFiles.md5(file));
        String crlf = new String(bytes, java.nio.charset.StandardCharsets.US_ASCII).replace("\n", "\r\n");
        java.nio.file.Path expected = dir.resolve("crlf.txt");
        java.nio.file.Files.writeString(expected, crlf, java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(FileShapeFiles.convertedMd5(file, java.nio.charset.StandardCharsets.UTF_8, "\r\n"))
                .isEqualTo(TestFiles.md5(expected));
    }

    @Test
    void issue18FiguresPairEachPeerWithTheAgentsOfItsOwnRepetitionAndFindTheWorstParallelCell() {
        Cell none = new Cell(LARGE, false, false, false);
        Cell md5 = new Cell(LARGE, false, true, false);
        Cell noneParallel = new Cell(LARGE, false, false, true);
        Cell md5Parallel = new Cell(LARGE, false, true, true);
        List<FileShapeRun> runs = new ArrayList<>();
        // Repetition 1: agents 6 s (none), 9 s (MD5); repetition 2: 8 s and 12 s. Peers 4 s and 4 s, 6 s and 6 s.
        runs.add(agent(none, 1, 6_000_000_000L, null));
        runs.add(agent(md5, 1, 9_000_000_000L, null));
        runs.add(agent(noneParallel, 1, 5_000_000_000L, null));
        runs.add(agent(md5Parallel, 1, 9_900_000_000L, null));
        runs.add(peer("rsync-I-fsync", 1, 4_000_000_000L));
        runs.add(peer("rsync-I-fsync-md5", 1, 6_000_000_000L));
        runs.add(peer("cp-sync", 1, 3_000_000_000L));
        runs.add(agent(none, 2, 8_000_000_000L, null));
        runs.add(agent(md5, 2, 12_000_000_000L, null));
        runs.add(agent(noneParallel, 2, 6_000_000_000L, null));
        runs.add(agent(md5Parallel, 2, 13_200_000_000L, null));
        runs.add(peer("rsync-I-fsync", 2, 4_000_000_000L));
        runs.add(peer("rsync-I-fsync-md5", 2, 6_000_000_000L));

        Map<String, Double> h = report(runs, List.of()).headline();

        // none: 6/4 and 8/4, median 1.75; MD5: 9/6 and 12/6, median 1.75; cp-sync only in repetition 1: 6/3.
        assertThat(h.get(org.openmft.bench.report.Goals.SET100_NONE_OVER_RSYNC)).isCloseTo(1.75, within(1e-9));
        assertThat(h.get(org.openmft.bench.report.Goals.SET100_MD5_OVER_RSYNC)).isCloseTo(1.75, within(1e-9));
        assertThat(h.get(org.openmft.bench.report.Goals.SET100_NONE_OVER_CP_SYNC)).isCloseTo(2.0, within(1e-9));
        assertThat(h.get(org.openmft.bench.report.Goals.SET100_MD5_SECONDS)).isCloseTo(10.5, within(1e-9));
        // MD5 in parallel: 9.9/9 and 13.2/12, 1.1 both; the no-checksum cell is faster in parallel.
        assertThat(h.get(org.openmft.bench.report.Goals.PARALLEL_OVER_ONE_WORST)).isCloseTo(1.1, within(1e-9));
        assertThat(h.get(org.openmft.bench.report.Goals.PARALLEL_SLOWER_CELLS)).isEqualTo(1.0);
        // No 1 MB set in this scale: nothing to say about the per-file goal.
        assertThat(h.get(org.openmft.bench.report.Goals.SET2000_OVER_RSYNC)).isNull();
    }

    private static FileShapeRun peer(String id, int rep, long wallNanos) {
        return new FileShapeRun(Kind.PEER, LARGE, null, id, rep, SET.totalBytes(), SET.count(), wallNanos,
                Cpu.total(1), 0, null);
    }

    private static FileShapeReport report(List<FileShapeRun> runs, List<String> otherFailures) {
        return new FileShapeReport(SCALE, runs, IBM, List.of(), otherFailures, true, Map.of());
    }

    private static FileShapeRun raw(Group group, int rep, long wallNanos) {
        return new FileShapeRun(Kind.RAW_JMS, group, null, null, rep, SET.totalBytes(), 0, wallNanos, Cpu.total(1), 0,
                null);
    }

    private static FileShapeRun agent(Cell cell, int rep, long wallNanos, String failure) {
        return new FileShapeRun(Kind.AGENT, cell.group(), cell, null, rep, SET.totalBytes(), SET.count(), wallNanos,
                new Cpu(3_000_000_000L, 1_000_000_000L, 1_000_000_000L, 1_000_000_000L), 0, failure);
    }
}
