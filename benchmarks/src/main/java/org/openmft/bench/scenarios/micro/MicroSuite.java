package org.openmft.bench.scenarios.micro;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.Section;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openmft.bench.micro.ChecksumBenchmark;
import org.openmft.bench.micro.ChunkReadBenchmark;
import org.openmft.bench.micro.RequestParsingBenchmark;
import org.openmft.bench.micro.TextConversionBenchmark;

/**
 * The JMH micro-benchmarks of the agent's hot path ({@code org.openmft.bench.micro}) as a report
 * section: each group runs through JMH's {@link Runner}, in forked JVMs that get this JVM's class
 * path (the runner's jar and {@code lib/*}, or Maven's in a test), and its results become rows,
 * CSV, JSON, tables and charts ({@link MicroReport}). A group whose benchmark fails, its setup's
 * self-check included, is a failure and gives no figures.
 */
public final class MicroSuite implements Section {
    static final String NAME = "micro";

    /** The benchmark classes as the report groups them. */
    enum Group {
        CHUNK_READING("Reading chunks", ChunkReadBenchmark.class, "fileBytes", null),
        CHECKSUMS("Checksums", ChecksumBenchmark.class, "chunkBytes", null),
        TEXT_CONVERSION("Text conversion", TextConversionBenchmark.class, "textBytes", null),
        REQUEST_XML("Request XML", RequestParsingBenchmark.class, null, "items");

        final String title;
        final Class<?> benchmark;
        /** The parameter holding the bytes of one operation, or null. */
        final String bytesParam;
        /** The parameter holding the transfer items of one operation, or null. */
        final String itemsParam;

        Group(String title, Class<?> benchmark, String bytesParam, String itemsParam) {
            this.title = title;
            this.benchmark = benchmark;
            this.bytesParam = bytesParam;
            this.itemsParam = itemsParam;
        }

        /** The JMH include pattern of every benchmark of the group. */
        String include() {
            return "^" + Pattern.quote(benchmark.getName() + ".");
        }

        String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * How long JMH measures each benchmark and parameter set (one fork each).
     *
     * @param params parameter values that replace the benchmarks' own (the quick scale's smaller file)
     */
    record Settings(String name, int warmupIterations, TimeValue warmupTime, int iterations, TimeValue iterationTime,
            Map<String, String> params) {
        /**
         * Figures: 3 warm-up iterations of 0.5 s (these kernels are compiled well within that) and 5
         * measured ones of 1 s; with JVM start and setup about 9 s per set, 55 sets, about 8 minutes.
         */
        static final Settings FULL = new Settings("full", 3, TimeValue.milliseconds(500), 5, TimeValue.seconds(1),
                Map.of());
        /**
         * A check that every benchmark method, reading method, algorithm and conversion runs and passes
         * its self-check, at IBM's default chunk size only and on a smaller file: 29 sets, about 2
         * minutes on a busy small machine; its figures mean little.
         */
        static final Settings QUICK = new Settings("quick", 1, TimeValue.milliseconds(100), 2,
                TimeValue.milliseconds(200), Map.of("fileBytes", String.valueOf(16 * Scale.MIB), "chunkBytes",
                        String.valueOf(BenchmarkRunner.CHUNK_SIZE)));

        Settings withIterations(int n) {
            return new Settings(name, warmupIterations, warmupTime, n, iterationTime, params);
        }

        String describe() {
            StringBuilder sb = new StringBuilder("**").append(name).append("**: per benchmark and parameter set, one")
                    .append(" forked JVM, ").append(warmupIterations).append(" warm-up iteration")
                    .append(warmupIterations == 1 ? "" : "s").append(" of ").append(warmupTime).append(" and ")
                    .append(iterations).append(" measured of ").append(iterationTime);
            params.forEach((k, v) -> sb.append("; `").append(k).append('=').append(v).append('`'));
            return sb.toString();
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Outcome run(Context context) throws Exception {
        Settings settings = context.quick() ? Settings.QUICK : Settings.FULL;
        if (context.repetitions() != null) {
            settings = settings.withIterations(context.repetitions());
        }
        Instant started = Instant.now();
        List<MicroResults.Row> rows = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (Group g : Group.values()) {
            long t0 = System.nanoTime();
            context.log("micro: %s (%s), %s", g.title, g.benchmark.getSimpleName(), settings.name());
            try {
                List<MicroResults.Row> got = run(g, g.include(), settings, context.work());
                if (got.isEmpty()) {
                    failures.add(g.title + ": JMH gave no results");
                }
                got.forEach(r -> context.log("  %-44s %-48s %,14.1f %s%s", r.benchmark(), r.paramsText(), r.score(),
                        r.unit(), Double.isNaN(r.mbPerSecond()) ? "" : String.format(Locale.ROOT, "  %,10.1f MB/s",
                                r.mbPerSecond())));
                rows.addAll(got);
            } catch (RunnerException e) {
                String reason = reason(e);
                failures.add(g.title + ": " + reason);
                context.log("  FAILED: %s", reason);
            }
            context.log("  %s: %.0f s", g.title, (System.nanoTime() - t0) / 1e9);
        }
        Instant ended = Instant.now();

        Files.createDirectories(context.results());
        Map<String, String> run = runInfo(context, started, ended, settings);
        Path csv = context.results().resolve(NAME + "-" + settings.name() + ".csv");
        Path json = context.results().resolve(NAME + "-" + settings.name() + ".json");
        Files.writeString(csv, MicroResults.csv(rows));
        Files.writeString(json, MicroResults.json(run, rows));
        context.log("wrote %s and %s", csv, json);

        String markdown = new MicroReport(rows, failures, context.runTable(started, ended, settings.describe()),
                context.images(), context.imagesLink()).markdown();
        return new Outcome(markdown, failures);
    }

    /** What the JSON says of the run: when, how long, at what scale, on which revision, JVM and CPU. */
    static Map<String, String> runInfo(Context context, Instant started, Instant ended, Settings settings) {
        Map<String, String> run = new LinkedHashMap<>();
        run.put("started", started.toString());
        run.put("durationSeconds", String.valueOf(Duration.between(started, ended).toSeconds()));
        run.put("scale", settings.describe().replace("*", ""));
        run.put("revision", context.revision());
        run.put("java", context.machine().get("Java"));
        run.put("cpu", context.machine().get("CPU"));
        return run;
    }

    /** Runs the benchmarks matching {@code include} and returns their rows, as group {@code g}. */
    static List<MicroResults.Row> run(Group g, String include, Settings settings, Path tmp) throws RunnerException {
        return run(g.id(), include, g.bytesParam, g.itemsParam, settings, tmp);
    }

    /**
     * Runs the benchmarks matching {@code include} as rows of group {@code group} (also for sections
     * of their own, such as {@link CompressionSuite}).
     *
     * @param bytesParam the parameter holding the bytes of one operation, or null
     * @param itemsParam the parameter holding the transfer items of one operation, or null
     */
    static List<MicroResults.Row> run(String group, String include, String bytesParam, String itemsParam,
            Settings settings, Path tmp) throws RunnerException {
        Collection<RunResult> results = new Runner(options(include, settings, tmp).build()).run();
        return MicroResults.rows(group, results, bytesParam, itemsParam);
    }

    /**
     * JMH's options: one fork per benchmark and parameter set, started with this JVM's class path
     * (JMH passes {@code java.class.path} on, which the launcher has expanded from {@code lib/*} and
     * which in a Maven test names surefire's manifest jar), a fixed heap, temporary files in
     * {@code tmp}; the first failure (a failed self-check among them) ends the run with an exception.
     */
    static ChainedOptionsBuilder options(String include, Settings settings, Path tmp) {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include(include)
                .forks(1)
                .warmupIterations(settings.warmupIterations())
                .warmupTime(settings.warmupTime())
                .measurementIterations(settings.iterations())
                .measurementTime(settings.iterationTime())
                .jvmArgs("-Xms256m", "-Xmx256m", "-Djava.io.tmpdir=" + tmp.toAbsolutePath())
                .verbosity(VerboseMode.SILENT)
                .shouldFailOnError(true);
        settings.params().forEach(b::param);
        return b;
    }

    /** What went wrong, from JMH's exception: the innermost messages, its forks' included. */
    static String reason(Throwable e) {
        List<String> messages = new ArrayList<>();
        collect(e, messages);
        return messages.isEmpty() ? e.toString() : String.join("; ", messages);
    }

    private static void collect(Throwable t, List<String> messages) {
        for (Throwable s : t.getSuppressed()) {
            collect(s, messages);
        }
        if (t.getCause() != null) {
            collect(t.getCause(), messages);
        } else if (t.getMessage() != null && !messages.contains(t.getMessage())) {
            messages.add(t.getMessage());
        }
    }
}
