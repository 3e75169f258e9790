package org.openmft.coordination.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.AgentState;
import org.openmft.agent.Checksum;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.config.AgentConfig;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.Originator;
import org.openmft.xml.log.AgentStatus;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.LogItem;
import org.openmft.xml.log.PublicationReader;
import org.openmft.xml.log.TransferLog;

class AgentPublisherTest {
    static final String ID = "414d5120514d41202020202020202020000000000000000a";

    /** A clock the test moves. */
    static final class TestClock extends Clock {
        Instant now = Instant.parse("2026-11-22T10:00:00Z");

        @Override
        public ZoneId getZone() {
            return ZoneId.of("UTC");
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }
    }

    final TestClock clock = new TestClock();
    final PublicationBuffer buffer = new PublicationBuffer(1000);
    final PublicationReader reader = new PublicationReader();
    final AgentPublisher publisher;

    AgentPublisherTest() throws Exception {
        AgentConfig config = AgentConfig.from(Map.of("agentName", "SRC", "agentQMgr", "QMA",
                "agentStatusPublishRateLimit", "10", "agentStatusPublishRateMin", "60"), Map.of());
        publisher = new AgentPublisher(config, buffer, clock);
    }

    private List<Publication> drain() throws InterruptedException {
        return buffer.take(10_000, 0);
    }

    private List<TransferLog> logs(List<Publication> ps) throws Exception {
        List<TransferLog> out = new ArrayList<>();
        for (Publication p : ps) {
            if (p.kind() == Publication.Kind.LOG) {
                out.add(reader.readLog(p.body()));
            }
        }
        return out;
    }

    private List<AgentStatus> statuses(List<Publication> ps) throws Exception {
        List<AgentStatus> out = new ArrayList<>();
        for (Publication p : ps) {
            if (p.kind() == Publication.Kind.STATUS) {
                assertThat(p.topic()).isEqualTo("SYSTEM.FTE/Agents/SRC");
                out.add(reader.readAgentStatus(p.body()));
            }
        }
        return out;
    }

    private static TransferInfo info() {
        return new TransferInfo(ID, new AgentRef("SRC", "QMA"), new AgentRef("DST", "QMA"),
                new Originator("host", "user"), "JOB", 0, Map.of(), Instant.parse("2026-11-22T10:00:00Z"),
                List.of(new TransferInfo.Item(0, "/in/a", 10, "/out/a", "binary", "leave", "error", "SHA-256"),
                        // Read from a queue (message to file), for the log's <source type="queue">.
                        new TransferInfo.Item(1, "/in/b", 20, "/out/b", "text", "delete", "overwrite", "MD5", true)),
                2);
    }

    @Test
    void statusChangesArePublishedAtMostEveryRateLimitAndAtLeastEveryRateMin() throws Exception {
        publisher.stateChanged("SRC", AgentState.STARTING);
        publisher.stateChanged("SRC", AgentState.READY);
        assertThat(statuses(drain())).extracting(AgentStatus::status).containsExactly("READY");
        publisher.stateChanged("SRC", AgentState.ACTIVE);
        publisher.tick();
        assertThat(drain()).as("within the rate limit").isEmpty();
        clock.advance(Duration.ofSeconds(10));
        publisher.tick();
        assertThat(statuses(drain())).extracting(AgentStatus::status).containsExactly("ACTIVE");
        clock.advance(Duration.ofSeconds(59));
        publisher.tick();
        assertThat(drain()).as("nothing new before rateMin").isEmpty();
        clock.advance(Duration.ofSeconds(1));
        publisher.tick();
        assertThat(statuses(drain())).extracting(AgentStatus::status).containsExactly("ACTIVE");
        publisher.stateChanged("SRC", AgentState.STOPPED);
        assertThat(statuses(drain())).as("a stop is published at once").extracting(AgentStatus::status)
                .containsExactly("STOPPED");
    }

    @Test
    void theStatusListsRunningAndRecoveringTransfersAndTheQueue() throws Exception {
        publisher.transferQueued("SRC", info(), 1);
        clock.advance(Duration.ofSeconds(11));
        publisher.tick();
        AgentStatus queued = statuses(drain()).get(0);
        assertThat(queued.queuedTransfers()).isEqualTo(1);
        assertThat(queued.sourceTransferStates()).isEmpty();
        publisher.transferStarted("SRC", Role.SOURCE, info());
        publisher.recovering("SRC", ID, "no acknowledgement");
        clock.advance(Duration.ofSeconds(11));
        publisher.tick();
        AgentStatus recovering = statuses(drain()).get(0);
        assertThat(recovering.queuedTransfers()).isZero();
        assertThat(recovering.sourceTransferStates()).containsEntry(ID, "RecoveringTransfer");
    }

    @Test
    void aTransferIsLoggedStartedThenProgressThenCompleted() throws Exception {
        publisher.transferQueued("SRC", info(), 1);
        publisher.transferStarted("SRC", Role.SOURCE, info());
        publisher.itemCompleted("SRC", Role.SOURCE, ID, new ItemOutcome(0, "/in/a", "/out/a", 10, 0, null,
                new Checksum(ChecksumMethod.SHA_256, "0123456789abcdef0123456789abcdef")));
        publisher.itemCompleted("SRC", Role.SOURCE, ID, new ItemOutcome(1, "/in/b", "/out/b", 0, 1,
                "BFGIO0006E: exists", null).withQueueRead(new ItemOutcome.QueueRead(33, 3, "ID:0011")));
        publisher.transferEnded("SRC", Role.SOURCE, new TransferOutcome(ID, 20, "BFGRP0034I: problems",
                List.of(new ItemOutcome(0, "/in/a", "/out/a", 10, 0, null,
                        new Checksum(ChecksumMethod.SHA_256, "0123456789abcdef0123456789abcdef")),
                        new ItemOutcome(1, "/in/b", "/out/b", 0, 1, "BFGIO0006E: exists", null)),
                clock.instant(), clock.instant()));
        List<TransferLog> logs = logs(drain());
        assertThat(logs).extracting(TransferLog::action).containsExactly(LogAction.STARTED, LogAction.PROGRESS,
                LogAction.COMPLETED);
        TransferLog progress = logs.get(1);
        assertThat(progress.items()).hasSize(2);
        assertThat(progress.items().get(0).checksum()).isEqualTo("0123456789abcdef0123456789abcdef");
        assertThat(progress.items().get(0).checksumMethod()).isEqualTo("SHA-256");
        assertThat(progress.items().get(1).checksumMethod()).as("a failed item has no checksum").isNull();
        assertThat(progress.items().get(1).mode()).isEqualTo("text");
        assertThat(progress.items().get(1).sourceDisposition()).isEqualTo("delete");
        assertThat(progress.items().get(1).supplement()).contains("BFGIO0006E");
        assertThat(progress.items()).extracting(LogItem::sourceQueue).containsExactly(false, true);
        assertThat(progress.items().get(1).sourceSize()).as("what the queue gave, not the planned size").isEqualTo(33);
        assertThat(progress.items().get(1).messageCount()).isEqualTo(3);
        assertThat(progress.items().get(1).groupId()).isEqualTo("ID:0011");
        assertThat(progress.items().get(0).messageCount()).as("a file").isEqualTo(-1);
        TransferLog completed = logs.get(2);
        assertThat(completed.resultCode()).isEqualTo(20);
        assertThat(completed.statistics().numFileFailures()).isEqualTo(1);
        assertThat(completed.bytesSent()).isEqualTo(10);
    }

    @Test
    void programCallsGoIntoTheCompletedLogInIbmsOrderAndOnlyTheSourcesOwn() throws Exception {
        publisher.transferStarted("SRC", Role.SOURCE, info());
        org.openmft.xml.ProgramCall call = org.openmft.xml.ProgramCall.executable("post.sh", List.of("x"));
        publisher.callCompleted("SRC", Role.SOURCE, ID, "postDestinationCall", call,
                new org.openmft.agent.calls.CallResult(org.openmft.agent.calls.CallResult.Outcome.FAILURE, 2, 1,
                        List.of("out"), List.of(), null));
        publisher.callCompleted("SRC", Role.SOURCE, ID, "preSourceCall", call,
                org.openmft.agent.calls.CallResult.error("BFGCR0003E: refused"));
        // The destination's own report of its call is not the source's log.
        publisher.callCompleted("SRC", Role.DESTINATION, ID, "preDestinationCall", call,
                org.openmft.agent.calls.CallResult.error("x"));
        publisher.transferEnded("SRC", Role.SOURCE, new TransferOutcome(ID, 0, null, List.of(), clock.instant(),
                clock.instant()));
        List<Publication> published = drain();
        String completed = published.get(published.size() - 1).body();
        assertThat(completed).contains("<action", ">completed</action>", "<callResult outcome=\"failure\" retries=\"2\">"
                + "<result returnCode=\"1\"><stdout><line>out</line></stdout></result></callResult>",
                "<error>BFGCR0003E: refused</error>").doesNotContain("preDestinationCall");
        assertThat(completed.indexOf("<preSourceCall>")).isLessThan(completed.indexOf("<postDestinationCall>"));
    }

    @Test
    void aManagedCallIsLoggedAsCallStartedThenCallCompletedNamingItsAgent() throws Exception {
        org.openmft.xml.ManagedCallRequest request = new org.openmft.xml.ManagedCallRequest("6.00",
                new org.openmft.xml.Originator("host", "alice", null), new org.openmft.xml.AgentRef("SRC", "QMA"), null,
                0, Map.of("k", "v"), org.openmft.xml.ProgramCall.executable("run.sh", List.of("a")), "job7");
        publisher.managedCallStarted("SRC", ID, request);
        publisher.managedCallEnded("SRC", ID, request, new org.openmft.agent.calls.CallResult(
                org.openmft.agent.calls.CallResult.Outcome.SUCCESS, 0, 0, List.of("done"), List.of(), null), 0,
                "The managed call 'run.sh' ended with outcome success (return code 0).");
        List<Publication> published = drain();
        List<TransferLog> logs = logs(published);
        assertThat(logs).extracting(TransferLog::action).containsExactly(LogAction.CALL_STARTED,
                LogAction.CALL_COMPLETED);
        assertThat(logs).allSatisfy(l -> {
            assertThat(l.transferId()).isEqualTo(ID);
            assertThat(l.sourceAgent()).isEqualTo(new org.openmft.xml.AgentRef("SRC", "QMA"));
            assertThat(l.jobName()).isEqualTo("job7");
        });
        assertThat(logs.get(1).resultCode()).isZero();
        // Where IBM's logger formats read them: /transaction/agent, /transaction/transferSet/call/command
        // and, once completed, /transaction/transferSet/call/callResult/@outcome.
        String started = published.get(0).body();
        assertThat(started).contains(">callStarted</action>", "<agent agent=\"SRC\" QMgr=\"QMA\"", "<call><command"
                + " name=\"run.sh\" type=\"executable\"", "<argument>a</argument>")
                .doesNotContain("callResult", "<sourceAgent");
        assertThat(published.get(1).body()).contains(">callCompleted</action>", "<status resultCode=\"0\">",
                "<callResult outcome=\"success\" retries=\"0\"><result returnCode=\"0\"><stdout><line>done</line>");
    }

    @Test
    void aTransferThatEndsBeforeItStartsIsStillLoggedStartedFirst() throws Exception {
        publisher.transferQueued("SRC", info(), 1);
        publisher.transferEnded("SRC", Role.SOURCE, new TransferOutcome(ID, 41, "cancelled by user",
                List.of(), clock.instant(), clock.instant()));
        assertThat(logs(drain())).extracting(TransferLog::action).containsExactly(LogAction.STARTED,
                LogAction.CANCELLED);
    }

    @Test
    void onlyMalformedRequestsAreLoggedAsMalformed() throws Exception {
        publisher.requestRejected("SRC", "ID:414d5120514d41202020202020202020000000000000000b", 4, "wrong agent");
        assertThat(drain()).isEmpty();
        publisher.requestRejected("SRC", "ID:414d5120514d41202020202020202020000000000000000b", 43, "bad XML");
        List<TransferLog> logs = logs(drain());
        assertThat(logs).hasSize(1);
        assertThat(logs.get(0).action()).isEqualTo(LogAction.MALFORMED);
        assertThat(logs.get(0).transferId()).isEqualTo("414d5120514d41202020202020202020000000000000000b");
        assertThat(logs.get(0).supplements()).containsExactly("bad XML");
    }

    @Test
    void anAuthorityRefusalIsPublishedAsIbmsNotAuthorizedLog() throws Exception {
        String request = "<request><managedTransfer>" + "x".repeat(AgentPublisher.MAX_REQUEST_IN_LOG) + "</request>";
        publisher.notAuthorized("SRC", new org.openmft.agent.authority.AuthorityRefusal("ID:4142", "alice",
                org.openmft.agent.authority.Authority.TRANSFER, "sourceAgent", "BFGCH0083E: User alice <no>", request));
        List<Publication> ps = drain();
        assertThat(ps).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(Publication.Kind.LOG);
            assertThat(p.topic()).isEqualTo("SYSTEM.FTE/Log/SRC/NotAuthorized");
            assertThat(p.body()).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?><notAuthorized version=\"6.00\""
                    + " ID=\"ID:4142\" agentRole=\"sourceAgent\"")
                    .contains("<action time=\"").contains(">not_authorized</action>")
                    .contains("<sourceAgent agent=\"SRC\" QMgr=\"QMA\"/>")
                    .contains("<originator><mqmdUserID>alice</mqmdUserID></originator>")
                    .contains("<authority>transfer</authority>")
                    .contains("<status resultCode=\"53\"><supplement>BFGCH0083E: User alice &lt;no&gt;</supplement>"
                            + "<supplement>&lt;request&gt;&lt;managedTransfer&gt;xxx")
                    .contains("[" + (request.length() - AgentPublisher.MAX_REQUEST_IN_LOG) + " more characters not kept]");
        });
    }

    @Test
    void finishedItemsAreGatheredForUpToASecond() throws Exception {
        publisher.transferQueued("SRC", info(), 1);
        publisher.transferStarted("SRC", Role.SOURCE, info());
        drain();
        publisher.itemCompleted("SRC", Role.SOURCE, ID, new ItemOutcome(0, "/in/a", "/out/a", 10, 0, null, null));
        publisher.tick();
        assertThat(logs(drain())).isEmpty();
        clock.advance(Duration.ofSeconds(1));
        publisher.tick();
        assertThat(logs(drain())).extracting(TransferLog::action).containsExactly(LogAction.PROGRESS);
    }
}
