package org.openmft.bench.measure;

/** A run that moved {@link #bytes()} in {@link #wallNanos()}, or failed for {@link #failure()}. */
public interface TimedRun {
    long bytes();

    long wallNanos();

    /** Why the run does not count, or null when it succeeded and every file verified. */
    String failure();

    default boolean ok() {
        return failure() == null;
    }

    default double seconds() {
        return wallNanos() / 1e9;
    }

    /** Decimal megabytes (10^6 bytes) per second. */
    default double mbPerSecond() {
        return bytes() / 1e6 / seconds();
    }
}
