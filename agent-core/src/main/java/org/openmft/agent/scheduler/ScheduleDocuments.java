package org.openmft.agent.scheduler;

import java.time.ZoneId;
import org.openmft.agent.schedule.RepeatUnit;
import org.openmft.agent.schedule.ScheduleException;
import org.openmft.agent.schedule.ScheduleSpec;
import org.openmft.agent.schedule.TimeBase;
import org.openmft.xml.TransferSchedule;

/**
 * Between the request document's {@link TransferSchedule} and the time arithmetic's
 * {@link ScheduleSpec}: the {@code <schedule>} element is written from {@code fteCreateTransfer}'s
 * flags and read back by the source agent.
 */
public final class ScheduleDocuments {
    private ScheduleDocuments() {}

    /** The {@code <schedule>} element of a checked spec. */
    public static TransferSchedule toXml(ScheduleSpec s) {
        return new TransferSchedule(s.timeBase().word(), s.timezone() == null ? null : s.timezone().getId(), s.submit(),
                s.unit() == null ? null : s.unit().word(), s.frequency(), s.expireCount(), s.expireTime());
    }

    /**
     * The spec of a request's {@code <schedule>}.
     *
     * @throws ScheduleException when a word or zone is not one the arithmetic knows
     */
    public static ScheduleSpec fromXml(TransferSchedule s) throws ScheduleException {
        TimeBase base = TimeBase.of(s.timebase(), "timebase");
        RepeatUnit unit = s.interval() == null ? null : RepeatUnit.of(s.interval(), "interval");
        try {
            return new ScheduleSpec(base, base == TimeBase.ADMIN ? ZoneId.of(s.timezone()) : null, s.submit(), unit,
                    s.frequency(), s.expireCount(), s.expireTime());
        } catch (RuntimeException e) {
            throw new ScheduleException("the schedule is not valid: " + e.getMessage());
        }
    }
}
