package org.openmft.bench.scenarios.channels;

import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.report.Charts;
import org.openmft.bench.report.Report;
import org.openmft.bench.scenarios.fileshapes.FileSetCells;
import org.openmft.bench.scenarios.fileshapes.FileShapeIbmFigures;
import org.openmft.bench.scenarios.fileshapes.FileShapeReport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.openmft.bench.scenarios.fileshapes.FileShapeIbmFigures.Figure;
import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix.FileSet;

/**
 * {@code seed000-channels} written up: each cell on two queue managers beside the same cell on one
 * and beside IBM's bindings figure, in the shape of IBM's tables. Pure: everything comes from the runs.
 */
final class FileShapesOverChannelsReport {
    private final List<FileSet> sets;
    private final List<ChannelRun> runs;
    private final int cores;
    private final String topology;

    /** @param topology where the two queue managers ran ({@code TwoProcesses.topology()}), null if nowhere */
    FileShapesOverChannelsReport(List<FileSet> sets, List<ChannelRun> runs, int cores, String topology) {
        this.sets = List.copyOf(sets);
        this.runs = List.copyOf(runs);
        this.cores = cores;
        this.topology = topology;
    }

    /** IBM's bindings figure for {@code cell} at agentChunkSize {@value FileShapesOverChannels#CHUNK_BYTES}. */
    static Optional<Figure> ibm(FileSetCells.Cell cell) {
        return FileShapeIbmFigures.find(ConnectionMode.BINDINGS, FileShapesOverChannels.CHUNK_BYTES, cell.text(), cell.md5(),
                cell.set().ibmFileMegabytes(), cell.parallel());
    }

    private double median(FileSetCells.Cell cell, String variant, java.util.function.ToDoubleFunction<ChannelRun> f) {
        return ChannelRun.median(runs, cell.id(), variant, f);
    }

    String markdown(String runTable, String busyNote, String chart, List<String> failures) {
        StringBuilder md = new StringBuilder("## Seed 000's bindings topology: two queue managers joined by channels\n\n");
        md.append("IBM's seed 000 bindings figures come from two queue managers on two machines, each agent bound to its"
                + " own, the queue managers joined by sender/receiver channels. This section runs that topology:"
                + " queue managers QMA and QMB joined by channels both ways (Artemis core bridges, defined as `mft qmgr"
                + " channel create` defines them), the source agent bound to QMA, the destination agent to QMB, and the"
                + " request naming `destinationAgent QMgr=QMB`, so that every chunk and every acknowledgement crosses"
                + " a channel. Beside it, in the same repetition, the same cell on one queue manager with both agents"
                + " bound to it (the topology of `--scenario seed000`), and IBM's figure for the cell (binary,"
                + " bindings, agentChunkSize ").append(FileShapesOverChannels.CHUNK_BYTES).append(", one transfer).\n\n");
        md.append(ChannelReports.processesParagraph(topology, cores)).append(" The one queue manager beside it runs"
                + " in the benchmark's JVM with both agents, as `--scenario seed000` runs it. Each cell is timed from"
                + " the first request put on the source agent's COMMAND queue to the final reply; every destination"
                + " file is then compared with its source, outside the timed interval. Figures are medians of the"
                + " repetitions; \"two / one\" is taken pair by pair within each repetition, then its median.\n\n");
        md.append(busyNote).append("\n\n").append(runTable).append('\n');
        md.append("| Test | checksum | one QM: Transfer Time | one QM: Transfer Rate | two QMs: Transfer Time"
                + " | two QMs: Transfer Rate | two QMs: Agent1-CPU | two QMs: Agent2-CPU | two QMs: QMs-CPU"
                + " | two / one (rate) | IBM: Agent1-CPU | IBM: Agent2-CPU | IBM: Transfer Time | IBM: Transfer Rate"
                + " | x faster than IBM (two QMs) |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (FileSetCells.Cell cell : FileShapesOverChannels.cells(sets)) {
            Optional<Figure> f = ibm(cell);
            double twoSeconds = median(cell, FileShapesOverChannels.TWO, ChannelRun::seconds);
            long bytes = cell.set().totalBytes();
            md.append("| ").append(cell.ibmTest()).append(" | ").append(cell.md5() ? "MD5" : "none").append(" | ")
                    .append(ChannelReports.ibmTime(median(cell, FileShapesOverChannels.ONE, ChannelRun::seconds))).append(" | ")
                    .append(ChannelReports.ibmRate(median(cell, FileShapesOverChannels.ONE, ChannelRun::ibmMegabits)))
                    .append(" | ").append(ChannelReports.ibmTime(twoSeconds)).append(" | **")
                    .append(ChannelReports.ibmRate(median(cell, FileShapesOverChannels.TWO, ChannelRun::ibmMegabits)))
                    .append("** | ")
                    .append(ChannelReports.ibmPercent(median(cell, FileShapesOverChannels.TWO,
                            r -> r.cpuPercent(r.cpu().source(), cores)))).append(" | ")
                    .append(ChannelReports.ibmPercent(median(cell, FileShapesOverChannels.TWO,
                            r -> r.cpuPercent(r.cpu().destination(), cores)))).append(" | ")
                    .append(ChannelReports.ibmPercent(median(cell, FileShapesOverChannels.TWO,
                            r -> r.cpuPercent(r.cpu().queueManager(), cores)))).append(" | ")
                    .append(Report.pct(ChannelRun.medianRatio(runs, cell.id(), FileShapesOverChannels.TWO, FileShapesOverChannels.ONE)))
                    .append(" | ").append(f.map(x -> ChannelReports.ibmPercent(x.agent1CpuPercent())).orElse("n/a"))
                    .append(" | ").append(f.map(x -> ChannelReports.ibmPercent(x.agent2CpuPercent())).orElse("n/a"))
                    .append(" | ").append(f.map(x -> ChannelReports.ibmTime(x.seconds())).orElse("n/a"))
                    .append(" | ").append(f.map(x -> ChannelReports.ibmRate(x.megabitsPerSecond())).orElse("n/a"))
                    .append(" | ").append(f.map(x -> ChannelReports.times(
                            FileShapeReport.timesFaster(twoSeconds, bytes, x))).orElse("n/a")).append(" |\n");
        }
        md.append('\n');
        md.append("- **Transfer Rate** is IBM's \"Mb\": megabits per second of 2^20-byte megabytes (IBM's rates times"
                + " its times give 8 x 2048 for its \"2 GB\" sets); MB/s of every run are in the CSV.\n");
        md.append("- **CPU** (two QMs): ").append(ChannelReports.processesCpuNote(cores)).append(" IBM's are"
                + " percentages of each agent's own 4-vCPU machine.\n");
        md.append("- **x faster than IBM**: IBM's time, scaled to the bytes moved here, over the two queue managers'"
                + " time.\n\n");
        md.append(ChannelReports.end(chart, failures, FileShapesOverChannels.NAME, "The full scale moves IBM's sets (2000 MiB each)"
                + " through both topologies, about 15 minutes with 3 repetitions; `--quick` moves 20 files of 256 KiB,"
                + " 1 MiB and 4 MiB, a check rather than figures, in about a minute (half of it starting the two"
                + " processes)."));
        return md.toString();
    }

    /** Transfer Rate by cell: one queue manager, two, IBM. */
    String chart(Path images, String imagesLink) throws IOException {
        List<String> categories = new ArrayList<>();
        Map<String, List<Double>> series = new LinkedHashMap<>();
        series.put("one queue manager", new ArrayList<>());
        series.put("two queue managers (channels)", new ArrayList<>());
        series.put("IBM MQ MFT 9.0.5 (seed 000, bindings)", new ArrayList<>());
        for (FileSetCells.Cell cell : FileShapesOverChannels.cells(sets)) {
            categories.add(cell.set().label() + (cell.md5() ? " MD5" : " none"));
            series.get("one queue manager").add(median(cell, FileShapesOverChannels.ONE, ChannelRun::ibmMegabits));
            series.get("two queue managers (channels)").add(median(cell, FileShapesOverChannels.TWO, ChannelRun::ibmMegabits));
            series.get("IBM MQ MFT 9.0.5 (seed 000, bindings)").add(ibm(cell).map(Figure::megabitsPerSecond)
                    .orElse(Double.NaN));
        }
        return Charts.bars(images, imagesLink, FileShapesOverChannels.NAME + "-rate.png",
                "Seed 000 bindings topology: binary, agentChunkSize " + FileShapesOverChannels.CHUNK_BYTES + ", one transfer",
                "Transfer Rate (Mb, IBM's unit)", categories, series);
    }
}
