package org.openmft.agent.scheduler;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import org.openmft.xml.TransferRequest;

/**
 * Something a schedule did, as IBM's schedule log ({@code <schedulelog version="1.00" ID="n">},
 * published on {@code SYSTEM.FTE/Log/<agent>/<scheduleID>}) reports it. Immutable.
 *
 * @param id          the schedule
 * @param action      IBM's action: {@code submit}, {@code delete}, {@code expire} or {@code skipped}
 * @param time        when
 * @param resultCode  0, or the result code of a refusal
 * @param supplements what happened, for people
 * @param request     the schedule's request (its agents, items, schedule and job)
 * @param occurrence  the occurrence a {@code skipped} event is about, else null
 */
public record ScheduleEvent(long id, String action, Instant time, int resultCode, List<String> supplements,
        TransferRequest request, ZonedDateTime occurrence) {
    /** Copies the list. */
    public ScheduleEvent {
        supplements = List.copyOf(supplements);
    }
}
