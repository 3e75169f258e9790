package org.openmft.bench.scenarios.channels;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Section;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the sections measured across two queue managers share in their write-up: the cell shapes of
 * IBM's tables, the note on how busy the machine was, the how-to-run block, the raw CSV.
 */
final class ChannelReports {
    private ChannelReports() {
    }

    /** IBM's "Transfer Time" cell: "89.44 s"; "—" when not measured. */
    static String ibmTime(double seconds) {
        return Double.isNaN(seconds) ? "—" : String.format(Locale.ROOT, "%.2f s", seconds);
    }

    /** IBM's "Transfer Rate" cell: "1,056.80 Mb"; "—" when not measured. */
    static String ibmRate(double megabits) {
        return Double.isNaN(megabits) ? "—" : String.format(Locale.ROOT, "%,.2f Mb", megabits);
    }

    /** IBM's CPU cell: "14%"; "—" when not measured. */
    static String ibmPercent(double percent) {
        return Double.isNaN(percent) ? "—" : String.format(Locale.ROOT, "%.0f%%", percent);
    }

    /** "3.4x", or "—". */
    static String times(double x) {
        return Double.isNaN(x) ? "—" : String.format(Locale.ROOT, "%.1fx", x);
    }

    /**
     * The load the section ran under: the load averages at its start and end, which count the
     * section's own processes (and, right after another section, that one's), so that a reader can
     * tell a quiet run from a shared one; never a claim about who else used the machine.
     */
    static String busyNote(double loadAtStart, double loadAtEnd, Map<String, String> machine) {
        String cores = machine.getOrDefault("cores (available to the JVM)", "?");
        String load = Double.isNaN(loadAtStart) ? "The load of the machine is unknown here."
                : String.format(Locale.ROOT, "The 1-minute load average was %.2f when the section started and %.2f"
                        + " when it ended, on %s cores; it counts this section's own processes, and a section run"
                        + " right after another starts with some of that one's load still in it.", loadAtStart,
                        loadAtEnd, cores);
        return "**Load.** " + load + " Compare the columns of one row, which ran side by side in the same repetition,"
                + " rather than with other sections. A median of an even number of repetitions is the mean of the"
                + " middle two, taken of the times and of the rates separately, so a row's rate need not be its bytes"
                + " over its time.";
    }

    /**
     * What ran where, for the sections whose two queue managers run each in a process of its own
     * ({@link org.openmft.bench.harness.TwoProcesses}): {@code topology} as the run reported it,
     * null when no pair of processes started.
     */
    static String processesParagraph(String topology, int cores) {
        return "**Two queue managers in two processes.** QMA with the source agent runs in one JVM and QMB with the"
                + " destination agent in another, each agent in bindings mode, hosted by its queue manager's process"
                + " (`fteStartAgent` of a bindings agent), as on IBM's two machines; each JVM has `"
                + org.openmft.bench.harness.TwoProcesses.QMGR_JVM + "` (BFG_JVM_PROPERTIES). Both hosts are set up and started"
                + " with the distribution's launchers as an administrator would, each with a data directory of its"
                + " own: `mft qmgr create`, `fteSetupCoordination` (QMA coordinates both agents), `fteCreateAgent`,"
                + " `mft qmgr user add` and `mft qmgr channel create` for each channel, `mft qmgr start`,"
                + " `fteStartAgent`. The benchmark's JVM only puts each request on the source agent's COMMAND queue"
                + " (a client connection to QMA) and checks the files. Run as root, QMB's process runs in a network"
                + " namespace of its own, joined to QMA's by a veth pair, so the channels cross a network interface,"
                + " plain TCP as IBM's channels were (`--allow-plaintext-network`); otherwise both processes listen"
                + " and connect on loopback. The agents' chunk resends, which they report in their own processes, are"
                + " not counted. **This run: " + (topology == null ? "no pair of processes started"
                        : topology) + ".** What it does not show is two machines: both processes share this"
                + " machine's " + cores + " cores and one disk, where IBM's had a machine each.";
    }

    /** What the CPU columns of the sections run on {@link org.openmft.bench.harness.TwoProcesses} are. */
    static String processesCpuNote(int cores) {
        return "Ours are read from `/proc/<pid>/stat` of the two processes before and after each run, as percentages"
                + " of this machine's " + cores + " cores over the transfer time: Agent1-CPU is the whole of QMA's"
                + " process (the queue manager, its channel, the source agent, GC, JIT) and Agent2-CPU the whole of"
                + " QMB's, as IBM's are each the whole of one machine, queue manager included; QMs-CPU is the queue"
                + " managers' share of both, everything but the agents' threads (read per thread, an upper bound: an"
                + " agent thread that ended during the run is counted there).";
    }

    /** Where the relayed sections (latency, channel options) run their queue managers. */
    static final String RELAYED_IN_ONE_JVM = "Both queue managers, their relays and the agents run in the benchmark's"
            + " JVM, each queue manager with its own journal and TCP listener on loopback, so that the run can change"
            + " the relays' delay and rate between runs and split the CPU by thread (the seed 000 and seed 002"
            + " sections run each queue manager with its agent in a process of its own instead).";

    /** How a section ends: its chart, its failures if any, and how to run it. */
    static String end(String chart, List<String> failures, String scenario, String quickNote) {
        StringBuilder md = new StringBuilder();
        if (!chart.isBlank()) {
            md.append(chart).append("\n\n");
        }
        if (!failures.isEmpty()) {
            md.append("**Failures:**\n\n");
            failures.forEach(x -> md.append("- ").append(x).append('\n'));
            md.append('\n');
        }
        return md.append(howToRun(scenario, quickNote)).toString();
    }

    /** The how-to-run block of {@code scenario}. */
    static String howToRun(String scenario, String quickNote) {
        return "Run alone with\n\n```\nmvn -B -q -o -pl benchmarks -am package -DskipTests\n"
                + "java -cp \"benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*\""
                + " org.openmft.bench.BenchmarkRunner --scenario " + scenario + " [--quick] [--repetitions N]\n```\n\n"
                + quickNote + " Only this section of the report is rewritten; every run goes to `--results DIR` as `"
                + scenario + "-<scale>.csv`.\n";
    }

    /** The agents' properties as the run tables list them: "`k=v`, `k=v`". */
    static String properties(Map<String, String> agentProperties) {
        Map<String, String> p = new TreeMap<>(agentProperties);
        return p.isEmpty() ? "every key at its default"
                : String.join(", ", p.entrySet().stream().map(e -> "`" + e.getKey() + "=" + e.getValue() + "`").toList())
                        + "; every other key at its default";
    }

    /**
     * What every section does once its runs are done: writes them to the CSV and adds the failed ones
     * to {@code failures}.
     */
    static void finish(Section.Context context, String scenario, List<ChannelRun> runs, List<String> failures)
            throws java.io.IOException {
        writeCsv(context, scenario, context.quick() ? "quick" : "full", runs);
        failures.addAll(ChannelRun.failures(runs));
    }

    /** Writes every run to {@code <results>/<scenario>-<scale>.csv}. */
    static Path writeCsv(Section.Context context, String scenario, String scale, List<ChannelRun> runs)
            throws java.io.IOException {
        Files.createDirectories(context.results());
        Path csv = context.results().resolve(scenario + "-" + scale + ".csv");
        StringBuilder sb = new StringBuilder(ChannelRun.CSV_HEADER);
        runs.forEach(r -> sb.append(r.csv()));
        Files.writeString(csv, sb);
        context.log("wrote %s", csv);
        return csv;
    }

    /** Adds {@code run} to {@code runs} and says how it went on the console. */
    static void record(Section.Context context, List<ChannelRun> runs, ChannelRun run) {
        runs.add(run);
        context.log("  rep %d %s", run.repetition(), run.logLine());
    }

    /** Deletes a section's work directory {@code dir} unless the run keeps its work files. */
    static void deleteUnlessKept(Section.Context context, Path dir) throws java.io.IOException {
        if (!context.keep()) {
            BenchmarkRunner.deleteTree(dir);
        }
    }

    /** This JVM's cores, for CPU percentages. */
    static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }
}
