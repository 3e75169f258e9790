package org.openmft.bench.micro;

import java.util.Arrays;
import java.util.Objects;

/**
 * The check every benchmark's setup makes once before it is measured: the work it times must give
 * the right answer, or the benchmark fails rather than producing a figure for the wrong work.
 */
final class SelfCheck {
    private SelfCheck() {
    }

    /** Fails with a message naming {@code what} unless {@code actual} equals {@code expected}. */
    static void equal(String what, Object expected, Object actual) {
        if (!Objects.equals(expected, actual)) {
            throw new IllegalStateException("self-check failed: " + what + ": expected " + expected + ", got " + actual);
        }
    }

    /** Fails, naming the first differing offset, unless the two arrays hold the same bytes. */
    static void equalBytes(String what, byte[] expected, byte[] actual) {
        int at = Arrays.mismatch(expected, actual);
        if (at >= 0) {
            throw new IllegalStateException("self-check failed: " + what + ": " + expected.length + " bytes expected, "
                    + actual.length + " produced, first difference at offset " + at);
        }
    }
}
