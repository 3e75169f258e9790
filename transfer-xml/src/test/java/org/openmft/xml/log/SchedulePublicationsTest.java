package org.openmft.xml.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferTrigger;

/** The schedule publications as written, the ScheduleList read back, and a started log's schedule parts. */
class SchedulePublicationsTest {
    private static final List<ScheduleList.Item> ITEMS = List.of(new ScheduleList.Item("/in/a.txt", "/out/a.txt", "text"));

    @Test
    void scheduleLogHasIbmsShape() {
        String xml = SchedulePublications.write(new ScheduleLog(5, "submit", Instant.parse("2030-01-01T10:00:00Z"),
                new Originator("host", "alice", null), new TransferSchedule("UTC", null,
                        LocalDateTime.of(2030, 1, 1, 11, 0), "hours", 2, 3, null), new AgentRef("SRC", "QM1"),
                new AgentRef("DST", "QM1"), 0, List.of(), 4, ITEMS, "NIGHTLY"));
        assertThat(xml).contains("<schedulelog version=\"1.00\" ID=\"5\"", "ScheduleLog.xsd",
                "<originator><submit><hostName>host</hostName><userID>alice</userID></submit></originator>",
                "<action time=\"2030-01-01T10:00:00.000Z\">submit</action>",
                "<schedule><submit timebase=\"UTC\">2030-01-01T11:00</submit><repeat><frequency interval=\"hours\">2"
                        + "</frequency><expireCount>3</expireCount></repeat></schedule>",
                "<sourceAgent agent=\"SRC\" QMgr=\"QM1\"/>", "<status resultCode=\"0\">",
                "<transferSet size=\"1\" priority=\"4\"><item mode=\"text\"><source><file>/in/a.txt</file>",
                "<job><name>NIGHTLY</name></job>");
        assertThat(xml.indexOf("<originator>")).isLessThan(xml.indexOf("<action")).isLessThan(xml.indexOf("<schedule>"));
    }

    @Test
    void scheduleListReadsBack() throws Exception {
        ScheduleList list = new ScheduleList("SRC", List.of(
                new ScheduleList.Entry(1, "SRC", "DST", "J<&>", "admin", "2030-01-01T11:00+0100", "2030-01-01T13:00+0100",
                        "hours", 2, 0, "2030-02-01T00:00", ITEMS),
                new ScheduleList.Entry(7, "SRC", "DST", null, "UTC", "2030-01-01T11:00+0000", null, null, 1, 0, null,
                        List.of())));
        String xml = SchedulePublications.write(list);
        assertThat(xml).contains("<schedules version=\"6.00\" agent=\"SRC\" size=\"2\"", "<schedule ID=\"7\">");
        assertThat(SchedulePublications.readList(xml.getBytes(StandardCharsets.UTF_8))).isEqualTo(list);
        for (String bad : List.of("<schedules><schedule ID=\"x\"/></schedules>", "<other/>",
                "<!DOCTYPE schedules [<!ENTITY e 'x'>]><schedules/>", "<schedules><schedule ID=\"1\"/></schedules>")) {
            assertThrows(MalformedPublicationException.class,
                    () -> SchedulePublications.readList(bad.getBytes(StandardCharsets.UTF_8)), bad);
        }
    }

    @Test
    void startedLogCarriesTriggerAndScheduleLog() throws Exception {
        TransferLog started = new TransferLog("6.00", "414d5120514d31202020202020202020248e294920004016",
                TransferLog.SOURCE_AGENT, LogAction.STARTED, Instant.parse("2030-01-01T10:00:00Z"),
                new AgentRef("SRC", "QM1"), new AgentRef("DST", "QM1"), new Originator("h", "u", null), null,
                Instant.parse("2030-01-01T10:00:00Z"), 1, -1, -1, List.of(), null, List.of(), null, Map.of());
        TransferTrigger trigger = new TransferTrigger(true, List.of(new TransferTrigger.FileSize(2, "KB", "/in/go")));
        String xml = new PublicationWriter().write(started, trigger, 6L);
        assertThat(xml).contains("<trigger log=\"yes\"><fileSize comparison=\"&gt;=\" value=\"2\" units=\"KB\">/in/go"
                + "</fileSize></trigger>", "<scheduleLog ID=\"6\"/>");
        // The reader takes the trigger (a logger stores its conditions) and skips the scheduleLog.
        assertThat(new PublicationReader().readLog(xml)).isEqualTo(new TransferLog(started.version(),
                started.transferId(), started.agentRole(), started.action(), started.time(), started.sourceAgent(),
                started.destinationAgent(), started.originator(), started.jobName(), started.startTime(),
                started.totalItems(), started.bytesSent(), started.index(), started.items(), started.resultCode(),
                started.supplements(), started.statistics(), started.metadata(), started.calls(), trigger));
    }
}
