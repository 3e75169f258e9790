package org.openmft.bench.scenarios.memory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.report.Goals;
import org.openmft.bench.report.MarkdownTable;
import org.openmft.bench.report.Report;

/**
 * Memory ({@code --scenario memory}), issue 18's goal: the resident size (VmRSS from
 * /proc/self/status) and the heap in use after GC of a queue manager alone and hosting 2, 100 and 500
 * idle agents, so of one idle agent; the increase per running transfer; and whether a 4 GiB file still
 * passes when the JVM has {@code -Xmx256m}. Each measurement runs in a child JVM of its own
 * ({@link MemoryProbe}), so that the resident size is that of the measured process alone.
 */
public final class MemorySuite implements Section {
    /** The heap limit the large file must pass with. */
    static final String SMALL_HEAP = "-Xmx256m";

    /**
     * How big a run is.
     *
     * @param agentCounts     the agent counts the queue manager hosts, in order (the first is the idle-agent step)
     * @param transfers       transfers running at once for the per-transfer figure
     * @param transferBytes   the file of each
     * @param bigFileBytes    the file moved at {@link #SMALL_HEAP}
     */
    record MemoryScale(String name, List<Integer> agentCounts, int transfers, long transferBytes, long bigFileBytes) {
        static final MemoryScale FULL = new MemoryScale("full", List.of(2, 100, 500), 10, 256 * Scale.MIB,
                4 * Scale.GIB);
        static final MemoryScale QUICK = new MemoryScale("quick", List.of(2, 10, 20), 4, 32 * Scale.MIB,
                256 * Scale.MIB);

        String describe() {
            return "**" + name + "**: a queue manager hosting " + agentCounts.stream().map(String::valueOf)
                    .reduce((a, b) -> a + ", " + b).orElse("") + " agents; " + transfers + " transfers of "
                    + Report.size(transferBytes) + " at once; one file of " + Report.size(bigFileBytes) + " at "
                    + SMALL_HEAP;
        }
    }

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public Outcome run(Context context) throws Exception {
        MemoryScale scale = context.quick() ? MemoryScale.QUICK : MemoryScale.FULL;
        Instant started = Instant.now();
        List<String> failures = new ArrayList<>();
        String counts = String.join(",", scale.agentCounts().stream().map(String::valueOf).toList());
        context.log("memory: a queue manager hosting %s agents", counts);
        Probe agents = probe(context, List.of(), "agents", counts);
        context.log("memory: %d transfers of %s at once", scale.transfers(), Report.size(scale.transferBytes()));
        Probe transfers = probe(context, List.of(), "transfers", String.valueOf(scale.transfers()),
                String.valueOf(scale.transferBytes()));
        context.log("memory: one file of %s at %s", Report.size(scale.bigFileBytes()), SMALL_HEAP);
        Probe big = probe(context, List.of(SMALL_HEAP), "bigfile", String.valueOf(scale.bigFileBytes()));
        for (Probe p : List.of(agents, transfers, big)) {
            if (p.failure != null) {
                failures.add(p.what + ": " + p.failure);
            }
        }
        if (transfers.get("transfers_failed") > 0) {
            failures.add("transfers: " + (long) transfers.get("transfers_failed") + " of " + scale.transfers()
                    + " transfers failed");
        }
        Instant ended = Instant.now();

        Map<String, Double> headline = new LinkedHashMap<>();
        int first = scale.agentCounts().get(0);
        headline.put(Goals.IDLE_AGENT_RSS, (agents.get("agents_" + first + "_rss_mib") - agents.get("agents_0_rss_mib"))
                / first);
        headline.put(Goals.IDLE_AGENT_HEAP, (agents.get("agents_" + first + "_heap_mib")
                - agents.get("agents_0_heap_mib")) / first);
        for (int n : scale.agentCounts()) {
            headline.put(Goals.queueManagerRss(n), agents.get("agents_" + n + "_rss_mib"));
            headline.put(Goals.queueManagerHeap(n), agents.get("agents_" + n + "_heap_mib"));
        }
        if (transfers.failure == null && transfers.get("transfers_failed") == 0) {
            headline.put(Goals.PER_TRANSFER_RSS, (transfers.get("during_rss_mib") - transfers.get("idle_rss_mib"))
                    / scale.transfers());
            headline.put(Goals.PER_TRANSFER_HEAP, (transfers.get("during_heap_mib") - transfers.get("idle_heap_mib"))
                    / scale.transfers());
        }
        if (scale.bigFileBytes() == 4 * Scale.GIB && !big.values.isEmpty()) {
            headline.put(Goals.BIG_FILE_PASSED, big.get("passed"));
        }

        StringBuilder md = new StringBuilder("## Memory\n\n");
        md.append("Issue 18's memory goal. Every figure comes from a JVM of its own (`MemoryProbe`, started by this"
                + " section with the benchmark's class path and no JVM options but those named), so that its"
                + " resident size is that of the measured process alone: **resident size** is VmRSS from"
                + " /proc/self/status (what the operating system holds in memory for the process: heap committed,"
                + " code, threads' stacks, direct buffers, the queue manager's journal buffers), **heap after GC** is"
                + " the JVM's heap in use right after `System.gc()`. Agents are hosted in bindings mode by the"
                + " embedded queue manager of the process, as the benchmark's other sections host them.\n\n");
        md.append(context.runTable(started, ended, scale.describe())).append('\n');
        md.append("### A queue manager hosting idle agents\n\n");
        md.append("Measured 3 s after the last agent of each step started. An idle agent's figure is what the first "
                + first + " added, divided by " + first + ".\n\n");
        MarkdownTable t = MarkdownTable.of("agents", "resident size", "heap after GC", "threads",
                "resident size per agent (added)", "heap per agent (added)");
        for (int n : concat(0, scale.agentCounts())) {
            String k = "agents_" + n;
            t.row(n == 0 ? "0 (the queue manager alone)" : n, mib(agents.get(k + "_rss_mib")),
                    mib(agents.get(k + "_heap_mib")), Report.fmt(agents.get(k + "_threads"), 0),
                    n == 0 ? "" : mib((agents.get(k + "_rss_mib") - agents.get("agents_0_rss_mib")) / n),
                    n == 0 ? "" : mib((agents.get(k + "_heap_mib") - agents.get("agents_0_heap_mib")) / n));
        }
        md.append(t).append('\n');
        md.append("### Per running transfer\n\n");
        md.append("The queue manager and its four standard agents idle, then the largest values sampled every 0.2 s"
                + " (heap after a GC each time) while " + scale.transfers() + " transfers of one "
                + Report.size(scale.transferBytes()) + " file each (binary, MD5, bindings) ran at once; per transfer"
                + " is the increase over " + scale.transfers() + ".\n\n");
        md.append(MarkdownTable.of("", "resident size", "heap after GC")
                .row("idle", mib(transfers.get("idle_rss_mib")), mib(transfers.get("idle_heap_mib")))
                .row("during " + scale.transfers() + " transfers (max)", mib(transfers.get("during_rss_mib")),
                        mib(transfers.get("during_heap_mib")))
                .row("**per running transfer**", mib(headline.getOrDefault(Goals.PER_TRANSFER_RSS, Double.NaN)),
                        mib(headline.getOrDefault(Goals.PER_TRANSFER_HEAP, Double.NaN))))
                .append('\n');
        md.append("### A " + Report.size(scale.bigFileBytes()) + " file at " + SMALL_HEAP + "\n\n");
        md.append("A JVM started with `" + SMALL_HEAP + "` runs the queue manager and the standard agents and moves one"
                + " sparse file of " + Report.size(scale.bigFileBytes()) + " (binary, MD5, bindings); it passes when"
                + " the transfer ends with result 0 (the MD5 of both sides agreed) and the destination has every"
                + " byte.\n\n");
        md.append(MarkdownTable.of("heap limit", "file", "result", "time", "peak resident size (VmHWM)",
                "max heap").row("`" + SMALL_HEAP + "`", Report.size(scale.bigFileBytes()),
                        big.values.isEmpty() ? "**did not run**: " + big.failure
                                : big.get("passed") >= 1 ? "passed" : "**failed**: " + big.failure,
                        Report.fmt(big.get("seconds"), 1) + " s", mib(big.get("peak_rss_mib")),
                        mib(big.get("max_heap_mib")))).append('\n');
        md.append("Run again: `java -cp \"benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*\""
                + " org.openmft.bench.BenchmarkRunner --scenario memory` (`--quick`: " + MemoryScale.QUICK.agentCounts()
                + " agents, a " + Report.size(MemoryScale.QUICK.bigFileBytes()) + " file); it rewrites this section"
                + " only.\n");
        return new Outcome(md.toString(), failures, headline);
    }

    private static List<Integer> concat(int first, List<Integer> rest) {
        List<Integer> l = new ArrayList<>(List.of(first));
        l.addAll(rest);
        return l;
    }

    private static String mib(double v) {
        return Double.isNaN(v) ? "—" : Report.fmt(v, 1) + " MiB";
    }

    /** What a child JVM printed. */
    private static final class Probe {
        final String what;
        final Map<String, Double> values = new LinkedHashMap<>();
        String failure;

        Probe(String what) {
            this.what = what;
        }

        double get(String name) {
            return values.getOrDefault(name, Double.NaN);
        }
    }

    /** Runs {@link MemoryProbe} {@code args} in a child JVM with {@code jvmOptions}; its log goes to the work directory. */
    private static Probe probe(Context context, List<String> jvmOptions, String mode, String... args)
            throws IOException, InterruptedException {
        Probe p = new Probe(mode);
        Path dir = context.work().resolve(mode);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-Dlogback.configurationFile=logback-benchmark.xml", "-cp",
                System.getProperty("java.class.path"), MemoryProbe.class.getName(), mode, dir.toString()));
        command.addAll(List.of(args));
        Path log = context.work().resolve(mode + ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                String[] f = line.split(" ", 3);
                if (f.length == 3 && f[0].equals("FIGURE")) {
                    p.values.put(f[1], Double.parseDouble(f[2]));
                } else if (line.startsWith("FAILURE ")) {
                    p.failure = line.substring("FAILURE ".length());
                }
            }
        }
        if (!process.waitFor(2, TimeUnit.HOURS)) {
            process.destroyForcibly();
            p.failure = "did not end within two hours";
        } else if (process.exitValue() != 0 && p.failure == null) {
            p.failure = "exit status " + process.exitValue() + "; last lines of its log: " + tail(log);
        }
        return p;
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = java.nio.file.Files.readAllLines(log);
        return String.join(" / ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    }
}
