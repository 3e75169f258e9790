package org.openmft.agent.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;

/**
 * A transfer's schedule: its first occurrence, in the zone its time base gives, and how it repeats.
 * Occurrence {@code n} is the start plus {@code n × frequency} units, counted from the start (see
 * {@link RepeatUnit} for elapsed against calendar units); occurrence 0 is the start.
 *
 * <p>Missed occurrences: when the agent was down (or busy) past several occurrences, {@link #due}
 * runs only the latest one that is due and reports the earlier ones as skipped, then waits for the
 * next one by the repeat rule. IBM does not document this case; its log has a "skipped" schedule
 * record (SSKP), and running each missed occurrence after a long outage would flood the agent with
 * transfers of the same files. The skipped ones are a range, not a list, so an outage of a year
 * under a schedule every minute costs nothing to describe.
 *
 * @param start  the first occurrence
 * @param repeat how it repeats; null for a schedule that runs once
 */
public record Schedule(ZonedDateTime start, Repeat repeat) {
    /** Checks that a repeat's end is not before the start. */
    public Schedule {
        Objects.requireNonNull(start, "start");
        if (repeat != null && repeat.end() != null && repeat.end().isBefore(start)) {
            throw new IllegalArgumentException("the end " + repeat.end() + " is before the start " + start);
        }
    }

    /** A schedule that runs once, at {@code start}. */
    public static Schedule once(ZonedDateTime start) {
        return new Schedule(start, null);
    }

    /**
     * Occurrence {@code index} (0 is the start), or empty when the schedule has none by that index
     * (a single run, past its count, or after its end).
     */
    public Optional<ZonedDateTime> occurrence(long index) {
        if (index < 0 || (repeat == null && index > 0) || (repeat != null && repeat.count() > 0
                && index >= repeat.count())) {
            return Optional.empty();
        }
        ZonedDateTime at = index == 0 ? start : unchecked(index);
        if (repeat != null && repeat.end() != null && at.isAfter(repeat.end())) {
            return Optional.empty();
        }
        return Optional.of(at);
    }

    /** Occurrence {@code index} by the repeat rule, ignoring count and end; {@code repeat} is set. */
    private ZonedDateTime unchecked(long index) {
        long units = Math.multiplyExact(index, (long) repeat.frequency());
        if (repeat.unit().elapsed()) {
            // Elapsed time: the same instant arithmetic whatever the zone's offsets do meanwhile.
            return start.plus(Duration.of(units, repeat.unit().chronoUnit()));
        }
        // Calendar time: on the local time line, then back into the zone (a local time that a
        // daylight-saving gap skips moves forward by the gap, as ZonedDateTime resolves it).
        return start.toLocalDateTime().plus(units, repeat.unit().chronoUnit()).atZone(start.getZone());
    }

    /**
     * The index of the first occurrence at or after {@code t} by the repeat rule alone (count and
     * end not applied): estimated from the units between, then corrected (months differ in length,
     * days in hours), never found by walking every occurrence.
     */
    long firstIndexAtOrAfter(Instant t) {
        if (!start.toInstant().isBefore(t)) {
            return 0;
        }
        if (repeat == null) {
            return 1;
        }
        long units = repeat.unit().chronoUnit().between(start, t.atZone(start.getZone()));
        long index = Math.max(0, units / repeat.frequency());
        while (index > 0 && !at(index - 1).toInstant().isBefore(t)) {
            index--;
        }
        while (at(index).toInstant().isBefore(t)) {
            index++;
        }
        return index;
    }

    private ZonedDateTime at(long index) {
        return index == 0 ? start : unchecked(index);
    }

    /**
     * What is due at {@code now} when occurrences before {@code next} have been run or skipped
     * already.
     *
     * @param next the first index not yet run or skipped (0 for a new schedule)
     * @param now  the time now
     * @return the occurrence to run (the latest due), the ones missed before it, the next index,
     *         and whether the schedule is over
     */
    public Due due(long next, Instant now) {
        Optional<ZonedDateTime> first = occurrence(next);
        if (first.isEmpty()) {
            return new Due(-1, next, 0, next, true);
        }
        if (first.get().toInstant().isAfter(now)) {
            return new Due(-1, next, 0, next, false);
        }
        // Occurrences next .. latest are due; latest is the last one at or before now that exists.
        long latest = Math.max(next, firstIndexAtOrAfter(now.plusNanos(1)) - 1);
        if (occurrence(latest).isEmpty()) {
            latest = lastExisting(next, latest);
        }
        long following = latest + 1;
        return new Due(latest, next, latest - next, following, occurrence(following).isEmpty());
    }

    /** The highest index in {@code [low, high)} that exists (count and end applied); {@code low} exists. */
    private long lastExisting(long low, long high) {
        while (high - low > 1) {
            long mid = low + (high - low) / 2;
            if (occurrence(mid).isPresent()) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
