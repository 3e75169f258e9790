package org.openmft.bench.report;

import org.openmft.bench.Sections;

/**
 * Sections of the report that one scenario owns, between an HTML comment that begins it and one
 * that ends it, so that running that scenario alone replaces its section and keeps the rest.
 */
public final class ReportSections {
    private ReportSections() {
    }

    /**
     * {@code existing} with the section between {@code begin} and {@code end} replaced by
     * {@code section} (markers included); where it has none, the section goes before
     * "## Observations", or at the end.
     */
    public static String splice(String existing, String section, String begin, String end) {
        String block = section.endsWith("\n") ? section : section + "\n";
        int from = existing.indexOf(begin);
        int to = existing.indexOf(end);
        if (from >= 0 && to > from) {
            int after = to + end.length();
            if (after < existing.length() && existing.charAt(after) == '\n') {
                after++;
            }
            return existing.substring(0, from) + block + existing.substring(after);
        }
        int observations = existing.indexOf("\n## Observations");
        if (observations >= 0) {
            return existing.substring(0, observations + 1) + block + "\n" + existing.substring(observations + 1);
        }
        return existing + (existing.endsWith("\n") ? "\n" : "\n\n") + block;
    }

    /**
     * {@code existing} with the section between {@code begin} and {@code end} replaced by
     * {@code section}; where it has none, the section goes before the first second-level heading or
     * section of a scenario, whichever comes first (near the top, after the title and the run table), or
     * at the end.
     */
    public static String spliceNearTop(String existing, String section, String begin, String end) {
        if (existing.contains(begin) && existing.contains(end)) {
            return splice(existing, section, begin, end);
        }
        String block = section.endsWith("\n") ? section : section + "\n";
        int heading = firstOf(existing, "\n## ", "\n<!-- BEGIN ");
        if (heading >= 0) {
            return existing.substring(0, heading + 1) + block + "\n" + existing.substring(heading + 1);
        }
        return existing + (existing.isEmpty() || existing.endsWith("\n") ? "" : "\n") + block;
    }

    /** Where the first of {@code texts} stands in {@code s}, or -1. */
    private static int firstOf(String s, String... texts) {
        int first = -1;
        for (String t : texts) {
            int i = s.indexOf(t);
            if (i >= 0 && (first < 0 || i < first)) {
                first = i;
            }
        }
        return first;
    }

    /** The section of {@code report} between the markers, markers included, or null. */
    static String extract(String report, String begin, String end) {
        int from = report.indexOf(begin);
        int to = report.indexOf(end);
        if (from < 0 || to < from) {
            return null;
        }
        return report.substring(from, to + end.length()) + "\n";
    }

    /** {@code fresh} with the section {@code old} had between the markers, if it had one. */
    public static String carryOver(String old, String fresh, String begin, String end) {
        String section = extract(old, begin, end);
        return section == null ? fresh : splice(fresh, section, begin, end);
    }
}
