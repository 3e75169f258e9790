package org.openmft.bench;

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

import javax.jms.Connection;
import javax.jms.MessageProducer;
import javax.jms.Session;

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
 *   <li><b>drain</b>: files written into the directory while the monitor runs (10,000; quick
 *       1,000): every one must trigger exactly once (counted in the monitor's
 *       {@code triggerSatisfied} events and the destination's files), and the time from the first
 *       file written to the last transfer ended is the figure;</li>
 *   <li><b>idle</b>: the CPU the polling thread spends on a directory of 100,000 files (quick 20,000)
 *       that have all triggered already, in CPU seconds per minute, measured with the JVM's thread CPU
 *       clock over a minute (quick 20 s);</li>
 *   <li><b>latency</b>: files written at 1, 100 and 10,000 a minute; the delay from each file landing
 *       to its transfer starting (the source agent's {@code transferStarted}), median and 95th
 *       percentile.</li>
 * </ul>
 */
final class MonitorSuite implements Section {
    static final String NAME = "monitor";
    static final String SRC = "MONSRC";
    static final String DST = "MONDST";

    @Override
    public String name() {
        return NAME;
    }

    /** What the agents tell: triggers per file, transfer starts per source file, transfers ended. */
    static final class Events implements AgentListener {
        final Map<String, AtomicInteger> triggers = new ConcurrentHashMap<>();
        final Map<String, Long> started = new ConcurrentHashMap<>();
        final AtomicInteger ended = new AtomicInteger();
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
            String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><monitor:monitor xmlns:monitor=\""
                    + "http://www.ibm.com/xmlns/wmqfte/7.0.1/MonitorDefinition\" version=\"6.00\"><name>" + name
                    + "</name><pollInterval units=\"seconds\">1</pollInterval><batch maxSize=\"1\"/><agent>" + SRC
                    + "</agent><resources><directory recursionLevel=\"0\">" + in + "</directory></resources>"
                    + "<triggerMatch><conditions><allOf><condition><fileMatch><pattern>" + pattern + "</pattern>"
                    + "</fileMatch></condition></allOf></conditions></triggerMatch><tasks><task><name/><transfer>"
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
        Map<String, String> properties = Seed000Matrix.agentProperties(context.agentProperties(),
                BenchmarkRunner.CHUNK_SIZE);
        List<String> failures = new ArrayList<>();
        StringBuilder md = new StringBuilder("## Resource monitors at scale\n\n");
        md.append(context.runTable(started, started, quick ? "quick" : "full")).append('\n');
        md.append("A directory monitor polling every second (`-pi 1 -pu seconds`), batch size 1, on a source agent"
                + " that sends each file (16 bytes) to a destination agent on the same queue manager, both in this"
                + " JVM. **Measured on a loaded machine** (other builds ran beside it): read the figures as"
                + " upper bounds.\n\n| measure | files | result |\n|---|---|---|\n");
        try (Rig rig = new Rig(context.work(), properties)) {
            // Drain.
            Path in = Files.createDirectories(context.work().resolve("drain-in"));
            Path out = Files.createDirectories(context.work().resolve("drain-out"));
            rig.create("DRAIN", in, out, "*.dat");
            long t0 = System.nanoTime();
            for (int i = 0; i < drainFiles; i++) {
                Files.writeString(in.resolve(String.format("f%06d.dat", i)), "0123456789abcdef");
            }
            long written = System.nanoTime();
            Duration limit = Duration.ofMinutes(quick ? 15 : 90);
            waitFor(() -> rig.events.ended.get() >= drainFiles || !rig.events.failures.isEmpty(), limit);
            double drainSeconds = (rig.events.lastEndedNanos - t0) / 1e9;
            long once = rig.events.triggers.values().stream().filter(n -> n.get() == 1).count();
            long arrived;
            try (var files = Files.list(out)) {
                arrived = files.filter(p -> p.toString().endsWith(".dat")).count();
            }
            context.log("monitor drain: %d files written in %.1f s, %d transfers ended, %d files triggered once, %d"
                    + " arrived, in %.1f s", drainFiles, (written - t0) / 1e9, rig.events.ended.get(), once, arrived,
                    drainSeconds);
            if (once != drainFiles || rig.events.triggers.size() != drainFiles || arrived != drainFiles) {
                failures.add("drain: " + drainFiles + " files, " + rig.events.triggers.size() + " triggered, " + once
                        + " exactly once, " + arrived + " arrived; " + rig.events.failures);
            }
            md.append(String.format(java.util.Locale.ROOT, "| drain: files written while the monitor runs, until the"
                    + " last transfer ended | %,d | %.1f s (%.0f files/s); each triggered exactly once: %s |\n",
                    drainFiles, drainSeconds, drainFiles / drainSeconds, once == drainFiles ? "yes" : "**no**"));

            // Idle: a directory whose files have all triggered.
            Path idle = Files.createDirectories(context.work().resolve("idle-in"));
            for (int i = 0; i < idleFiles; i++) {
                Files.writeString(idle.resolve(String.format("i%06d.old", i)), "x");
            }
            rig.create("IDLE", idle, out, "*.none");
            Thread.sleep(5_000); // first polls: the history of every file is written once
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long id = monitorThread(SRC);
            long cpu0 = threads.getThreadCpuTime(id);
            Thread.sleep(idleWindow.toMillis());
            long cpu1 = threads.getThreadCpuTime(id);
            double cpuPerMinute = (cpu1 - cpu0) / 1e9 * 60.0 / idleWindow.toSeconds();
            context.log("monitor idle: %d files, %.2f CPU s per minute (two monitors polling every second)", idleFiles,
                    cpuPerMinute);
            md.append(String.format(java.util.Locale.ROOT, "| idle: CPU of the polling thread, every file already"
                    + " seen, polled every second (the drain monitor's directory polled too) | %,d | %.2f CPU s per"
                    + " minute |\n", idleFiles, cpuPerMinute));
        }
        // Latency, on fresh agents so the idle directory is not polled meanwhile.
        try (Rig rig = new Rig(context.work().resolve("latency"), properties)) {
            for (int perMinute : new int[] {1, 100, 10_000}) {
                Path in = Files.createDirectories(context.work().resolve("latency/in-" + perMinute));
                Path out = Files.createDirectories(context.work().resolve("latency/out-" + perMinute));
                rig.create("RATE" + perMinute, in, out, "*.dat");
                Thread.sleep(2_000);
                int count = perMinute == 1 ? (quick ? 1 : 3) : perMinute == 100 ? (quick ? 20 : 100)
                        : (quick ? 500 : 10_000);
                long gapNanos = 60_000_000_000L / perMinute;
                Map<String, Long> landed = new ConcurrentHashMap<>();
                long next = System.nanoTime();
                for (int i = 0; i < count; i++) {
                    long wait = next - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                    }
                    Path f = in.resolve(String.format("r%06d.dat", i));
                    Files.writeString(f, "0123456789abcdef");
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
                + " Each drained file is one transfer, so the drain is bound by transfers a second, not by the"
                + " monitor.\n");
        if (!failures.isEmpty()) {
            md.append("\n**Failures:** ").append(String.join("; ", failures)).append('\n');
        }
        String table = md.toString().replace(context.runTable(started, started, quick ? "quick" : "full"),
                context.runTable(started, Instant.now(), quick ? "quick" : "full"));
        return new Outcome(table, failures);
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
