package org.openmft.xml.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openmft.xml.AgentRef;
import org.openmft.xml.CallType;
import org.openmft.xml.Originator;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.SuccessCodes;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferTrigger;

/** The automation logs a logger stores, read back from what the writers publish; bad ones refused with the reason. */
class AutomationLogReaderTest {
    private static final Instant T = Instant.parse("2030-01-01T10:00:00Z");
    private static final String ID = "414d5120514d31202020202020202020000000000000aa01";
    private final PublicationReader reader = new PublicationReader();

    @Test
    void programCallsOfATransferLogReadBack() throws Exception {
        ProgramCall pre = new ProgramCall(CallType.EXECUTABLE, "check.sh", List.of("a<b", "c"), 1, 5,
                SuccessCodes.of("0|4"));
        List<LogCall> calls = List.of(new LogCall("preSourceCall", pre, "success", 1, 4, List.of("one", "two"),
                List.of("warn"), null), new LogCall("postDestinationCall", ProgramCall.executable("/x/y.sh", List.of()),
                "error", 0, null, List.of(), List.of(), "BFGCR0003E: refused"));
        TransferLog log = new TransferLog("6.00", ID, TransferLog.SOURCE_AGENT, LogAction.COMPLETED, T,
                new AgentRef("SRC", "QM1"), new AgentRef("DST", "QM2"), null, null, null, -1, -1, -1, List.of(), 0,
                List.of(), null, Map.of(), calls);

        assertThat(reader.readLog(new PublicationWriter().write(log)).calls()).isEqualTo(calls);
    }

    @Test
    void scheduleLogsReadBack() throws Exception {
        ScheduleLog log = new ScheduleLog(5, "delete", T, new Originator("host", "alice", null),
                new TransferSchedule("admin", "Europe/London", LocalDateTime.of(2030, 1, 1, 11, 0), "hours", 2, 0,
                        LocalDateTime.of(2030, 2, 1, 0, 0)), new AgentRef("SRC", "QM1"), new AgentRef("DST", "QM2"), 0,
                List.of("deleted by alice"), 4, List.of(new ScheduleList.Item("/in/a.txt", "/out/a.txt", "text")),
                "NIGHTLY");

        assertThat(reader.readScheduleLog(SchedulePublications.write(log))).isEqualTo(log);
    }

    @Test
    void monitorLogsReadBack() throws Exception {
        MonitorLog log = new MonitorLog("6.00", "MON1", ID, new Originator("host", "bob", "bob"), "triggerFail", T,
                new AgentRef("SRC", "QM1"), 106, List.of("BFGDM0107E: the exit failed"));

        assertThat(reader.readMonitorLog(new PublicationWriter().write(log))).isEqualTo(log);
    }

    @Test
    void ibmsTriggeredStartedMessageGivesItsTrigger() throws Exception {
        // IBM's "Triggered file transfer log message example" (refadmin/triggered_message_format).
        String ibm = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<transaction version=\"1.00\"\n\tID=\"414d5120514d312020202020202020207e970d492000a102\""
                + " agentRole=\"sourceAgent\"\n\txmlns:xsi=\"https://www.w3.org/2001/XMLSchema-instance\"\n"
                + "\txsi:noNamespaceSchemaLocation=\"TransferLog.xsd\"\n\txmlns=\"\">\n"
                + "\t<action time=\"2008-11-02T22:05:18.703Z\">started</action>\n"
                + "\t<sourceAgent agent=\"FTEAGENT\" QMgr=\"QM1\">\n"
                + "\t\t<systemInfo architecture=\"x86\" name=\"Windows 7\"\n"
                + "\t\t\tversion=\"6.1 build 7601 Service Pack 1\" />\n\t</sourceAgent>\n"
                + "\t<destinationAgent agent=\"FTEAGENT\" QMgr=\"QM1\" />\n"
                + "\t<originator>\n\t\t<hostName>reportserver.com</hostName>\n\t\t<userID>USER1</userID>\n"
                + "\t\t<mqmdUserID>USER1   </mqmdUserID>\n\t</originator>\n"
                + "\t<trigger log=\"yes\">\n"
                + "\t\t<fileExist comparison=\"=\" value=\"exist\">c:\\trigger.txt</fileExist>\n"
                + "\t</trigger>\n"
                + "\t<transferSet startTime=\"2008-11-02T22:05:18.703Z\" total=\"1\"></transferSet>\n"
                + "</transaction>";

        assertThat(reader.readLog(ibm).trigger()).isEqualTo(new TransferTrigger(true,
                List.of(new TransferTrigger.FileExist("=", "exist", "c:\\trigger.txt"))));
    }

    @Test
    void aTriggerAndMonitorMetadataReadBackAndAnUnknownComparisonIsRefused() throws Exception {
        TransferTrigger trigger = new TransferTrigger(false, List.of(new TransferTrigger.FileExist("!=", "noexist",
                "/in/a.ctl"), new TransferTrigger.FileSize(10, "KB", "/in/b.dat")));
        TransferLog started = new TransferLog("6.00", ID, TransferLog.SOURCE_AGENT, LogAction.STARTED, T,
                new AgentRef("SRC", "QM1"), new AgentRef("DST", "QM2"), null, null, T, 1, -1, -1, List.of(), null,
                List.of(), null, Map.of(), List.of(), trigger);
        assertThat(reader.readLog(new PublicationWriter().write(started))).isEqualTo(started);
        assertThat(new PublicationWriter().write(started)).contains("<trigger log=\"no\"><fileExist comparison=\"!=\""
                + " value=\"noexist\">/in/a.ctl</fileExist><fileSize comparison=\"&gt;=\" value=\"10\" units=\"KB\">"
                + "/in/b.dat</fileSize></trigger>");

        Map<String, String> original = new java.util.LinkedHashMap<>();
        original.put("FILENAME", "a.ctl");
        original.put("FILEPATH", "/in/a.ctl");
        String task = "414d5120514d31202020202020202020000000000000a0c9";
        MonitorLog fired = new MonitorLog("6.00", "MON1", ID, null, "triggerSatisfied", T, new AgentRef("SRC", "QM1"), 0,
                List.of("/in/a.ctl"), original, Map.of("FILENAME", "b.ctl"), task);
        String xml = new PublicationWriter().write(fired);
        assertThat(xml).contains("<monitorMetaData><originalMetaData><metaData key=\"FILENAME\">a.ctl</metaData>")
                .contains("<references><createRequest>" + ID + "</createRequest><taskRequest>" + task
                        + "</taskRequest></references>");
        assertThat(reader.readMonitorLog(xml)).isEqualTo(fired);

        assertThatThrownBy(() -> reader.readLog(new PublicationWriter().write(started).replace("&gt;=", "&lt;")))
                .isInstanceOf(MalformedPublicationException.class).hasMessageContaining("of <fileSize> is not >=");
    }

    @Test
    void unknownActionsAndMissingPartsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> reader.readMonitorLog("<monitorLog version=\"6.00\" monitorName=\"M\">"
                + "<action time=\"2030-01-01T10:00:00Z\">explode</action><monitorAgent agent=\"A\"/>"
                + "<status resultCode=\"0\"/></monitorLog>")).isInstanceOf(MalformedPublicationException.class)
                .hasMessageContaining("unknown action \"explode\"");
        assertThatThrownBy(() -> reader.readScheduleLog("<schedulelog version=\"1.00\" ID=\"5\">"
                + "<action time=\"2030-01-01T10:00:00Z\">submit</action></schedulelog>"))
                .isInstanceOf(MalformedPublicationException.class)
                .hasMessageContaining("missing required element <schedule>");
        assertThatThrownBy(() -> reader.readScheduleLog("<monitorLog/>"))
                .isInstanceOf(MalformedPublicationException.class).hasMessageContaining("expected <schedulelog>");
        assertThatThrownBy(() -> reader.readLog("<transaction version=\"6.00\" ID=\"x\" agentRole=\"sourceAgent\">"
                + "<action time=\"2030-01-01T10:00:00Z\">completed</action><status resultCode=\"0\"/><transferSet>"
                + "<preSourceCall><command name=\"a\"/><callResult outcome=\"maybe\"/></preSourceCall>"
                + "</transferSet></transaction>")).isInstanceOf(MalformedPublicationException.class)
                .hasMessageContaining("unknown outcome \"maybe\"");
    }
}
