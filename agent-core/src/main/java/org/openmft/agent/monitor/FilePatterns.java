package org.openmft.agent.monitor;

import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.openmft.xml.MonitorCondition;

/**
 * A monitor condition's pattern and exclusion, compiled: IBM's wildcards ({@code *} any run,
 * {@code ?} one character, matched against the whole file name, case-sensitive) or Java regular
 * expressions. A wildcard is matched directly on the name, without a regular expression: a poll
 * matches every untriggered file of its directory, so this runs per file per poll. Immutable.
 */
final class FilePatterns {
    private final Predicate<String> include;
    private final Predicate<String> exclude;

    FilePatterns(MonitorCondition condition) {
        this.include = matcher(condition.pattern());
        this.exclude = condition.exclude() == null ? null : matcher(condition.exclude());
    }

    boolean matches(String fileName) {
        return include.test(fileName) && (exclude == null || !exclude.test(fileName));
    }

    private static Predicate<String> matcher(MonitorCondition.FilePattern pattern) {
        if (pattern.regex()) {
            Pattern regex = Pattern.compile(pattern.text());
            return name -> regex.matcher(name).matches();
        }
        String wildcard = pattern.text();
        return name -> wildcardMatches(wildcard, name);
    }

    /**
     * Whether {@code name} matches IBM's wildcard as a whole: {@code *} any run of characters,
     * {@code ?} exactly one (a character outside the BMP, two {@code char}s, counts as one), every
     * other character itself. Greedy with one backtrack point, linear in practice and at worst
     * the product of the lengths; allocates nothing.
     */
    static boolean wildcardMatches(String wildcard, String name) {
        int w = 0;
        int n = 0;
        int starW = -1;
        int starN = 0;
        while (n < name.length()) {
            if (w < wildcard.length() && wildcard.charAt(w) == '?') {
                w++;
                n += Character.charCount(name.codePointAt(n));
            } else if (w < wildcard.length() && wildcard.charAt(w) == '*') {
                starW = w++;
                starN = n;
            } else if (w < wildcard.length() && wildcard.charAt(w) == name.charAt(n)) {
                w++;
                n++;
            } else if (starW >= 0) {
                w = starW + 1;
                starN += Character.charCount(name.codePointAt(starN));
                n = starN;
            } else {
                return false;
            }
        }
        while (w < wildcard.length() && wildcard.charAt(w) == '*') {
            w++;
        }
        return w == wildcard.length();
    }
}
