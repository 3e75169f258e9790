package org.openmft.bench.report;

import org.openmft.bench.scenarios.transfer.Sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The raw numbers of a run, one row per sample, as CSV ({@link CsvTable}) and as JSON ({@link JsonFiles},
 * with the run's context).
 */
public final class ResultFiles {
    private ResultFiles() {
    }

    /** Column names of {@link #csv}: results of earlier runs are read by them. */
    public static final List<String> CSV_COLUMNS = List.of("scenario", "repetition", "bytes", "files", "seconds",
            "mb_per_s", "cpu_seconds", "cpu_s_per_gib", "extra_seconds", "resends", "ok", "failure");

    public static String csv(List<Sample> samples) {
        List<List<Object>> rows = new ArrayList<>();
        for (Sample s : samples) {
            rows.add(List.of(s.scenario().id, s.repetition(), s.bytes(), s.files(),
                    num(s.ok() ? s.seconds() : Double.NaN), num(s.ok() ? s.mbPerSecond() : Double.NaN),
                    num(s.cpuNanos() < 0 ? Double.NaN : s.cpuNanos() / 1e9),
                    num(s.ok() ? s.cpuSecondsPerGib() : Double.NaN), num(s.extraNanos() / 1e9), s.resends(), s.ok(),
                    s.failure() == null ? "" : s.failure()));
        }
        return CsvTable.write(CSV_COLUMNS, rows);
    }

    public static String json(Report.Context c, List<Sample> samples) {
        ObjectNode root = JsonFiles.object();
        root.put("started", c.started().toString());
        root.put("durationSeconds", c.duration().toSeconds());
        root.put("revision", c.revision());
        ObjectNode scale = root.putObject("scale");
        scale.put("name", c.scale().name());
        scale.put("singleFileBytes", c.scale().singleFileBytes());
        scale.put("setFileCount", c.scale().setFileCount());
        scale.put("setFileBytes", c.scale().setFileBytes());
        scale.put("repetitions", c.scale().repetitions());
        scale.put("chunkBytes", c.chunkBytes());
        ObjectNode agent = root.putObject("agentProperties");
        c.agentProperties().forEach(agent::put);
        JsonFiles.putNumber(root, "idleCoresBusy", c.idleCores());
        root.put("aborted", c.aborted());
        ObjectNode machine = root.putObject("machine");
        c.machine().forEach(machine::put);
        ArrayNode array = root.putArray("samples");
        for (Sample s : samples) {
            ObjectNode o = array.addObject();
            o.put("scenario", s.scenario().id);
            o.put("repetition", s.repetition());
            o.put("bytes", s.bytes());
            o.put("files", s.files());
            o.put("wallNanos", s.wallNanos());
            o.put("cpuNanos", s.cpuNanos());
            o.put("extraNanos", s.extraNanos());
            o.put("resends", s.resends());
            o.put("ok", s.ok());
            o.put("failure", s.failure());
            ObjectNode threads = o.putObject("threadCpuNanos");
            new TreeMap<>(s.threadCpu()).forEach(threads::put);
        }
        return JsonFiles.write(root);
    }

    /** A CSV number: empty when unknown. */
    public static String num(double d) {
        return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.4f", d);
    }

    /** A JSON number: null when unknown. */
    public static String jsonNum(double d) {
        return Double.isNaN(d) ? "null" : String.format(Locale.ROOT, "%.4f", d);
    }

    /** {@code s} as a JSON string literal, or {@code null}: see {@link JsonFiles#string}. */
    public static String str(String s) {
        return JsonFiles.string(s);
    }
}
