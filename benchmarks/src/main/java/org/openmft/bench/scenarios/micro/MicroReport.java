package org.openmft.bench.scenarios.micro;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.report.Charts;
import org.openmft.bench.report.Report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

import org.openmft.bench.scenarios.micro.MicroResults.Axis;
import org.openmft.bench.scenarios.micro.MicroResults.Row;
import org.openmft.bench.micro.ChecksumBenchmark;
import org.openmft.bench.micro.ChunkReadBenchmark;
import org.openmft.bench.micro.TextConversionBenchmark;

/**
 * The micro-benchmarks' section of the report: what each group measures and why the agent cares,
 * one table and chart per group, remarks computed from the figures, and how to run them. The
 * agent's own way is marked in every group.
 */
final class MicroReport {
    /** The chunk size of the remarks: IBM's default agentChunkSize. */
    private static final String AGENT_CHUNK = String.valueOf(BenchmarkRunner.CHUNK_SIZE);
    private static final String CLASSPATH = "\"benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*\"";
    private static final String AGENT = " **(agent)**";

    private final List<Row> rows;
    private final List<String> failures;
    private final String runTable;
    private final Path images;
    private final String imagesLink;
    private final StringBuilder md = new StringBuilder();

    MicroReport(List<Row> rows, List<String> failures, String runTable, Path images, String imagesLink) {
        this.rows = List.copyOf(rows);
        this.failures = List.copyOf(failures);
        this.runTable = runTable;
        this.images = images;
        this.imagesLink = imagesLink;
    }

    String markdown() throws IOException {
        line("## Micro-benchmarks (JMH)");
        line();
        line("The agent's hot path in pieces, each measured alone by JMH in a JVM of its own: how a chunk is read");
        line("from the file, what its checksum costs, how text is converted, and what a transfer request costs to");
        line("parse and write. Each group sets the agent's way (marked **(agent)**) beside the alternatives it");
        line("could use. Figures are throughput; where the bytes of one operation are known they are given in MB/s");
        line("(10^6 bytes per second, the unit of the transfer figures above), ± half JMH's 99.9% confidence");
        line("interval. Every benchmark first checks once that the work it times gives the right answer (the bytes");
        line("read, a known checksum, the converted text, the parsed request); one that does not is a failure, not");
        line("a figure. One core does the work, so a rate here is a ceiling that the agent's other work shares.");
        line();
        md.append(runTable);
        line();
        if (!failures.isEmpty()) {
            line("**Failed** (these give no figures):");
            line();
            failures.forEach(f -> line("- " + f));
            line();
        }
        chunkReading();
        checksums();
        textConversion();
        requestXml();
        howToRun();
        return md.toString();
    }

    // ------------------------------------------------------------------------------------------

    private void chunkReading() throws IOException {
        List<Row> g = group(MicroSuite.Group.CHUNK_READING);
        line("### Reading chunks");
        line();
        line("A whole file in the page cache read chunk by chunk, each chunk ending in a `byte[]` because that is");
        line("what `BytesMessage.writeBytes` takes (so the direct buffer and the mapping include that copy). The");
        line("source agent reads as `SourceTransfer.sendBinary` does: `FileChannel.read` into a wrapped chunk array");
        line("until it is full, two arrays in turn. This is the disk side of every binary transfer's rate, before");
        line("any message is made.");
        line();
        if (g.isEmpty()) {
            line("No results.");
            line();
            return;
        }
        Map<String, String> labels = Map.of("FILE_CHANNEL_HEAP", "`FileChannel.read` into a heap array" + AGENT,
                "FILE_CHANNEL_DIRECT", "`FileChannel.read` into a direct buffer", "MMAP", "`FileChannel.map`",
                "INPUT_STREAM", "`FileInputStream.read`");
        Map<String, String> chartLabels = Map.of("FILE_CHANNEL_HEAP", "FileChannel, heap array (agent)",
                "FILE_CHANNEL_DIRECT", "FileChannel, direct buffer", "MMAP", "FileChannel.map",
                "INPUT_STREAM", "FileInputStream");
        Axis methods = Axis.of(g, r -> r.param("method"), MicroResults.declared(ChunkReadBenchmark.Method.class),
                labels::get);
        Axis chunks = Axis.of(g, r -> r.param("chunkBytes"), MicroResults.NUMERIC, MicroReport::size);
        line("MB/s reading a file of " + sizes(g, "fileBytes") + ", by chunk size:");
        line();
        md.append(MicroResults.pivot(g, "method", methods, chunks, MicroReport::mbCell));
        line();
        line(bars(g, "micro-chunk-reading.png", "Reading a file in chunks (page cache)", methods, chartLabels, chunks));
        line();
        Optional<Row> agent = find(g, r -> "FILE_CHANNEL_HEAP".equals(r.param("method"))
                && AGENT_CHUNK.equals(r.param("chunkBytes")));
        Optional<Row> best = g.stream().filter(r -> AGENT_CHUNK.equals(r.param("chunkBytes"))
                && !"FILE_CHANNEL_HEAP".equals(r.param("method"))).max(Comparator.comparingDouble(Row::mbPerSecond));
        if (agent.isPresent() && best.isPresent()) {
            line("At " + size(AGENT_CHUNK) + " chunks (IBM's default) the agent's way reads " + mb(agent.get())
                    + " MB/s; the fastest alternative, " + labels.get(best.get().param("method")) + ", "
                    + mb(best.get()) + " MB/s (" + ratio(best.get().mbPerSecond(), agent.get().mbPerSecond())
                    + " the agent's).");
            Optional<Row> slowest = g.stream().filter(r -> "FILE_CHANNEL_HEAP".equals(r.param("method")))
                    .min(Comparator.comparingDouble(Row::mbPerSecond));
            Optional<Row> fastest = g.stream().filter(r -> "FILE_CHANNEL_HEAP".equals(r.param("method")))
                    .max(Comparator.comparingDouble(Row::mbPerSecond));
            if (slowest.isPresent() && fastest.isPresent() && slowest.get() != fastest.get()) {
                line("Over the chunk sizes measured, the agent's way ranges from " + mb(slowest.get()) + " MB/s ("
                        + size(slowest.get().param("chunkBytes")) + ") to " + mb(fastest.get()) + " MB/s ("
                        + size(fastest.get().param("chunkBytes")) + ").");
            }
            line();
        }
    }

    private void checksums() throws IOException {
        List<Row> g = group(MicroSuite.Group.CHECKSUMS);
        line("### Checksums");
        line();
        line("One chunk through a checksum. With `checksumMethod=\"MD5\"` (IBM's default and its only method) both");
        line("agents compute MD5 over every byte of the item, the source as it reads, the destination as it writes,");
        line("by `MessageDigest.update` on the chunk's `byte[]`; a direct buffer is what it would cost if chunks");
        line("came from one. With `checksumMethod=\"SHA-256\"` (OpenMFT's own) they compute SHA-256 the same way.");
        line("CRC-32C is what each DATA message's body is checked with. SHA-1, CRC-32 and Adler-32 are what else");
        line("the JDK offers.");
        line();
        if (g.isEmpty()) {
            line("No results.");
            line();
            return;
        }
        List<String> order = new ArrayList<>();
        for (ChecksumBenchmark.Algorithm a : ChecksumBenchmark.Algorithm.values()) {
            order.add(a.name());
            if (a == ChecksumBenchmark.Algorithm.MD5) {
                order.add(MD5_DIRECT);
            }
        }
        Map<String, String> labels = new LinkedHashMap<>(Map.of("MD5", "MD5, heap array" + AGENT, MD5_DIRECT,
                "MD5, direct buffer", "SHA_1", "SHA-1", "SHA_256", "SHA-256" + AGENT, "CRC32", "CRC-32", "CRC32C",
                "CRC-32C", "ADLER32", "Adler-32"));
        Map<String, String> chartLabels = new LinkedHashMap<>(labels);
        chartLabels.put("MD5", "MD5 (agent)");
        chartLabels.put(MD5_DIRECT, "MD5, direct");
        chartLabels.put("SHA_256", "SHA-256 (agent)");
        Axis algorithms = Axis.of(g, MicroReport::checksumKey, Comparator.comparingInt(order::indexOf), labels::get);
        Axis chunks = Axis.of(g, r -> r.param("chunkBytes"), MicroResults.NUMERIC, MicroReport::size);
        line("MB/s, by chunk size:");
        line();
        md.append(MicroResults.pivot(g, "checksum", algorithms, chunks, MicroReport::mbCell));
        line();
        line(bars(g, "micro-checksums.png", "Checksums over one chunk", algorithms, chartLabels, chunks));
        line();
        Function<String, Optional<Row>> at = key -> find(g, r -> key.equals(checksumKey(r))
                && AGENT_CHUNK.equals(r.param("chunkBytes")));
        Optional<Row> md5 = at.apply("MD5");
        if (md5.isPresent()) {
            StringBuilder s = new StringBuilder("At " + size(AGENT_CHUNK) + " chunks MD5 runs at " + mb(md5.get())
                    + " MB/s: each agent spends " + Report.fmt(Scale.GIB / 1e6 / md5.get().mbPerSecond(), 2)
                    + " s of one core on it per GiB transferred.");
            Optional<Row> fastest = g.stream().filter(r -> AGENT_CHUNK.equals(r.param("chunkBytes"))
                    && !checksumKey(r).startsWith("MD5")).max(Comparator.comparingDouble(Row::mbPerSecond));
            fastest.ifPresent(f -> s.append(" The fastest alternative, ").append(labels.get(checksumKey(f)))
                    .append(", runs at ").append(mb(f)).append(" MB/s (")
                    .append(ratio(f.mbPerSecond(), md5.get().mbPerSecond())).append(" MD5)."));
            at.apply("SHA_256").ifPresent(sha -> s.append(" SHA-256 runs at ").append(mb(sha)).append(" MB/s (")
                    .append(ratio(sha.mbPerSecond(), md5.get().mbPerSecond())).append(" MD5)."));
            at.apply(MD5_DIRECT).ifPresent(d -> s.append(" From a direct buffer MD5 runs at ")
                    .append(ratio(d.mbPerSecond(), md5.get().mbPerSecond())).append(" its rate from a heap array."));
            line(s.toString());
            line();
        }
    }

    private static final String MD5_DIRECT = "MD5_DIRECT";

    private static String checksumKey(Row r) {
        return "md5DirectChunk".equals(r.method()) ? MD5_DIRECT : r.param("algorithm");
    }

    private void textConversion() throws IOException {
        List<Row> g = group(MicroSuite.Group.TEXT_CONVERSION);
        line("### Text conversion");
        line();
        line("A text-mode item (`mode=\"text\"`) as the source agent converts it in `SourceTransfer.sendText`:");
        line("one `TextConverter` per item, fed chunks of " + size(String.valueOf(BenchmarkRunner.CHUNK_SIZE))
                + ", its output packed into chunk arrays; beside it");
        line("a baseline of a plain `CharsetDecoder` and `CharsetEncoder` over the whole text in one call (with a");
        line("loop adding the CRs): the charset work alone, without chunks, characters cut between chunks, error");
        line("offsets or replacement. The source is UTF-8 with LF line endings, " + sizes(g, "textBytes")
                + " per operation: ASCII");
        line("lines, or Latin lines in which about one word in five has an accented letter (two bytes in UTF-8).");
        line("The destinations are UTF-8 with LF kept, UTF-8 with CRLF, and EBCDIC (IBM037, as for z/OS) with LF.");
        line();
        if (g.isEmpty()) {
            line("No results.");
            line();
            return;
        }
        Comparator<String> order = Comparator.comparing((String k) -> k.split("/")[0],
                MicroResults.declared(TextConversionBenchmark.Conversion.class)).thenComparing(k -> k.split("/")[1],
                        MicroResults.declared(TextConversionBenchmark.Text.class));
        Axis cases = Axis.of(g, r -> r.param("conversion") + "/" + r.param("text"), order, MicroReport::textLabel);
        Axis methods = new Axis(Row::method, List.of("textConverter", "jdkCoders"),
                m -> "textConverter".equals(m) ? "`TextConverter`" + AGENT : "JDK coders");
        line("MB/s of source text:");
        line();
        md.append(MicroResults.pivot(g, "conversion, text", cases, methods, MicroReport::mbCell));
        line();
        Map<String, String> chartLabels = new LinkedHashMap<>();
        cases.keys().forEach(k -> chartLabels.put(k, textChartLabel(k)));
        line(bars(g, "micro-text-conversion.png", "Text conversion, MB/s of source text", cases,
                chartLabels, new Axis(Row::method, methods.keys(), m -> "textConverter".equals(m)
                        ? "TextConverter (agent)" : "JDK coders")));
        line();
        Optional<double[]> range = ratioRange(g, cases);
        range.ifPresent(r -> line("`TextConverter` reaches between " + pct(r[0]) + " and " + pct(r[1])
                + " of the plain coders' rate over these cases."));
        range.ifPresent(r -> line());
    }

    /** Lowest and highest TextConverter / JDK coders ratio over the cases that have both. */
    private static Optional<double[]> ratioRange(List<Row> g, Axis cases) {
        double lo = Double.NaN;
        double hi = Double.NaN;
        for (String c : cases.keys()) {
            Optional<Row> conv = find(g, r -> c.equals(cases.key().apply(r)) && "textConverter".equals(r.method()));
            Optional<Row> jdk = find(g, r -> c.equals(cases.key().apply(r)) && "jdkCoders".equals(r.method()));
            if (conv.isPresent() && jdk.isPresent()) {
                double x = conv.get().mbPerSecond() / jdk.get().mbPerSecond();
                lo = Double.isNaN(lo) ? x : Math.min(lo, x);
                hi = Double.isNaN(hi) ? x : Math.max(hi, x);
            }
        }
        return Double.isNaN(lo) ? Optional.empty() : Optional.of(new double[] {lo, hi});
    }

    private static String textLabel(String key) {
        String[] p = key.split("/");
        String conversion = switch (TextConversionBenchmark.Conversion.valueOf(p[0])) {
            case UTF8_TO_UTF8_LF -> "UTF-8 → UTF-8, LF";
            case UTF8_TO_UTF8_CRLF -> "UTF-8 → UTF-8, LF → CRLF";
            case UTF8_TO_IBM037_LF -> "UTF-8 → IBM037, LF";
        };
        return conversion + ", " + textName(p[1]);
    }

    /** A short label that fits below a bar. */
    private static String textChartLabel(String key) {
        String[] p = key.split("/");
        String conversion = switch (TextConversionBenchmark.Conversion.valueOf(p[0])) {
            case UTF8_TO_UTF8_LF -> "UTF-8 LF";
            case UTF8_TO_UTF8_CRLF -> "UTF-8 CRLF";
            case UTF8_TO_IBM037_LF -> "IBM037 LF";
        };
        return conversion + ", " + textName(p[1]);
    }

    private static String textName(String text) {
        return TextConversionBenchmark.Text.valueOf(text) == TextConversionBenchmark.Text.ASCII ? "ASCII" : "Latin";
    }

    private void requestXml() {
        List<Row> g = group(MicroSuite.Group.REQUEST_XML);
        line("### Request XML");
        line();
        line("A transfer request as the command thread meets it: `RequestParser` (the hardened parser: size, depth");
        line("and element limits) on a typical request (metadata, a job name, a reply queue, binary items with MD5)");
        line("from a String, as in the TextMessage the CLI sends, and from bytes, as in a BytesMessage; and");
        line("`DocumentWriter` writing it, as the CLI does. A request of one item and one of a thousand: the agent");
        line("parses every request it is sent, on the thread that takes commands.");
        line();
        if (g.isEmpty()) {
            line("No results.");
            line();
            return;
        }
        Axis items = Axis.of(g, r -> r.param("items"), MicroResults.NUMERIC, n -> n + (n.equals("1") ? " item" : " items"));
        Axis methods = new Axis(Row::method, List.of("parseString", "parseBytes", "write"), m -> switch (m) {
            case "parseString" -> "parse a String" + AGENT;
            case "parseBytes" -> "parse bytes" + AGENT;
            default -> "write";
        });
        line("Requests per second, and microseconds per item:");
        line();
        md.append(MicroResults.pivot(g, "request", items, methods, r -> Report.fmt(r.score(), 0)
                + (Double.isNaN(r.error()) ? "" : " ± " + Report.fmt(r.error(), 0)) + "/s; "
                + Report.fmt(1e6 / r.itemsPerSecond(), 2) + " µs per item"));
        line();
        Optional<Row> large = g.stream().filter(r -> "parseString".equals(r.method()))
                .max(Comparator.comparingInt(Row::itemsPerOp));
        Optional<Row> small = g.stream().filter(r -> "parseString".equals(r.method()))
                .min(Comparator.comparingInt(Row::itemsPerOp));
        if (large.isPresent() && small.isPresent() && large.get() != small.get()) {
            line("Parsing a request of " + large.get().itemsPerOp() + " items from a String takes "
                    + Report.fmt(1e3 / large.get().score(), 2) + " ms (" + Report.fmt(1e6 / large.get().itemsPerSecond(), 2)
                    + " µs per item); one of " + small.get().itemsPerOp() + " takes "
                    + Report.fmt(1e6 / small.get().score(), 1) + " µs.");
            line();
        }
    }

    private void howToRun() {
        line("### How to run");
        line();
        line("After `mvn -pl benchmarks -am package` (which builds the jar and copies its dependencies to");
        line("`benchmarks/target/lib`), from the repository root:");
        line();
        line("```sh");
        line("java -cp " + CLASSPATH + " org.openmft.bench.BenchmarkRunner --scenario micro          # this section");
        line("java -cp " + CLASSPATH + " org.openmft.bench.BenchmarkRunner --scenario micro --quick  # a check, about 2 min");
        line("java -cp " + CLASSPATH + " org.openjdk.jmh.Main -l                                    # plain JMH: list");
        line("java -cp " + CLASSPATH + " org.openjdk.jmh.Main ChecksumBenchmark -p chunkBytes=262144  # one class");
        line("```");
        line();
        line("`--scenario micro` rewrites only this section and writes the rows (benchmark, parameters, score,");
        line("error, unit, MB/s) to `micro-<scale>.csv` and `.json` in the results directory; `--repetitions N`");
        line("sets the measured iterations. Plain JMH prints operations per second: multiply by `fileBytes`,");
        line("`chunkBytes` or `textBytes` for bytes per second.");
        line();
    }

    // ------------------------------------------------------------------------------------------

    private List<Row> group(MicroSuite.Group g) {
        return rows.stream().filter(r -> r.group().equals(g.id())).toList();
    }

    private static Optional<Row> find(List<Row> rows, Predicate<Row> p) {
        return rows.stream().filter(p).findFirst();
    }

    /**
     * Grouped bars of MB/s: one group per key of {@code categories}, one bar per key of
     * {@code series}; {@code chartLabels} overrides the categories' table labels, which may hold markdown.
     */
    private String bars(List<Row> g, String file, String title, Axis categories, Map<String, String> chartLabels,
            Axis series) throws IOException {
        Map<List<String>, Double> values = new java.util.HashMap<>();
        g.forEach(r -> values.put(List.of(categories.key().apply(r), series.key().apply(r)), r.mbPerSecond()));
        List<String> names = categories.keys().stream()
                .map(k -> chartLabels.getOrDefault(k, categories.label().apply(k))).toList();
        Map<String, List<Double>> bySeries = new LinkedHashMap<>();
        for (String s : series.keys()) {
            List<Double> ys = new ArrayList<>();
            categories.keys().forEach(c -> ys.add(values.getOrDefault(List.of(c, s), Double.NaN)));
            bySeries.put(series.label().apply(s), ys);
        }
        return Charts.bars(images, imagesLink, file, title, "MB/s", names, bySeries);
    }

    private static String mbCell(Row r) {
        return Report.fmt(r.mbPerSecond(), 0) + (Double.isNaN(r.mbPerSecondError()) ? ""
                : " ± " + Report.fmt(r.mbPerSecondError(), 0));
    }

    private static String mb(Row r) {
        return Report.fmt(r.mbPerSecond(), 0);
    }

    private static String size(String bytes) {
        return Report.size(Long.parseLong(bytes));
    }

    private static String sizes(List<Row> g, String param) {
        return String.join(", ", Axis.of(g, r -> r.param(param), MicroResults.NUMERIC, MicroReport::size).keys()
                .stream().map(MicroReport::size).toList());
    }

    private static String ratio(double a, double b) {
        return String.format(Locale.ROOT, "%.2f×", a / b);
    }

    private static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }

    private void line(String s) {
        md.append(s).append('\n');
    }

    private void line() {
        md.append('\n');
    }
}
