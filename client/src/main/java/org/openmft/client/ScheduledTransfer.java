package org.openmft.client;

import java.util.List;

/**
 * A schedule a source agent holds, as it publishes it (IBM's fteListScheduledTransfers shows these
 * fields): {@link MftClient#schedules}. Times are as the agent writes them,
 * {@code yyyy-MM-ddThh:mm±hhmm}.
 *
 * @param id the schedule's id on its source agent, for {@link MftClient#deleteSchedule}
 * @param sourceAgent the source agent, which runs the schedule
 * @param destinationAgent the destination agent
 * @param jobName the job name, or null
 * @param timeBase {@code admin}, {@code source} or {@code UTC}
 * @param start the first occurrence
 * @param next the next occurrence, or null when none is due any more
 * @param interval the repeat unit ({@code minutes} ... {@code years}), or null when it runs once
 * @param frequency units between occurrences
 * @param occurrences occurrences in all, or 0 when the schedule ends at a time or never
 * @param end no occurrence after this, or null
 * @param items the files of each transfer
 */
public record ScheduledTransfer(long id, String sourceAgent, String destinationAgent, String jobName, String timeBase,
        String start, String next, String interval, int frequency, long occurrences, String end, List<Item> items) {
    /**
     * Copies the items.
     *
     * @param id the schedule's id
     * @param sourceAgent the source agent
     * @param destinationAgent the destination agent
     * @param jobName the job name, or null
     * @param timeBase the time base
     * @param start the first occurrence
     * @param next the next occurrence, or null
     * @param interval the repeat unit, or null
     * @param frequency units between occurrences
     * @param occurrences occurrences in all, or 0
     * @param end the end, or null
     * @param items the files
     */
    public ScheduledTransfer {
        items = List.copyOf(items);
    }

    /**
     * One item of the scheduled transfer.
     *
     * @param source the source file, directory or wildcard
     * @param destination the destination file or directory
     * @param mode {@code binary} or {@code text}
     */
    public record Item(String source, String destination, String mode) {
    }
}
