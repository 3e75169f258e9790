package org.openmft.coordination.logger;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.openmft.xml.AgentRef;
import org.openmft.xml.CallType;
import org.openmft.xml.Originator;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.SuccessCodes;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferTrigger;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.LogCall;
import org.openmft.xml.log.LogItem;
import org.openmft.xml.log.MonitorLog;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.ScheduleList;
import org.openmft.xml.log.ScheduleLog;
import org.openmft.xml.log.Statistics;
import org.openmft.xml.log.TransferLog;

/** Transfer log messages for tests, as agents publish them. */
final class Logs {

    static final Instant T0 = Instant.parse("2026-11-20T10:15:30.123Z");
    private static final AtomicInteger SERIAL = new AtomicInteger();

    private Logs() {
    }

    /** A transfer id whose last digits are {@code n}. */
    static String id(int n) {
        return String.format("414d5120514d31202020202020202020%016x", n);
    }

    static TransferLog started(String id, String source, String destination, Instant time) {
        return new TransferLog("6.00", id, TransferLog.SOURCE_AGENT, LogAction.STARTED, time,
                new AgentRef(source, "QM_" + source), new AgentRef(destination, "QM_" + destination),
                new Originator("host1.example.org", "alice", "alice"), "nightly", time, 2, 0, -1, List.of(), null,
                List.of(), null, Map.of());
    }

    static TransferLog progress(String id, String source, String destination, Instant time, int index,
            LogItem... items) {
        return new TransferLog("6.00", id, TransferLog.SOURCE_AGENT, LogAction.PROGRESS, time,
                new AgentRef(source, "QM_" + source), new AgentRef(destination, "QM_" + destination),
                new Originator("host1.example.org", "alice", "alice"), "nightly", time.minusSeconds(1), 2,
                1000L * items.length, index, List.of(items), null, List.of(), null, Map.of());
    }

    static TransferLog completed(String id, String source, String destination, Instant time, int resultCode,
            String... supplements) {
        return new TransferLog("6.00", id, TransferLog.SOURCE_AGENT, LogAction.COMPLETED, time,
                new AgentRef(source, "QM_" + source), new AgentRef(destination, "QM_" + destination),
                new Originator("host1.example.org", "alice", "alice"), "nightly", null, -1, 2048, -1, List.of(),
                resultCode, List.of(supplements), new Statistics(time.minusSeconds(2), 0, 0, 0), Map.of());
    }

    static TransferLog cancelled(String id, String source, String destination, Instant time) {
        return new TransferLog("6.00", id, TransferLog.SOURCE_AGENT, LogAction.CANCELLED, time,
                new AgentRef(source, "QM_" + source), new AgentRef(destination, "QM_" + destination),
                new Originator("host1.example.org", "alice", "alice"), "nightly", null, -1, 512, -1, List.of(), 41,
                List.of("BFGTR0063I: The transfer was cancelled."), null, Map.of());
    }

    static TransferLog malformed(String id, Instant time) {
        return new TransferLog("6.00", id, TransferLog.SOURCE_AGENT, LogAction.MALFORMED, time, null, null, null,
                null, null, -1, -1, -1, List.of(), 43, List.of("BFGCH0004E: The request could not be parsed."), null,
                Map.of());
    }

    /** A SHA-256 of the four bytes "test", for items checked with OpenMFT's SHA-256. */
    static final String SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    /** A successful item checked with SHA-256. */
    static LogItem sha256Item(String source, String destination) {
        return new LogItem("binary", source, "leave", 4, destination, "error", 4, "SHA-256", SHA256, 0, null);
    }

    static LogItem item(String source, String destination, int resultCode) {
        return new LogItem("binary", source, "leave", 1000, destination, "error", 1000, "MD5",
                "9e107d9d372bb6826bd81d3542a419d6", resultCode, resultCode == 0 ? null : "BFGIO0006E: exists");
    }

    /** A record with a body unique to this call, as the logger would build it. */
    static LogRecord record(TransferLog log) {
        String xml = "<transaction ID=\"" + log.transferId() + "\"><action>" + log.action().xml() + "</action><!-- "
                + SERIAL.incrementAndGet() + " --></transaction>";
        return new LogRecord(LogRecord.keyOf(xml), "SYSTEM.FTE/Log/" + agent(log) + "/" + log.transferId(), xml, log,
                T0.plusSeconds(3600));
    }

    /** The request a refusal quotes as its second supplement. */
    static final String REFUSED_REQUEST = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<request version=\"6.00\">"
            + "<managedTransfer/></request>";

    /** A refusal as our agents publish it: the agent named, the refused request as the second supplement. */
    static NotAuthorizedLog refusal(String id, String agent, String user, String authority, Instant time) {
        return new NotAuthorizedLog("6.00", id, "sourceAgent", time, new AgentRef(agent, "QM_" + agent), user,
                authority, 53, List.of("BFGCH0083E: User " + user + " does not have the authority ("
                        + authority.toUpperCase(Locale.ROOT) + ") required to start a transfer on agent "
                        + agent + ".", REFUSED_REQUEST));
    }

    /** A record of a refusal with a body unique to this call, published on {@code Log/<topicAgent>/NotAuthorized}. */
    static LogRecord record(NotAuthorizedLog refusal, String topicAgent) {
        String xml = "<notAuthorized ID=\"" + refusal.id() + "\"><!-- " + SERIAL.incrementAndGet() + " --></notAuthorized>";
        return new LogRecord(LogRecord.keyOf(xml), "SYSTEM.FTE/Log/" + topicAgent + "/NotAuthorized", xml, refusal,
                T0.plusSeconds(3600));
    }

    /** A completed log with a pre-source call that succeeded on its second attempt and a post-destination call that failed. */
    static TransferLog completedWithCalls(String id, String source, String destination, Instant time) {
        TransferLog done = completed(id, source, destination, time, 0);
        List<LogCall> calls = List.of(
                new LogCall("preSourceCall", new ProgramCall(CallType.EXECUTABLE, "check.sh", List.of("-v", "a b"), 1, 5,
                        SuccessCodes.of("0|4")), "success", 1, 4, List.of("checked", "ok"), List.of(), null),
                new LogCall("postDestinationCall", ProgramCall.executable("/opt/bin/notify", List.of()), "failure", 0,
                        2, List.of(), List.of("no route"), null));
        return new TransferLog(done.version(), done.transferId(), done.agentRole(), done.action(), done.time(),
                done.sourceAgent(), done.destinationAgent(), done.originator(), done.jobName(), done.startTime(),
                done.totalItems(), done.bytesSent(), done.index(), done.items(), done.resultCode(), done.supplements(),
                done.statistics(), done.metadata(), calls);
    }

    /** A schedule log of schedule {@code id} on {@code source}: every two hours from 2030-01-01T11:00 UTC, three times. */
    static ScheduleLog scheduleLog(long id, String action, String source, Instant time) {
        return new ScheduleLog(id, action, time, new Originator("host1.example.org", "alice"),
                new TransferSchedule("UTC", null, java.time.LocalDateTime.of(2030, 1, 1, 11, 0), "hours", 2, 3, null),
                new AgentRef(source, "QM_" + source), new AgentRef("DST", "QM_DST"), 0,
                action.equals("submit") ? List.of() : List.of("schedule " + id + " " + action), 5,
                List.of(new ScheduleList.Item("/in/a.txt", "/out/a.txt", "text"),
                        new ScheduleList.Item("/in/b.bin", "/out/", "binary")), "NIGHTLY");
    }

    /** A monitor log of {@code name} on agent SRC, created by request {@code id(n)}. */
    static MonitorLog monitorLog(String name, int n, String action, int resultCode, Instant time) {
        return new MonitorLog("6.00", name, id(n), new Originator("host1.example.org", "bob", "bob"), action, time,
                new AgentRef("SRC", "QM_SRC"), resultCode, resultCode == 0 ? List.of() : List.of("BFGDM0107E: failed"));
    }

    /**
     * A started message of a transfer triggered by {@code -tr file=exist,/in/ready.ctl} and
     * {@code -tr filesize>=2MB,/in/data.bin}, with its trigger as IBM's started message carries it.
     */
    static TransferLog startedWithTrigger(String id, String source, String destination, Instant time) {
        TransferLog s = started(id, source, destination, time);
        TransferTrigger trigger = new TransferTrigger(true, List.of(
                new TransferTrigger.FileExist("=", "exist", "/in/ready.ctl"),
                new TransferTrigger.FileSize(2, "MB", "/in/data.bin")));
        return new TransferLog(s.version(), s.transferId(), s.agentRole(), s.action(), s.time(), s.sourceAgent(),
                s.destinationAgent(), s.originator(), s.jobName(), s.startTime(), s.totalItems(), s.bytesSent(),
                s.index(), s.items(), s.resultCode(), s.supplements(), s.statistics(), s.metadata(), s.calls(),
                trigger);
    }

    /**
     * A monitor log as {@link #monitorLog}, with {@code original} as its original metadata and the
     * task request {@code id(task)}.
     */
    static MonitorLog monitorLog(String name, int n, String action, Instant time, Map<String, String> original,
            int task) {
        MonitorLog m = monitorLog(name, n, action, 0, time);
        return new MonitorLog(m.version(), m.monitorName(), m.referenceId(), m.originator(), m.action(), m.time(),
                m.agent(), m.resultCode(), m.supplements(), original, Map.of(), id(task));
    }

    /** A record of a schedule log with a body unique to this call. */
    static LogRecord record(ScheduleLog log) {
        String xml = "<schedulelog ID=\"" + log.id() + "\"><!-- " + SERIAL.incrementAndGet() + " --></schedulelog>";
        return new LogRecord(LogRecord.keyOf(xml), "SYSTEM.FTE/Log/" + log.sourceAgent().agent() + "/" + log.id(), xml,
                log, T0.plusSeconds(3600));
    }

    /** A record of a monitor log with a body unique to this call. */
    static LogRecord record(MonitorLog log) {
        String xml = "<monitorLog monitorName=\"" + log.monitorName() + "\"><!-- " + SERIAL.incrementAndGet()
                + " --></monitorLog>";
        return new LogRecord(LogRecord.keyOf(xml), "SYSTEM.FTE/Log/SRC/Monitors/" + log.monitorName() + "/"
                + log.referenceId(), xml, log, T0.plusSeconds(3600));
    }

    private static String agent(TransferLog log) {
        return log.sourceAgent() == null ? "UNKNOWN" : log.sourceAgent().agent();
    }
}
