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
        return Wildcards.isWildcard(name);
    }

    boolean matches(String fileName) {
        if (fileName.startsWith(".") && !text.startsWith(".")) {
            return false;
        }
        return Wildcards.matches(pattern, fileName.codePoints().toArray());
    }

    @Override
    public String toString() {
        return text;
    }
}
