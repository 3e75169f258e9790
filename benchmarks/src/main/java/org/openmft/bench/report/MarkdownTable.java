package org.openmft.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Markdown table built row by row: the header, the rule under it, one line per row. A cell's
 * {@code |} is escaped and a line end becomes a space, so that any text stays in its cell; a row
 * shorter than the header is padded with empty cells, a longer one is an error.
 */
public final class MarkdownTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    private MarkdownTable(List<String> header) {
        this.header = List.copyOf(header);
    }

    /** A table with these column headings. */
    public static MarkdownTable of(String... header) {
        return new MarkdownTable(Arrays.asList(header));
    }

    /** A table with these column headings. */
    public static MarkdownTable of(List<String> header) {
        return new MarkdownTable(header);
    }

    /** Adds a row; a null cell is empty. */
    public MarkdownTable row(Object... cells) {
        return row(Arrays.asList(cells));
    }

    /** Adds a row; a null cell is empty. */
    public MarkdownTable row(List<?> cells) {
        if (cells.size() > header.size()) {
            throw new IllegalArgumentException(cells.size() + " cells in a table of " + header.size() + " columns");
        }
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(c == null ? "" : c.toString());
        }
        while (r.size() < header.size()) {
            r.add("");
        }
        rows.add(r);
        return this;
    }

    /** Whether no row was added. */
    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** The table, each line ended by a line end. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        line(sb, header);
        sb.append('|');
        header.forEach(h -> sb.append("---|"));
        sb.append('\n');
        rows.forEach(r -> line(sb, r));
        return sb.toString();
    }

    private static void line(StringBuilder sb, List<String> cells) {
        sb.append('|');
        for (String c : cells) {
            sb.append(c.isEmpty() ? " |" : " " + escape(c) + " |");
        }
        sb.append('\n');
    }

    /** {@code text} safe inside a cell: {@code |} escaped (unless already), line ends as spaces. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        return text.replaceAll("(?<!\\\\)\\|", "\\\\|").replace("\n", " ");
    }
}
