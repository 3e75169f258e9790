package org.openmft.client;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Objects;

import org.openmft.agent.schedule.RepeatUnit;
import org.openmft.agent.schedule.ScheduleException;
import org.openmft.agent.schedule.ScheduleSpec;
import org.openmft.agent.scheduler.ScheduleDocuments;
import org.openmft.xml.TransferSchedule;

/**
 * When a scheduled transfer runs: IBM's {@code <schedule>} of a transfer request, which
 * fteCreateTransfer's {@code -tb -ss -oi -of -oc -es} flags write. The source agent keeps the
 * schedule and starts each occurrence itself (it must be running then); times are local times,
 * to the minute, on the clock of the {@linkplain TimeBase time base}. Immutable and thread-safe.
 *
 * <pre>{@code
 * Schedule nightly = Schedule.at(LocalDateTime.parse("2030-01-01T02:00")).timeBase(Schedule.TimeBase.UTC)
 *         .every(1, Schedule.Unit.DAYS).occurrences(30).build();
 * }</pre>
 */
public final class Schedule {
    /** Whose clock the times are read on ({@code -tb}). */
    public enum TimeBase {
        /** The clock of the host that makes the request, whose zone the request carries (IBM's default). */
        ADMIN,
        /** The source agent's clock. */
        SOURCE,
        /** Coordinated Universal Time. */
        UTC
    }

    /** IBM's repeat units ({@code -oi}): minutes and hours are elapsed time, days and longer calendar time. */
    public enum Unit {
        /** Every n minutes. */
        MINUTES,
        /** Every n hours. */
        HOURS,
        /** Every n days, at the same local time. */
        DAYS,
        /** Every n weeks. */
        WEEKS,
        /** Every n months, on the same day (or the month's last). */
        MONTHS,
        /** Every n years. */
        YEARS
    }

    private final TransferSchedule schedule;

    private Schedule(TransferSchedule schedule) {
        this.schedule = schedule;
    }

    /**
     * A schedule whose first (or only) transfer is at {@code start} ({@code -ss}), on the
     * {@linkplain TimeBase#ADMIN administrator's} clock unless the builder says otherwise.
     *
     * @param start the first occurrence, local time; seconds are dropped
     * @return a builder
     */
    public static Builder at(LocalDateTime start) {
        return new Builder(Objects.requireNonNull(start, "start"));
    }

    /**
     * The schedule fteCreateTransfer's flags give, with their syntax (IBM's REST API takes the same
     * values in {@code scheduleTransfer}): a start of {@code hh:mm} is its next occurrence, and a
     * start already past on that clock is refused.
     *
     * @param ss {@code -ss}: {@code yyyy-MM-ddThh:mm} or {@code hh:mm}, required
     * @param tb {@code -tb}: {@code admin} (when null), {@code source} or {@code UTC}
     * @param oi {@code -oi}: the repeat unit ({@code minutes} ... {@code years}), or null for one transfer
     * @param of {@code -of}: units between occurrences, or null (1)
     * @param oc {@code -oc}: occurrences in all, or null
     * @param es {@code -es}: no occurrence after this time, same formats as {@code ss}, or null
     * @return the schedule
     * @throws IllegalArgumentException naming the flag whose value is wrong or missing
     */
    public static Schedule fromFlags(String ss, String tb, String oi, String of, String oc, String es) {
        try {
            return new Schedule(ScheduleDocuments.toXml(ScheduleSpec.fromFlags(ss, tb, oi, of, oc, es,
                    ZoneId.systemDefault(), java.time.Clock.systemUTC())));
        } catch (ScheduleException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * The first occurrence, local time on the time base's clock.
     *
     * @return the start
     */
    public LocalDateTime start() {
        return schedule.submit();
    }

    /**
     * Whether more than one transfer is scheduled.
     *
     * @return true when it repeats
     */
    public boolean repeats() {
        return schedule.repeats();
    }

    /** The {@code <schedule>} element; for the client's own use. */
    TransferSchedule element() {
        return schedule;
    }

    @Override
    public String toString() {
        return "Schedule[" + ScheduleSpec.FORMAT.format(schedule.submit()) + " " + schedule.timebase()
                + (schedule.repeats() ? ", every " + schedule.frequency() + " " + schedule.interval() : "") + "]";
    }

    /** Builds a {@link Schedule}; not thread-safe. */
    public static final class Builder {
        private final LocalDateTime start;
        private TimeBase timeBase = TimeBase.ADMIN;
        private ZoneId adminZone = ZoneId.systemDefault();
        private Unit unit;
        private int frequency = 1;
        private long occurrences;
        private LocalDateTime end;

        private Builder(LocalDateTime start) {
            this.start = start.withSecond(0).withNano(0);
        }

        /**
         * Whose clock the times are read on ({@code -tb}; default {@link TimeBase#ADMIN}).
         *
         * @param timeBase the time base
         * @return this builder
         */
        public Builder timeBase(TimeBase timeBase) {
            this.timeBase = Objects.requireNonNull(timeBase, "timeBase");
            return this;
        }

        /**
         * The administrator's zone, for {@link TimeBase#ADMIN} (default: this JVM's).
         *
         * @param zone the zone
         * @return this builder
         */
        public Builder adminZone(ZoneId zone) {
            this.adminZone = Objects.requireNonNull(zone, "zone");
            return this;
        }

        /**
         * Repeats every {@code frequency} {@code unit}s ({@code -of}, {@code -oi}); without an end
         * ({@link #occurrences}, {@link #until}) until the schedule is deleted.
         *
         * @param frequency units between occurrences, 1 to 1,000,000
         * @param unit the unit
         * @return this builder
         */
        public Builder every(int frequency, Unit unit) {
            this.frequency = frequency;
            this.unit = Objects.requireNonNull(unit, "unit");
            return this;
        }

        /**
         * Occurrences in all ({@code -oc}); not with {@link #until}.
         *
         * @param count 1 or more
         * @return this builder
         */
        public Builder occurrences(long count) {
            this.occurrences = count;
            return this;
        }

        /**
         * No occurrence after {@code end} ({@code -es}); not with {@link #occurrences}.
         *
         * @param end local time on the time base's clock
         * @return this builder
         */
        public Builder until(LocalDateTime end) {
            this.end = Objects.requireNonNull(end, "end").withSecond(0).withNano(0);
            return this;
        }

        /**
         * Checks the parts belong together. A start in the past is refused by the source agent,
         * which alone knows its clock.
         *
         * @return the schedule
         * @throws IllegalArgumentException naming what is wrong: a count or end without a repeat,
         *     both a count and an end, a count below 1, a frequency out of range, an end before the start
         */
        public Schedule build() {
            if (unit == null && (occurrences != 0 || end != null)) {
                throw new IllegalArgumentException("occurrences and until need a repeat: call every(frequency, unit)");
            }
            if (occurrences < 0) {
                throw new IllegalArgumentException("occurrences " + occurrences + " is not 1 or more");
            }
            org.openmft.agent.schedule.TimeBase base = org.openmft.agent.schedule.TimeBase.valueOf(timeBase.name());
            try {
                ScheduleSpec spec = new ScheduleSpec(base, base == org.openmft.agent.schedule.TimeBase.ADMIN ? adminZone
                        : null, start, unit == null ? null : RepeatUnit.valueOf(unit.name()), frequency, occurrences, end);
                return new Schedule(ScheduleDocuments.toXml(spec));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("schedule: " + e.getMessage(), e);
            }
        }
    }
}
