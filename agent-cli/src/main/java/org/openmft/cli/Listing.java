package org.openmft.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * How the list and show commands print: IBM-style tables (headers ending in {@code :}, columns
 * two spaces apart), indented labelled fields, ages as {@code h:mm:ss}, times as ISO-8601 UTC, and
 * pretty-printed JSON for {@code --json}.
 */
final class Listing {
    /** Where the value of a labelled field starts. */
    private static final int FIELD_WIDTH = 36;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private Listing() {
    }

    /**
     * Aligned columns, each as wide as its widest cell plus two spaces; the last is not padded.
     * {@code null} cells print as {@code -}.
     */
    static void table(PrintWriter out, List<String> headers, List<List<String>> rows) {
        int[] widths = new int[headers.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(headers);
        all.addAll(rows);
        for (List<String> row : all) {
            for (int i = 0; i < widths.length; i++) {
                widths[i] = Math.max(widths[i], cell(row, i).length());
            }
        }
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < widths.length; i++) {
                String c = cell(row, i);
                line.append(c);
                if (i < widths.length - 1) {
                    line.append(" ".repeat(widths[i] - c.length() + 2));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private static String cell(List<String> row, int i) {
        String c = i < row.size() ? row.get(i) : null;
        return c == null ? "-" : c;
    }

    /** A section heading, after a blank line unless it is the first. */
    static void section(PrintWriter out, String title, boolean first) {
        if (!first) {
            out.println();
        }
        out.println(title + ":");
    }

    /** {@code "    Label:   value"}; {@code null} prints as {@code -}. */
    static void field(PrintWriter out, String label, Object value) {
        String head = "    " + label + ":";
        out.println(head + " ".repeat(Math.max(1, FIELD_WIDTH - head.length())) + (value == null ? "-" : value));
    }

    /**
     * An age as IBM's Status Age shows it: {@code h:mm:ss}, hours unbounded; negative when the
     * publisher's clock is ahead; {@code -} when unknown.
     */
    static String age(Duration age) {
        if (age == null) {
            return "-";
        }
        long s = Math.abs(age.toSeconds());
        return (age.isNegative() && s > 0 ? "-" : "") + String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }

    /** A time as ISO-8601 UTC to the second, or {@code -}. */
    static String time(Instant t) {
        return t == null ? "-" : t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** A time as ISO-8601 UTC to the millisecond, for JSON, or null. */
    static String isoTime(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.MILLIS).toString();
    }

    /** Prints a tree of maps, lists, strings, numbers and booleans as pretty JSON. */
    static void json(PrintWriter out, Object tree) {
        try {
            out.println(JSON.writeValueAsString(tree));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }
}
