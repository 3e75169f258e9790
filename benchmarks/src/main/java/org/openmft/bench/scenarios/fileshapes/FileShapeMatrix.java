package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.harness.TestFiles;
import org.openmft.bench.measure.TransferCpu;
import org.openmft.bench.peers.Peer;
import org.openmft.bench.peers.Peers;
import org.openmft.bench.peers.RawJms;
import org.openmft.bench.report.Report;
import org.openmft.bench.scenarios.transfer.Sample;
import org.openmft.bench.scenarios.transfer.Scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.Mode;
import org.openmft.xml.TransferItem;

/**
 * The file-shape matrix ({@code --scenario file-shapes}, formerly {@code seed000}): what the shape of
 * a set of files (many small, some medium, few large), the chunk size, text or binary, the checksum,
 * one transfer or ten and the connection mode do to the rate, cell by cell as IBM measured them in
 * "IBM MQ 9.0.5 Managed File Transfer Performance Report for Windows" (2018, seed 000).
 *
 * <p>IBM's seed 000 matrix on the embedded queue manager: 2 GB of files as
 * 2000 x 1 MiB, 200 x 10 MiB and 20 x 100 MiB; agentChunkSize 65536 to 524288; text and binary; MD5
 * and none; one transfer of all the files or the same files as 10 transfers put at once; bindings
 * and client agents. 192 cells, each beside the raw JMS ceiling of its group and IBM's own figure.
 *
 * <p>One {@link EmbeddedMft} per chunk size (its four agents all have that agentChunkSize). Within
 * it, each repetition runs, for every file set and connection mode, the raw JMS put/get of the same
 * bytes in messages of the chunk size, then the group's eight cells; at the chunk size the peers run
 * at ({@link MatrixScale#peerChunkBytes()}), every peer runs on the binary files right after the
 * bindings binary, no-checksum, single-transfer cell. Every destination file is checked after every
 * run, outside the timed interval. A transfer that times out ends the measuring on that queue
 * manager (the transfer may still be running): the cells left are reported as not measured.
 */
public final class FileShapeMatrix implements Section {
    /** The multi-transfer cells: the files split into this many transfers, all requested at once. */
    public static final int PARALLEL_TRANSFERS = 10;

    /**
     * Concurrency limits of every agent: IBM's defaults (25 each, reference §"Concurrency and
     * limits"), which IBM's runs used ("Default properties were used for agents, except for
     * agentChunkSize", seed 000 §4.1). Any --agent value for these keys is overridden.
     */
    static final Map<String, String> IBM_AGENT_SETTINGS = Map.of("maxSourceTransfers", "25",
            "maxDestinationTransfers", "25");

    // Rough rates for the duration estimate printed before a run (the report states none of them).
    private static final double ASSUMED_AGENT_MB_S = 200;
    private static final double ASSUMED_MD5_MB_S = 450;
    private static final double ASSUMED_RAW_JMS_MB_S = 350;
    private static final double ASSUMED_WRITE_MB_S = 300;
    private static final double ASSUMED_SECONDS_PER_RUN = 1;

    /**
     * The files of one set, all of one size.
     *
     * @param count             how many files (at least {@link #PARALLEL_TRANSFERS})
     * @param fileBytes         the size of each
     * @param ibmFileMegabytes  the file size of IBM's set this one stands for: 1, 10 or 100
     */
    public record FileSet(int count, long fileBytes, int ibmFileMegabytes) {
        public FileSet {
            if (count < PARALLEL_TRANSFERS || fileBytes <= 0) {
                throw new IllegalArgumentException("a file set has at least " + PARALLEL_TRANSFERS
                        + " files of at least one byte");
            }
        }

        public long totalBytes() {
            return count * fileBytes;
        }

        /** "2000 x 1 MiB". */
        public String label() {
            return count + " x " + Report.size(fileBytes);
        }

        /** "2000x1MiB", for directory names, CSV and chart categories. */
        String id() {
            return label().replace(" ", "");
        }
    }

    /**
     * How big a run of the matrix is.
     *
     * @param name        "full", "quick" or a test's own
     * @param fileSets    the file sets, in the order they run
     * @param chunkSizes  agentChunkSize values, one queue manager each, in the order they run
     * @param repetitions measured repetitions unless --repetitions says otherwise
     * @param warmUp      whether each queue manager gets a warm-up round before measuring (a test's
     *                    tiny scale, which measures nothing, saves the time)
     */
    public record MatrixScale(String name, List<FileSet> fileSets, List<Integer> chunkSizes, int repetitions,
            boolean warmUp) {
        /** IBM's matrix: 3 file sets of 2000 MiB, 4 chunk sizes; one repetition (192 x 2000 MiB). */
        public static final MatrixScale FULL = new MatrixScale("full", List.of(new FileSet(2000, Scale.MIB, 1),
                new FileSet(200, 10 * Scale.MIB, 10), new FileSet(20, 100 * Scale.MIB, 100)),
                List.of(65_536, 131_072, 262_144, 524_288), 1, true);
        /** Every dimension, small files and two chunk sizes: a check that everything works. */
        public static final MatrixScale QUICK = new MatrixScale("quick", List.of(new FileSet(20, 256 * 1024, 1),
                new FileSet(20, Scale.MIB, 10), new FileSet(20, 4 * Scale.MIB, 100)), List.of(65_536, 262_144), 1,
                true);

        public MatrixScale {
            fileSets = List.copyOf(fileSets);
            chunkSizes = List.copyOf(chunkSizes);
            if (fileSets.isEmpty() || chunkSizes.isEmpty() || repetitions < 1) {
                throw new IllegalArgumentException("a matrix needs a file set, a chunk size and a repetition");
            }
        }

        MatrixScale withRepetitions(int n) {
            return new MatrixScale(name, fileSets, chunkSizes, n, warmUp);
        }

        /** Where the peers run: IBM's default chunk size when the scale has it, else the largest. */
        int peerChunkBytes() {
            return chunkSizes.contains(BenchmarkRunner.CHUNK_SIZE) ? BenchmarkRunner.CHUNK_SIZE
                    : chunkSizes.stream().max(Integer::compare).orElseThrow();
        }

        /** Agent cells per repetition: file sets x chunk sizes x 2 modes x 8. */
        int cellsPerRepetition() {
            return fileSets.size() * chunkSizes.size() * ConnectionMode.values().length * 8;
        }

        /** "full: 2000 x 1 MiB, 200 x 10 MiB, 20 x 100 MiB; agentChunkSize 65536, ...; 1 repetition". */
        String describe(int reps) {
            StringBuilder sb = new StringBuilder("**").append(name).append("**: ");
            sb.append(String.join(", ", fileSets.stream().map(FileSet::label).toList()));
            sb.append("; agentChunkSize ").append(String.join(", ", chunkSizes.stream().map(String::valueOf).toList()));
            sb.append("; ").append(cellsPerRepetition()).append(" cells; ").append(reps)
                    .append(reps == 1 ? " repetition" : " repetitions");
            return sb.toString();
        }
    }

    /**
     * Called after each agent cell's transfers ended well and before its destination is checked: the
     * seam through which a test damages a destination file to see the check fail.
     */
    interface AfterTransfer {
        AfterTransfer NONE = (cell, repetition, destinationDir) -> {
        };

        void transferred(FileShapeRun.Cell cell, int repetition, Path destinationDir) throws IOException;
    }

    private final MatrixScale fixedScale;
    private final AfterTransfer afterTransfer;

    /** The section as the runner runs it: full scale, or quick with --quick. */
    public FileShapeMatrix() {
        this(null, AfterTransfer.NONE);
    }

    /**
     * @param scale         the scale to run whatever the context says, or null for full or quick
     * @param afterTransfer see {@link AfterTransfer}
     */
    public FileShapeMatrix(MatrixScale scale, AfterTransfer afterTransfer) {
        this.fixedScale = scale;
        this.afterTransfer = afterTransfer;
    }

    @Override
    public String name() {
        return "seed000";
    }

    @Override
    public String scenario() {
        return "file-shapes";
    }

    @Override
    public Outcome run(Context context) throws Exception {
        MatrixScale base = fixedScale != null ? fixedScale : context.quick() ? MatrixScale.QUICK : MatrixScale.FULL;
        MatrixScale scale = context.repetitions() != null ? base.withRepetitions(context.repetitions()) : base;
        Instant started = Instant.now();
        context.log("seed000 matrix, %s; expected duration about %d min (assuming agents at %.0f MB/s)",
                scale.describe(scale.repetitions()).replace("**", ""), estimate(scale).toMinutes() + 1,
                ASSUMED_AGENT_MB_S);
        long t = System.nanoTime();
        FileShapeFiles files = FileShapeFiles.generate(context.work().resolve("files"), scale.fileSets());
        context.log("generated the files (binary and text) in %.1f s; text mode is %s here", (System.nanoTime() - t) / 1e9,
                files.textIsIdentity() ? "the identity" : "a conversion");

        Execution run = new Execution(context, scale, files);
        for (int chunk : scale.chunkSizes()) {
            run.onQueueManager(chunk);
        }
        Instant ended = Instant.now();

        FileShapeReport report = new FileShapeReport(scale, run.runs, FileShapeReport.IBM_FIGURES,
                List.copyOf(run.peerNotes.values()), run.failures, files.textIsIdentity(), agentProperties(context.agentProperties(),
                        scale.peerChunkBytes()));
        Files.createDirectories(context.results());
        Path csv = context.results().resolve("seed000-" + scale.name() + ".csv");
        Path json = context.results().resolve("seed000-" + scale.name() + ".json");
        Files.writeString(csv, report.csv());
        Files.writeString(json, report.json(context, started, ended));
        context.log("wrote %s and %s", csv, json);
        String md = report.markdown(context.runTable(started, ended, scale.describe(scale.repetitions())),
                report.charts(context.images(), context.imagesLink()));
        return new Outcome(md, report.failures(), report.headline());
    }

    /** The agent properties of the queue manager of {@code chunkBytes}: the context's, IBM's limits, the chunk size. */
    public static Map<String, String> agentProperties(Map<String, String> context, int chunkBytes) {
        Map<String, String> p = new java.util.TreeMap<>(context);
        p.putAll(IBM_AGENT_SETTINGS);
        p.put("agentChunkSize", String.valueOf(chunkBytes));
        return p;
    }

    /**
     * A rough duration: generating the files, then per cell the transfer and the check, per group the
     * raw JMS run, a second of fixed cost per run (requests, cleaning, reading ahead), the peers, and
     * starting each queue manager.
     */
    static Duration estimate(MatrixScale scale) {
        double allSetsMb = scale.fileSets().stream().mapToLong(FileSet::totalBytes).sum() / 1e6;
        int groupsPerSet = scale.chunkSizes().size() * ConnectionMode.values().length;
        double perRep = groupsPerSet * (8 * allSetsMb * (1 / ASSUMED_AGENT_MB_S + 1 / ASSUMED_MD5_MB_S)
                + allSetsMb / ASSUMED_RAW_JMS_MB_S + scale.fileSets().size() * 9 * ASSUMED_SECONDS_PER_RUN)
                + allSetsMb * (1 / ASSUMED_RAW_JMS_MB_S + 1 / ASSUMED_MD5_MB_S) // the peers, about
                + scale.chunkSizes().size() * 10.0; // starting each queue manager, the warm-up
        return Duration.ofSeconds((long) (2 * allSetsMb / ASSUMED_WRITE_MB_S + scale.repetitions() * perRep));
    }

    /** Generous: a minute plus 5 MB/s. A transfer that needs longer is a failure, not a figure. */
    static long timeoutMillis(long bytes) {
        return 60_000 + bytes / 5_000;
    }

    /** The files split into {@code n} transfers of (nearly) equal counts, in order. */
    static <T> List<List<T>> split(List<T> files, int n) {
        List<List<T>> out = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < n; i++) {
            int to = (int) ((long) files.size() * (i + 1) / n);
            out.add(List.copyOf(files.subList(from, to)));
            from = to;
        }
        return out;
    }

    /** The eight cells of a group, in the order they run. */
    static List<FileShapeRun.Cell> cells(FileShapeRun.Group group) {
        List<FileShapeRun.Cell> cells = new ArrayList<>();
        for (boolean text : new boolean[] {false, true}) {
            for (boolean md5 : new boolean[] {true, false}) {
                for (boolean parallel : new boolean[] {false, true}) {
                    cells.add(new FileShapeRun.Cell(group, text, md5, parallel));
                }
            }
        }
        return cells;
    }

    /** Whether the peers run right after {@code cell}. */
    static boolean peersFollow(FileShapeRun.Cell cell, MatrixScale scale) {
        return cell.group().mode() == ConnectionMode.BINDINGS && cell.group().chunkBytes() == scale.peerChunkBytes()
                && !cell.text() && !cell.md5() && !cell.parallel();
    }

    /** One run of the matrix: what it measured so far. */
    private final class Execution {
        final Context context;
        final MatrixScale scale;
        final FileShapeFiles files;
        final List<FileShapeRun> runs = new ArrayList<>();
        /** Failures that are not one run's: a warm-up that failed, cells left out after a time-out. */
        final List<String> failures = new ArrayList<>();
        /** Every peer by id, with why it could not run. */
        final Map<String, FileShapeReport.PeerInfo> peerNotes = new java.util.LinkedHashMap<>();
        final long startNanos = System.nanoTime();
        int cellsDone;

        Execution(Context context, MatrixScale scale, FileShapeFiles files) {
            this.context = context;
            this.scale = scale;
            this.files = files;
        }

        /** Everything measured on the queue manager whose agents use {@code chunk}. */
        void onQueueManager(int chunk) throws Exception {
            Path dir = context.work().resolve("mft-" + chunk);
            context.log("chunk size %d: starting the queue manager and agents", chunk);
            try (EmbeddedMft mft = EmbeddedMft.start(dir, agentProperties(context.agentProperties(), chunk),
                    context.work())) {
                RawJms.defineQueue(mft.connector(ConnectionMode.BINDINGS));
                if (scale.warmUp() && !warmUp(mft, chunk)) {
                    return;
                }
                List<Peer> peers = chunk == scale.peerChunkBytes()
                        ? Peers.create(context.work().resolve("peers"), mft.connector(ConnectionMode.BINDINGS))
                        : List.of();
                peers.forEach(p -> peerNotes.putIfAbsent(p.id(), new FileShapeReport.PeerInfo(p.id(), p.label(),
                        p.unavailable())));
                try {
                    measure(mft, chunk, peers);
                } finally {
                    peers.forEach(Peer::close);
                }
            } finally {
                context.log("chunk size %d: queue manager and agents stopped", chunk);
                if (!context.keep()) {
                    BenchmarkRunner.deleteTree(dir);
                }
            }
        }

        /**
         * One small transfer of each kind per connection mode, and a short raw JMS run, so that JIT
         * compilation is not counted in the first cells; checked, not reported.
         *
         * @return false when the warm-up failed and nothing should be measured on this queue manager
         */
        private boolean warmUp(EmbeddedMft mft, int chunk) throws Exception {
            FileSet set = scale.fileSets().get(0);
            int n = Math.min(set.count(), PARALLEL_TRANSFERS);
            for (ConnectionMode mode : ConnectionMode.values()) {
                Sample raw = RawJms.run(rawScenario(mode), 0, mft.connector(mode), chunk, 64L * chunk,
                        timeoutMillis(64L * chunk));
                if (!raw.ok()) {
                    failures.add("warm-up raw JMS " + mode.label + " " + chunk + ": " + raw.failure());
                    return false;
                }
                for (boolean text : new boolean[] {false, true}) {
                    FileShapeRun.Cell cell = new FileShapeRun.Cell(new FileShapeRun.Group(mode, chunk, set), text, text, text);
                    FileShapeRun r = agentCell(mft, cell, 0, files.sources(set, text).subList(0, n), AfterTransfer.NONE);
                    if (!r.ok()) {
                        failures.add("warm-up " + cell.label() + " (" + n + " files): " + r.failure()
                                + (r.wallNanos() < 0 ? "; nothing measured at chunk size " + chunk : ""));
                        return false;
                    }
                }
            }
            context.log("chunk size %d: warmed up", chunk);
            return true;
        }

        private void measure(EmbeddedMft mft, int chunk, List<Peer> peers) throws Exception {
            int planned = scale.repetitions() * scale.fileSets().size() * ConnectionMode.values().length * 8;
            int measured = 0;
            for (int rep = 1; rep <= scale.repetitions(); rep++) {
                for (FileSet set : scale.fileSets()) {
                    for (ConnectionMode mode : ConnectionMode.values()) {
                        FileShapeRun.Group group = new FileShapeRun.Group(mode, chunk, set);
                        add(rawJms(mft, group, rep));
                        for (FileShapeRun.Cell cell : cells(group)) {
                            FileShapeRun r = agentCell(mft, cell, rep, files.sources(set, cell.text()), afterTransfer);
                            add(r);
                            measured++;
                            cellsDone++;
                            progress(r);
                            if (r.wallNanos() < 0) {
                                failures.add((planned - measured) + " cells at agentChunkSize " + chunk
                                        + " not measured: the run stopped after " + cell.label() + " repetition "
                                        + rep + " timed out (the transfer may still be running)");
                                return;
                            }
                            if (peersFollow(cell, scale)) {
                                for (Peer peer : peers) {
                                    peerRun(peer, group, rep);
                                }
                            }
                        }
                    }
                }
            }
        }

        private void add(FileShapeRun r) {
            runs.add(r);
        }

        private void progress(FileShapeRun r) {
            int total = scale.cellsPerRepetition() * scale.repetitions();
            double elapsed = (System.nanoTime() - startNanos) / 1e9;
            String cpu = r.cpu().source() < 0 ? "" : String.format(java.util.Locale.ROOT,
                    "  CPU s src %.2f dst %.2f QM %.2f", r.cpu().source() / 1e9, r.cpu().destination() / 1e9,
                    r.cpu().queueManager() / 1e9);
            context.log("  %-52s %s  [%d of %d cells, about %d min left]", r.label(), r.ok()
                    ? String.format(java.util.Locale.ROOT, "%7.2f s %7.1f MB/s%s", r.seconds(), r.mbPerSecond(), cpu)
                    : "FAILED: " + r.failure(), cellsDone, total, (long) (elapsed / cellsDone * (total - cellsDone) / 60));
        }

        private FileShapeRun rawJms(EmbeddedMft mft, FileShapeRun.Group group, int rep) throws Exception {
            long bytes = group.fileSet().totalBytes();
            collectGarbage(bytes);
            Sample s = RawJms.run(rawScenario(group.mode()), rep, mft.connector(group.mode()), group.chunkBytes(), bytes,
                    timeoutMillis(bytes));
            FileShapeRun r = new FileShapeRun(FileShapeRun.Kind.RAW_JMS, group, null, null, rep, bytes, 0, s.wallNanos(),
                    FileShapeRun.Cpu.total(s.cpuNanos()), 0, s.failure());
            context.log("  %-52s %s", r.label(), r.ok() ? String.format(java.util.Locale.ROOT, "%7.2f s %7.1f MB/s",
                    r.seconds(), r.mbPerSecond()) : "FAILED: " + r.failure());
            return r;
        }

        /**
         * One agent cell: the files as one transfer or as {@link #PARALLEL_TRANSFERS}, timed from the
         * first put to the last final reply, with the CPU of the source agent, the destination agent
         * and the rest of this JVM; then every destination file checked. A time-out gives wallNanos -1.
         */
        private FileShapeRun agentCell(EmbeddedMft mft, FileShapeRun.Cell cell, int rep, List<Path> sources,
                AfterTransfer hook) throws Exception {
            files.cleanDestination();
            TestFiles.preload(sources);
            Mode mode = cell.text() ? Mode.TEXT : Mode.BINARY;
            ChecksumMethod checksum = cell.md5() ? ChecksumMethod.MD5 : ChecksumMethod.NONE;
            List<List<TransferItem>> transfers = new ArrayList<>();
            for (List<Path> part : split(sources, cell.parallel() ? PARALLEL_TRANSFERS : 1)) {
                transfers.add(part.stream().map(p -> EmbeddedMft.item(mode, p, files.destinationFor(p), checksum))
                        .toList());
            }
            long bytes = 0;
            for (Path p : sources) {
                bytes += Files.size(p);
            }
            ConnectionMode connection = cell.group().mode();
            collectGarbage(bytes);
            TransferCpu measured = TransferCpu.start(EmbeddedMft.sourceAgent(connection),
                    EmbeddedMft.destinationAgent(connection));
            long t0 = System.nanoTime();
            List<EmbeddedMft.Result> results = mft.transferAll(connection, transfers, timeoutMillis(bytes));
            long wall = System.nanoTime() - t0;
            FileShapeRun.Cpu cpu = measured.stop();
            String failure = null;
            boolean timedOut = false;
            int resends = 0;
            for (int i = 0; i < results.size(); i++) {
                EmbeddedMft.Result r = results.get(i);
                resends += r.resends();
                timedOut |= r.timedOut();
                if (r.failure() != null && failure == null) {
                    failure = results.size() == 1 ? r.failure()
                            : "transfer " + (i + 1) + " of " + results.size() + ": " + r.failure();
                }
            }
            if (failure == null) {
                hook.transferred(cell, rep, files.destinationDir);
                String bad = files.verify(sources);
                failure = bad == null ? null : "destination check failed: " + bad;
            }
            return new FileShapeRun(FileShapeRun.Kind.AGENT, cell.group(), cell, null, rep, bytes, sources.size(),
                    timedOut ? -1 : wall, cpu, resends, failure);
        }

        /** One peer on the binary files of the group's set, right after the agent's cell of the same files. */
        private void peerRun(Peer peer, FileShapeRun.Group group, int rep) throws Exception {
            if (peer.unavailable() != null) {
                return;
            }
            List<Path> sources = files.sources(group.fileSet(), false);
            long bytes = group.fileSet().totalBytes();
            files.cleanDestination();
            TestFiles.preload(sources);
            collectGarbage(bytes);
            Peer.Run r = peer.copy(sources, files.destinationDir, timeoutMillis(bytes));
            String failure = r.failure();
            if (failure == null) {
                String bad = files.verify(sources);
                failure = bad == null ? null : "destination check failed: " + bad;
            }
            FileShapeRun run = new FileShapeRun(FileShapeRun.Kind.PEER, group, null, peer.id(), rep, bytes, sources.size(),
                    r.wallNanos(), FileShapeRun.Cpu.total(r.cpuNanos()), 0, failure);
            add(run);
            context.log("  %-52s %s", run.label(), run.ok() ? String.format(java.util.Locale.ROOT,
                    "%7.2f s %7.1f MB/s", run.seconds(), run.mbPerSecond()) : "FAILED: " + run.failure());
        }
    }

    /**
     * Collects the garbage of the previous run before a run of {@code bytes}, rather than during it;
     * not worth its time before a run of a few MiB, which leaves little garbage either.
     */
    private static void collectGarbage(long bytes) {
        if (bytes >= 64 * Scale.MIB) {
            System.gc();
        }
    }

    private static Scenario rawScenario(ConnectionMode mode) {
        return mode == ConnectionMode.BINDINGS ? Scenario.RAW_JMS_BINDINGS : Scenario.RAW_JMS_CLIENT;
    }
}
