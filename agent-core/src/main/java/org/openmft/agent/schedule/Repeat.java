package org.openmft.agent.schedule;

import java.time.ZonedDateTime;
import java.util.Objects;

/**
 * How a schedule repeats ({@code -oi -of}, and its end {@code -oc} or {@code -es};
 * {@code <repeat><frequency interval="...">n</frequency><expireCount>|<expireTime>}).
 *
 * @param unit      the repeat unit
 * @param frequency units between occurrences, 1 to {@value #MAX_FREQUENCY}
 * @param count     occurrences in all, the first included ({@code -oc}); 0 when not limited by count
 * @param end       no occurrence after this ({@code -es}); null when not limited by time
 */
public record Repeat(RepeatUnit unit, int frequency, long count, ZonedDateTime end) {
    /** The largest frequency accepted: a thousand years of minutes is absurd, not a schedule. */
    public static final int MAX_FREQUENCY = 1_000_000;

    /** Checks the values; {@code count} and {@code end} exclude each other, as -oc and -es do. */
    public Repeat {
        Objects.requireNonNull(unit, "unit");
        if (frequency < 1 || frequency > MAX_FREQUENCY) {
            throw new IllegalArgumentException("frequency " + frequency + " is not 1 to " + MAX_FREQUENCY);
        }
        if (count < 0) {
            throw new IllegalArgumentException("count " + count + " is negative");
        }
        if (count > 0 && end != null) {
            throw new IllegalArgumentException("a repeat ends after a count or at a time, not both");
        }
    }

    /** Whether the schedule repeats until it is deleted. */
    public boolean indefinite() {
        return count == 0 && end == null;
    }
}
