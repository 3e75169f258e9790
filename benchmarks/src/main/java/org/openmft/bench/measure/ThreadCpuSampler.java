package org.openmft.bench.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Where the CPU of a run went, by thread group: samples every live thread's CPU time ten times a
 * second, so that a thread that ends during the run (a transfer's own thread does) is counted up
 * to its last sample. What no Java thread accounts for (garbage collection, the JIT, threads that
 * lived less than a sample) is reported as "JVM (GC, JIT) and short-lived threads".
 */
public final class ThreadCpuSampler implements AutoCloseable {
    public static final String UNATTRIBUTED = "JVM (GC, JIT) and short-lived threads";
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Pattern THREAD_N = Pattern.compile("^Thread-\\d+ \\((.*)\\)$");
    private static final Pattern HASH = Pattern.compile("@[0-9a-f]+");
    private static final Pattern NUMBERS = Pattern.compile("[-#]?\\d+");
    private static final Pattern TRANSFER = Pattern.compile("-transfer-[0-9a-f]+$");

    private static final String[][] ARTEMIS_POOLS = {
        {"invm", "Artemis in-VM connector"},
        {"activemq-remoting-tcp", "Artemis TCP acceptor (Netty)"},
        {"activemq-client-remoting", "Artemis client TCP (Netty)"},
        {"activemq-remoting-service", "Artemis remoting service"},
        {"activemq-paging", "Artemis paging / IO executor"},
        {"activemq-scheduled", "Artemis scheduled"},
        {"activemq-client-global", "Artemis client pool"},
        {"activemq-", "Artemis server executor"},
    };

    private final Map<Long, Long> first = new HashMap<>();
    private final Map<Long, Long> last = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();
    private final long processCpu0;
    private final long intervalMillis;
    private final Thread sampler;
    private volatile boolean running = true;
    private long processCpu1 = -1;

    private ThreadCpuSampler(long intervalMillis) {
        this.intervalMillis = intervalMillis;
        processCpu0 = CpuClock.processCpuNanos();
        sample(true);
        sampler = new Thread(() -> {
            while (running) {
                try {
                    Thread.sleep(this.intervalMillis);
                } catch (InterruptedException e) {
                    return;
                }
                sample(false);
            }
        }, "bench-cpu-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts sampling, or returns null when this JVM does not measure thread CPU time. */
    public static ThreadCpuSampler startIfSupported() {
        return startIfSupported(100);
    }

    /**
     * As {@link #startIfSupported()}, sampling every {@code intervalMillis}: with thousands of
     * threads (the coordination scenario) a sample costs milliseconds, and threads there live long
     * enough for a slower rate.
     */
    public static ThreadCpuSampler startIfSupported(long intervalMillis) {
        return THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled()
                ? new ThreadCpuSampler(intervalMillis) : null;
    }

    private synchronized void sample(boolean initial) {
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long id = info.getThreadId();
            long cpu = THREADS.getThreadCpuTime(id);
            if (cpu < 0) {
                continue;
            }
            // A thread first seen after the start began at zero.
            first.putIfAbsent(id, initial ? cpu : 0L);
            last.put(id, cpu);
            names.putIfAbsent(id, info.getThreadName());
        }
    }

    /** Stops sampling (a last sample is taken now). */
    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        try {
            sampler.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample(false);
        processCpu1 = CpuClock.processCpuNanos();
    }

    /** The sampler's own CPU time, which the caller subtracts from the process's. */
    public synchronized long ownCpuNanos() {
        for (Map.Entry<Long, String> e : names.entrySet()) {
            if ("bench-cpu-sampler".equals(e.getValue())) {
                return last.get(e.getKey()) - first.get(e.getKey());
            }
        }
        return 0;
    }

    /** CPU nanoseconds by thread group, with {@link #UNATTRIBUTED} for the rest of the process's CPU. */
    public synchronized Map<String, Long> byGroup() {
        Map<String, Long> groups = new TreeMap<>();
        long attributed = 0;
        for (Map.Entry<Long, Long> e : last.entrySet()) {
            long delta = e.getValue() - first.get(e.getKey());
            if (delta <= 0 || "bench-cpu-sampler".equals(names.get(e.getKey()))) {
                continue;
            }
            groups.merge(group(names.get(e.getKey())), delta, Long::sum);
            attributed += delta;
        }
        if (processCpu0 >= 0 && processCpu1 >= 0) {
            long rest = processCpu1 - processCpu0 - ownCpuNanos() - attributed;
            if (rest > 0) {
                groups.put(UNATTRIBUTED, rest);
            }
        }
        return groups;
    }

    /**
     * CPU nanoseconds by a caller's grouping of (thread id, thread name), with {@link #UNATTRIBUTED}
     * for the rest of the process's CPU; the sampler's own thread is left out.
     */
    public synchronized Map<String, Long> byGroup(java.util.function.BiFunction<Long, String, String> classifier) {
        Map<String, Long> groups = new TreeMap<>();
        long attributed = 0;
        for (Map.Entry<Long, Long> e : last.entrySet()) {
            long delta = e.getValue() - first.get(e.getKey());
            if (delta <= 0 || "bench-cpu-sampler".equals(names.get(e.getKey()))) {
                continue;
            }
            groups.merge(classifier.apply(e.getKey(), names.get(e.getKey())), delta, Long::sum);
            attributed += delta;
        }
        if (processCpu0 >= 0 && processCpu1 >= 0) {
            long rest = processCpu1 - processCpu0 - ownCpuNanos() - attributed;
            if (rest > 0) {
                groups.merge(UNATTRIBUTED, rest, Long::sum);
            }
        }
        return groups;
    }

    /** "openmft-SRCB-transfer-1a2b" becomes "openmft-SRCB-transfer"; Artemis pool numbers are dropped. */
    public static String group(String name) {
        if (name == null) {
            return "?";
        }
        String n = TRANSFER.matcher(name).replaceAll("-transfer");
        var m = THREAD_N.matcher(n);
        if (m.matches()) {
            n = m.group(1);
        }
        if (n.startsWith("openmft-") || n.startsWith("bench-")) {
            return n;
        }
        // Artemis names its pools after the server, one letter at a time ("activemq-q-m-b-e-n-c-h").
        for (String[] known : ARTEMIS_POOLS) {
            if (n.startsWith(known[0]) || n.contains(known[0])) {
                return known[1];
            }
        }
        n = NUMBERS.matcher(HASH.matcher(n).replaceAll("")).replaceAll("");
        return n.isBlank() ? name : n;
    }
}
