package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.calls.CallResult.Outcome;
import org.openmft.xml.AgentRef;
import org.openmft.xml.CallSpecs;
import org.openmft.xml.DestinationType;
import org.openmft.xml.ManagedCallRequest;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.Reply;

/**
 * Managed calls ({@code <managedCall>}) on an in-JVM agent with real scripts in its
 * {@code commandPath}: the program runs with its arguments, retries and success codes, the
 * requester is acknowledged and then answered with 0 or 40, the outcome reaches the listener (from
 * which the {@code callStarted}/{@code callCompleted} log is made); programs outside the path, calls
 * for another agent and IBM's hand-written document (with its XML) are refused or read as IBM's;
 * and a call holds one of the {@code maxSourceTransfers} slots, so a transfer waits for it.
 */
class ManagedCallIT {
    @TempDir
    Path dir;
    private Path cmds;
    private Path marks;

    @BeforeEach
    void scripts() throws Exception {
        CallScripts scripts = new CallScripts(dir);
        cmds = scripts.cmds;
        marks = scripts.marks;
    }

    private static ManagedCallRequest call(String agent, String spec) {
        return new ManagedCallRequest("6.00", TransferHarness.ME, new AgentRef(agent, "QMT"),
                new ReplyTo("WMQFTE.TEST.REPLY", "QMT", false), 0, Map.of("who", "test"),
                CallSpecs.parse("-call", spec), "job-" + agent);
    }

    private static TransferHarness.ManagedCallEvent endOf(TransferHarness h, String id) {
        return h.managedCalls.stream().filter(c -> c.callId().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void managedCallsRunAnswerTheRequesterAndHoldASourceSlot() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("AGT", Map.of("commandPath", cmds.toString()));

            // 1. Success: acknowledged, run once with its arguments as written, answered with 0.
            String id;
            try (TransferHarness.Submission s = h.submit("AGT", call("AGT", "record.sh(one,two words)"))) {
                assertThat(s.ack.resultCode()).as("%s", s.ack.supplements()).isZero();
                assertThat(String.join(" ", s.ack.supplements())).contains("The request ID is: " + s.id());
                Reply done = s.awaitFinal(30);
                id = s.id();
                assertThat(done.resultCode()).as("%s", done.supplements()).isZero();
                assertThat(done.requestId()).isEqualTo(id);
            }
            assertThat(Files.readAllLines(marks.resolve("one"))).containsExactly("two words");
            TransferHarness.ManagedCallEvent ok = endOf(h, id);
            assertThat(ok.result().outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(ok.result().stdout()).containsExactly("out:two words");
            assertThat(h.events).containsSubsequence("call started " + id, "call ended " + id + " 0");

            // 2. Retries until a success code: one retry, result 0.
            try (TransferHarness.Submission s = h.submit("AGT", call("AGT", "flaky.sh,2,0"))) {
                Reply done = s.awaitFinal(30);
                assertThat(done.resultCode()).isZero();
                assertThat(endOf(h, s.id()).result().retries()).isEqualTo(1);
            }

            // 3. A failing program: 40, its outcome in the supplement and the event.
            try (TransferHarness.Submission s = h.submit("AGT", call("AGT", "fail.sh"))) {
                Reply failed = s.awaitFinal(30);
                assertThat(failed.resultCode()).isEqualTo(40);
                assertThat(String.join(" ", failed.supplements())).contains("fail.sh", "failure", "return code 1");
                assertThat(endOf(h, s.id()).result().stderr()).containsExactly("failing");
            }

            // 4. Outside the commandPath: refused with 40 at once (BFGCR0003E), nothing run.
            try (TransferHarness.Submission s = h.submit("AGT", call("AGT", dir.resolve("outside/evil.sh").toString()))) {
                assertThat(s.ack.resultCode()).isEqualTo(40);
                assertThat(String.join(" ", s.ack.supplements())).contains("BFGCR0003E");
            }
            assertThat(marks.resolve("evil")).doesNotExist();

            // 5. A call for another agent: 4, nothing run.
            try (TransferHarness.Submission s = h.submit("AGT", call("OTHER", "record.sh(other)"))) {
                assertThat(s.ack.resultCode()).isEqualTo(4);
            }
            assertThat(marks.resolve("other")).doesNotExist();

            // 6. IBM's own example document, as a requester writes it by hand.
            String ibms = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><request version=\"1.00\"><managedCall>"
                    + "<originator><hostName>example.com.</hostName><userID>mqm</userID></originator>"
                    + "<agent agent=\"AGT\" QMgr=\"QMT\"/><reply QMGR=\"QMT\">WMQFTE.TEST.REPLY</reply><transferSet><call>"
                    + "<command name=\"record.sh\" successRC=\"0\"><argument>ibm</argument><argument>call test"
                    + "</argument></command></call></transferSet><job><name>managedCallCalls.xml</name></job>"
                    + "</managedCall></request>";
            try (TransferHarness.Submission s = h.submitText("AGT", ibms)) {
                assertThat(s.awaitFinal(30).resultCode()).isZero();
            }
            assertThat(Files.readAllLines(marks.resolve("ibm"))).containsExactly("call test");

            aMonitorsManagedCallTaskRunsOncePerFile(h);
            aManagedCallHoldsASourceTransferSlot(h);
            aCallCutByTheAgentsEndIsReportedAfterTheRestartAndNotRunAgain(h);
        }
    }

    /**
     * Managed calls are journaled as transfers are. The agent stopped in the JVM leaves what a kill
     * leaves (the running call's start journaled, no end; the waiting call accepted, not started):
     * after the restart the cut call is not run again, its requester gets 40 ("not known") and the
     * log its callCompleted; the waiting call runs then, once.
     */
    private void aCallCutByTheAgentsEndIsReportedAfterTheRestartAndNotRunAgain(TransferHarness h) throws Exception {
        Map<String, String> one = Map.of("commandPath", cmds.toString(), "maxSourceTransfers", "1");
        h.agent("CUT", one);
        String cutId;
        try (TransferHarness.Submission cut = h.submit("CUT", call("CUT", "hold.sh(cut)"));
                TransferHarness.Submission waiting = h.submit("CUT", call("CUT", "record.sh(after,restart)"))) {
            assertThat(cut.ack.resultCode()).isZero();
            assertThat(waiting.ack.resultCode()).isZero();
            cutId = cut.id();
            TransferHarness.await("the call runs", 20, () -> Files.exists(marks.resolve("cut.running")));
            h.stopImmediately("CUT");
            assertThat(marks.resolve("after")).as("it waited for the slot: not run before the stop").doesNotExist();
            h.agent("CUT", one);
            Reply cutReply = cut.awaitFinal(30);
            assertThat(cutReply.resultCode()).isEqualTo(40);
            assertThat(String.join(" ", cutReply.supplements())).contains("not known", "not run again");
            assertThat(waiting.awaitFinal(30).resultCode()).isZero();
        }
        assertThat(Files.readAllLines(marks.resolve("cut.count"))).as("the cut call never ran again").hasSize(1);
        assertThat(Files.readAllLines(marks.resolve("after"))).containsExactly("restart");
        assertThat(h.events).contains("call ended " + cutId + " 40");
        TransferHarness.awaitNoTransferState("the calls' state removed", dir.resolve("state-CUT"));
    }

    /** A directory monitor whose task is {@code <request><managedCall>} (IBM's -mt task definition document). */
    private static String callMonitor(String name, Path in, String agent) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<monitor:monitor xmlns:monitor=\"http://www.ibm.com/xmlns/wmqfte/7.0.1/MonitorDefinition\""
                + " version=\"6.00\"><name>" + name + "</name><pollInterval units=\"seconds\">1</pollInterval>"
                + "<batch maxSize=\"5\"/><agent>AGT</agent><resources><directory>" + in + "</directory></resources>"
                + "<triggerMatch><conditions><allOf><condition><fileMatch><pattern>*.dat</pattern></fileMatch>"
                + "</condition></allOf></conditions></triggerMatch>"
                + "<tasks><task><name/><transfer><request version=\"6.00\"><managedCall>"
                + "<originator><hostName>h</hostName><userID>tester</userID></originator>"
                + "<agent agent=\"" + agent + "\" QMgr=\"QMT\"/><transferSet><call><command name=\"record.sh\">"
                + "<argument>${FileName}</argument><argument>${FilePath}</argument></command></call></transferSet>"
                + "</managedCall></request></transfer></task></tasks>"
                + "<originator><hostName>h</hostName><userID>tester</userID></originator><job><name>CALLS</name></job>"
                + "</monitor:monitor>";
    }

    /**
     * A monitor's managed-call task runs as a managed call sent to the agent, its variables
     * substituted; with a batch size of 5 each file still gets its own call (a call has no items
     * to repeat). A task naming another agent is refused with IBM's 111.
     */
    private void aMonitorsManagedCallTaskRunsOncePerFile(TransferHarness h) throws Exception {
        Path in = Files.createDirectories(dir.resolve("watched"));
        try (TransferHarness.Submission other = h.submitText("AGT", callMonitor("ELSEWHERE", in, "OTHER"))) {
            assertThat(other.ack.resultCode()).as("%s", other.ack.supplements())
                    .isEqualTo(org.openmft.agent.ResultCode.MONITOR_TASK_SOURCE_AGENT.code());
        }
        int before = h.managedCalls.size();
        try (TransferHarness.Submission created = h.submitText("AGT", callMonitor("CALLS", in, "AGT"))) {
            assertThat(created.ack.resultCode()).as("%s", created.ack.supplements()).isZero();
        }
        Files.writeString(in.resolve("a.dat"), "a");
        Files.writeString(in.resolve("b.dat"), "b");
        // A call has ended when its script has: what it wrote is all there (a mark file exists as soon
        // as the script's shell opens it, before the line is written).
        TransferHarness.await("both calls ended", 30, () -> h.managedCalls.size() >= before + 2);
        assertThat(Files.readAllLines(marks.resolve("a.dat"))).containsExactly(in.resolve("a.dat").toString());
        assertThat(Files.readAllLines(marks.resolve("b.dat"))).containsExactly(in.resolve("b.dat").toString());
        assertThat(h.managedCalls.subList(before, h.managedCalls.size())).hasSize(2)
                .allSatisfy(c -> assertThat(c.resultCode()).isZero());
        assertThat(h.managedCallRequests.subList(before, h.managedCallRequests.size()))
                .as("the monitor's job name (-mj) goes into each call").extracting(ManagedCallRequest::jobName)
                .containsExactly("CALLS", "CALLS");
        assertThat(h.monitorEvents).anyMatch(e -> e.action().equals("triggerSatisfied"));
    }

    /** On one queue manager with the test above (a queue manager's start costs more than the test). */
    private void aManagedCallHoldsASourceTransferSlot(TransferHarness h) throws Exception {
        Map<String, String> one = Map.of("commandPath", cmds.toString(), "maxSourceTransfers", "1");
        h.agent("SRC", one);
        h.agent("DST");
        h.onQueued = t -> h.events.add("queued " + t.transferId());
        try (TransferHarness.Submission call = h.submit("SRC", call("SRC", "hold.sh(gate)"));
                TransferHarness.Submission transfer = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                        TransferHarness.item(dir.resolve("in.txt").toString(),
                                dir.resolve("out/t.txt").toString(), DestinationType.FILE)))) {
            TransferHarness.await("the call runs", 20, () -> Files.exists(marks.resolve("gate.running")));
            TransferHarness.await("the transfer is queued", 20,
                    () -> h.events.stream().anyMatch(e -> e.startsWith("queued " + transfer.id())));
            // The only slot is the call's: the transfer waits, however long the call runs.
            assertThat(h.events).noneMatch(e -> e.startsWith("started SOURCE " + transfer.id()));
            Files.createFile(marks.resolve("gate.open"));
            assertThat(call.awaitFinal(30).resultCode()).isZero();
            assertThat(transfer.awaitFinal(30).resultCode()).isZero();
            List<String> events = List.copyOf(h.events);
            int callEnded = events.indexOf("call ended " + call.id() + " 0");
            int transferStarted = indexOf(events, "started SOURCE " + transfer.id());
            assertThat(callEnded).isNotNegative();
            assertThat(transferStarted).as("%s", events).isGreaterThan(callEnded);
        }
        assertThat(dir.resolve("out/t.txt")).hasContent("payload");
    }

    private static int indexOf(List<String> events, String prefix) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }
}
