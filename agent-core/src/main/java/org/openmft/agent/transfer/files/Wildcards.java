package org.openmft.agent.transfer.files;

/**
 * IBM's two wildcard characters, and nothing else: {@code *} matches any run of characters (none
 * included) and {@code ?} exactly one; every other character, {@code [} and {@code {} included,
 * stands for itself. Case-sensitive, by code point. What a pattern is matched against (a file
 * name, a path level, a user name) and any rule about hidden files are the callers'.
 *
 * <p>Stateless and thread-safe.
 */
public final class Wildcards {

    private Wildcards() {
    }

    /**
     * @param text a pattern or a name
     * @return whether it has a wildcard character
     */
    public static boolean isWildcard(String text) {
        return text.indexOf('*') >= 0 || text.indexOf('?') >= 0;
    }

    /**
     * Whether a whole value matches a pattern, both given as code points.
     *
     * @param pattern the pattern's code points
     * @param value the value's code points
     * @return whether the pattern matches all of the value
     */
    public static boolean matches(int[] pattern, int[] value) {
        // Greedy matching that backtracks only to the last '*': linear for typical patterns.
        int p = 0;
        int n = 0;
        int star = -1;
        int starMatch = 0;
        while (n < value.length) {
            if (p < pattern.length && pattern[p] != '*' && (pattern[p] == '?' || pattern[p] == value[n])) {
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
}
