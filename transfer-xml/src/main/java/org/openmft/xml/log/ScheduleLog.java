package org.openmft.xml.log;

import java.time.Instant;
import java.util.List;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferSchedule;

/**
 * One schedule log message, {@code <schedulelog version="1.00" ID="n">} (IBM's ScheduleLog.xsd),
 * published on {@code SYSTEM.FTE/Log/<agent>/<scheduleID>} when a schedule is submitted, deleted or
 * expires, or an occurrence is skipped. Immutable.
 *
 * @param id               the schedule
 * @param action           {@code submit}, {@code delete}, {@code expire} or {@code skipped}
 * @param time             when
 * @param originator       who created the schedule, or null
 * @param schedule         its {@code <schedule>}
 * @param sourceAgent      the source agent
 * @param destinationAgent the destination agent
 * @param resultCode       0, or why an action failed
 * @param supplements      what happened, for people
 * @param priority         the transfer's priority
 * @param items            the files
 * @param jobName          the job name, or null
 */
public record ScheduleLog(long id, String action, Instant time, Originator originator, TransferSchedule schedule,
        AgentRef sourceAgent, AgentRef destinationAgent, int resultCode, List<String> supplements, int priority,
        List<ScheduleList.Item> items, String jobName) {
    /** IBM's version of the schedule log. */
    public static final String VERSION = "1.00";

    /** Copies the lists. */
    public ScheduleLog {
        supplements = List.copyOf(supplements);
        items = List.copyOf(items);
    }
}
