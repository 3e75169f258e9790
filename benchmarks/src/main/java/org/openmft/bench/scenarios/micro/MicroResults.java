package org.openmft.bench.scenarios.micro;

import org.openmft.bench.report.CsvTable;
import org.openmft.bench.report.JsonFiles;
import org.openmft.bench.report.ResultFiles;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * The JMH results of the micro-benchmarks as rows (one per benchmark and parameter set), with the
 * rates derived where the bytes or items of one operation are known, and the rows as CSV, JSON and
 * markdown tables.
 */
final class MicroResults {
    private MicroResults() {
    }

    /**
     * One benchmark with one set of parameters.
     *
     * @param group      the report group ("checksums", ...)
     * @param benchmark  class and method, without the package: "ChecksumBenchmark.heapChunk"
     * @param params     the JMH parameters, by name
     * @param score      JMH's primary score
     * @param error      half the 99.9% confidence interval, NaN when JMH has none (fewer than two iterations)
     * @param unit       JMH's unit of the score, "ops/s" for every throughput benchmark
     * @param bytesPerOp bytes one operation processes, 0 when that is not a meaningful measure
     * @param itemsPerOp transfer items one operation processes, 0 when not meaningful
     */
    record Row(String group, String benchmark, Map<String, String> params, double score, double error,
            String unit, long bytesPerOp, int itemsPerOp) {
        Row {
            params = Collections.unmodifiableSortedMap(new TreeMap<>(params));
        }

        String param(String name) {
            return params.get(name);
        }

        String method() {
            return benchmark.substring(benchmark.lastIndexOf('.') + 1);
        }

        private boolean perSecond() {
            return "ops/s".equals(unit);
        }

        /** Megabytes (10^6 bytes) per second, or NaN. */
        double mbPerSecond() {
            return perSecond() && bytesPerOp > 0 ? score * bytesPerOp / 1e6 : Double.NaN;
        }

        double mbPerSecondError() {
            return perSecond() && bytesPerOp > 0 ? error * bytesPerOp / 1e6 : Double.NaN;
        }

        /** Transfer items per second, or NaN. */
        double itemsPerSecond() {
            return perSecond() && itemsPerOp > 0 ? score * itemsPerOp : Double.NaN;
        }

        /** The params as {@code name=value;...}, the CSV's one column for them. */
        String paramsText() {
            StringBuilder sb = new StringBuilder();
            params.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ";").append(k).append('=').append(v));
            return sb.toString();
        }
    }

    /**
     * Rows of JMH's results.
     *
     * @param bytesParam the parameter that holds the bytes of one operation, or null
     * @param itemsParam the parameter that holds the items of one operation, or null
     */
    static List<Row> rows(String group, Collection<RunResult> results, String bytesParam, String itemsParam) {
        List<Row> rows = new ArrayList<>();
        for (RunResult r : results) {
            Map<String, String> params = new TreeMap<>();
            for (String key : r.getParams().getParamsKeys()) {
                params.put(key, r.getParams().getParam(key));
            }
            String name = r.getParams().getBenchmark();
            int method = name.lastIndexOf('.');
            String benchmark = name.substring(name.lastIndexOf('.', method - 1) + 1);
            Result<?> primary = r.getPrimaryResult();
            long bytes = bytesParam == null || !params.containsKey(bytesParam) ? 0 : Long.parseLong(params.get(bytesParam));
            int items = itemsParam == null || !params.containsKey(itemsParam) ? 0 : Integer.parseInt(params.get(itemsParam));
            rows.add(new Row(group, benchmark, params, primary.getScore(), primary.getScoreError(),
                    primary.getScoreUnit(), bytes, items));
        }
        return rows;
    }

    /** Column names of {@link #csv}: results of earlier runs are read by them. */
    static final List<String> CSV_COLUMNS = List.of("group", "benchmark", "params", "score", "error", "unit",
            "bytes_per_op", "mb_per_s", "mb_per_s_error", "items_per_op", "items_per_s");

    static String csv(List<Row> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(List.of(r.group(), r.benchmark(), r.paramsText(), ResultFiles.num(r.score()),
                    ResultFiles.num(r.error()), r.unit(), r.bytesPerOp(), ResultFiles.num(r.mbPerSecond()),
                    ResultFiles.num(r.mbPerSecondError()), r.itemsPerOp(), ResultFiles.num(r.itemsPerSecond())));
        }
        return CsvTable.write(CSV_COLUMNS, out);
    }

    /** The rows with what the run was: {@code run} holds string values (date, scale, revision, ...). */
    static String json(Map<String, String> run, List<Row> rows) {
        ObjectNode root = JsonFiles.object();
        run.forEach(root::put);
        ArrayNode results = root.putArray("results");
        for (Row r : rows) {
            ObjectNode o = results.addObject();
            o.put("group", r.group());
            o.put("benchmark", r.benchmark());
            ObjectNode params = o.putObject("params");
            r.params().forEach(params::put);
            JsonFiles.putNumber(o, "score", r.score());
            JsonFiles.putNumber(o, "error", r.error());
            o.put("unit", r.unit());
            o.put("bytesPerOp", r.bytesPerOp());
            JsonFiles.putNumber(o, "mbPerSecond", r.mbPerSecond());
            o.put("itemsPerOp", r.itemsPerOp());
            JsonFiles.putNumber(o, "itemsPerSecond", r.itemsPerSecond());
        }
        return JsonFiles.write(root);
    }

    /**
     * One dimension of a {@link #pivot} table: how a row's key is found, the keys in the order
     * shown, and how a key is labelled.
     */
    record Axis(Function<Row, String> key, List<String> keys, Function<String, String> label) {
        /** The distinct keys of {@code rows}, sorted by {@code order}. */
        static Axis of(List<Row> rows, Function<Row, String> key, Comparator<String> order,
                Function<String, String> label) {
            LinkedHashSet<String> seen = new LinkedHashSet<>();
            rows.forEach(r -> seen.add(key.apply(r)));
            List<String> keys = new ArrayList<>(seen);
            keys.sort(order);
            return new Axis(key, keys, label);
        }
    }

    /**
     * A markdown table with one line per key of {@code lines} and one column per key of
     * {@code columns}; a cell with no row shows a dash.
     */
    static String pivot(List<Row> rows, String corner, Axis lines, Axis columns, Function<Row, String> cell) {
        Map<List<String>, Row> byCell = new HashMap<>();
        for (Row r : rows) {
            byCell.put(List.of(lines.key().apply(r), columns.key().apply(r)), r);
        }
        StringBuilder sb = new StringBuilder("| ").append(corner).append(" |");
        columns.keys().forEach(c -> sb.append(' ').append(columns.label().apply(c)).append(" |"));
        sb.append("\n|---|");
        columns.keys().forEach(c -> sb.append("---:|"));
        sb.append('\n');
        for (String l : lines.keys()) {
            sb.append("| ").append(lines.label().apply(l)).append(" |");
            for (String c : columns.keys()) {
                Row r = byCell.get(List.of(l, c));
                sb.append(' ').append(r == null ? "—" : cell.apply(r)).append(" |");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** Orders numbers by value (chunk sizes: "65536" before "131072"). */
    static final Comparator<String> NUMERIC = Comparator.comparingLong(Long::parseLong);

    /** Orders enum constant names as the enum declares them. */
    static <E extends Enum<E>> Comparator<String> declared(Class<E> type) {
        return Comparator.comparingInt(name -> Enum.valueOf(type, name).ordinal());
    }
}
