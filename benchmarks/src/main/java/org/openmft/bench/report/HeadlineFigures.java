package org.openmft.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The figures issue 18's goals are judged by ({@link Goals}), each with the date, revision and CPU
 * model of the run that measured it: one small JSON file per scale beside the report (for {@code
 * docs/performance.md}, {@code docs/performance-headline-full.json}, checked in with it), which
 * every run merges its sections' figures into (a run of every section starts it afresh), and the
 * baseline of the same shape checked into the repository ({@link #BASELINE}).
 *
 * <pre>
 * {"source": "...", "figures": {"key": {"value": 0.66, "date": "2026-11-26", "revision": "4913880",
 *                                 "machine": "AMD EPYC"}, ...}}
 * </pre>
 */
public final class HeadlineFigures {
    /** The figures of {@code docs/performance.md} before issue 18's changes, a class-path resource. */
    public static final String BASELINE = "issue18-baseline.json";

    /**
     * One figure and where it came from.
     *
     * @param machine the CPU model of the machine that measured it (null when not known): the
     *                machines this project's runs are made on differ from one session to the next
     */
    public record Figure(double value, String date, String revision, String machine) {
    }

    private final String source;
    private final Map<String, Figure> figures;

    private HeadlineFigures(String source, Map<String, Figure> figures) {
        this.source = source;
        this.figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }

    /** No figures. */
    public static HeadlineFigures empty(String source) {
        return new HeadlineFigures(source, Map.of());
    }

    /** The figures of {@code file}, or none when it does not exist. */
    public static HeadlineFigures load(Path file) throws IOException {
        return Files.exists(file) ? parse(Files.readString(file)) : empty("this run");
    }

    /** The baseline resource. */
    public static HeadlineFigures baseline() {
        try (InputStream in = HeadlineFigures.class.getClassLoader().getResourceAsStream(BASELINE)) {
            if (in == null) {
                throw new IllegalStateException(BASELINE + " is missing from the class path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The figures of a JSON text of the shape above; a figure whose value is null is left out. */
    public static HeadlineFigures parse(String json) {
        JsonNode root = JsonFiles.read(json);
        Map<String, Figure> m = new LinkedHashMap<>();
        JsonNode f = root.path("figures");
        f.fieldNames().forEachRemaining(key -> {
            JsonNode n = f.get(key);
            if (n.path("value").isNumber()) {
                m.put(key, new Figure(n.get("value").asDouble(), n.path("date").asText(null),
                        n.path("revision").asText(null), n.path("machine").asText(null)));
            }
        });
        return new HeadlineFigures(root.path("source").asText(""), m);
    }

    /**
     * These figures with {@code measured} put over them, each dated {@code date} at {@code revision} on
     * {@code machine}; an unknown figure (null, NaN) is not a figure and replaces nothing.
     */
    public HeadlineFigures with(Map<String, Double> measured, String date, String revision, String machine) {
        Map<String, Figure> m = new LinkedHashMap<>(figures);
        measured.forEach((k, v) -> {
            if (v != null && !v.isNaN() && !v.isInfinite()) {
                m.put(k, new Figure(v, date, revision, machine));
            }
        });
        return new HeadlineFigures(source, m);
    }

    public Optional<Figure> get(String key) {
        return Optional.ofNullable(figures.get(key));
    }

    /** Where the figures come from ("docs/performance.md at 4913880", "this run"). */
    public String source() {
        return source;
    }

    public Map<String, Figure> figures() {
        return figures;
    }

    /** As JSON, the shape {@link #parse} reads. */
    public String json() {
        ObjectNode root = JsonFiles.object();
        root.put("source", source);
        ObjectNode f = root.putObject("figures");
        figures.forEach((k, v) -> {
            ObjectNode n = f.putObject(k);
            JsonFiles.putNumber(n, "value", v.value());
            n.put("date", v.date());
            n.put("revision", v.revision());
            if (v.machine() != null) {
                n.put("machine", v.machine());
            }
        });
        return JsonFiles.write(root);
    }
}
