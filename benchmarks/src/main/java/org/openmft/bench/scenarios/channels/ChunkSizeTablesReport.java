package org.openmft.bench.scenarios.channels;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.report.Charts;
import org.openmft.bench.scenarios.fileshapes.FileSetCells;
import org.openmft.bench.scenarios.transfer.Summary;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix.FileSet;
import org.openmft.bench.scenarios.channels.ChunkSizeIbmFigures.Figure;

/**
 * {@code seed002} written up in the shape of seed 002's tables: one table per agentChunkSize (its
 * tables 1 to 4) with IBM's row beside ours, then the best chunk size per row (its table 5). Pure.
 */
final class ChunkSizeTablesReport {
    /** The bytes of each of IBM's sets, as the full scale moves them: 1000 x 1 MiB and so on. */
    static final long IBM_SET_BYTES = 1000 * Scale.MIB;

    private final List<FileSet> sets;
    private final List<Integer> chunkSizes;
    private final List<ChannelRun> runs;
    private final int cores;
    private final String topology;

    /** @param topology where the two queue managers ran ({@code TwoProcesses.topology()}), null if nowhere */
    ChunkSizeTablesReport(List<FileSet> sets, List<Integer> chunkSizes, List<ChannelRun> runs, int cores,
            String topology) {
        this.sets = List.copyOf(sets);
        this.chunkSizes = List.copyOf(chunkSizes);
        this.runs = List.copyOf(runs);
        this.cores = cores;
        this.topology = topology;
    }

    /** IBM's row name: "Source:1MB Single Transfer". */
    static String test(FileSetCells.Cell cell) {
        return "Source:" + cell.set().ibmFileMegabytes() + "MB " + (cell.parallel() ? "Multi" : "Single") + " Transfer";
    }

    /** Table 5's row name: "1MB Single Instance Transfer". */
    static String summaryTest(FileSetCells.Cell cell) {
        return cell.set().ibmFileMegabytes() + "MB " + (cell.parallel() ? "Multi" : "Single") + " Instance Transfer";
    }

    static Optional<Figure> ibm(int chunk, FileSetCells.Cell cell) {
        return ChunkSizeIbmFigures.find(chunk, cell.set().ibmFileMegabytes(), cell.parallel());
    }

    /** IBM's time, scaled to the bytes moved here, over ours. */
    static double timesFaster(double ourSeconds, long ourBytes, Figure ibm) {
        return ibm.seconds() * ((double) ourBytes / IBM_SET_BYTES) / ourSeconds;
    }

    double seconds(int chunk, FileSetCells.Cell cell) {
        return median(chunk, cell, ChannelRun::seconds);
    }

    private double median(int chunk, FileSetCells.Cell cell, java.util.function.ToDoubleFunction<ChannelRun> f) {
        return ChannelRun.median(runs, ChunkSizeTables.cellId(chunk, cell), ChunkSizeTables.VARIANT, f);
    }

    /** The chunk size of the shortest median time for {@code cell}, if any ran. */
    Optional<Integer> bestChunk(FileSetCells.Cell cell) {
        return chunkSizes.stream().filter(c -> !Double.isNaN(seconds(c, cell)))
                .min(Comparator.comparingDouble(c -> seconds(c, cell)));
    }

    /** IBM's chunk size of the shortest time for {@code cell}, from its tables 1 to 4. */
    static Optional<Figure> ibmBest(FileSetCells.Cell cell) {
        return ChunkSizeIbmFigures.all().stream().filter(f -> f.fileMegabytes() == cell.set().ibmFileMegabytes()
                && f.parallel() == cell.parallel()).min(Comparator.comparingDouble(Figure::seconds));
    }

    String markdown(String runTable, String busyNote, String chart, List<String> failures) {
        StringBuilder md = new StringBuilder("## Seed 002: WebSphere MQ 7.5's bindings tables on two queue managers\n\n");
        md.append("IBM's 2012 report for WebSphere MQ 7.5 MFT (seed 002) ran each agent bound to its own queue manager,"
                + " the two queue managers joined by sender/receiver channels and clustered with a third, the"
                + " coordination queue manager; it moved 1 GB of text files (\"1000 files\" of 1 MB, 100 of 10 MB or 10"
                + " of 100 MB) in text mode, as one transfer or as ten submitted at once, at four agentChunkSize values."
                + " This section runs every one of its bindings cells on QMA and QMB joined by channels, a fresh pair"
                + " of queue managers for each chunk size. There is no cluster and no"
                + " coordination queue manager here: the request names `destinationAgent QMgr=QMB` and the channels"
                + " route it, as IBM's cluster routed by queue manager name. The report does not say which checksum"
                + " its transfers used; IBM's default is MD5, which these use. Text mode with no encodings named is"
                + " the identity on these files (printable ASCII lines, LF ends), so every destination must equal its"
                + " source byte for byte; each is checked outside the timed interval.\n\n");
        md.append(ChannelReports.processesParagraph(topology, cores)).append("\n\n");
        md.append(busyNote).append("\n\n").append(runTable).append('\n');
        md.append(ChannelReports.processesCpuNote(cores)).append(" IBM's are percentages of each"
                + " machine, queue managers included; its Coord-CPU is the coordination queue manager, which these"
                + " runs do not have. Transfer Rate is IBM's \"Mb\" (megabits per second of 2^20-byte megabytes:"
                + " IBM's rates times its times give 8 x 1024). x faster is IBM's time, scaled to the bytes moved"
                + " here (IBM's sets taken as 1000 MiB), over ours.\n\n");
        for (int chunk : chunkSizes) {
            md.append("### ").append(chunk).append(" ChunkSize\n\n");
            md.append("| Test | Agent1- CPU | Agent2- CPU | QMs- CPU | Transfer Time | Transfer Rate | IBM: Agent1- CPU"
                    + " | IBM: Agent2- CPU | IBM: Coord- CPU | IBM: Transfer Time | IBM: Transfer Rate | x faster |\n");
            md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
            for (FileSetCells.Cell cell : ChunkSizeTables.cells(sets)) {
                Optional<Figure> f = ibm(chunk, cell);
                double s = seconds(chunk, cell);
                md.append("| ").append(test(cell)).append(" | ")
                        .append(ChannelReports.ibmPercent(median(chunk, cell, r -> r.cpuPercent(r.cpu().source(), cores))))
                        .append(" | ").append(ChannelReports.ibmPercent(median(chunk, cell,
                                r -> r.cpuPercent(r.cpu().destination(), cores))))
                        .append(" | ").append(ChannelReports.ibmPercent(median(chunk, cell,
                                r -> r.cpuPercent(r.cpu().queueManager(), cores))))
                        .append(" | ").append(ChannelReports.ibmTime(s)).append(" | **")
                        .append(ChannelReports.ibmRate(median(chunk, cell, ChannelRun::ibmMegabits))).append("** | ")
                        .append(f.map(x -> x.agent1Cpu() + "%").orElse("n/a")).append(" | ")
                        .append(f.map(x -> x.agent2Cpu() + "%").orElse("n/a")).append(" | ")
                        .append(f.map(x -> x.coordCpu() + "%").orElse("n/a")).append(" | ")
                        .append(f.map(x -> ChannelReports.ibmTime(x.seconds())).orElse("n/a")).append(" | ")
                        .append(f.map(x -> ChannelReports.ibmRate(x.megabitsPerSecond())).orElse("n/a")).append(" | ")
                        .append(f.map(x -> ChannelReports.times(timesFaster(s, cell.set().totalBytes(), x))).orElse("n/a"))
                        .append(" |\n");
            }
            md.append('\n');
        }
        md.append("### Test Summary: best transfer speeds\n\n");
        md.append("| File Size and Transfer Type | Transfer Time | Chunk size | IBM: Transfer Time | IBM: Chunk size |\n");
        md.append("|---|---|---|---|---|\n");
        for (FileSetCells.Cell cell : ChunkSizeTables.cells(sets)) {
            Optional<Integer> best = bestChunk(cell);
            Optional<Figure> ibmBest = ibmBest(cell);
            md.append("| ").append(summaryTest(cell)).append(" | ")
                    .append(best.map(c -> ChannelReports.ibmTime(seconds(c, cell))).orElse("—")).append(" | ")
                    .append(best.map(c -> c + " Bytes").orElse("—")).append(" | ")
                    .append(ibmBest.map(f -> ChannelReports.ibmTime(f.seconds())).orElse("n/a")).append(" | ")
                    .append(ibmBest.map(f -> f.chunkBytes() + " Bytes").orElse("n/a")).append(" |\n");
        }
        md.append("\nOurs is the best of the chunk sizes this run measured (").append(String.join(", ",
                chunkSizes.stream().map(String::valueOf).toList())).append("); IBM's of its four.");
        md.append(" IBM's table 5 prints 65536 as 65635 and 524288 as 524228; its best rows are taken here from its"
                + " tables 1 to 4, which they match.\n\n");
        md.append(ChannelReports.end(chart, failures, ChunkSizeTables.NAME, "The full scale moves IBM's sets (1000 MiB each) in all"
                + " 24 cells once; `--quick` moves 10 files of 256 KiB, 1 MiB and 4 MiB at 2 chunk sizes, a check"
                + " rather than figures, in two to three minutes (most of it starting a pair of processes for each"
                + " chunk size)."));
        return md.toString();
    }

    /** Transfer Rate by row at IBM's default chunk size (or the largest run) and at each side's best. */
    String chart(Path images, String imagesLink) throws IOException {
        int chunk = chunkSizes.contains(BenchmarkRunner.CHUNK_SIZE) ? BenchmarkRunner.CHUNK_SIZE
                : chunkSizes.get(chunkSizes.size() - 1);
        List<String> categories = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        String ours = "OpenMFT, agentChunkSize " + chunk;
        String theirs = "WebSphere MQ 7.5 MFT, agentChunkSize " + chunk;
        String oursBest = "OpenMFT, best chunk size";
        String theirsBest = "WebSphere MQ 7.5 MFT, best chunk size";
        for (String s : List.of(ours, theirs, oursBest, theirsBest)) {
            series.put(s, new ArrayList<>());
        }
        for (FileSetCells.Cell cell : ChunkSizeTables.cells(sets)) {
            categories.add(cell.set().ibmFileMegabytes() + "MB " + (cell.parallel() ? "Multi" : "Single"));
            series.get(ours).add(median(chunk, cell, ChannelRun::ibmMegabits));
            series.get(theirs).add(ibm(chunk, cell).map(Figure::megabitsPerSecond).orElse(Double.NaN));
            series.get(oursBest).add(bestChunk(cell).map(c -> median(c, cell, ChannelRun::ibmMegabits)).orElse(Double.NaN));
            series.get(theirsBest).add(ibmBest(cell).map(Figure::megabitsPerSecond).orElse(Double.NaN));
        }
        return Charts.bars(images, imagesLink, ChunkSizeTables.NAME + "-rate.png",
                "Seed 002 bindings tables on two queue managers: text mode, 1 GB sets", "Transfer Rate (Mb, IBM's unit)",
                categories, series);
    }
}
