package org.openmft.bench.scenarios.channels;

import org.openmft.bench.Scale;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.harness.TestFiles;
import org.openmft.bench.harness.TwoQueueManagers;
import org.openmft.bench.measure.CpuSplit;
import org.openmft.bench.measure.TimedRun;
import org.openmft.bench.measure.TransferCpu;
import org.openmft.bench.report.ResultFiles;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun;
import org.openmft.bench.scenarios.transfer.Summary;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * One timed run of a scenario across queue managers joined by channels (or, to compare, on one
 * queue manager): from the first request put to the last final reply, every destination file then
 * checked outside the timed interval.
 *
 * @param cell       what was moved: "2000 x 1 MiB MD5", "RTT 25 ms", "lz4 text"
 * @param variant    how: "one queue manager", "two queue managers", "fixed window", ...
 * @param repetition from 1
 * @param bytes      payload bytes moved
 * @param files      files moved
 * @param wallNanos  from the first put to the last final reply
 * @param cpu        the CPU of the run: in one JVM, that JVM's split into the source agent's threads,
 *                   the destination agent's and the rest (the queue managers, their channels, GC,
 *                   JIT); with each queue manager and its agent in a process of its own, the source
 *                   process's whole CPU, the destination process's, and the queue managers' share of
 *                   both ({@link org.openmft.bench.measure.ProcessCpu})
 * @param resends    chunk resends the agents reported
 * @param failure    why the run does not count, or null when it succeeded and every file verified
 */
public record ChannelRun(String cell, String variant, int repetition, long bytes, int files, long wallNanos,
        FileShapeRun.Cpu cpu, int resends, String failure) implements TimedRun {

    static final String CSV_HEADER = "cell,variant,repetition,bytes,files,seconds,mb_per_s,cpu_total_s,cpu_source_s,"
            + "cpu_destination_s,cpu_rest_s,resends,failure\n";

    /** The transfers of one run, requested and waited for. */
    public interface Transfers {
        List<EmbeddedMft.Result> run() throws Exception;
    }

    /** The check of the destination after a run: null when every file is right, else what is wrong. */
    public interface Check {
        String verify() throws java.io.IOException;
    }

    /**
     * Times {@code transfers} (and the CPU they cost, as {@code cpuMeter} measures and splits it from
     * just before the first request), then, outside the timed interval, checks the destination with
     * {@code check} unless a transfer failed.
     */
    public static ChannelRun time(String cell, String variant, int repetition, long bytes, int files,
            Supplier<CpuSplit> cpuMeter, Transfers transfers, Check check) throws Exception {
        if (bytes >= 64 * Scale.MIB) {
            System.gc(); // the garbage of the previous run, collected here rather than during this one
        }
        CpuSplit measured = cpuMeter.get();
        long t0 = System.nanoTime();
        List<EmbeddedMft.Result> results = transfers.run();
        long wall = System.nanoTime() - t0;
        FileShapeRun.Cpu cpu = measured.stop();
        String failure = null;
        int resends = 0;
        for (int i = 0; i < results.size(); i++) {
            EmbeddedMft.Result r = results.get(i);
            resends += r.resends();
            if (r.failure() != null && failure == null) {
                failure = results.size() == 1 ? r.failure()
                        : "transfer " + (i + 1) + " of " + results.size() + ": " + r.failure();
            }
        }
        if (failure == null) {
            String bad = check.verify();
            failure = bad == null ? null : "destination check failed: " + bad;
        }
        return new ChannelRun(cell, variant, repetition, bytes, files, wall, cpu, resends, failure);
    }

    /**
     * Times one binary file, without checksum, from {@code pair}'s source on QMA to its destination
     * on QMB, then checks the destination against {@code md5}.
     */
    static ChannelRun oneFile(TwoQueueManagers two, TwoQueueManagers.Pair pair, String cell, String variant,
            int repetition, java.nio.file.Path source, String md5, java.nio.file.Path destinationDir) throws Exception {
        TestFiles.emptyDirectory(destinationDir);
        TestFiles.preload(List.of(source));
        long bytes = java.nio.file.Files.size(source);
        java.nio.file.Path destination = destinationDir.resolve(source.getFileName());
        // On a slow link (100 ms and IBM's window) the rate may be a few MB/s: a generous time-out, not a figure.
        long timeout = 120_000 + bytes / 1_000;
        return time(cell, variant, repetition, bytes, 1, () -> TransferCpu.start(pair.source(), pair.destination()),
                () -> two.transferAll(pair, List.of(List.of(EmbeddedMft.binaryItem(source, destination,
                        org.openmft.xml.ChecksumMethod.NONE))), timeout),
                () -> TestFiles.verify(List.of(source), p -> md5, destinationDir));
    }

    /** "12.34 s  56.7 MB/s" or "FAILED: why", for the console. */
    String logLine() {
        return ok() ? String.format(Locale.ROOT, "%-22s %-26s %8.2f s %8.1f MB/s%s", cell, variant, seconds(),
                mbPerSecond(), resends > 0 ? ", " + resends + " resends" : "")
                : String.format(Locale.ROOT, "%-22s %-26s FAILED: %s", cell, variant, failure);
    }

    /**
     * The rate in IBM's unit, its reports' "Mb": megabits per second where a megabyte is 2^20 bytes
     * (seed 000's and seed 002's rates times their times are 8 x 2048 and 8 x 1024 for their "2 GB"
     * and "1 GB" sets).
     */
    double ibmMegabits() {
        return bytes * 8.0 / Scale.MIB / seconds();
    }

    /** {@code cpuNanos} as a percentage of this machine's {@code cores} over the run, NaN when unknown. */
    double cpuPercent(long cpuNanos, int cores) {
        return cpuNanos < 0 ? Double.NaN : 100.0 * cpuNanos / ((double) wallNanos * cores);
    }

    /** One CSV line, matching {@link #CSV_HEADER}. */
    String csv() {
        return String.join(",", quote(cell), quote(variant), String.valueOf(repetition), String.valueOf(bytes),
                String.valueOf(files), ResultFiles.num(seconds()), ok() ? ResultFiles.num(mbPerSecond()) : "",
                cpuCsv(cpu.total()), cpuCsv(cpu.source()), cpuCsv(cpu.destination()), cpuCsv(cpu.queueManager()),
                String.valueOf(resends), failure == null ? "" : quote(failure)) + "\n";
    }

    private static String cpuCsv(long nanos) {
        return nanos < 0 ? "" : ResultFiles.num(nanos / 1e9);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    /** The median of {@code f} over the runs of {@code cell} and {@code variant} that succeeded; NaN when none did. */
    static double median(List<ChannelRun> runs, String cell, String variant, ToDoubleFunction<ChannelRun> f) {
        return Summary.median(of(runs, cell, variant).filter(ChannelRun::ok).mapToDouble(f).toArray());
    }

    /** The runs of {@code cell} and {@code variant} that failed, as "repetition n: why". */
    static List<String> failures(List<ChannelRun> runs) {
        return runs.stream().filter(Predicate.not(ChannelRun::ok))
                .map(r -> r.cell() + ", " + r.variant() + ", repetition " + r.repetition() + ": " + r.failure())
                .toList();
    }

    /**
     * The median over repetitions of one variant's rate over another's in the same repetition (pair
     * by pair, so that what the machine was doing meanwhile weighs on both alike); NaN without a pair.
     */
    static double medianRatio(List<ChannelRun> runs, String cell, String variant, String baseline) {
        return Summary.median(of(runs, cell, variant).filter(ChannelRun::ok).mapToDouble(r -> of(runs, cell, baseline)
                .filter(b -> b.ok() && b.repetition() == r.repetition()).findFirst()
                .map(b -> r.mbPerSecond() / b.mbPerSecond()).orElse(Double.NaN)).filter(d -> !Double.isNaN(d))
                .toArray());
    }

    /** The rates of the runs of {@code cell} and {@code variant}, in repetition order, "—" for a failed one. */
    static String rates(List<ChannelRun> runs, String cell, String variant) {
        return String.join(", ", of(runs, cell, variant).map(r -> r.ok()
                ? String.format(Locale.ROOT, "%,.0f", r.mbPerSecond()) : "—").toList());
    }

    private static java.util.stream.Stream<ChannelRun> of(List<ChannelRun> runs, String cell, String variant) {
        return runs.stream().filter(r -> r.cell().equals(cell) && r.variant().equals(variant));
    }
}
