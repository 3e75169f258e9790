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
