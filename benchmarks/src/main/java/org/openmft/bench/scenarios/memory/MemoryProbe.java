package org.openmft.bench.scenarios.memory;

import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.openmft.agent.Agent;
import org.openmft.agent.AgentListener;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.harness.TestFiles;
import org.openmft.bench.measure.ProcStatus;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.TransferItem;

/**
 * The child JVM of {@link MemorySuite}: one measurement in a process of its own, so that its resident
 * size is its own. Prints one line {@code FIGURE <name> <value>} per figure on standard output; the
 * rest goes to the log.
 *
 * <pre>
 * MemoryProbe agents DIR N1,N2,...     a queue manager alone, then hosting N1, N2, ... idle agents (bindings)
 * MemoryProbe transfers DIR N BYTES    the standard agents idle, then during N transfers of a BYTES file at once
 * MemoryProbe bigfile DIR BYTES        one transfer of a sparse BYTES file, binary, MD5 (run with a small -Xmx)
 * </pre>
 */
public final class MemoryProbe {
    private MemoryProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        Files.createDirectories(dir);
        switch (args[0]) {
            case "agents" -> agents(dir, args[2]);
            case "transfers" -> transfers(dir, Integer.parseInt(args[2]), Long.parseLong(args[3]));
            case "bigfile" -> bigFile(dir, Long.parseLong(args[2]));
            default -> throw new IllegalArgumentException("agents, transfers or bigfile, not " + args[0]);
        }
        // Agents' and queue managers' threads may linger: the measurement is over.
        System.exit(0);
    }

    private static void agents(Path dir, String counts) throws Exception {
        int port = EmbeddedMft.freePort();
        List<Agent> agents = new ArrayList<>();
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(new QueueManagerSettings("QMMEM", dir.resolve("qm"),
                "127.0.0.1", port))) {
            figures("agents_0");
            for (String c : counts.split(",")) {
                int n = Integer.parseInt(c);
                while (agents.size() < n) {
                    String name = "AGENT" + agents.size();
                    agents.add(EmbeddedMft.startAgent(qm, port, name, ConnectionMode.BINDINGS, Map.of(), dir,
                            AgentListener.NONE, dir.resolve("state").resolve(name)).agent());
                }
                // Let the agents settle (first status published, command loops waiting) before measuring.
                TimeUnit.SECONDS.sleep(3);
                figures("agents_" + n);
            }
        } finally {
            agents.forEach(Agent::close);
        }
    }

    private static void transfers(Path dir, int n, long bytes) throws Exception {
        List<List<TransferItem>> transfers = new ArrayList<>();
        Path out = Files.createDirectories(dir.resolve("out"));
        for (int i = 0; i < n; i++) {
            Path f = dir.resolve("file-" + i);
            TestFiles.write(f, bytes, i);
            transfers.add(List.of(EmbeddedMft.binaryItem(f, out.resolve(f.getFileName()), ChecksumMethod.MD5)));
        }
        try (EmbeddedMft mft = EmbeddedMft.start(dir.resolve("mft"), Map.of(), dir)) {
            TimeUnit.SECONDS.sleep(3);
            figures("idle");
            Sampler sampler = new Sampler();
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<List<EmbeddedMft.Result>> done = pool.submit(() -> mft.transferAll(ConnectionMode.BINDINGS,
                        transfers, 60_000 + n * bytes / 5_000));
                while (!done.isDone()) {
                    sampler.sample();
                    TimeUnit.MILLISECONDS.sleep(200);
                }
                long failed = done.get().stream().filter(r -> r.failure() != null).count();
                print("transfers_failed", failed);
                print("during_rss_mib", sampler.maxRss);
                print("during_heap_mib", sampler.maxHeapAfterGc);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    private static void bigFile(Path dir, long bytes) throws Exception {
        Path source = dir.resolve("big");
        try (RandomAccessFile f = new RandomAccessFile(source.toFile(), "rw")) {
            f.setLength(bytes);
        }
        Path out = Files.createDirectories(dir.resolve("out"));
        Path destination = out.resolve("big");
        try (EmbeddedMft mft = EmbeddedMft.start(dir.resolve("mft"), Map.of(), dir)) {
            Sampler sampler = new Sampler();
            long t0 = System.nanoTime();
            EmbeddedMft.Result r = mft.transfer(ConnectionMode.BINDINGS, List.of(EmbeddedMft.binaryItem(source,
                    destination, ChecksumMethod.MD5)), 60_000 + bytes / 5_000);
            print("seconds", (System.nanoTime() - t0) / 1e9);
            sampler.sample();
            boolean sizeOk = Files.exists(destination) && Files.size(destination) == bytes;
            print("passed", r.failure() == null && sizeOk ? 1 : 0);
            if (r.failure() != null || !sizeOk) {
                System.out.println("FAILURE " + (r.failure() != null ? r.failure().replace('\n', ' ')
                        : "the destination is not " + bytes + " bytes"));
            }
            print("peak_rss_mib", ProcStatus.mib("VmHWM"));
            print("max_heap_mib", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax() / 1048576.0);
        }
    }

    /** Resident size, heap after GC and threads now, as figures named {@code prefix_*}. */
    private static void figures(String prefix) {
        print(prefix + "_heap_mib", heapAfterGcMib());
        print(prefix + "_rss_mib", ProcStatus.mib("VmRSS"));
        print(prefix + "_threads", ManagementFactory.getThreadMXBean().getThreadCount());
    }

    /** The largest resident size and heap after GC seen while transfers run. */
    private static final class Sampler {
        double maxRss = Double.NaN;
        double maxHeapAfterGc = Double.NaN;

        void sample() {
            maxHeapAfterGc = max(maxHeapAfterGc, heapAfterGcMib());
            maxRss = max(maxRss, ProcStatus.mib("VmRSS"));
        }

        private static double max(double a, double b) {
            return Double.isNaN(a) ? b : Math.max(a, b);
        }
    }

    static double heapAfterGcMib() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0;
    }

    private static void print(String name, double value) {
        System.out.println(String.format(Locale.ROOT, "FIGURE %s %s", name, value));
        System.out.flush();
    }
}
