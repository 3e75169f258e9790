package org.openmft.bench.scenarios;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Section;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.openmft.agent.AgentListener;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.monitor.MonitorEvent;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * Resource monitors at scale ({@code --scenario monitor}): one queue manager and two agents in this
 * JVM, a directory monitor on the source agent polling every second, its task IBM's usual one
 * (send {@code ${FilePath}} to the destination agent as {@code ${FileName}}).
 * <ul>
 *   <li><b>idle</b>: the CPU the polling thread spends on a directory of 100,000 files (quick 20,000)
 *       that do not trigger, in CPU seconds per minute, measured with the JVM's thread CPU clock over a
 *       minute (quick 20 s): once with files no pattern matches, once with files that match and stay in
 *       the history (their size condition never holds), each on agents of its own;</li>
 *   <li><b>drain</b>: files written into the directory while the monitor runs (each written under
 *       a name the monitor ignores and renamed, as writers into a monitored directory should) (10,000; quick
 *       1,000), with batch size {@value #DRAIN_BATCH} and then 1: every one must trigger exactly once
 *       (counted in the monitor's {@code triggerSatisfied} events and the destination's files), and
 *       the time from the first file written to the last transfer ended is the figure;</li>
 *   <li><b>latency</b>: files written at 1, 100 and 10,000 a minute (3, 100 and 2,000 files; quick 1,
 *       20 and 500); the delay from each file landing
 *       to its transfer starting (the source agent's {@code transferStarted}), median and 95th
 *       percentile.</li>
 * </ul>
 */
public final class MonitorSuite implements Section {
    static final String NAME = "monitor";
    static final String SRC = "MONSRC";
    static final String DST = "MONDST";
    /** The batch size of the drain that does not send one file per transfer. */
    static final int DRAIN_BATCH = 100;

    @Override
    public String name() {
        return NAME;
    }

    /** What the agents tell: triggers per file, transfer starts per source file, transfers ended. */
    static final class Events implements AgentListener {
        final Map<String, AtomicInteger> triggers = new ConcurrentHashMap<>();
        final Map<String, Long> started = new ConcurrentHashMap<>();
        final AtomicInteger ended = new AtomicInteger();
        final AtomicInteger startedTransfers = new AtomicInteger();
        final List<String> failures = new CopyOnWriteArrayList<>();
        volatile long lastEndedNanos;

        @Override
        public void monitorAction(String agent, MonitorEvent event) {
            if (event.action().equals("triggerSatisfied")) {
                event.supplements().forEach(f -> triggers.computeIfAbsent(f, k -> new AtomicInteger()).incrementAndGet());
            } else if (event.action().equals("triggerFail")) {
                failures.add(String.join("; ", event.supplements()));
            }
        }

        @Override
        public void transferStarted(String agent, Role role, TransferInfo transfer) {
            if (role == Role.SOURCE) {
                long now = System.nanoTime();
                startedTransfers.incrementAndGet();
                transfer.items().forEach(i -> started.putIfAbsent(i.source(), now));
            }
        }

        @Override
        public void transferEnded(String agent, Role role, TransferOutcome outcome) {
            if (role == Role.SOURCE) {
                if (outcome.resultCode() != 0) {
                    failures.add(outcome.transferId() + ": result " + outcome.resultCode() + " " + outcome.supplement());
                }
                lastEndedNanos = System.nanoTime();
                ended.incrementAndGet();
            }
        }
    }

    /** One queue manager, the two agents and the listener. */
    private static final class Rig implements AutoCloseable {
        final EmbeddedQueueManager qm;
        final Events events = new Events();
        final List<org.openmft.agent.Agent> agents = new ArrayList<>();
        final org.openmft.agent.messaging.QueueManagerConnector connector;

        Rig(Path work, Map<String, String> properties) throws Exception {
            int port = EmbeddedMft.freePort();
            qm = EmbeddedQueueManager.start(new QueueManagerSettings("QMMON", work.resolve("qm"), "127.0.0.1", port));
            EmbeddedMft.StartedAgent src = EmbeddedMft.startAgent(qm, port, SRC, ConnectionMode.BINDINGS, properties,
                    work, events, work.resolve("state-src"));
            agents.add(src.agent());
            agents.add(EmbeddedMft.startAgent(qm, port, DST, ConnectionMode.BINDINGS, properties, work, events,
                    work.resolve("state-dst")).agent());
            connector = src.connector();
        }

        void create(String name, Path in, Path out, String pattern) throws Exception {
            create(name, in, out, 1, "<fileMatch><pattern>" + pattern + "</pattern></fileMatch>");
        }

        /** A monitor of {@code in} polling every second, the given batch size and trigger condition. */
        void create(String name, Path in, Path out, int batchSize, String condition) throws Exception {
            String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><monitor:monitor xmlns:monitor=\""
                    + "http://www.ibm.com/xmlns/wmqfte/7.0.1/MonitorDefinition\" version=\"6.00\"><name>" + name
                    + "</name><pollInterval units=\"seconds\">1</pollInterval><batch maxSize=\"" + batchSize
                    + "\"/><agent>" + SRC
                    + "</agent><resources><directory recursionLevel=\"0\">" + in + "</directory></resources>"
                    + "<triggerMatch><conditions><allOf><condition>" + condition
                    + "</condition></allOf></conditions></triggerMatch><tasks><task><name/><transfer>"
                    + "<request version=\"6.00\"><managedTransfer><originator><hostName>bench</hostName><userID>bench"
                    + "</userID></originator><sourceAgent agent=\"" + SRC + "\"/><destinationAgent agent=\"" + DST
                    + "\"/><transferSet><item mode=\"binary\"><source disposition=\"leave\"><file>${FilePath}</file>"
                    + "</source><destination type=\"file\" exist=\"overwrite\"><file>" + out + "/${FileName}</file>"
                    + "</destination></item></transferSet></managedTransfer></request></transfer></task></tasks>"
                    + "<originator><hostName>bench</hostName><userID>bench</userID></originator></monitor:monitor>";
            try (Connection c = connector.connect()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                try (MessageProducer p = s.createProducer(s.createQueue(QueueNames.command(SRC)))) {
                    p.send(s.createTextMessage(xml));
                }
            }
        }

        @Override
        public void close() {
            agents.forEach(org.openmft.agent.Agent::close);
            qm.close();
        }
    }

    @Override
    public Outcome run(Context context) throws Exception {
        Instant started = Instant.now();
        boolean quick = context.quick();
        int drainFiles = quick ? 1_000 : 10_000;
        int idleFiles = quick ? 20_000 : 100_000;
        Duration idleWindow = quick ? Duration.ofSeconds(20) : Duration.ofMinutes(1);
        Map<String, String> properties = FileShapeMatrix.agentProperties(context.agentProperties(),
                BenchmarkRunner.CHUNK_SIZE);
        List<String> failures = new ArrayList<>();
        StringBuilder md = new StringBuilder("## Resource monitors at scale\n\n");
        md.append(context.runTable(started, started, quick ? "quick" : "full")).append('\n');
        md.append("A directory monitor polling every second (`-pi 1 -pu seconds`), batch size 1 unless stated, on a"
                + " source agent that sends each file (16 bytes) to a destination agent on the same queue manager,"
                + " both in this JVM. **Measured on a loaded machine** (other builds and tests ran beside it on its"
                + " two cores): read the figures as upper bounds.\n\n| measure | files | result |\n|---|---|---|\n");
        // Idle: a directory whose files no longer trigger, on agents of its own so nothing else is polled.
        Path idle = Files.createDirectories(context.work().resolve("idle-in"));
        for (int i = 0; i < idleFiles; i++) {
            Files.writeString(idle.resolve(String.format("i%06d.old", i)), "x");
        }
        Path idleOut = Files.createDirectories(context.work().resolve("idle-out"));
        // Files no pattern matches (a directory the monitor shares with others), then files that match
        // and stay in the history (their trigger, at least 1 GB, never holds): each is looked up every poll.
        String[][] idleCases = {{"no file matches (`*.none`)", "<fileMatch><pattern>*.none</pattern></fileMatch>"},
            {"every file matches and is remembered (`*.old`, size at least 1 GB)",
                "<fileSize><compare operator=\">=\" units=\"GB\">1</compare><pattern>*.old</pattern></fileSize>"}};
        for (int c = 0; c < idleCases.length; c++) {
            try (Rig rig = new Rig(context.work().resolve("idle-" + c), properties)) {
                rig.create("IDLE", idle, idleOut, 1, idleCases[c][1]);
                Thread.sleep(10_000); // first polls: the history of every file is written once
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                long id = monitorThread(SRC);
                long cpu0 = threads.getThreadCpuTime(id);
                // The polling thread waits once between two polls: its waits count the polls (one a
                // second only while a poll takes less than the interval, which a loaded machine breaks).
                long waits0 = threads.getThreadInfo(id).getWaitedCount();
                Thread.sleep(idleWindow.toMillis());
                long cpu1 = threads.getThreadCpuTime(id);
                long polls = Math.max(1, threads.getThreadInfo(id).getWaitedCount() - waits0);
                double cpuPerMinute = (cpu1 - cpu0) / 1e9 * 60.0 / idleWindow.toSeconds();
                double microsPerFile = (cpu1 - cpu0) / 1e3 / polls / idleFiles;
                context.log("monitor idle, %s: %d files, %.2f CPU s per minute, %d polls, %.2f us per file per poll",
                        idleCases[c][0], idleFiles, cpuPerMinute, polls, microsPerFile);
                md.append(String.format(java.util.Locale.ROOT, "| idle: CPU of the polling thread on a directory"
                        + " polled every second, %s | %,d | %.2f CPU s per minute; %d polls in %d s, %.1f µs per file"
                        + " per poll |\n", idleCases[c][0], idleFiles, cpuPerMinute, polls, idleWindow.toSeconds(),
                        microsPerFile));
                if (!rig.events.failures.isEmpty() || !rig.events.triggers.isEmpty()) {
                    failures.add("idle: " + rig.events.triggers.size() + " triggered, " + rig.events.failures);
                }
            }
        }
        // Drain: with batches first (quick), then one transfer per file.
        try (Rig rig = new Rig(context.work(), properties)) {
            for (int batch : new int[] {DRAIN_BATCH, 1}) {
                Path in = Files.createDirectories(context.work().resolve("drain-in-" + batch));
                Path out = Files.createDirectories(context.work().resolve("drain-out-" + batch));
                rig.create("DRAIN" + batch, in, out, batch, "<fileMatch><pattern>*.dat</pattern></fileMatch>");
                Thread.sleep(2_000);
                drain(context, rig, in, out, batch, drainFiles, quick, md, failures);
            }
        }
        // Latency, on fresh agents so the idle directory is not polled meanwhile.
        try (Rig rig = new Rig(context.work().resolve("latency"), properties)) {
            for (int perMinute : new int[] {1, 100, 10_000}) {
                Path in = Files.createDirectories(context.work().resolve("latency/in-" + perMinute));
                Path out = Files.createDirectories(context.work().resolve("latency/out-" + perMinute));
                rig.create("RATE" + perMinute, in, out, "*.dat");
                Thread.sleep(2_000);
                int count = perMinute == 1 ? (quick ? 1 : 3) : perMinute == 100 ? (quick ? 20 : 100)
                        : (quick ? 500 : 2_000);
                long gapNanos = 60_000_000_000L / perMinute;
                Map<String, Long> landed = new ConcurrentHashMap<>();
                long next = System.nanoTime();
                for (int i = 0; i < count; i++) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    Path f = in.resolve(String.format("r%06d.dat", i));
                    Files.move(Files.writeString(in.resolve(String.format("r%06d.part", i)), "0123456789abcdef"), f,
                            java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                    landed.put(f.toString(), System.nanoTime());
                    next += gapNanos;
                }
                waitFor(() -> landed.keySet().stream().allMatch(rig.events.started::containsKey), Duration.ofMinutes(10));
                List<Double> delays = new ArrayList<>();
                landed.forEach((f, t) -> {
                    Long s = rig.events.started.get(f);
                    if (s != null) {
                        delays.add((s - t) / 1e6);
                    }
                });
                delays.sort(null);
                if (delays.size() != count) {
                    failures.add("latency " + perMinute + "/min: " + delays.size() + " of " + count + " started");
                }
                double median = delays.isEmpty() ? Double.NaN : delays.get(delays.size() / 2);
                double p95 = delays.isEmpty() ? Double.NaN : delays.get(Math.min(delays.size() - 1,
                        (int) Math.ceil(delays.size() * 0.95) - 1));
                context.log("monitor latency at %d files a minute: %d files, median %.0f ms, p95 %.0f ms", perMinute,
                        count, median, p95);
                md.append(String.format(java.util.Locale.ROOT, "| delay from a file landing to its transfer starting,"
                        + " at %,d files a minute | %,d | median %.0f ms, 95th percentile %.0f ms |\n", perMinute, count,
                        median, p95));
            }
        }
        md.append("\nThe poll interval bounds the delay from below: half a second on average with a one-second poll."
                + " With batch size 1 each drained file is one transfer, so the drain is bound by transfers a second,"
                + " not by the monitor; a batch (`-bs`) carries many files in one transfer. At 10,000 files a minute"
                + " the delay is the queue of transfers ahead of the file, not the poll. An idle poll is one"
                + " directory walk that reads each file's attributes once, then a look-up of the files a pattern"
                + " matches in the history; a poll that finds nothing changed keeps the history as it is and saves"
                + " nothing. Most of its cost is the walk itself (the JDK's path and attribute objects and an"
                + " `lstat` per file), so the CPU of an idle monitor grows with the files in its directory and"
                + " shrinks with a longer poll interval (IBM's default is one minute).\n");
        if (!failures.isEmpty()) {
            md.append("\n**Failures:** ").append(String.join("; ", failures)).append('\n');
        }
        String table = md.toString().replace(context.runTable(started, started, quick ? "quick" : "full"),
                context.runTable(started, Instant.now(), quick ? "quick" : "full"));
        return new Outcome(table, failures);
    }

    /** Writes the files while the monitor runs, waits for every one to arrive, and checks each triggered once. */
    private static void drain(Context context, Rig rig, Path in, Path out, int batch, int drainFiles, boolean quick,
            StringBuilder md, List<String> failures) throws Exception {
        int transfersBefore = rig.events.ended.get();
        int triggersBefore = rig.events.triggers.size();
        long t0 = System.nanoTime();
        for (int i = 0; i < drainFiles; i++) {
            // Written under a name the monitor ignores, then renamed: a poll that saw a file half written
            // would trigger it again once complete (a changed file triggers again, IBM's rule).
            Path part = Files.writeString(in.resolve(String.format("f%06d.part", i)), "0123456789abcdef");
            Files.move(part, in.resolve(String.format("f%06d.dat", i)), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        long written = System.nanoTime();
        Duration limit = Duration.ofMinutes(quick ? 15 : 90);
        waitFor(() -> arrived(out) >= drainFiles || !rig.events.failures.isEmpty(), limit);
        // A file arrives before its transfer's end is told at the source.
        waitFor(() -> rig.events.ended.get() >= rig.events.startedTransfers.get()
                && rig.events.triggers.size() - triggersBefore >= drainFiles, Duration.ofSeconds(30));
        double drainSeconds = (rig.events.lastEndedNanos - t0) / 1e9;
        String prefix = in.toString() + java.io.File.separator;
        long once = rig.events.triggers.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                .filter(e -> e.getValue().get() == 1).count();
        long triggered = rig.events.triggers.keySet().stream().filter(k -> k.startsWith(prefix)).count();
        long arrived = arrived(out);
        int transfers = rig.events.ended.get() - transfersBefore;
        context.log("monitor drain, batch %d: %d files written in %.1f s, %d transfers, %d files triggered once, %d"
                + " arrived, in %.1f s", batch, drainFiles, (written - t0) / 1e9, transfers, once, arrived, drainSeconds);
        if (once != drainFiles || triggered != drainFiles || arrived != drainFiles) {
            List<String> twice = rig.events.triggers.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
                    .filter(e -> e.getValue().get() > 1).map(e -> e.getKey() + " x" + e.getValue().get()).limit(5).toList();
            failures.add("drain, batch " + batch + ": " + drainFiles + " files, " + triggered + " triggered, " + once
                    + " exactly once (more: " + twice + "), " + arrived + " arrived; " + rig.events.failures);
        }
        md.append(String.format(java.util.Locale.ROOT, "| drain, batch size %d (`-bs %d`): files written while the"
                + " monitor runs, until the last transfer ended | %,d | %.1f s (%.0f files/s, %,d transfers); each"
                + " triggered exactly once: %s |\n", batch, batch, drainFiles, drainSeconds, drainFiles / drainSeconds,
                transfers, once == drainFiles && triggered == drainFiles ? "yes" : "**no**"));
    }

    private static long arrived(Path out) {
        try (var files = Files.list(out)) {
            return files.filter(p -> p.toString().endsWith(".dat")).count();
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    private static long monitorThread(String agent) {
        String name = "openmft-" + agent + "-monitor";
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(name)) {
                return t.getId();
            }
        }
        throw new IllegalStateException("no thread " + name);
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }
}
