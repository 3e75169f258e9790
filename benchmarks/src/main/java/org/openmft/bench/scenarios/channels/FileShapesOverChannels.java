package org.openmft.bench.scenarios.channels;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Section;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.harness.Distribution;
import org.openmft.bench.harness.TwoProcesses;
import org.openmft.bench.measure.CpuClock;
import org.openmft.bench.scenarios.fileshapes.FileSetCells;
import org.openmft.bench.scenarios.fileshapes.FileShapeFiles;
import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix.FileSet;

/**
 * The file-shape cells across channels ({@code --scenario file-shapes-channels}, formerly
 * {@code seed000-channels}): what joining two queue managers costs against one, in the bindings
 * topology of "IBM MQ 9.0.5 Managed File Transfer Performance Report for Windows" (2018, seed 000).
 *
 * <p>Seed 000's bindings topology as IBM ran it: each agent bound to its own queue manager, each
 * queue manager with its agent in a process of its own (in two network namespaces when run as
 * root), the two joined by channels ({@link TwoProcesses}); the
 * binary cells of 2000 x 1 MiB, 200 x 10 MiB and 20 x 100 MiB, MD5 and none, one transfer, at IBM's
 * default agentChunkSize; each beside the same cell on one queue manager (both agents bound to it,
 * as {@code --scenario seed000} runs, in this JVM) in the same repetition, and beside IBM's figure.
 */
public final class FileShapesOverChannels implements Section {
    static final String NAME = "seed000-channels";
    static final String ONE = "one queue manager";
    static final String TWO = "two queue managers";
    static final int CHUNK_BYTES = BenchmarkRunner.CHUNK_SIZE;

    /**
     * How big a run is.
     *
     * @param name        "full" or "quick"
     * @param sets        the file sets
     * @param repetitions measured repetitions unless --repetitions says otherwise
     */
    record RunScale(String name, List<FileSet> sets, int repetitions) {
        static final RunScale FULL = new RunScale("full", FileShapeMatrix.MatrixScale.FULL.fileSets(), 3);
        static final RunScale QUICK = new RunScale("quick", FileShapeMatrix.MatrixScale.QUICK.fileSets(), 2);

        String describe(int reps) {
            return "**" + name + "**: " + String.join(", ", sets.stream().map(FileSet::label).toList())
                    + "; binary, MD5 and none, one transfer; agentChunkSize " + CHUNK_BYTES + "; " + reps
                    + (reps == 1 ? " repetition" : " repetitions") + " of every cell on both topologies";
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String scenario() {
        return "file-shapes-channels";
    }

    /** The cells, in the order they run. */
    static List<FileSetCells.Cell> cells(List<FileSet> sets) {
        List<FileSetCells.Cell> cells = new ArrayList<>();
        for (FileSet set : sets) {
            for (boolean md5 : new boolean[] {true, false}) {
                cells.add(new FileSetCells.Cell(set, false, md5, false));
            }
        }
        return cells;
    }

    @Override
    public Outcome run(Context context) throws Exception {
        RunScale scale = context.quick() ? RunScale.QUICK : RunScale.FULL;
        int reps = context.repetitions() != null ? context.repetitions() : scale.repetitions();
        Map<String, String> props = FileShapeMatrix.agentProperties(context.agentProperties(), CHUNK_BYTES);
        double loadAtStart = CpuClock.loadAverage();
        Instant started = Instant.now();
        context.log("%s: %s", NAME, scale.describe(reps).replace("**", ""));
        FileShapeFiles files = FileShapeFiles.generate(context.work().resolve("files"), scale.sets(), true, false);
        List<ChannelRun> runs = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        EmbeddedMft.Pair onePair = new EmbeddedMft.Pair("SRC1", "DST1", ConnectionMode.BINDINGS);
        String topology;
        try (EmbeddedMft one = EmbeddedMft.start(context.work().resolve("one"), context.work(), List.of(onePair),
                a -> props);
                TwoProcesses two = TwoProcesses.start(Distribution.locate(), context.work().resolve("two"),
                        context.work(), "SRCA", "DSTB", props, m -> context.log("%s", m))) {
            topology = two.topology();
            context.log("one queue manager in this JVM, and two in %s joined by channels: running", topology);
            Map<String, FileSetCells.Agents> agents = Map.of(ONE, FileSetCells.on(one, onePair), TWO,
                    FileSetCells.on(two));
            List<FileSetCells.Cell> cells = cells(scale.sets());
            for (String variant : List.of(ONE, TWO)) {
                FileSetCells.Cell warm = cells.get(0);
                ChannelRun w = FileSetCells.run(files, warm, variant, 0, agents.get(variant),
                        files.sources(warm.set(), false).subList(0, FileShapeMatrix.PARALLEL_TRANSFERS));
                context.log("  warm-up %s", w.logLine());
                if (!w.ok()) {
                    failures.add("warm-up on " + variant + ": " + w.failure());
                }
            }
            for (int rep = 1; rep <= reps && failures.isEmpty(); rep++) {
                // Which topology goes first alternates, so that neither always runs on a cooler machine.
                List<String> order = rep % 2 == 1 ? List.of(ONE, TWO) : List.of(TWO, ONE);
                for (FileSetCells.Cell cell : cells) {
                    for (String variant : order) {
                        ChannelRun r = FileSetCells.run(files, cell, variant, rep, agents.get(variant));
                        ChannelReports.record(context, runs, r);
                    }
                }
            }
        } finally {
            ChannelReports.deleteUnlessKept(context, context.work().resolve("files"));
            ChannelReports.deleteUnlessKept(context, context.work().resolve("two"));
        }
        Instant ended = Instant.now();
        ChannelReports.finish(context, NAME, runs, failures);
        FileShapesOverChannelsReport report = new FileShapesOverChannelsReport(scale.sets(), runs, ChannelReports.cores(),
                topology);
        String md = report.markdown(context.runTable(started, ended, scale.describe(reps)) + "| agents | "
                + ChannelReports.properties(props) + " |\n",
                ChannelReports.busyNote(loadAtStart, CpuClock.loadAverage(), context.machine()),
                report.chart(context.images(), context.imagesLink()), failures);
        return new Outcome(md, failures);
    }
}
