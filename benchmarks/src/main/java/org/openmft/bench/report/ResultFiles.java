package org.openmft.bench.report;

import org.openmft.bench.scenarios.transfer.Sample;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The raw numbers of a run, one row per sample, as CSV and as JSON (with the run's context). */
public final class ResultFiles {
    private ResultFiles() {
    }

    public static String csv(List<Sample> samples) {
        StringBuilder sb = new StringBuilder("scenario,repetition,bytes,files,seconds,mb_per_s,cpu_seconds,"
                + "cpu_s_per_gib,extra_seconds,resends,ok,failure\n");
        for (Sample s : samples) {
            sb.append(String.join(",", s.scenario().id, String.valueOf(s.repetition()), String.valueOf(s.bytes()),
                    String.valueOf(s.files()), num(s.ok() ? s.seconds() : Double.NaN),
                    num(s.ok() ? s.mbPerSecond() : Double.NaN), num(s.cpuNanos() < 0 ? Double.NaN : s.cpuNanos() / 1e9),
                    num(s.ok() ? s.cpuSecondsPerGib() : Double.NaN), num(s.extraNanos() / 1e9),
                    String.valueOf(s.resends()), String.valueOf(s.ok()),
                    s.failure() == null ? "" : '"' + s.failure().replace("\"", "\"\"") + '"')).append('\n');
        }
        return sb.toString();
    }

    public static String json(Report.Context c, List<Sample> samples) {
        StringBuilder sb = new StringBuilder("{\n");
        sb.append("  \"started\": ").append(str(c.started().toString())).append(",\n");
        sb.append("  \"durationSeconds\": ").append(c.duration().toSeconds()).append(",\n");
        sb.append("  \"revision\": ").append(str(c.revision())).append(",\n");
        sb.append("  \"scale\": {\"name\": ").append(str(c.scale().name()))
                .append(", \"singleFileBytes\": ").append(c.scale().singleFileBytes())
                .append(", \"setFileCount\": ").append(c.scale().setFileCount())
                .append(", \"setFileBytes\": ").append(c.scale().setFileBytes())
                .append(", \"repetitions\": ").append(c.scale().repetitions())
                .append(", \"chunkBytes\": ").append(c.chunkBytes()).append("},\n");
        sb.append("  \"agentProperties\": {");
        String psep = "";
        for (Map.Entry<String, String> e : c.agentProperties().entrySet()) {
            sb.append(psep).append(str(e.getKey())).append(": ").append(str(e.getValue()));
            psep = ", ";
        }
        sb.append("},\n");
        sb.append("  \"idleCoresBusy\": ").append(jsonNum(c.idleCores())).append(",\n");
        sb.append("  \"aborted\": ").append(str(c.aborted())).append(",\n");
        sb.append("  \"machine\": {");
        String sep = "\n";
        for (Map.Entry<String, String> e : c.machine().entrySet()) {
            sb.append(sep).append("    ").append(str(e.getKey())).append(": ").append(str(e.getValue()));
            sep = ",\n";
        }
        sb.append("\n  },\n  \"samples\": [");
        sep = "\n";
        for (Sample s : samples) {
            sb.append(sep).append("    {\"scenario\": ").append(str(s.scenario().id))
                    .append(", \"repetition\": ").append(s.repetition())
                    .append(", \"bytes\": ").append(s.bytes())
                    .append(", \"files\": ").append(s.files())
                    .append(", \"wallNanos\": ").append(s.wallNanos())
                    .append(", \"cpuNanos\": ").append(s.cpuNanos())
                    .append(", \"extraNanos\": ").append(s.extraNanos())
                    .append(", \"resends\": ").append(s.resends())
                    .append(", \"ok\": ").append(s.ok())
                    .append(", \"failure\": ").append(str(s.failure()))
                    .append(", \"threadCpuNanos\": {");
            String tsep = "";
            for (Map.Entry<String, Long> e : new java.util.TreeMap<>(s.threadCpu()).entrySet()) {
                sb.append(tsep).append(str(e.getKey())).append(": ").append(e.getValue());
                tsep = ", ";
            }
            sb.append("}}");
            sep = ",\n";
        }
        sb.append("\n  ]\n}\n");
        return sb.toString();
    }

    /** A CSV number: empty when unknown. */
    public static String num(double d) {
        return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.4f", d);
    }

    /** A JSON number: null when unknown. */
    public static String jsonNum(double d) {
        return Double.isNaN(d) ? "null" : String.format(Locale.ROOT, "%.4f", d);
    }

    public static String str(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
