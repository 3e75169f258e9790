package org.openmft.agent.schedule;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * A schedule as a request carries it, before a zone makes it a {@link Schedule}: IBM's
 * {@code <submit timebase="..." timezone="...">yyyy-MM-ddThh:mm</submit>} and
 * {@code <repeat><frequency interval="...">n</frequency><expireCount>|<expireTime></repeat>}, made
 * from {@code fteCreateTransfer}'s flags by {@link #fromFlags} and resolved by the source agent
 * ({@link #resolve}), which alone knows its own zone when the time base is {@code source}.
 *
 * @param timeBase    whose clock the times are read on
 * @param timezone    the administrator's zone ({@link TimeBase#ADMIN}), else null
 * @param submit      the first occurrence, local time in that clock
 * @param unit        the repeat unit, or null for a single run
 * @param frequency   units between occurrences (1 when it does not repeat)
 * @param expireCount occurrences in all, or 0
 * @param expireTime  no occurrence after this local time, or null
 */
public record ScheduleSpec(TimeBase timeBase, ZoneId timezone, LocalDateTime submit, RepeatUnit unit, int frequency,
        long expireCount, LocalDateTime expireTime) {
    /** IBM's format of {@code -ss}, {@code -es} and {@code <submit>}: {@code yyyy-MM-ddThh:mm}. */
    public static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");
    private static final DateTimeFormatter TIME_ONLY = DateTimeFormatter.ofPattern("HH:mm");

    /** Checks the parts belong together. */
    public ScheduleSpec {
        if (timeBase == null || submit == null) {
            throw new IllegalArgumentException("a schedule needs a time base and a start");
        }
        if ((timeBase == TimeBase.ADMIN) != (timezone != null)) {
            throw new IllegalArgumentException("the administrator's time base, and only it, carries a time zone");
        }
        if (unit == null && (frequency != 1 || expireCount != 0 || expireTime != null)) {
            throw new IllegalArgumentException("a schedule that does not repeat has no frequency, count or end");
        }
    }

    /**
     * The schedule {@code fteCreateTransfer}'s flags ask for.
     *
     * @param ss         {@code -ss}: {@code yyyy-MM-ddThh:mm}, or {@code hh:mm} for its next occurrence
     * @param tb         {@code -tb}: admin (default when null), source or UTC
     * @param oi         {@code -oi}: the repeat unit, or null
     * @param of         {@code -of}: units per repeat, or null (1)
     * @param oc         {@code -oc}: occurrences in all, or null
     * @param es         {@code -es}: the end, same formats as {@code -ss}, or null
     * @param adminZone  the zone of the host running the command
     * @param clock      the time now, to refuse a start in the past and to place {@code hh:mm}
     * @throws ScheduleException naming the flag, when a value is malformed, absurd or in the past,
     *                           or flags that need each other are missing
     */
    public static ScheduleSpec fromFlags(String ss, String tb, String oi, String of, String oc, String es,
            ZoneId adminZone, Clock clock) throws ScheduleException {
        if (ss == null) {
            for (String[] flag : new String[][] {{"-oi", oi}, {"-of", of}, {"-oc", oc}, {"-es", es}, {"-tb", tb}}) {
                if (flag[1] != null) {
                    throw new ScheduleException(flag[0] + " needs a start time (-ss)");
                }
            }
            throw new ScheduleException("-ss is missing");
        }
        TimeBase base = tb == null ? TimeBase.ADMIN : TimeBase.of(tb, "-tb");
        // The command's host reads "now" on the clock the times are given in; for the source
        // agent's clock, which it cannot see, it uses its own zone to place hh:mm and to judge the past.
        ZoneId zone = base == TimeBase.UTC ? ZoneOffset.UTC : adminZone;
        LocalDateTime now = LocalDateTime.now(clock.withZone(zone)).truncatedTo(ChronoUnit.MINUTES);
        LocalDateTime start = time(ss, "-ss", now, now);
        if (start.isBefore(now)) {
            throw new ScheduleException("-ss " + ss + " is in the past (it is " + FORMAT.format(now) + " on the "
                    + base.word() + " clock)");
        }
        if (oi == null) {
            for (String[] flag : new String[][] {{"-of", of}, {"-oc", oc}, {"-es", es}}) {
                if (flag[1] != null) {
                    throw new ScheduleException(flag[0] + " needs a repeat unit (-oi)");
                }
            }
            return new ScheduleSpec(base, base == TimeBase.ADMIN ? adminZone : null, start, null, 1, 0, null);
        }
        RepeatUnit unit = RepeatUnit.of(oi, "-oi");
        int frequency = of == null ? 1 : (int) number(of, "-of", Repeat.MAX_FREQUENCY);
        if (oc != null && es != null) {
            throw new ScheduleException("-oc and -es exclude each other: a schedule ends after a number of"
                    + " occurrences or at a time");
        }
        long count = oc == null ? 0 : number(oc, "-oc", Integer.MAX_VALUE);
        LocalDateTime end = es == null ? null : time(es, "-es", start, now);
        if (end != null && end.isBefore(start)) {
            throw new ScheduleException("-es " + es + " is before the start " + FORMAT.format(start));
        }
        return new ScheduleSpec(base, base == TimeBase.ADMIN ? adminZone : null, start, unit, frequency, count, end);
    }

    /** {@code yyyy-MM-ddThh:mm}, or {@code hh:mm} as its first occurrence at or after {@code notBefore}. */
    private static LocalDateTime time(String value, String flag, LocalDateTime notBefore, LocalDateTime now)
            throws ScheduleException {
        String v = value.strip();
        try {
            if (v.length() <= 5) {
                LocalDateTime t = LocalTime.parse(v, TIME_ONLY).atDate(now.toLocalDate());
                while (t.isBefore(notBefore)) {
                    t = t.plusDays(1);
                }
                return t;
            }
            return LocalDateTime.parse(v, FORMAT);
        } catch (DateTimeParseException e) {
            throw new ScheduleException(flag + " '" + value + "' is not yyyy-MM-ddThh:mm or hh:mm");
        }
    }

    private static long number(String value, String flag, long max) throws ScheduleException {
        try {
            long n = Long.parseLong(value.strip());
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        throw new ScheduleException(flag + " is a whole number from 1 to " + max + ", not '" + value + "'");
    }

    /**
     * The schedule on a clock: the administrator's zone carried in the request, the source agent's
     * own, or UTC.
     *
     * @param sourceZone the source agent's zone
     */
    public Schedule resolve(ZoneId sourceZone) {
        ZoneId zone = switch (timeBase) {
            case ADMIN -> timezone;
            case SOURCE -> sourceZone;
            case UTC -> ZoneOffset.UTC;
        };
        ZonedDateTime start = submit.atZone(zone);
        if (unit == null) {
            return Schedule.once(start);
        }
        return new Schedule(start, new Repeat(unit, frequency, expireCount,
                expireTime == null ? null : expireTime.atZone(zone)));
    }
}
