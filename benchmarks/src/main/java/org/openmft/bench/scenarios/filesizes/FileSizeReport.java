package org.openmft.bench.scenarios.filesizes;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.report.Charts;
import org.openmft.bench.report.CsvTable;
import org.openmft.bench.report.JsonFiles;
import org.openmft.bench.report.Report;
import org.openmft.bench.report.ResultFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The seed 003 section from its measurements: tables of MB/s and CPU seconds per GiB by tool and
 * file size (medians of the repetitions), the agent against every other tool pair by pair within
 * each repetition, IBM's figures beside ours, the CSV, the JSON and the charts. Pure: everything
 * printed comes from the measurements given.
 */
public final class FileSizeReport {
    /** What a tool is, for the tables: an agent cell, a raw JMS ceiling or a peer. */
    enum Kind {
        AGENT, RAW_JMS, PEER
    }

    /**
     * One tool of the section.
     *
     * @param id          CSV and legend id ("agent-bindings-md5", "rsync", ...)
     * @param kind        what it is
     * @param label       what the report calls it
     * @param cpuCovers   whose CPU its figure counts
     * @param unavailable null, or why it could not run here
     */
    record Tool(String id, Kind kind, String label, String cpuCovers, String unavailable) {
    }

    /**
     * One measurement: one tool moving one batch of files of one size.
     *
     * @param tool       {@link Tool#id()}
     * @param fileBytes  the size of each file
     * @param files      files in the batch (0 for raw JMS, which moves the same bytes as messages)
     * @param repetition from 1
     * @param bytes      bytes moved
     * @param wallNanos  elapsed, -1 when it did not run to its end
     * @param cpuNanos   CPU from the OS over the measurement (see {@link Tool#cpuCovers()}), -1 when unknown
     * @param failure    null, or why it does not count (a wrong byte is one)
     */
    record Measurement(String tool, long fileBytes, int files, int repetition, long bytes, long wallNanos,
            long cpuNanos, String failure) {
        boolean ok() {
            return failure == null;
        }

        /** Decimal megabytes (10^6 bytes) per second. */
        double mbPerSecond() {
            return ok() && wallNanos > 0 ? bytes / 1e6 / (wallNanos / 1e9) : Double.NaN;
        }

        double cpuSecondsPerGib() {
            return ok() && cpuNanos >= 0 && bytes > 0 ? cpuNanos / 1e9 / ((double) bytes / Scale.GIB) : Double.NaN;
        }
    }

    /**
     * An agent cell against another tool at one file size: the ratios of each repetition in which
     * both succeeded, never a ratio of medians.
     *
     * @param rate agent MB/s ÷ other MB/s, one per repetition (above 1: the agent is faster)
     * @param cpu  agent CPU s/GiB ÷ other CPU s/GiB, one per repetition (below 1: the agent is cheaper)
     */
    record Ratio(List<Double> rate, List<Double> cpu) {
        double medianRate() {
            return median(rate);
        }

        double medianCpu() {
            return median(cpu);
        }
    }

    /** The agent cell the ratios and IBM's figures are read against: seed 003's defaults (binary, MD5). */
    static final String PRIMARY_AGENT = "agent-bindings-md5";

    private final Section.Context context;
    private final FileSizeSuite.Plan plan;
    private final Instant started;
    private final Instant ended;
    private final List<Tool> tools;
    private final List<Measurement> measurements;

    public FileSizeReport(Section.Context context, FileSizeSuite.Plan plan, Instant started, Instant ended, List<Tool> tools,
            List<Measurement> measurements) {
        this.context = context;
        this.plan = plan;
        this.started = started;
        this.ended = ended;
        this.tools = List.copyOf(tools);
        this.measurements = List.copyOf(measurements);
    }

    /** The ratios of {@code agent} against {@code other} at {@code fileBytes}, repetition by repetition. */
    static Ratio ratio(List<Measurement> ms, String agent, String other, long fileBytes) {
        List<Double> rate = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        for (Measurement a : ms) {
            if (!a.tool().equals(agent) || a.fileBytes() != fileBytes || !a.ok() || a.repetition() < 1) {
                continue;
            }
            for (Measurement b : ms) {
                if (b.tool().equals(other) && b.fileBytes() == fileBytes && b.repetition() == a.repetition()
                        && b.ok()) {
                    rate.add(a.mbPerSecond() / b.mbPerSecond());
                    double ca = a.cpuSecondsPerGib();
                    double cb = b.cpuSecondsPerGib();
                    if (!Double.isNaN(ca) && !Double.isNaN(cb) && cb > 0) {
                        cpu.add(ca / cb);
                    }
                }
            }
        }
        return new Ratio(rate, cpu);
    }

    /** The median, NaN for none. */
    public static double median(List<Double> values) {
        List<Double> v = values.stream().filter(d -> !d.isNaN()).sorted().toList();
        if (v.isEmpty()) {
            return Double.NaN;
        }
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    /** The median over the counted repetitions of {@code tool} at {@code fileBytes}, NaN for none. */
    public double median(String tool, long fileBytes, ToDoubleFunction<Measurement> f) {
        List<Double> v = new ArrayList<>();
        for (Measurement m : measurements) {
            if (m.tool().equals(tool) && m.fileBytes() == fileBytes && m.ok() && m.repetition() >= 1) {
                v.add(f.applyAsDouble(m));
            }
        }
        return median(v);
    }

    private String cell(String tool, long fileBytes, ToDoubleFunction<Measurement> f, String format) {
        Tool t = tools.stream().filter(x -> x.id().equals(tool)).findFirst().orElseThrow();
        if (t.unavailable() != null) {
            return "unavailable";
        }
        boolean failed = measurements.stream().anyMatch(m -> m.tool().equals(tool) && m.fileBytes() == fileBytes
                && !m.ok());
        double v = median(tool, fileBytes, f);
        String s = Double.isNaN(v) ? "–" : String.format(Locale.ROOT, format, v);
        return failed ? s + " (failures)" : s;
    }

    /**
     * The section's markdown, without its begin and end comments.
     *
     * @param charts the markdown of {@link #writeCharts}, or "" for none
     */
    String markdown(String charts) {
        StringBuilder md = new StringBuilder();
        md.append("## Seed 003: single files of ").append(sizes()).append(" against rsync, ssh, sftp and Camel\n\n");
        md.append("What users pick instead of MFT, on the same files, in the same run, on the same machine as the")
                .append(" agents: seed 003's file sizes (IBM's z/OS MFT report of 2021), each moved by OpenMFT's agents")
                .append(" (binary, agentChunkSize 262144), by raw JMS of the same bytes and chunk size on the same")
                .append(" queue manager (the transport ceiling), and by every peer. One **measurement** moves one")
                .append(" batch of files of one size, as seed 003 did (at least 1024 files of 1 MB in a measurement):")
                .append(" here ").append(batchWords()).append(". Each repetition runs every tool once, one after")
                .append(" the other, in the order of the tables").append(plan.warmUp()
                        ? "; a warm-up round at the smallest size is not counted" : "").append(". Every destination file's MD5 is checked against its source after every")
                .append(" measurement: a wrong byte is a failure, not a figure. Figures are medians of the")
                .append(" repetitions; ratios are taken pair by pair within each repetition, then their median.\n\n");
        md.append(context.runTable(started, ended, plan.describe())).append('\n');

        md.append("### Tools\n\n| tool | what | CPU counted |\n|---|---|---|\n");
        for (Tool t : tools) {
            md.append("| ").append(t.id()).append(" | ").append(t.label())
                    .append(t.unavailable() == null ? "" : " — **unavailable:** " + t.unavailable()).append(" | ")
                    .append(t.cpuCovers()).append(" |\n");
        }
        md.append('\n');

        md.append("### Transfer rate, MB/s (10^6 bytes per second)\n\n");
        table(md, Measurement::mbPerSecond, "%.1f");
        md.append("### CPU seconds per GiB moved\n\n");
        table(md, Measurement::cpuSecondsPerGib, "%.2f");

        md.append("### The agent against every other tool, pair by pair\n\n");
        md.append("`").append(PRIMARY_AGENT).append("` (seed 003's defaults: binary with an MD5 checksum, agents in")
                .append(" bindings mode) divided by each tool, within each repetition; the median of those ratios.")
                .append(" Rate above 1: the agent is faster; CPU below 1: the agent costs less per GiB.\n\n");
        md.append("| against |");
        plan.fileBytes().forEach(s -> md.append(' ').append(Report.size(s)).append(": rate × | CPU × |"));
        md.append("\n|---|");
        plan.fileBytes().forEach(s -> md.append("---|---|"));
        md.append('\n');
        for (Tool t : tools) {
            if (t.id().equals(PRIMARY_AGENT)) {
                continue;
            }
            md.append("| ").append(t.id()).append(" |");
            for (long s : plan.fileBytes()) {
                Ratio r = ratio(measurements, PRIMARY_AGENT, t.id(), s);
                md.append(' ').append(fmt(r.medianRate(), "%.2f")).append(" | ").append(fmt(r.medianCpu(), "%.2f"))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append('\n');

        ibm(md);
        md.append(charts).append('\n');
        failures(md);
        howToRun(md);
        return md.toString();
    }

    private void table(StringBuilder md, ToDoubleFunction<Measurement> f, String format) {
        md.append("| tool |");
        plan.fileBytes().forEach(s -> md.append(' ').append(Report.size(s)).append(" |"));
        md.append("\n|---|");
        plan.fileBytes().forEach(s -> md.append("---:|"));
        md.append('\n');
        for (Tool t : tools) {
            md.append("| ").append(t.id()).append(" |");
            for (long s : plan.fileBytes()) {
                md.append(' ').append(cell(t.id(), s, f, format)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    private void ibm(StringBuilder md) {
        md.append("### IBM's figures (seed 003) beside ours\n\n");
        md.append("From ").append(FileSizeIbmFigures.WHERE).append(": binary, default agent properties, private queues,")
                .append(" no TLS, AMS or compression. Ours: `").append(PRIMARY_AGENT).append("`, median.\n\n");
        md.append("| route | network | what |");
        FileSizeIbmFigures.SIZES.forEach(s -> md.append(' ').append(s).append(" |"));
        md.append("\n|---|---|---|");
        FileSizeIbmFigures.SIZES.forEach(s -> md.append("---:|"));
        md.append('\n');
        for (FileSizeIbmFigures.Row r : FileSizeIbmFigures.ROWS) {
            md.append("| IBM ").append(r.route()).append(" | ").append(r.network()).append(" | MB/s |");
            r.mbPerSecond().forEach(v -> md.append(' ').append(fmt(v, "%.2f")).append(" |"));
            md.append("\n| IBM ").append(r.route()).append(" | ").append(r.network())
                    .append(" | CPU s per GB (").append(r.costCovers()).append(") |");
            r.cpuSecondsPerGb().forEach(v -> md.append(' ').append(fmt(v, "%.2f")).append(" |"));
            md.append('\n');
        }
        for (String[] what : new String[][] {{"MB/s", "rate"}, {"CPU s per GiB (the run's machine, everything)", "cpu"}}) {
            md.append("| OpenMFT ").append(PRIMARY_AGENT).append(" | loopback | ").append(what[0]).append(" |");
            for (int col = 0; col < FileSizeIbmFigures.SIZES.size(); col++) {
                long bytes = bytesOfColumn(col);
                double v = plan.fileBytes().contains(bytes) ? median(PRIMARY_AGENT, bytes,
                        what[1].equals("rate") ? Measurement::mbPerSecond : Measurement::cpuSecondsPerGib) : Double.NaN;
                md.append(' ').append(fmt(v, "%.2f")).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        md.append("How z/OS differs from here, so that the columns are not read as a race: IBM's agents ran on")
                .append(" two z15 LPARs (and a 12-core xLinux partner) with their own queue managers joined by")
                .append(" sender/receiver channels over a real 1 Gb or 10 Gb network, writing to DASD through")
                .append(" USS file systems; the 1 Gb network caps their rate near 100 MB/s. Their CPU is RMF's")
                .append(" total across the sysplex with zIIPs offline, including system overheads, on z15")
                .append(" processors; ours is the OS's count for this JVM (queue manager and both agents) on the")
                .append(" machine of the run table above, where both agents and one queue manager share the page cache")
                .append(" and no byte leaves the machine. The report does not say whether its MB and GB are")
                .append(" decimal or binary; ours are 10^6 bytes per second and CPU per 2^30 bytes.\n\n");
    }

    /** Seed 003's size for column {@code col}: 1, 10, 100 MiB and 1 GiB. */
    private static long bytesOfColumn(int col) {
        return switch (col) {
            case 0 -> Scale.MIB;
            case 1 -> 10 * Scale.MIB;
            case 2 -> 100 * Scale.MIB;
            default -> Scale.GIB;
        };
    }

    /** Writes the PNG charts into the images directory and returns the markdown that shows them. */
    String writeCharts(Path images, String imagesLink) throws IOException {
        List<Long> xsBytes = new ArrayList<>(plan.fileBytes());
        for (int col = 0; col < FileSizeIbmFigures.SIZES.size(); col++) {
            if (!xsBytes.contains(bytesOfColumn(col))) {
                xsBytes.add(bytesOfColumn(col));
            }
        }
        xsBytes.sort(null);
        List<Double> xs = xsBytes.stream().map(b -> (double) b / Scale.MIB).toList();
        Map<String, List<Double>> rate = new LinkedHashMap<>();
        for (Tool t : tools) {
            if (t.unavailable() == null) {
                rate.put(t.id(), xsBytes.stream().map(b -> median(t.id(), b, Measurement::mbPerSecond)).toList());
            }
        }
        FileSizeIbmFigures.Row baseline = FileSizeIbmFigures.ROWS.get(0);
        rate.put("IBM z/OS " + baseline.route() + " " + baseline.network(), xsBytes.stream()
                .map(b -> FileSizeIbmFigures.column(b) < 0 ? Double.NaN : baseline.mbPerSecond().get(FileSizeIbmFigures.column(b))).toList());
        String a = Charts.lines(images, imagesLink, "seed003-rate.png", "Transfer rate by file size",
                "file size (MiB, log scale)", "MB/s", true, xs, rate);

        List<String> categories = new ArrayList<>();
        for (Tool t : tools) {
            if (t.unavailable() == null) {
                categories.add(t.id());
            }
        }
        categories.add("IBM " + baseline.route());
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        for (long s : plan.fileBytes()) {
            List<Double> v = new ArrayList<>();
            for (Tool t : tools) {
                if (t.unavailable() == null) {
                    v.add(median(t.id(), s, Measurement::cpuSecondsPerGib));
                }
            }
            int col = FileSizeIbmFigures.column(s);
            v.add(col < 0 ? Double.NaN : baseline.cpuSecondsPerGb().get(col));
            cpu.put(Report.size(s) + " files", v);
        }
        String b = Charts.bars(images, imagesLink, "seed003-cpu.png", "CPU seconds per GiB by tool", "CPU s per GiB",
                categories, cpu);
        return "### Charts\n\n" + a + "\n\n" + b + "\n";
    }

    private void failures(StringBuilder md) {
        List<Measurement> failed = measurements.stream().filter(m -> !m.ok()).toList();
        if (failed.isEmpty()) {
            return;
        }
        md.append("### Failures\n\n");
        for (Measurement m : failed) {
            md.append("- ").append(describe(m)).append('\n');
        }
        md.append('\n');
    }

    /** "rsync, 10 MiB files, repetition 2: why". */
    static String describe(Measurement m) {
        return m.tool() + ", " + Report.size(m.fileBytes()) + " files, "
                + (m.repetition() == 0 ? "warm-up" : "repetition " + m.repetition()) + ": " + m.failure();
    }

    private static void howToRun(StringBuilder md) {
        md.append("### How to run\n\n");
        md.append("```\nmvn -B -pl benchmarks -am package -DskipTests\n")
                .append("java -cp \"benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*\"")
                .append(" org.openmft.bench.BenchmarkRunner --scenario seed003 [--quick] [--repetitions N]\n```\n\n");
        md.append("This rewrites only this section of the report. rsync, ssh, sshd and sftp come from Debian's")
                .append(" packages (`apt-get install rsync openssh-server openssh-client`); the ssh peers log in to a")
                .append(" private sshd the run starts on 127.0.0.1 with keys of its own, and a peer whose program is")
                .append(" missing is listed as unavailable. Raw numbers: `seed003-<scale>.csv` and")
                .append(" `seed003-<scale>.json` in the results directory.\n");
    }

    private String sizes() {
        List<String> s = plan.fileBytes().stream().map(Report::size).toList();
        return s.size() == 1 ? s.get(0) : s.get(0) + " to " + s.get(s.size() - 1);
    }

    private String batchWords() {
        List<String> parts = new ArrayList<>();
        for (long s : plan.fileBytes()) {
            parts.add(plan.filesPerBatch(s) + " × " + Report.size(s));
        }
        return String.join(", ", parts);
    }

    private static String fmt(double v, String format) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, format, v);
    }

    /** One line per measurement. */
    String csv() {
        List<List<Object>> rows = new ArrayList<>();
        for (Measurement m : measurements) {
            Tool t = tools.stream().filter(x -> x.id().equals(m.tool())).findFirst().orElseThrow();
            rows.add(Arrays.asList(m.tool(), kind(t), m.fileBytes(), m.files(), m.repetition(), m.bytes(),
                    num(m.wallNanos() < 0 ? Double.NaN : m.wallNanos() / 1e9), num(m.mbPerSecond()),
                    num(m.cpuNanos() < 0 ? Double.NaN : m.cpuNanos() / 1e9), num(m.cpuSecondsPerGib()), m.failure()));
        }
        return CsvTable.write(List.of("tool", "kind", "file_bytes", "files", "repetition", "bytes", "wall_s", "mb_per_s",
                "cpu_s", "cpu_s_per_gib", "failure"), rows);
    }

    /** The measurements, the medians, every agent cell's ratios against every other tool, IBM's rows. */
    String json() {
        ObjectNode root = JsonFiles.object();
        root.put("section", "seed003");
        root.put("scale", plan.name());
        root.put("started", started.toString());
        root.put("revision", context.revision());
        ArrayNode toolsNode = root.putArray("tools");
        for (Tool t : tools) {
            ObjectNode o = toolsNode.addObject();
            o.put("id", t.id());
            o.put("kind", kind(t));
            o.put("label", t.label());
            o.put("cpu_covers", t.cpuCovers());
            o.put("unavailable", t.unavailable());
        }
        ArrayNode measurementsNode = root.putArray("measurements");
        for (Measurement m : measurements) {
            ObjectNode o = measurementsNode.addObject();
            o.put("tool", m.tool());
            o.put("file_bytes", m.fileBytes());
            o.put("files", m.files());
            o.put("repetition", m.repetition());
            o.put("bytes", m.bytes());
            o.put("wall_ns", m.wallNanos());
            o.put("cpu_ns", m.cpuNanos());
            JsonFiles.putNumber(o, "mb_per_s", m.mbPerSecond());
            JsonFiles.putNumber(o, "cpu_s_per_gib", m.cpuSecondsPerGib());
            o.put("failure", m.failure());
        }
        ArrayNode ratios = root.putArray("ratios");
        for (Tool a : tools) {
            if (a.kind() != Kind.AGENT) {
                continue;
            }
            for (Tool b : tools) {
                if (b.id().equals(a.id())) {
                    continue;
                }
                for (long s : plan.fileBytes()) {
                    Ratio r = ratio(measurements, a.id(), b.id(), s);
                    ObjectNode o = ratios.addObject();
                    o.put("agent", a.id());
                    o.put("other", b.id());
                    o.put("file_bytes", s);
                    JsonFiles.putNumbers(o, "rate", r.rate());
                    JsonFiles.putNumber(o, "median_rate", r.medianRate());
                    JsonFiles.putNumbers(o, "cpu", r.cpu());
                    JsonFiles.putNumber(o, "median_cpu", r.medianCpu());
                }
            }
        }
        ObjectNode ibm = root.putObject("ibm");
        ibm.put("where", FileSizeIbmFigures.WHERE);
        FileSizeIbmFigures.SIZES.forEach(ibm.putArray("sizes")::add);
        ArrayNode ibmRows = ibm.putArray("rows");
        for (FileSizeIbmFigures.Row r : FileSizeIbmFigures.ROWS) {
            ObjectNode o = ibmRows.addObject();
            o.put("route", r.route());
            o.put("network", r.network());
            JsonFiles.putNumbers(o, "mb_per_s", r.mbPerSecond());
            JsonFiles.putNumbers(o, "cpu_s_per_gb", r.cpuSecondsPerGb());
            o.put("cost_covers", r.costCovers());
        }
        return JsonFiles.write(root);
    }

    private static String kind(Tool t) {
        return t.kind().name().toLowerCase(Locale.ROOT);
    }

    private static String num(double v) {
        return ResultFiles.num(Double.isInfinite(v) ? Double.NaN : v);
    }
}
