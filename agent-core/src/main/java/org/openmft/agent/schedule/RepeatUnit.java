package org.openmft.agent.schedule;

import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * IBM's repeat units ({@code -oi}, {@code <frequency interval="...">}). Minutes and hours are
 * elapsed time: a schedule every 30 minutes runs every 30 minutes across a daylight-saving change.
 * Days and longer are calendar time in the schedule's zone: a daily 21:00 transfer stays at 21:00
 * local time when the clocks change, and a monthly one on the 31st runs on the last day of shorter
 * months and on the 31st again after them (each occurrence is counted from the start, never from
 * the previous one, so nothing drifts).
 */
public enum RepeatUnit {
    /** Every n minutes. */
    MINUTES(ChronoUnit.MINUTES),
    /** Every n hours. */
    HOURS(ChronoUnit.HOURS),
    /** Every n days, at the same local time. */
    DAYS(ChronoUnit.DAYS),
    /** Every n weeks, on the same weekday at the same local time. */
    WEEKS(ChronoUnit.WEEKS),
    /** Every n months, on the same day of the month (or the month's last) at the same local time. */
    MONTHS(ChronoUnit.MONTHS),
    /** Every n years. */
    YEARS(ChronoUnit.YEARS);

    private final ChronoUnit unit;

    RepeatUnit(ChronoUnit unit) {
        this.unit = unit;
    }

    /** The unit of {@code java.time}. */
    ChronoUnit chronoUnit() {
        return unit;
    }

    /** Whether the unit is elapsed time (minutes, hours) rather than calendar time. */
    boolean elapsed() {
        return this == MINUTES || this == HOURS;
    }

    /** IBM's word: {@code minutes}, {@code hours}, ... */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The unit IBM's word names (any case).
     *
     * @throws ScheduleException naming {@code field} when it is none of IBM's words
     */
    public static RepeatUnit of(String word, String field) throws ScheduleException {
        if (word != null) {
            for (RepeatUnit u : values()) {
                if (u.word().equalsIgnoreCase(word.strip())) {
                    return u;
                }
            }
        }
        throw new ScheduleException(field + " is minutes, hours, days, weeks, months or years, not '" + word + "'");
    }
}
