package org.openmft.bench.scenarios.filesizes;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.harness.TestFiles;
import org.openmft.bench.measure.CpuClock;
import org.openmft.bench.peers.Peer;
import org.openmft.bench.peers.Peers;
import org.openmft.bench.peers.RawJms;
import org.openmft.bench.report.Report;
import org.openmft.bench.scenarios.transfer.Sample;
import org.openmft.bench.scenarios.transfer.Scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.TransferItem;

/**
 * Rate and CPU by file size against the other tools ({@code --scenario file-sizes}, formerly
 * {@code seed003}), in the shape of Appendix C of "IBM MQ for z/OS - Managed File Transfer
 * Performance" (version 1.02, March 2021, seed 003).
 *
 * <p>Seed 003's file sizes (1 MiB, 10 MiB, 100 MiB, 1 GiB) moved by the agents, by raw JMS of the same
 * bytes, and by every peer of {@link Peers#create}, side by side in one run: see
 * {@link FileSizeReport} for what the section says. One measurement moves a batch of files of one
 * size adding up to at least {@link Plan#batchBytes()} (seed 003: at least 1024 files of 1 MB), the
 * agents as one transfer of all the batch's files. Within a file size, each repetition runs every
 * tool once, in the order of {@link #AGENTS}, raw JMS, then the peers; the first size starts with a
 * warm-up round that is not counted.
 */
public final class FileSizeSuite implements Section {
    /**
     * How big the section is.
     *
     * @param name        "full", "quick" or a test's own
     * @param fileBytes   the file sizes, smallest first
     * @param batchBytes  the least a measurement moves: a size smaller than this is a batch of files
     * @param repetitions counted repetitions of every tool at every size
     * @param warmUp      whether a round at the smallest size, not counted, comes first
     */
    record Plan(String name, List<Long> fileBytes, long batchBytes, int repetitions, boolean warmUp) {
        /** Seed 003's four sizes, at least 1 GiB a measurement (1024 × 1 MiB, as IBM did), three repetitions. */
        static final Plan FULL = new Plan("full", List.of(Scale.MIB, 10 * Scale.MIB, 100 * Scale.MIB, Scale.GIB),
                Scale.GIB, 3, true);
        /** A check that everything works, in about two minutes: no 1 GiB file, 100 MiB a measurement. */
        static final Plan QUICK = new Plan("quick", List.of(Scale.MIB, 10 * Scale.MIB, 100 * Scale.MIB),
                100 * Scale.MIB, 2, true);

        Plan {
            fileBytes = List.copyOf(fileBytes);
            if (fileBytes.isEmpty() || batchBytes <= 0 || repetitions < 1) {
                throw new IllegalArgumentException("a plan needs sizes, a batch size and a repetition");
            }
        }

        /** Files in a measurement of {@code size}: enough to reach {@link #batchBytes()}, at least one. */
        int filesPerBatch(long size) {
            return (int) Math.max(1, (batchBytes + size - 1) / size);
        }

        Plan withRepetitions(int n) {
            return new Plan(name, fileBytes, batchBytes, n, warmUp);
        }

        /** For the run table. */
        String describe() {
            StringBuilder sb = new StringBuilder("**").append(name).append("**: ");
            for (int i = 0; i < fileBytes.size(); i++) {
                long s = fileBytes.get(i);
                sb.append(i == 0 ? "" : ", ").append(filesPerBatch(s)).append(" × ").append(Report.size(s));
            }
            return sb.append(" a measurement; ").append(repetitions).append(" repetitions").toString();
        }
    }

    /**
     * An agent cell.
     *
     * @param id       tool id
     * @param mode     how both agents connect to the queue manager
     * @param checksum the transfer's checksum method
     */
    record AgentCell(String id, ConnectionMode mode, ChecksumMethod checksum) {
    }

    /**
     * Seed 003 measured IBM's defaults: binary, and fteCreateTransfer's default checksum, MD5, with
     * each agent in bindings mode on its own queue manager. Ours: that cell; the same without a
     * checksum (the product bar's CPU cell, and the price of MD5); and MD5 with both agents as TCP
     * clients, where the data crosses a socket as it crosses IBM's channels.
     */
    static final List<AgentCell> AGENTS = List.of(
            new AgentCell(FileSizeReport.PRIMARY_AGENT, ConnectionMode.BINDINGS, ChecksumMethod.MD5),
            new AgentCell("agent-bindings-none", ConnectionMode.BINDINGS, ChecksumMethod.NONE),
            new AgentCell("agent-client-md5", ConnectionMode.CLIENT, ChecksumMethod.MD5));

    private static final String JVM_CPU = "this JVM from the OS: the queue manager and both agents";

    private final Plan fixedPlan;

    /** The plan follows the context: {@link Plan#QUICK} or {@link Plan#FULL}. */
    public FileSizeSuite() {
        this(null);
    }

    /** A fixed plan (tests). */
    public FileSizeSuite(Plan plan) {
        this.fixedPlan = plan;
    }

    @Override
    public String name() {
        return "seed003";
    }

    @Override
    public String scenario() {
        return "file-sizes";
    }

    @Override
    public Outcome run(Context context) throws Exception {
        Plan plan = fixedPlan != null ? fixedPlan : context.quick() ? Plan.QUICK : Plan.FULL;
        if (context.repetitions() != null) {
            plan = plan.withRepetitions(context.repetitions());
        }
        Instant started = Instant.now();
        Path work = context.work();
        Path destination = Files.createDirectories(work.resolve("destination"));
        List<FileSizeReport.Tool> tools = new ArrayList<>();
        List<FileSizeReport.Measurement> measurements = new ArrayList<>();
        context.log("seed003: %s", plan.describe().replace("**", ""));
        try (EmbeddedMft mft = EmbeddedMft.start(work.resolve("mft"), context.agentProperties(), work)) {
            RawJms.defineQueue(mft.connector(ConnectionMode.BINDINGS));
            List<Peer> peers = Peers.create(work.resolve("peers"), mft.connector(ConnectionMode.BINDINGS));
            try {
                tools.addAll(tools(peers));
                for (FileSizeReport.Tool t : tools) {
                    if (t.unavailable() != null) {
                        context.log("  %s is unavailable: %s", t.id(), t.unavailable());
                    }
                }
                for (long size : plan.fileBytes()) {
                    Batch batch = Batch.generate(work.resolve("source-" + size), size, plan.filesPerBatch(size));
                    int first = plan.warmUp() && size == plan.fileBytes().get(0) ? 0 : 1;
                    for (int rep = first; rep <= plan.repetitions(); rep++) {
                        context.log("  %d × %s, %s", batch.files.size(), Report.size(size),
                                rep == 0 ? "warm-up, not counted" : "repetition " + rep + " of " + plan.repetitions());
                        for (FileSizeReport.Tool t : tools) {
                            if (t.unavailable() != null) {
                                continue;
                            }
                            FileSizeReport.Measurement m = measure(t, mft, peers, batch, destination, rep);
                            measurements.add(m);
                            print(context, m);
                        }
                    }
                    batch.delete();
                }
            } finally {
                peers.forEach(Peer::close);
            }
        }
        Instant ended = Instant.now();

        FileSizeReport report = new FileSizeReport(context, plan, started, ended, tools, measurements);
        Files.createDirectories(context.results());
        Files.writeString(context.results().resolve(name() + "-" + plan.name() + ".csv"), report.csv());
        Files.writeString(context.results().resolve(name() + "-" + plan.name() + ".json"), report.json());
        String charts = report.writeCharts(context.images(), context.imagesLink());
        List<String> failures = measurements.stream().filter(m -> !m.ok()).map(FileSizeReport::describe).toList();
        return new Outcome(report.markdown(charts), failures);
    }

    /** The tools of a run in the order they run: the agent cells, raw JMS, the peers. */
    static List<FileSizeReport.Tool> tools(List<Peer> peers) {
        List<FileSizeReport.Tool> tools = new ArrayList<>();
        for (AgentCell a : AGENTS) {
            tools.add(new FileSizeReport.Tool(a.id(), FileSizeReport.Kind.AGENT, "OpenMFT agents, "
                    + (a.mode() == ConnectionMode.BINDINGS ? "bindings (in-VM)" : "client (TCP on loopback)")
                    + ", binary, " + (a.checksum() == ChecksumMethod.MD5 ? "MD5 checksum" : "no checksum")
                    + ", one transfer of the batch", JVM_CPU, null));
        }
        for (Scenario s : List.of(Scenario.RAW_JMS_BINDINGS, Scenario.RAW_JMS_CLIENT)) {
            tools.add(new FileSizeReport.Tool(s.id, FileSizeReport.Kind.RAW_JMS, "raw JMS put/get of the same bytes in "
                    + BenchmarkRunner.CHUNK_SIZE / 1024 + " KiB non-persistent messages, "
                    + (s.mode == ConnectionMode.BINDINGS ? "in-VM" : "TCP on loopback"),
                    "this JVM from the OS: the queue manager, the producer and the consumer", null));
        }
        for (Peer p : peers) {
            tools.add(new FileSizeReport.Tool(p.id(), FileSizeReport.Kind.PEER, p.label(), peerCpu(p.id()),
                    p.unavailable()));
        }
        return tools;
    }

    private static String peerCpu(String id) {
        return switch (id) {
            case "rsync-ssh", "sftp" -> "the client processes, and the private sshd with the sessions it reaped (from"
                    + " /proc)";
            case "camel-jms" -> "this JVM from the OS: the Camel routes and the queue manager";
            default -> "its processes, children of this JVM (from /proc)";
        };
    }

    private static FileSizeReport.Measurement measure(FileSizeReport.Tool tool, EmbeddedMft mft, List<Peer> peers,
            Batch batch, Path destination, int rep) throws Exception {
        long timeout = 60_000 + batch.bytes() / 5_000;
        TestFiles.emptyDirectory(destination);
        // Garbage of the previous tool is collected here rather than during this one.
        System.gc();
        switch (tool.kind()) {
            case RAW_JMS -> {
                Scenario s = tool.id().equals(Scenario.RAW_JMS_BINDINGS.id) ? Scenario.RAW_JMS_BINDINGS
                        : Scenario.RAW_JMS_CLIENT;
                Sample sample = RawJms.run(s, rep, mft.connector(s.mode), BenchmarkRunner.CHUNK_SIZE, batch.bytes(),
                        timeout);
                return new FileSizeReport.Measurement(tool.id(), batch.fileBytes, 0, rep, sample.bytes(),
                        sample.wallNanos(), sample.cpuNanos(), sample.failure());
            }
            case AGENT -> {
                AgentCell cell = AGENTS.stream().filter(a -> a.id().equals(tool.id())).findFirst().orElseThrow();
                List<TransferItem> items = new ArrayList<>();
                for (Path p : batch.files.keySet()) {
                    items.add(EmbeddedMft.binaryItem(p, destination.resolve(p.getFileName()), cell.checksum()));
                }
                TestFiles.preload(List.copyOf(batch.files.keySet()));
                long cpu0 = CpuClock.processCpuNanos();
                long t0 = System.nanoTime();
                EmbeddedMft.Result r = mft.transfer(cell.mode(), items, timeout);
                long wall = System.nanoTime() - t0;
                long cpu1 = CpuClock.processCpuNanos();
                return batch.verified(tool.id(), rep, destination, wall, cpu0 < 0 ? -1 : cpu1 - cpu0, r.failure());
            }
            default -> {
                Peer peer = peers.stream().filter(p -> p.id().equals(tool.id())).findFirst().orElseThrow();
                TestFiles.preload(List.copyOf(batch.files.keySet()));
                Peer.Run r = peer.copy(List.copyOf(batch.files.keySet()), destination, timeout);
                return batch.verified(tool.id(), rep, destination, r.wallNanos(), r.cpuNanos(), r.failure());
            }
        }
    }

    private static void print(Context context, FileSizeReport.Measurement m) {
        if (!m.ok()) {
            context.log("    %-20s FAILED: %s", m.tool(), m.failure());
        } else {
            context.log("    %-20s %7.2f s %8.1f MB/s %7.2f CPU s/GiB", m.tool(), m.wallNanos() / 1e9,
                    m.mbPerSecond(), m.cpuSecondsPerGib());
        }
    }

    /** The source files of one size, with their MD5s; every measurement's destination is checked against them. */
    private static final class Batch {
        final long fileBytes;
        final Map<Path, String> files = new LinkedHashMap<>();
        private final Path dir;

        private Batch(Path dir, long fileBytes) {
            this.dir = dir;
            this.fileBytes = fileBytes;
        }

        static Batch generate(Path dir, long fileBytes, int count) throws IOException {
            Batch b = new Batch(dir, fileBytes);
            for (int i = 1; i <= count; i++) {
                Path p = dir.resolve(String.format("seed003-%s-%04d.bin", Report.size(fileBytes).replace(" ", ""), i));
                b.files.put(p, TestFiles.write(p, fileBytes, fileBytes * 31 + i));
            }
            return b;
        }

        long bytes() {
            return fileBytes * files.size();
        }

        /** The measurement, or a failure when the run failed or any destination file is not its source's. */
        FileSizeReport.Measurement verified(String tool, int rep, Path destination, long wallNanos, long cpuNanos,
                String failure) throws IOException {
            String why = failure != null ? failure : check(destination);
            return new FileSizeReport.Measurement(tool, fileBytes, files.size(), rep, bytes(), wallNanos,
                    why == null ? cpuNanos : -1, why == null ? null : failure != null ? why
                            : "destination check failed: " + why);
        }

        private String check(Path destination) throws IOException {
            return TestFiles.verify(List.copyOf(files.keySet()), files::get, destination);
        }

        void delete() throws IOException {
            BenchmarkRunner.deleteTree(dir);
        }
    }
}
