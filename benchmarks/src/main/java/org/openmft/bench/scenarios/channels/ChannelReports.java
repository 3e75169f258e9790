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
     * Says that the machine was shared: the load averages at the start and end of the section, and
     * the other engineers' builds that ran meanwhile.
     */
    static String busyNote(double loadAtStart, double loadAtEnd, Map<String, String> machine) {
        String cores = machine.getOrDefault("cores (available to the JVM)", "?");
        String load = Double.isNaN(loadAtStart) ? "The load of the machine is unknown here."
                : String.format(Locale.ROOT, "The 1-minute load average was %.2f when the section started and %.2f"
                        + " when it ended, on %s cores.", loadAtStart, loadAtEnd, cores);
        return "**Taken on a busy machine.** Other engineers were building and testing on it at the same time. "
                + load + " Rates are lower and noisier than on an idle machine: compare the columns of one row,"
                + " which ran side by side in the same repetition, rather than with other sections. A median of an"
                + " even number of repetitions is the mean of the middle two, taken of the times and of the rates"
                + " separately, so a row's rate need not be its bytes over its time.";
    }

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
