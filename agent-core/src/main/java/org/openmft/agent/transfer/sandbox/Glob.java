package org.openmft.agent.transfer.sandbox;

/**
 * IBM's wildcard for user names and single path levels: {@code *} matches any run of characters
 * (none included, a leading dot included), {@code ?} exactly one; nothing else is special.
 * Case-sensitive, by code point. Immutable.
 */
final class Glob {

    private final String text;
    private final int[] pattern;

    Glob(String text) {
        this.text = text;
        this.pattern = text.codePoints().toArray();
    }

    /** @return whether the text has a wildcard character */
    static boolean isWildcard(String text) {
        return text.indexOf('*') >= 0 || text.indexOf('?') >= 0;
    }

    boolean matches(String value) {
        int[] name = value.codePoints().toArray();
        // Greedy matching that backtracks only to the last '*': linear for typical patterns.
        int p = 0;
        int n = 0;
        int star = -1;
        int starMatch = 0;
        while (n < name.length) {
            if (p < pattern.length && pattern[p] != '*' && (pattern[p] == '?' || pattern[p] == name[n])) {
                p++;
                n++;
            } else if (p < pattern.length && pattern[p] == '*') {
                star = p++;
                starMatch = n;
            } else if (star >= 0) {
                p = star + 1;
                n = ++starMatch;
            } else {
                return false;
            }
        }
        while (p < pattern.length && pattern[p] == '*') {
            p++;
        }
        return p == pattern.length;
    }

    @Override
    public String toString() {
        return text;
    }
}
