package org.openmft.coordination.publish;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openmft.agent.scheduler.ScheduleEntry;
import org.openmft.agent.scheduler.ScheduleEvent;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.log.ScheduleList;
import org.openmft.xml.log.ScheduleLog;

/** The scheduler's events as IBM's schedule publications: a schedule log, the ScheduleList. */
final class ScheduleLogs {
    /** IBM's form of a schedule time in listings: {@code 2020-08-17T11:00-0400}. */
    static final DateTimeFormatter LISTED = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mmxx", Locale.ROOT);

    private ScheduleLogs() {}

    static ScheduleLog log(ScheduleEvent e) {
        TransferRequest r = e.request();
        return new ScheduleLog(e.id(), e.action(), e.time(), r.originator(), r.schedule(), r.sourceAgent(),
                r.destinationAgent(), e.resultCode(), e.supplements(), r.transferSet().priority(), items(r), r.jobName());
    }

    static ScheduleList list(String agent, List<ScheduleEntry> entries) {
        List<ScheduleList.Entry> out = new ArrayList<>();
        for (ScheduleEntry e : entries) {
            TransferRequest r = e.request();
            TransferSchedule s = r.schedule();
            out.add(new ScheduleList.Entry(e.id(), r.sourceAgent().agent(), r.destinationAgent().agent(), r.jobName(),
                    s.timebase(), listed(e.start()), e.next() == null ? null : listed(e.next()), s.interval(),
                    s.frequency(), s.expireCount(),
                    s.expireTime() == null ? null : TransferSchedule.FORMAT.format(s.expireTime()), items(r)));
        }
        return new ScheduleList(agent, out);
    }

    private static String listed(ZonedDateTime t) {
        return LISTED.format(t);
    }

    private static List<ScheduleList.Item> items(TransferRequest r) {
        List<ScheduleList.Item> items = new ArrayList<>();
        for (TransferItem i : r.transferSet().items()) {
            items.add(new ScheduleList.Item(i.source().path(), i.destination().path(), i.mode().xmlValue()));
        }
        return items;
    }
}
