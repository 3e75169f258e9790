package org.openmft.bench.scenarios.channels;

import org.openmft.bench.Scale;
import org.openmft.bench.Section;
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
 * The rate by agentChunkSize, file size and number of transfers across two queue managers
 * ({@code --scenario chunk-sizes}, formerly {@code seed002}), in the shape of the bindings tables of
 * "WebSphere MQ V7.5 Managed File Transfer Performance Report for Windows" (2012, seed 002).
 *
 * <p>IBM's 2012 report for WebSphere MQ 7.5
 * ran two queue managers joined by channels (in a cluster), each agent bound to its own, and moved
 * 1 GB of text files as 1000 x 1 MB, 100 x 10 MB or 10 x 100 MB, as one transfer or as ten, at
 * agentChunkSize 65536, 131072, 262144 and 524288. This runs every one of those cells on
 * {@link TwoProcesses} (each queue manager with its agent in a process of its own), one pair of
 * queue managers per chunk size.
 */
public final class ChunkSizeTables implements Section {
    static final String NAME = "seed002";
    static final String VARIANT = "two queue managers";
    static final String CHUNK_SIZES_PROPERTY = "openmft.bench.seed002.chunkSizes";

    /**
     * How big a run is.
     *
     * @param sets        the file sets
     * @param chunkSizes  agentChunkSize values, a pair of queue managers each
     * @param repetitions measured repetitions unless --repetitions says otherwise
     */
    record RunScale(String name, List<FileSet> sets, List<Integer> chunkSizes, int repetitions) {
        static final RunScale FULL = new RunScale("full", List.of(new FileSet(1000, Scale.MIB, 1),
                new FileSet(100, 10 * Scale.MIB, 10), new FileSet(10, 100 * Scale.MIB, 100)),
                List.of(65_536, 131_072, 262_144, 524_288), 1);
        static final RunScale QUICK = new RunScale("quick", List.of(new FileSet(10, 256 * 1024, 1),
                new FileSet(10, Scale.MIB, 10), new FileSet(10, 4 * Scale.MIB, 100)), List.of(65_536, 262_144), 1);

        /**
         * Only some of the chunk sizes, as the system property {@value #CHUNK_SIZES_PROPERTY} lists them
         * (comma-separated), for a run that has not the time for all four; none given: this scale.
         */
        RunScale withChunkSizes(String property) {
            if (property == null || property.isBlank()) {
                return this;
            }
            List<Integer> sizes = java.util.Arrays.stream(property.split(",")).map(String::trim).map(Integer::valueOf)
                    .toList();
            return new RunScale(name + " (agentChunkSize " + property.trim() + " only)", sets, sizes, repetitions);
        }

        String describe(int reps) {
            return "**" + name + "**: " + String.join(", ", sets.stream().map(FileSet::label).toList())
                    + "; text, MD5, one transfer and " + FileShapeMatrix.PARALLEL_TRANSFERS + "; agentChunkSize "
                    + String.join(", ", chunkSizes.stream().map(String::valueOf).toList()) + "; " + reps
                    + (reps == 1 ? " repetition" : " repetitions");
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String scenario() {
        return "chunk-sizes";
    }

    /** IBM's rows in its order: every set as one transfer, then every set as ten. */
    static List<FileSetCells.Cell> cells(List<FileSet> sets) {
        List<FileSetCells.Cell> cells = new ArrayList<>();
        for (boolean parallel : new boolean[] {false, true}) {
            for (FileSet set : sets) {
                cells.add(new FileSetCells.Cell(set, true, true, parallel));
            }
        }
        return cells;
    }

    /** "65536 Source:1MB SingleTransfer": cells of different chunk sizes apart. */
    static String cellId(int chunkBytes, FileSetCells.Cell cell) {
        return chunkBytes + " " + cell.id();
    }

    @Override
    public Outcome run(Context context) throws Exception {
        RunScale scale = (context.quick() ? RunScale.QUICK : RunScale.FULL)
                .withChunkSizes(System.getProperty(CHUNK_SIZES_PROPERTY));
        int reps = context.repetitions() != null ? context.repetitions() : scale.repetitions();
        double loadAtStart = CpuClock.loadAverage();
        Instant started = Instant.now();
        context.log("%s: %s", NAME, scale.describe(reps).replace("**", ""));
        FileShapeFiles files = FileShapeFiles.generate(context.work().resolve("files"), scale.sets(), false, true);
        List<ChannelRun> runs = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        String topology = null;
        Path dist = Distribution.locate();
        try {
            for (int chunk : scale.chunkSizes()) {
                Map<String, String> props = FileShapeMatrix.agentProperties(context.agentProperties(), chunk);
                try (TwoProcesses two = TwoProcesses.start(dist, context.work().resolve("two-" + chunk),
                        context.work(), "SRCA", "DSTB", props, m -> context.log("%s", m))) {
                    topology = two.topology();
                    FileSetCells.Agents agents = FileSetCells.on(two);
                    FileSetCells.Cell warm = cells(scale.sets()).get(0);
                    ChannelRun w = FileSetCells.run(files, warm, VARIANT, 0, agents,
                            files.sources(warm.set(), true).subList(0, FileShapeMatrix.PARALLEL_TRANSFERS));
                    context.log("  %d warm-up %s", chunk, w.logLine());
                    if (!w.ok()) {
                        failures.add("warm-up at agentChunkSize " + chunk + ": " + w.failure());
                        continue;
                    }
                    for (int rep = 1; rep <= reps; rep++) {
                        for (FileSetCells.Cell cell : cells(scale.sets())) {
                            ChannelRun r = FileSetCells.run(files, cell, VARIANT, rep, agents);
                            r = new ChannelRun(cellId(chunk, cell), r.variant(), r.repetition(), r.bytes(), r.files(),
                                    r.wallNanos(), r.cpu(), r.resends(), r.failure());
                            ChannelReports.record(context, runs, r);
                        }
                    }
                } finally {
                    ChannelReports.deleteUnlessKept(context, context.work().resolve("two-" + chunk));
                }
            }
        } finally {
            ChannelReports.deleteUnlessKept(context, context.work().resolve("files"));
        }
        Instant ended = Instant.now();
        ChannelReports.finish(context, NAME, runs, failures);
        ChunkSizeTablesReport report = new ChunkSizeTablesReport(scale.sets(), scale.chunkSizes(), runs,
                ChannelReports.cores(), topology);
        String md = report.markdown(context.runTable(started, ended, scale.describe(reps)) + "| agents | "
                + ChannelReports.properties(FileShapeMatrix.agentProperties(context.agentProperties(), 0))
                        .replace("`agentChunkSize=0`, ", "agentChunkSize of each table; ") + " |\n",
                ChannelReports.busyNote(loadAtStart, CpuClock.loadAverage(), context.machine()),
                report.chart(context.images(), context.imagesLink()), failures);
        return new Outcome(md, failures);
    }
}
