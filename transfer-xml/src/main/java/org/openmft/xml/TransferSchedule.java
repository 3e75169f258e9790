package org.openmft.xml;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Set;

/**
 * A transfer's {@code <schedule>} as IBM's FileTransfer.xsd carries it:
 * {@code <submit timebase="admin|source|UTC" timezone="...">yyyy-MM-ddThh:mm</submit>} and an
 * optional {@code <repeat><frequency interval="minutes|...|years">n</frequency>} ending with
 * {@code <expireTime>} or {@code <expireCount>}. The times are local times on the clock the time
 * base names; the source agent turns them into instants. Immutable.
 *
 * @param timebase    {@code admin}, {@code source} or {@code UTC}
 * @param timezone    the administrator's zone id (with {@code admin}), else null
 * @param submit      the first occurrence
 * @param interval    the repeat unit ({@code minutes} ... {@code years}), or null when it runs once
 * @param frequency   units between occurrences, 1 to 1,000,000 (1 when it runs once)
 * @param expireCount occurrences in all, or 0
 * @param expireTime  no occurrence after this, or null
 */
public record TransferSchedule(String timebase, String timezone, LocalDateTime submit, String interval, int frequency,
        long expireCount, LocalDateTime expireTime) {

    /** IBM's time format: {@code yyyy-MM-ddThh:mm}. */
    public static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm", Locale.ROOT);
    /** The time bases, as IBM spells them. */
    public static final Set<String> TIMEBASES = Set.of("admin", "source", "UTC");
    /** The repeat units, as IBM spells them. */
    public static final Set<String> INTERVALS = Set.of("minutes", "hours", "days", "weeks", "months", "years");
    /** The largest frequency accepted. */
    public static final int MAX_FREQUENCY = 1_000_000;

    /** Validates: the time base and interval are IBM's words, the zone exists, the end is not before the start. */
    public TransferSchedule {
        if (!TIMEBASES.contains(timebase)) {
            throw new IllegalArgumentException("timebase " + Checks.quote(timebase) + " is not admin, source or UTC");
        }
        if (submit == null) {
            throw new IllegalArgumentException("a schedule needs a <submit> time");
        }
        if (timezone != null) {
            try {
                ZoneId.of(timezone);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("timezone " + Checks.quote(timezone) + " is not a known time zone");
            }
        }
        if (timebase.equals("admin") && timezone == null) {
            throw new IllegalArgumentException("timebase \"admin\" needs the administrator's timezone attribute");
        }
        if (!timebase.equals("admin")) {
            timezone = null;
        }
        if (interval == null) {
            if (frequency != 1 || expireCount != 0 || expireTime != null) {
                throw new IllegalArgumentException("a schedule without <repeat> has no frequency, count or end");
            }
        } else {
            if (!INTERVALS.contains(interval)) {
                throw new IllegalArgumentException("interval " + Checks.quote(interval)
                        + " is not minutes, hours, days, weeks, months or years");
            }
            if (frequency < 1 || frequency > MAX_FREQUENCY) {
                throw new IllegalArgumentException("frequency " + frequency + " is not 1 to " + MAX_FREQUENCY);
            }
            if (expireCount < 0 || expireCount > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("expireCount " + expireCount + " is not 1 to " + Integer.MAX_VALUE);
            }
            if (expireCount > 0 && expireTime != null) {
                throw new IllegalArgumentException("a repeat ends with <expireTime> or <expireCount>, not both");
            }
            if (expireTime != null && expireTime.isBefore(submit)) {
                throw new IllegalArgumentException("<expireTime> " + FORMAT.format(expireTime)
                        + " is before the start " + FORMAT.format(submit));
            }
        }
    }

    /** Whether it repeats. */
    public boolean repeats() {
        return interval != null;
    }
}
