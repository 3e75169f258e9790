package org.openmft.xml.log;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The {@code <statistics>} of a completed log message. The time is kept to the millisecond, the
 * precision the document carries. Immutable.
 *
 * @param actualStartTime when data started to move, or {@code null} when unknown
 * @param retryCount how many times the transfer was retried (recoveries), or -1 when unknown
 * @param numFileFailures items that failed, or -1 when unknown
 * @param numFileWarnings items that ended with a warning, or -1 when unknown
 */
public record Statistics(Instant actualStartTime, int retryCount, int numFileFailures, int numFileWarnings) {

    /**
     * Validates and truncates the time to milliseconds.
     *
     * @throws IllegalArgumentException if a count is below -1
     */
    public Statistics {
        actualStartTime = actualStartTime == null ? null : actualStartTime.truncatedTo(ChronoUnit.MILLIS);
        atLeastMinusOne(retryCount, "retryCount");
        atLeastMinusOne(numFileFailures, "numFileFailures");
        atLeastMinusOne(numFileWarnings, "numFileWarnings");
    }

    /** The rule for the records' counts and sizes: a number, or -1 for "unknown". */
    static void atLeastMinusOne(long value, String what) {
        if (value < -1) {
            throw new IllegalArgumentException(what + " must be -1 (unknown) or more, not " + value);
        }
    }
}
