package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.harness.ConnectionMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import org.openmft.bench.scenarios.fileshapes.FileShapeIbmFigures.Figure;

class FileShapeIbmFiguresTest {
    private static final int[] CHUNKS = {65536, 131072, 262144, 524288};
    private static final int[] FILE_MB = {1, 10, 100};
    /** 2 GiB (2048 MiB) in megabits: IBM's rate is this over the transfer time. */
    private static final double MEGABITS = 2048 * 8;

    private static String key(ConnectionMode mode, int chunk, boolean text, boolean md5, int mb, boolean parallel) {
        return mode + " " + chunk + (text ? " text" : " binary") + (md5 ? " md5 " : " none ") + mb + " MB"
                + (parallel ? " multi" : " single");
    }

    private static String key(Figure f) {
        return key(f.mode(), f.chunkBytes(), f.text(), f.md5(), f.fileMegabytes(), f.parallel());
    }

    private static Figure cell(ConnectionMode mode, int chunk, boolean text, boolean md5, int mb, boolean parallel) {
        return FileShapeIbmFigures.find(mode, chunk, text, md5, mb, parallel)
                .orElseThrow(() -> new AssertionError("no row for " + key(mode, chunk, text, md5, mb, parallel)));
    }

    @Test
    void everyCellOfTheReportIsThereExactlyOnce() {
        // The report has all 32 tables; the resource documents no missing rows.
        List<String> expected = new ArrayList<>();
        for (ConnectionMode mode : ConnectionMode.values()) {
            for (int chunk : CHUNKS) {
                for (boolean text : new boolean[] {true, false}) {
                    for (boolean md5 : new boolean[] {false, true}) {
                        for (boolean parallel : new boolean[] {false, true}) {
                            for (int mb : FILE_MB) {
                                expected.add(key(mode, chunk, text, md5, mb, parallel));
                            }
                        }
                    }
                }
            }
        }
        assertThat(expected).hasSize(192).doesNotHaveDuplicates();
        List<String> actual = FileShapeIbmFigures.all().stream().map(FileShapeIbmFiguresTest::key).toList();
        assertThat(actual).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
        Map<ConnectionMode, Integer> perMode = new HashMap<>();
        FileShapeIbmFigures.all().forEach(f -> perMode.merge(f.mode(), 1, Integer::sum));
        assertThat(perMode).containsEntry(ConnectionMode.BINDINGS, 96).containsEntry(ConnectionMode.CLIENT, 96);
    }

    @Test
    void rateTimesTimeIsTwoGibibytes() {
        assertThat(FileShapeIbmFigures.all()).allSatisfy(f -> assertThat(f.seconds() * f.megabitsPerSecond())
                .as("seconds x rate of %s (%s)", key(f), f.where()).isCloseTo(MEGABITS, within(MEGABITS / 100)));
    }

    @Test
    void percentagesAndTimesAreSane() {
        assertThat(FileShapeIbmFigures.all()).allSatisfy(f -> {
            assertThat(List.of(f.coordCpuPercent(), f.agent1CpuPercent(), f.agent2CpuPercent()))
                    .as("CPU of %s", key(f)).allSatisfy(p -> assertThat(p).isBetween(0.0, 100.0));
            assertThat(f.seconds()).as("time of %s", key(f)).isPositive();
        });
    }

    @Test
    void onlyClientRowsHaveAnAgentQueueManagerCpu() {
        // Client mode: one queue manager on its own machine serves both agents ("AgentQ-CPU"); bindings mode has
        // a queue manager on each agent's machine and no such column.
        assertThat(FileShapeIbmFigures.all()).filteredOn(f -> f.mode() == ConnectionMode.CLIENT).hasSize(96)
                .allSatisfy(f -> assertThat(f.agentQmCpuPercent()).as("AgentQ-CPU of %s", key(f))
                        .isBetween(0.0, 100.0));
        assertThat(FileShapeIbmFigures.all()).filteredOn(f -> f.mode() == ConnectionMode.BINDINGS).hasSize(96)
                .allSatisfy(f -> assertThat(f.agentQmCpuPercent()).as("AgentQ-CPU of %s", key(f)).isNaN());
    }

    @Test
    void eachRowSaysWhereItIsAndTheHeadingAgrees() {
        Pattern line = Pattern.compile("text line (\\d+)$");
        int previous = 0;
        for (Figure f : FileShapeIbmFigures.all()) {
            String w = f.where();
            assertThat(w).as("where of %s", key(f)).startsWith(f.mode() == ConnectionMode.BINDINGS ? "2.1." : "2.2.")
                    .contains(f.chunkBytes() + " chunk").contains(f.text() ? "Text Mode" : "Binary Mode");
            assertThat(w.contains("MD5")).as("where of %s", key(f)).isEqualTo(f.md5());
            Matcher m = line.matcher(w);
            assertThat(m.find()).as("where of %s", key(f)).isTrue();
            int n = Integer.parseInt(m.group(1));
            assertThat(n).as("rows in report order: %s", key(f)).isGreaterThan(previous);
            previous = n;
        }
    }

    @Test
    void agreesWithTheFiguresSeed000Quotes() {
        ConnectionMode b = ConnectionMode.BINDINGS;
        assertThat(cell(b, 262144, false, true, 100, false).seconds()).isEqualTo(46.89)
                .isEqualTo(HeadlineCellIbmFigures.SAME_CELL.seconds()).isEqualTo(HeadlineCellIbmFigures.FIGURES.get(0).seconds());
        assertThat(cell(b, 131072, false, true, 100, false).seconds()).isEqualTo(45.55)
                .isEqualTo(HeadlineCellIbmFigures.FIGURES.get(1).seconds());
        assertThat(cell(b, 524288, false, false, 100, false).seconds()).isEqualTo(30.98)
                .isEqualTo(HeadlineCellIbmFigures.FIGURES.get(2).seconds());
        assertThat(cell(b, 262144, false, true, 100, true).seconds()).isEqualTo(17.48)
                .isEqualTo(HeadlineCellIbmFigures.FIGURES.get(3).seconds());
        assertThat(cell(b, 262144, false, false, 100, true).seconds()).isEqualTo(15.50)
                .isEqualTo(HeadlineCellIbmFigures.FIGURES.get(4).seconds());
        // HeadlineCellIbmFigures's "best chunk size" claims hold across the four chunk sizes.
        for (int chunk : CHUNKS) {
            assertThat(cell(b, chunk, false, true, 100, false).seconds()).isGreaterThanOrEqualTo(45.55);
            assertThat(cell(b, chunk, false, false, 100, false).seconds()).isGreaterThanOrEqualTo(30.98);
        }
        assertThat(FileShapeIbmFigures.all()).filteredOn(f -> f.mode() == b && f.fileMegabytes() == 100)
                .allSatisfy(f -> assertThat(f.seconds()).isGreaterThanOrEqualTo(15.50));
    }

    @Test
    void spotChecksAgainstTheReport() {
        Figure f = cell(ConnectionMode.BINDINGS, 131072, true, true, 1, false);
        assertThat(f.seconds()).isEqualTo(118.10);
        assertThat(f.megabitsPerSecond()).isEqualTo(138.73);
        assertThat(cell(ConnectionMode.BINDINGS, 131072, false, false, 10, true).megabitsPerSecond())
                .isEqualTo(1062.03);
        // Table 2.1.1.4 prints 1MB Multi before 100MB Single; the rows keep the labels as printed.
        assertThat(cell(ConnectionMode.BINDINGS, 65536, false, true, 1, true).seconds()).isEqualTo(35.33);
        assertThat(cell(ConnectionMode.BINDINGS, 65536, false, true, 100, false).seconds()).isEqualTo(46.66);
        // Client tables have an extra AgentQ-CPU first column (7%), which is not Coord-CPU (2%).
        // Text line 539 (2.2.1.1): "Source:1MB SingleTransfer  7%  2%  10%  9%  119.01 s  137.67 Mb"
        Figure c = cell(ConnectionMode.CLIENT, 65536, true, false, 1, false);
        assertThat(new double[] {c.agentQmCpuPercent(), c.coordCpuPercent(), c.agent1CpuPercent(),
                c.agent2CpuPercent(), c.seconds(), c.megabitsPerSecond()}).containsExactly(7, 2, 10, 9, 119.01, 137.67);
        // Text line 595 (2.2.2.1): "Source:1MB MultiTransfer  10%  5%  12%  12%  91.84 s  178.39 Mb"
        Figure multi = cell(ConnectionMode.CLIENT, 131072, true, false, 1, true);
        assertThat(new double[] {multi.agentQmCpuPercent(), multi.coordCpuPercent(), multi.agent1CpuPercent(),
                multi.agent2CpuPercent(), multi.seconds()}).containsExactly(10, 5, 12, 12, 91.84);
        // Text line 751 (2.2.4.4): "Source:100MB MultiTransfer  8%  2%  13%  13%  82.07 s  199.64 Mb"
        Figure last = cell(ConnectionMode.CLIENT, 524288, false, true, 100, true);
        assertThat(new double[] {last.agentQmCpuPercent(), last.coordCpuPercent(), last.agent1CpuPercent(),
                last.agent2CpuPercent(), last.seconds()}).containsExactly(8, 2, 13, 13, 82.07);
    }

    private static List<Figure> parse(String csv) throws IOException {
        return FileShapeIbmFigures.parse(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void parseRejectsMalformedLinesNamingThem() throws IOException {
        String header = "# comment\nmode,chunk_bytes,transfer_mode,checksum,file_mb,transfers,agentq_cpu_pct,"
                + "coord_cpu_pct,agent1_cpu_pct,agent2_cpu_pct,seconds,rate_mbit,where\n";
        String good = "bindings,65536,text,none,1,single,,2,15,14,113.61,144.21,2.1.1.1 Text Mode, text line 256\n";
        assertThat(parse(header + good)).singleElement().extracting(Figure::where)
                .isEqualTo("2.1.1.1 Text Mode, text line 256");
        String client = "client,65536,text,none,1,single,7,2,10,9,119.01,137.67,2.2.1.1 Text Mode / text line 539\n";
        assertThat(parse(header + client)).singleElement().satisfies(f -> {
            assertThat(f.agentQmCpuPercent()).isEqualTo(7);
            assertThat(f.coordCpuPercent()).isEqualTo(2);
        });
        assertThat(parse(header + good)).singleElement().satisfies(f -> assertThat(f.agentQmCpuPercent()).isNaN());
        assertThatThrownBy(() -> parse(header + good + "bindings,65536,text,none,1,single,,2,15,14,113.61\n"))
                .isInstanceOf(IOException.class).hasMessageContaining("line 4").hasMessageContaining("13 fields");
        // The old 12-field layout (no agentq_cpu_pct) is refused, not read shifted by one column.
        assertThatThrownBy(() -> parse(header + "client,65536,text,none,1,single,2,10,9,119.01,137.67,2.2.1.1\n"))
                .isInstanceOf(IOException.class).hasMessageContaining("line 3").hasMessageContaining("13 fields");
        assertThatThrownBy(() -> parse(header + client.replace(",single,7,", ",single,,")))
                .isInstanceOf(IOException.class).hasMessageContaining("line 3").hasMessageContaining("agentq_cpu_pct");
        assertThatThrownBy(() -> parse(header + good.replace(",single,,", ",single,7,")))
                .isInstanceOf(IOException.class).hasMessageContaining("line 3").hasMessageContaining("bindings");
        assertThatThrownBy(() -> parse(header + "\n" + good.replace(",none,", ",sha1,")))
                .isInstanceOf(IOException.class).hasMessageContaining("line 4").hasMessageContaining("sha1");
        assertThatThrownBy(() -> parse(header + good.replace(",14,", ",14%,")))
                .isInstanceOf(IOException.class).hasMessageContaining("line 3").hasMessageContaining("14%");
    }
}
