package org.openmft.agent.transfer.files;

/**
 * An IBM source wildcard: {@code *} matches any run of characters and {@code ?} exactly one, in a
 * file name only; no other character is special (unlike a glob, where {@code [} and {@code {} are).
 * Names starting with a dot match only a pattern that starts with a dot, so {@code *} does not pick
 * up hidden files. Matching is case-sensitive and counts code points.
 */
final class FileNamePattern {

    private final String text;
    private final int[] pattern;

    FileNamePattern(String text) {
        this.text = text;
        this.pattern = text.codePoints().toArray();
    }

    /** @return whether a path component contains a wildcard character */
    static boolean isWildcard(String name) {
        return name.indexOf('*') >= 0 || name.indexOf('?') >= 0;
    }

    boolean matches(String fileName) {
        if (fileName.startsWith(".") && !text.startsWith(".")) {
            return false;
        }
        int[] name = fileName.codePoints().toArray();
        // Greedy matching that backtracks only to the last '*': linear for typical patterns.
        int p = 0;
        int n = 0;
        int star = -1;
        int starMatch = 0;
        while (n < name.length) {
            if (p < pattern.length && (pattern[p] == '?' || pattern[p] == name[n]) && pattern[p] != '*') {
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
