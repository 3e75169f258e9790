package org.openmft.agent.scheduler;

import java.time.ZonedDateTime;
import org.openmft.xml.TransferRequest;

/**
 * One active schedule as the retained ScheduleList ({@code SYSTEM.FTE/Scheduler/<agent>}) and
 * {@code fteListScheduledTransfers} show it. Immutable.
 *
 * @param id      the schedule's id
 * @param request its request, with its {@code <schedule>}
 * @param start   the first occurrence, on the schedule's clock
 * @param next    the next occurrence to run, or null when none is left
 */
public record ScheduleEntry(long id, TransferRequest request, ZonedDateTime start, ZonedDateTime next) {
}
