package org.openmft.agent.transfer.sandbox;

import org.openmft.agent.transfer.files.Wildcards;

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
        return Wildcards.isWildcard(text);
    }

    boolean matches(String value) {
        return Wildcards.matches(pattern, value.codePoints().toArray());
    }

    @Override
    public String toString() {
        return text;
    }
}
