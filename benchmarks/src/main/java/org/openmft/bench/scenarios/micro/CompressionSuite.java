package org.openmft.bench.scenarios.micro;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Section;
import org.openmft.bench.measure.CpuClock;
import org.openmft.bench.report.ResultFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.openjdk.jmh.runner.RunnerException;
import org.openmft.agent.compression.ChunkCompressor;
import org.openmft.agent.compression.CompressionMethod;
import org.openmft.bench.micro.CompressionBenchmark;
import org.openmft.bench.micro.CompressionBenchmark.Data;

/**
 * What chunk compression ({@code openmft.compression}) costs and gives, per method, on text-like
 * and on random data: throughput per core of the agent's own {@link ChunkCompressor} (JMH, in forked
 * JVMs, through {@link MicroSuite}'s runner), and the bytes that would go on the wire for a file cut
 * into {@code agentChunkSize} chunks, each sent compressed only if it shrank (as the source does).
 * Its own section, so that it runs alone in about two minutes without the other micro-benchmarks.
 */
public final class CompressionSuite implements Section {
    static final String NAME = "compression";
    private static final List<CompressionMethod> METHODS = List.of(CompressionMethod.LZ4, CompressionMethod.ZSTD);

    /**
     * The file of one kind, cut into chunks and compressed as the source does.
     *
     * @param fileBytes  bytes of the file
     * @param wireBytes  chunk bodies as sent (compressed where that shrank them, else as read)
     * @param compressed chunks sent compressed
     * @param chunks     chunks in all
     */
    record Ratio(CompressionMethod method, Data data, long fileBytes, long wireBytes, int compressed, int chunks) {
        double ratio() {
            return (double) wireBytes / fileBytes;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Outcome run(Context context) throws Exception {
        MicroSuite.Settings settings = context.quick() ? MicroSuite.Settings.QUICK : MicroSuite.Settings.FULL;
        if (context.repetitions() != null) {
            settings = settings.withIterations(context.repetitions());
        }
        double loadAtStart = CpuClock.loadAverage();
        Instant started = Instant.now();
        List<String> failures = new ArrayList<>();
        List<MicroResults.Row> rows = new ArrayList<>();
        context.log("compression: %s (%s), %s", "throughput", CompressionBenchmark.class.getSimpleName(),
                settings.name());
        try {
            rows = MicroSuite.run(NAME, "^" + Pattern.quote(CompressionBenchmark.class.getName() + "."), "chunkBytes",
                    null, settings, context.work());
            rows.forEach(r -> context.log("  %-36s %-44s %,10.1f MB/s", r.benchmark(), r.paramsText(), r.mbPerSecond()));
            if (rows.isEmpty()) {
                failures.add("JMH gave no results");
            }
        } catch (RunnerException e) {
            failures.add(MicroSuite.reason(e));
            context.log("  FAILED: %s", MicroSuite.reason(e));
        }
        int fileBytes = context.quick() ? 8 << 20 : 64 << 20;
        List<Ratio> ratios = new ArrayList<>();
        for (Data data : Data.values()) {
            byte[] file = data.bytes(fileBytes, 3);
            for (CompressionMethod m : METHODS) {
                Ratio r = ratio(m, data, file, BenchmarkRunner.CHUNK_SIZE);
                context.log("  %s %s: %,d bytes on the wire for %,d (%.3f), %d of %d chunks compressed", m.word(),
                        data, r.wireBytes(), r.fileBytes(), r.ratio(), r.compressed(), r.chunks());
                ratios.add(r);
            }
        }
        double loadAtEnd = CpuClock.loadAverage();
        Instant ended = Instant.now();

        Files.createDirectories(context.results());
        Map<String, String> run = MicroSuite.runInfo(context, started, ended, settings);
        run.put("loadAverageAtStart", ResultFiles.num(loadAtStart));
        run.put("loadAverageAtEnd", ResultFiles.num(loadAtEnd));
        Path csv = context.results().resolve(NAME + "-" + settings.name() + ".csv");
        Path json = context.results().resolve(NAME + "-" + settings.name() + ".json");
        StringBuilder ratioCsv = new StringBuilder("\nmethod,data,file_bytes,wire_bytes,ratio,chunks_compressed,chunks\n");
        ratios.forEach(r -> ratioCsv.append(String.join(",", r.method().word(), r.data().name(),
                String.valueOf(r.fileBytes()), String.valueOf(r.wireBytes()), ResultFiles.num(r.ratio()),
                String.valueOf(r.compressed()), String.valueOf(r.chunks()))).append('\n'));
        Files.writeString(csv, MicroResults.csv(rows) + ratioCsv);
        Files.writeString(json, MicroResults.json(run, rows));
        context.log("wrote %s and %s", csv, json);

        String markdown = markdown(rows, ratios, failures, context.runTable(started, ended, settings.describe()
                + "; ratios over " + (fileBytes >> 20) + " MiB of each kind"), loadAtStart, loadAtEnd,
                context.machine());
        return new Outcome(markdown, failures);
    }

    /** A file sent as the source sends it: chunk by chunk, each compressed only if that shrinks it. */
    static Ratio ratio(CompressionMethod method, Data data, byte[] file, int chunkBytes) {
        ChunkCompressor c = new ChunkCompressor(4 << 20);
        long wire = 0;
        int compressed = 0;
        int chunks = 0;
        for (int at = 0; at < file.length; at += chunkBytes) {
            int length = Math.min(chunkBytes, file.length - at);
            byte[] chunk = java.util.Arrays.copyOfRange(file, at, at + length);
            int packed = c.compress(method, chunk, length);
            wire += packed < 0 ? length : packed;
            compressed += packed < 0 ? 0 : 1;
            chunks++;
        }
        return new Ratio(method, data, file.length, wire, compressed, chunks);
    }

    private static String markdown(List<MicroResults.Row> rows, List<Ratio> ratios, List<String> failures,
            String runTable, double loadAtStart, double loadAtEnd, Map<String, String> machine) {
        StringBuilder md = new StringBuilder("## Chunk compression: throughput and ratio\n\n");
        md.append("What `openmft.compression` costs and gives, measured on the agent's own `ChunkCompressor` (lz4-java's LZ4, its ")
                .append(ChunkCompressor.lz4Implementation()).append(" implementation here; Zstandard level ").append(ChunkCompressor.ZSTD_LEVEL)
                .append(" through zstd-jni), on chunks of ").append(BenchmarkRunner.CHUNK_SIZE)
                .append(" bytes (IBM's default `agentChunkSize`) of two kinds of data: **text**, CSV rows of a payments")
                .append(" file (dates, account numbers, amounts, references), and **random** bytes, which is what")
                .append(" encrypted or already compressed files look like. Throughput is JMH's, one thread, so MB/s")
                .append(" (10^6 bytes of the file per second) per core, ± half JMH's 99.9% confidence interval:")
                .append(" *compress* is what the source does to every chunk (for random data, the attempt it throws")
                .append(" away because the chunk did not shrink, after which the chunk goes as read), *decompress*")
                .append(" what the destination does to a compressed chunk (with its length checked). The ratio is")
                .append(" the bytes of chunk bodies on the wire over the bytes of the file, for a file cut into")
                .append(" chunks that are each sent compressed only where that shrank them.\n\n");
        md.append(loadNote(loadAtStart, loadAtEnd, machine)).append("\n\n");
        md.append(runTable).append('\n');
        md.append("| method | data | compress (MB/s per core) | decompress (MB/s per core) | bytes on the wire / file | chunks sent compressed |\n");
        md.append("|---|---|---|---|---|---|\n");
        for (CompressionMethod m : METHODS) {
            for (Data d : Data.values()) {
                Ratio r = ratios.stream().filter(x -> x.method() == m && x.data() == d).findFirst().orElseThrow();
                md.append("| ").append(m.word()).append(" | ").append(d.name().toLowerCase(Locale.ROOT)).append(" | ")
                        .append(rate(rows, "compress", m, d)).append(" | ")
                        .append(d == Data.TEXT ? rate(rows, "decompress", m, null) : "(sent as read)").append(" | ")
                        .append(String.format(Locale.ROOT, "%.3f", r.ratio())).append(" | ").append(r.compressed())
                        .append(" of ").append(r.chunks()).append(" |\n");
            }
        }
        md.append('\n');
        if (!failures.isEmpty()) {
            md.append("**Failures:** ").append(String.join("; ", failures)).append("\n\n");
        }
        md.append("The CPU a transfer spends is on both agents: the source compresses each chunk on the transfer's")
                .append(" thread before it protects and sends it, the destination decompresses it on its DATA")
                .append(" dispatcher's thread before writing. Divide a file's size by the rates above for the CPU")
                .append(" seconds each side adds; compare with what the bytes saved are worth on the network between")
                .append(" the queue managers (on one machine, as here, they are worth little: the transfer sections")
                .append(" above move chunks through memory).\n\n");
        md.append("Run alone with `--scenario compression` (about a minute; `--quick`, a check, about 20 s);")
                .append(" the JMH rows and the ratios go to `--results DIR` as `compression-<scale>.csv` and `.json`.")
                .append(" Plain JMH: `org.openjdk.jmh.Main CompressionBenchmark`.\n");
        return md.toString();
    }

    private static String rate(List<MicroResults.Row> rows, String benchmark, CompressionMethod m, Data d) {
        return rows.stream().filter(r -> r.method().equals(benchmark) && m.name().equals(r.param("method"))
                && (d == null || d.name().equals(r.param("data")))).findFirst()
                .map(r -> Double.isNaN(r.mbPerSecondError())
                        ? String.format(Locale.ROOT, "%,.0f", r.mbPerSecond())
                        : String.format(Locale.ROOT, "%,.0f ± %,.0f", r.mbPerSecond(), r.mbPerSecondError()))
                .orElse("n/a");
    }

    /** Says whether the machine was shared, as every section of this report does. */
    private static String loadNote(double loadAtStart, double loadAtEnd, Map<String, String> machine) {
        String cores = machine.getOrDefault("cores (available to the JVM)", "?");
        if (Double.isNaN(loadAtStart)) {
            return "The load of the machine is unknown here.";
        }
        boolean busy = loadAtStart >= 0.5 || loadAtEnd >= 1.5;
        return String.format(Locale.ROOT, "%sThe 1-minute load average was %.2f when the section started and %.2f when"
                + " it ended, on %s cores (each JMH fork keeps one busy)%s", busy ? "**Not an idle machine.** " : "",
                loadAtStart, loadAtEnd, cores, busy ? ": other builds shared the machine, so these rates are lower"
                        + " and noisier than on an idle one." : ".");
    }
}
