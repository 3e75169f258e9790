package org.openmft.bench.scenarios.protection;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.report.CsvTable;
import org.openmft.bench.report.JsonFiles;
import org.openmft.bench.report.Report;
import org.openmft.bench.report.ResultFiles;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun;
import org.openmft.bench.scenarios.filesizes.FileSizeReport;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import org.openmft.agent.protection.ProtectionLevel;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The message protection section from its runs: for each policy the rate and the CPU per GiB
 * (medians of the repetitions), where the CPU went (source agent, destination agent, the rest), and
 * what the policy costs against none, pair by pair within each repetition; with the CSV and the
 * JSON of every run. Pure: everything printed comes from the runs and the load figures given, so
 * that the arithmetic and the wording can be tested without running a transfer.
 */
final class ProtectionReport {
    /**
     * One transfer at one policy.
     *
     * @param level         the policy both agents of the pair ask for
     * @param repetition    from 1; 0 is the warm-up, not counted
     * @param bytes         bytes moved
     * @param wallNanos     from the request to the final reply, -1 when no final reply came
     * @param cpu           this JVM's CPU over the transfer, split by side
     * @param otherCpuNanos CPU of every other process on the machine over the transfer, -1 when unknown
     * @param resends       chunk resends the agents reported
     * @param failure       null, or why the run does not count (a wrong byte is one)
     */
    record Run(ProtectionLevel level, int repetition, long bytes, long wallNanos, FileShapeRun.Cpu cpu,
            long otherCpuNanos, int resends, String failure) {
        boolean ok() {
            return failure == null;
        }

        /** This run, not counted: {@code why}. */
        Run withFailure(String why) {
            return new Run(level, repetition, bytes, wallNanos, cpu, otherCpuNanos, resends, why);
        }

        boolean counted() {
            return ok() && repetition >= 1;
        }

        /** Decimal megabytes (10^6 bytes) per second. */
        double mbPerSecond() {
            return ok() && wallNanos > 0 ? bytes / 1e6 / (wallNanos / 1e9) : Double.NaN;
        }

        /** {@code nanos} of CPU per GiB moved, NaN when unknown. */
        double perGib(long nanos) {
            return nanos < 0 || bytes <= 0 ? Double.NaN : nanos / 1e9 / ((double) bytes / Scale.GIB);
        }

        double cpuSecondsPerGib() {
            return perGib(cpu.total());
        }

        /** Cores this JVM kept busy on average. */
        double coresBusy() {
            return cpu.total() < 0 || wallNanos <= 0 ? Double.NaN : (double) cpu.total() / wallNanos;
        }

        /** Cores the machine's other processes kept busy on average: the noise this run shared the machine with. */
        double otherCores() {
            return otherCpuNanos < 0 || wallNanos <= 0 ? Double.NaN : (double) otherCpuNanos / wallNanos;
        }
    }

    /**
     * How busy the machine was apart from this run, for the run table.
     *
     * @param loadAtStart 1-minute load average when the section started (before its JVM did any work
     *                    of its own), NaN when unknown
     * @param otherCores  cores the other processes kept busy on average over the whole section, NaN
     *                    when unknown
     * @param cores       cores of the machine
     */
    record Load(double loadAtStart, double otherCores, int cores) {
        /**
         * Other processes took more than a tenth of a core on average, or the load average said
         * something was running when the section started: then the section says the machine was not idle.
         */
        boolean idle() {
            return !(otherCores > 0.1) && !(loadAtStart >= 0.5);
        }
    }

    /** The policies in the order of the tables; none, the baseline, first. */
    static final List<ProtectionLevel> LEVELS = List.of(ProtectionLevel.values());

    private final Section.Context context;
    private final Scale scale;
    private final Instant started;
    private final Instant ended;
    private final Load load;
    private final List<Run> runs;

    /**
     * @param scale the file size of every run and the counted repetitions
     */
    ProtectionReport(Section.Context context, Scale scale, Instant started, Instant ended, Load load,
            List<Run> runs) {
        this.context = context;
        this.scale = scale;
        this.started = started;
        this.ended = ended;
        this.load = load;
        this.runs = List.copyOf(runs);
    }

    /** The median of {@code f} over the counted runs of {@code level}, NaN for none. */
    double median(ProtectionLevel level, ToDoubleFunction<Run> f) {
        List<Double> v = new ArrayList<>();
        for (Run r : runs) {
            if (r.level() == level && r.counted()) {
                v.add(f.applyAsDouble(r));
            }
        }
        return FileSizeReport.median(v);
    }

    /**
     * {@code level} against none, repetition by repetition: {@code compare(level's run, none's run)}
     * for every repetition in which both succeeded, never a comparison of medians (the machine's
     * speed drifts from one repetition to the next; runs of one repetition ran side by side).
     */
    List<Double> againstNone(ProtectionLevel level, Comparison compare) {
        List<Double> v = new ArrayList<>();
        for (Run r : runs) {
            if (r.level() != level || !r.counted()) {
                continue;
            }
            for (Run base : runs) {
                if (base.level() == ProtectionLevel.NONE && base.repetition() == r.repetition() && base.ok()) {
                    v.add(compare.apply(r, base));
                }
            }
        }
        return v;
    }

    /** How a run compares with the none run of its repetition. */
    interface Comparison {
        double apply(Run run, Run none);
    }

    /** Rate against none: 0.8 is 20% slower. */
    static final Comparison RATE = (r, none) -> r.mbPerSecond() / none.mbPerSecond();
    /** Extra CPU seconds per GiB against none, the whole JVM. */
    static final Comparison CPU = (r, none) -> r.cpuSecondsPerGib() - none.cpuSecondsPerGib();
    /** Extra CPU seconds per GiB against none, the source agent's threads. */
    static final Comparison SOURCE_CPU = (r, none) -> r.perGib(r.cpu().source()) - none.perGib(none.cpu().source());
    /** Extra CPU seconds per GiB against none, the destination agent's threads. */
    static final Comparison DESTINATION_CPU = (r, none) -> r.perGib(r.cpu().destination())
            - none.perGib(none.cpu().destination());

    /** The section, without its begin and end comments. */
    String markdown() {
        StringBuilder md = new StringBuilder("## Message protection: cost per policy\n\n");
        md.append("What `openmft.messageProtection` costs a transfer. The agent-to-agent transfer of the transfer")
                .append(" section above (one file of ").append(Report.size(scale.singleFileBytes()))
                .append(", binary, MD5 checksum, agentChunkSize ")
                .append(BenchmarkRunner.CHUNK_SIZE).append(", both agents in bindings mode on one queue manager in this")
                .append(" JVM) runs once per policy, between two agents that both ask for it:\n\n");
        md.append("- **none**: what every other section measures. Every message carries a tag (HMAC-SHA256 of its")
                .append(" headers, a chunk's CRC32C among them) under the transfer's key, which travels in the START")
                .append(" in the clear; chunk bodies are sent as read.\n");
        md.append("- **integrity**: the source signs the START with its RSA key and wraps the transfer's key for the")
                .append(" destination's certificate, once per transfer; the source computes an HMAC-SHA256 over the")
                .append(" body of every chunk and the destination checks it.\n");
        md.append("- **privacy**: as integrity, but every chunk's body is encrypted with AES-256-GCM by the source and")
                .append(" decrypted (and its tag checked) by the destination: the queue manager holds no plaintext.\n\n");
        md.append("A destination that asks for integrity or privacy refuses a START below its level and drops weaker")
                .append(" DATA, so a transfer that completes was protected at its pair's level; every destination")
                .append(" file's MD5 is then checked against the source's (not timed). Each policy has a pair of agents")
                .append(" of its own on the one queue manager, with keys made by `ProtectionStores`, so")
                .append(" each repetition runs the three policies one after the other; the order rotates from one")
                .append(" repetition to the next, so that no policy always runs first. Repetition 0 warms up and is")
                .append(" not counted. Figures are medians of ").append(scale.repetitions()).append(" repetitions; the")
                .append(" comparisons with none are taken within each repetition, then their median. CPU is this")
                .append(" JVM's, which hosts the queue manager and both agents, as in the other sections; it is split")
                .append(" by thread name into the source agent, the destination agent and the rest (the queue")
                .append(" manager, the transport, GC and the JIT). \"Others\" is the CPU every other process of")
                .append(" the machine used meanwhile (from `/proc/stat`), in cores.\n\n");
        if (!load.idle()) {
            md.append("**Not an idle machine.** ").append(loadSentence()).append(" Rates are lower and noisier than")
                    .append(" on an idle machine; the comparisons with none pair runs of the same repetition, which")
                    .append(" ran side by side, to limit that.\n\n");
        }
        md.append(context.runTable(started, ended, describe(scale)));
        md.append("| machine load | ").append(loadSentence()).append(" |\n\n");

        md.append("| policy | time (s) | MB/s | MB/s of each run | CPU s/GiB | source agent | destination agent |")
                .append(" rest | cores busy | others (cores) | rate against none (runs) | CPU against none | resends |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (ProtectionLevel level : LEVELS) {
            md.append(row(level)).append('\n');
        }
        md.append('\n');
        md.append("CPU columns are seconds per GiB moved; \"source agent\" and \"destination agent\" count the threads")
                .append(" named `openmft-<agent>-*`, \"rest\" everything else in the JVM.\n\n");
        List<String> notes = notes();
        if (!notes.isEmpty()) {
            md.append("### Against none\n\n");
            notes.forEach(n -> md.append("- ").append(n).append('\n'));
            md.append('\n');
        }
        List<String> failures = runs.stream().filter(r -> !r.ok()).map(ProtectionReport::describe).toList();
        if (!failures.isEmpty()) {
            md.append("### Failures\n\n");
            failures.forEach(f -> md.append("- ").append(f).append('\n'));
            md.append('\n');
        }
        md.append("Run alone with `--scenario protection`; with `--quick` it moves ")
                .append(Report.size(Scale.QUICK.singleFileBytes())).append(" with ").append(Scale.QUICK.repetitions())
                .append(" repetitions, a check rather than figures. The CSV and JSON of every run, warm-up included,")
                .append(" go to `--results DIR` as `protection-<scale>.csv` and `.json`.\n");
        return md.toString();
    }

    private String row(ProtectionLevel level) {
        StringBuilder sb = new StringBuilder("| ").append(level.word()).append(" | ");
        String failure = firstFailure(level);
        if (failure != null) {
            return sb.append("FAILED: ").append(failure.replace("|", "\\|")).append(" | | | | | | | | | | | |")
                    .toString();
        }
        sb.append(Report.fmt(median(level, r -> r.wallNanos() / 1e9), 2)).append(" | **")
                .append(Report.fmt(median(level, Run::mbPerSecond), 0)).append("** | ");
        List<String> each = new ArrayList<>();
        runs.stream().filter(r -> r.level() == level && r.counted()).forEach(r -> each.add(Report.fmt(r.mbPerSecond(), 0)));
        sb.append(String.join(", ", each)).append(" | ")
                .append(Report.fmt(median(level, Run::cpuSecondsPerGib), 2)).append(" | ")
                .append(Report.fmt(median(level, r -> r.perGib(r.cpu().source())), 2)).append(" | ")
                .append(Report.fmt(median(level, r -> r.perGib(r.cpu().destination())), 2)).append(" | ")
                .append(Report.fmt(median(level, r -> r.perGib(r.cpu().queueManager())), 2)).append(" | ")
                .append(Report.fmt(median(level, Run::coresBusy), 2)).append(" | ")
                .append(Report.fmt(median(level, Run::otherCores), 2)).append(" | ");
        if (level == ProtectionLevel.NONE) {
            sb.append("baseline | baseline | ");
        } else {
            List<Double> rate = againstNone(level, RATE);
            List<Double> cpu = againstNone(level, CPU);
            double extra = FileSizeReport.median(cpu);
            double noneCpu = median(ProtectionLevel.NONE, Run::cpuSecondsPerGib);
            sb.append(change(FileSizeReport.median(rate))).append(rate.isEmpty() ? "" : " (" + change(min(rate)) + " to "
                    + change(max(rate)) + ")").append(" | ").append(Report.signed(extra, 2)).append(" s/GiB");
            if (!Double.isNaN(extra) && noneCpu > 0) {
                sb.append(" (").append(change(1 + extra / noneCpu)).append(')');
            }
            if (!cpu.isEmpty()) {
                sb.append(", runs ").append(Report.signed(min(cpu), 2)).append(" to ").append(Report.signed(max(cpu), 2));
            }
            sb.append(" | ");
        }
        int resends = runs.stream().filter(r -> r.level() == level && r.counted()).mapToInt(Run::resends).sum();
        return sb.append(resends).append(" |").toString();
    }

    /** Computed sentences: where each policy's extra CPU goes and what it does to the rate. */
    private List<String> notes() {
        List<String> notes = new ArrayList<>();
        for (ProtectionLevel level : LEVELS) {
            if (level == ProtectionLevel.NONE || firstFailure(level) != null || firstFailure(ProtectionLevel.NONE) != null) {
                continue;
            }
            double rate = FileSizeReport.median(againstNone(level, RATE));
            double cpu = FileSizeReport.median(againstNone(level, CPU));
            double source = FileSizeReport.median(againstNone(level, SOURCE_CPU));
            double destination = FileSizeReport.median(againstNone(level, DESTINATION_CPU));
            if (Double.isNaN(rate)) {
                continue;
            }
            String note = String.format(Locale.ROOT, "%s: %s CPU s/GiB (%s on the source agent's threads, %s on the"
                    + " destination's), at %s of none's rate (%s against %s MB/s).", level.word(),
                    Report.signed(cpu, 2), Report.signed(source, 2), Report.signed(destination, 2), Report.pct(rate),
                    Report.fmt(median(level, Run::mbPerSecond), 0),
                    Report.fmt(median(ProtectionLevel.NONE, Run::mbPerSecond), 0));
            List<Double> rates = againstNone(level, RATE);
            if (min(rates) < 1 && max(rates) > 1) {
                note += " Its runs were from " + change(min(rates)).replace("-", "") + " slower to "
                        + change(max(rates)).replace("+", "") + " faster than none's: the difference in rate is"
                        + " within this run's noise.";
            }
            List<Double> cpus = againstNone(level, CPU);
            if (min(cpus) < 0 && max(cpus) > 0) {
                note += " Some of its runs used less CPU than none's: the difference in CPU is within this run's"
                        + " noise.";
            }
            notes.add(note);
        }
        return notes;
    }

    private String loadSentence() {
        String others = Double.isNaN(load.otherCores()) ? "the CPU of other processes is unknown here"
                : String.format(Locale.ROOT, "other processes kept %.2f of the %d cores busy on average while the"
                        + " section ran", load.otherCores(), load.cores());
        String avg = Double.isNaN(load.loadAtStart()) ? ""
                : String.format(Locale.ROOT, "; the 1-minute load average was %.2f when it started", load.loadAtStart());
        return Character.toUpperCase(others.charAt(0)) + others.substring(1) + avg + ".";
    }

    private String firstFailure(ProtectionLevel level) {
        boolean any = false;
        for (Run r : runs) {
            if (r.level() == level && r.repetition() >= 1) {
                any = true;
                if (!r.ok()) {
                    return "repetition " + r.repetition() + ": " + r.failure();
                }
            }
        }
        return any ? null : "did not run";
    }

    /** The run table's scale: "**full**: one file of 1 GiB per policy; 5 repetitions". */
    static String describe(Scale scale) {
        return "**" + scale.name() + "**: one file of " + Report.size(scale.singleFileBytes()) + " per policy; "
                + scale.repetitions() + " repetitions";
    }

    /** A failed run as one line of the outcome's failures. */
    static String describe(Run r) {
        return r.level().word() + " repetition " + r.repetition() + ": " + r.failure();
    }

    /** Every run, warm-up included. */
    String csv() {
        List<List<Object>> rows = new ArrayList<>();
        for (Run r : runs) {
            rows.add(Arrays.asList(r.level().word(), r.repetition(), r.bytes(), ResultFiles.num(seconds(r.wallNanos())),
                    ResultFiles.num(r.mbPerSecond()), ResultFiles.num(seconds(r.cpu().total())),
                    ResultFiles.num(r.cpuSecondsPerGib()), ResultFiles.num(seconds(r.cpu().source())),
                    ResultFiles.num(seconds(r.cpu().destination())), ResultFiles.num(seconds(r.cpu().queueManager())),
                    ResultFiles.num(seconds(r.otherCpuNanos())), r.resends(), r.failure()));
        }
        return CsvTable.write(List.of("policy", "repetition", "bytes", "wall_s", "mb_per_s", "cpu_s", "cpu_s_per_gib",
                "source_cpu_s", "destination_cpu_s", "rest_cpu_s", "other_processes_cpu_s", "resends", "failure"), rows);
    }

    /** Every run, the load, and each policy's medians and comparisons with none. */
    String json() {
        ObjectNode root = JsonFiles.object();
        root.put("section", "protection");
        root.put("scale", scale.name());
        root.put("file_bytes", scale.singleFileBytes());
        root.put("repetitions", scale.repetitions());
        root.put("started", started.toString());
        root.put("revision", context.revision());
        JsonFiles.putNumber(root, "load_average_at_start", load.loadAtStart());
        JsonFiles.putNumber(root, "other_processes_cores", load.otherCores());
        ArrayNode runsNode = root.putArray("runs");
        for (Run r : runs) {
            ObjectNode o = runsNode.addObject();
            o.put("policy", r.level().word());
            o.put("repetition", r.repetition());
            o.put("bytes", r.bytes());
            o.put("wall_ns", r.wallNanos());
            o.put("cpu_ns", r.cpu().total());
            o.put("source_cpu_ns", r.cpu().source());
            o.put("destination_cpu_ns", r.cpu().destination());
            o.put("rest_cpu_ns", r.cpu().queueManager());
            o.put("other_processes_cpu_ns", r.otherCpuNanos());
            o.put("resends", r.resends());
            o.put("failure", r.failure());
        }
        ArrayNode policies = root.putArray("policies");
        for (ProtectionLevel level : LEVELS) {
            ObjectNode o = policies.addObject();
            o.put("policy", level.word());
            JsonFiles.putNumber(o, "median_mb_per_s", median(level, Run::mbPerSecond));
            JsonFiles.putNumber(o, "median_cpu_s_per_gib", median(level, Run::cpuSecondsPerGib));
            JsonFiles.putNumber(o, "median_rate_against_none", FileSizeReport.median(againstNone(level, RATE)));
            JsonFiles.putNumber(o, "median_cpu_s_per_gib_against_none", FileSizeReport.median(againstNone(level, CPU)));
        }
        return JsonFiles.write(root);
    }

    private static double seconds(long nanos) {
        return nanos < 0 ? Double.NaN : nanos / 1e9;
    }

    private static double min(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /** A ratio as a change: 0.8 is "-20%", 1.05 "+5%". */
    static String change(double ratio) {
        return Double.isNaN(ratio) ? "—" : String.format(Locale.ROOT, "%+.0f%%", (ratio - 1) * 100);
    }
}
