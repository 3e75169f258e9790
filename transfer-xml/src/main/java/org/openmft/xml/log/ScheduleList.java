package org.openmft.xml.log;

import java.util.List;

/**
 * An agent's active schedules, as it publishes them retained on {@code SYSTEM.FTE/Scheduler/<agent>}
 * (IBM's ScheduleList) and {@code fteListScheduledTransfers} prints them. Immutable.
 *
 * @param agent     the source agent
 * @param schedules the schedules, by id
 */
public record ScheduleList(String agent, List<Entry> schedules) {
    /** Copies the list. */
    public ScheduleList {
        schedules = List.copyOf(schedules);
    }

    /**
     * One schedule.
     *
     * @param id               its id on the agent
     * @param sourceAgent      the source agent
     * @param destinationAgent the destination agent
     * @param jobName          the job name, or null
     * @param timebase         admin, source or UTC
     * @param start            the first occurrence, {@code yyyy-MM-ddThh:mm±hhmm}
     * @param next             the next occurrence, same form, or null
     * @param interval         the repeat unit, or null
     * @param frequency        units between occurrences
     * @param expireCount      occurrences in all, or 0
     * @param expireTime       the end, or null
     * @param items            the files, source and destination, and the conversion (binary or text)
     */
    public record Entry(long id, String sourceAgent, String destinationAgent, String jobName, String timebase,
            String start, String next, String interval, int frequency, long expireCount, String expireTime,
            List<Item> items) {
        /** Copies the list. */
        public Entry {
            items = List.copyOf(items);
        }
    }

    /**
     * @param source      the source file
     * @param destination the destination file or directory
     * @param mode        {@code binary} or {@code text}
     */
    public record Item(String source, String destination, String mode) {
    }
}
