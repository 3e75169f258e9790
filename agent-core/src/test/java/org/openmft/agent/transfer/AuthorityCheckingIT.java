package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.Agent;
import org.openmft.agent.AgentState;
import org.openmft.agent.authority.Authority;
import org.openmft.agent.authority.AuthorityRefusal;
import org.openmft.agent.authority.AuthorityStamp;
import org.openmft.xml.CancelRequest;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;
import org.openmft.xml.StopAgentRequest;
import org.openmft.xml.TransferRequest;

/**
 * {@code authorityChecking=true} between running agents on a real queue manager: each action with
 * and without its authority, the authority being a role on the agent's
 * {@code SYSTEM.FTE.AUTH*.<agent>} queue that the queue manager evaluates for the logged-in sender
 * (never what a message claims). A refusal is result 53 with IBM's BFGCH0083E naming the user and
 * the authority, a NotAuthorized event, nothing written; agents that disagree about checking refuse
 * the transfer with 54.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthorityCheckingIT {
    private static final Map<String, String> CHECKING = Map.of("authorityChecking", "true");

    @TempDir
    static Path dir;
    TransferHarness h;
    Path in;
    Path out;

    @BeforeAll
    void startAgentsThatCheckAuthorities() throws Exception {
        dir = dir.toRealPath();
        in = Files.createDirectories(dir.resolve("in"));
        out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(in.resolve("a.txt"), "payroll\n");
        h = new TransferHarness(dir, false);
        h.agent("SRC", CHECKING);
        h.agent("DST", CHECKING);
        h.agent("OPEN", Map.of());
        // The agents may send to and receive from each other, as IBM's AUTHAGT1 records say.
        h.grant("SRC", Authority.AGENT_SEND.role("DST"));
        h.grant("DST", Authority.AGENT_RECEIVE.role("SRC"));
    }

    @AfterAll
    void stopAgents() {
        h.close();
    }

    @Test
    void aTransferNeedsTheTransferAuthorityOnTheSourceAgent() throws Exception {
        Path target = out.resolve("alice.txt");
        TransferRequest request = request("SRC", "DST", target);

        try (TransferHarness.Submission s = h.submitAs("SRC", request, "alice")) {
            assertThat(s.ack.resultCode()).isEqualTo(53);
            assertThat(s.ack.supplements()).singleElement().asString()
                    .startsWith("BFGCH0083E: User alice does not have the authority (TRANSFER) required to start a"
                            + " transfer on agent SRC")
                    .contains("browse on SYSTEM.FTE.AUTHTRN1.SRC");
        }
        assertThat(target).doesNotExist();
        AuthorityRefusal refusal = lastRefusal("alice");
        assertThat(refusal.authority()).isEqualTo(Authority.TRANSFER);
        assertThat(refusal.requestId()).as("IBM's 48-hex request id").matches("[0-9a-f]{48}");
        assertThat(refusal.agentRole()).isEqualTo("sourceAgent");
        assertThat(refusal.request()).as("the refused request, for the NotAuthorized log").contains("<transferSet");

        h.grant("alice", Authority.TRANSFER.role("SRC"));
        Reply done = transferAs("alice", request);
        assertThat(done.resultCode()).as("%s", done.supplements()).isZero();
        assertThat(target).hasContent("payroll");
    }

    @Test
    void anAuthorityOnAnotherAgentDoesNotCount() throws Exception {
        h.grant("dave", Authority.TRANSFER.role("DST"));
        Path target = out.resolve("dave.txt");
        try (TransferHarness.Submission s = h.submitAs("SRC", request("SRC", "DST", target), "dave")) {
            assertThat(s.ack.resultCode()).isEqualTo(53);
        }
        assertThat(target).doesNotExist();
    }

    @Test
    void aSenderCannotClaimAnAuthorityTheQueueManagerDidNotGive() throws Exception {
        Path target = out.resolve("forged.txt");
        Map<String, String> claim = Map.of(AuthorityStamp.AUTHORITIES_PROPERTY, "TRANSFER,ADMINISTRATION",
                AuthorityStamp.AGENT_PROPERTY, "SRC");
        try (TransferHarness.Submission s = h.submitAs("SRC", request("SRC", "DST", target), "mallory", claim)) {
            assertThat(s.ack.resultCode()).isEqualTo(53);
            assertThat(s.ack.supplements()).singleElement().asString().contains("User mallory");
        }
        assertThat(target).doesNotExist();
    }

    @Test
    void cancellingNeedsTheTransferAuthority() throws Exception {
        try (TransferHarness.Submission s = h.submitAs("SRC",
                new CancelRequest("6.00", TransferHarness.ME, "0".repeat(48), null), "carol")) {
            assertThat(s.ack.resultCode()).isEqualTo(53);
            assertThat(s.ack.supplements()).singleElement().asString()
                    .contains("User carol does not have the authority (TRANSFER) required to cancel a transfer");
        }
        h.grant("carol", Authority.TRANSFER.role("SRC"));
        try (TransferHarness.Submission s = h.submitAs("SRC",
                new CancelRequest("6.00", TransferHarness.ME, "0".repeat(48), null), "carol")) {
            assertThat(s.ack.resultCode()).as("past the authority check: no such transfer").isNotEqualTo(53);
        }
    }

    @Test
    void stoppingAnAgentByMessageNeedsTheAdministrationAuthority() throws Exception {
        Agent agent = h.agent("STOPME", CHECKING);
        try (TransferHarness.Submission s = h.submitAs("STOPME",
                new StopAgentRequest("6.00", TransferHarness.ME, "STOPME", false, null), "oscar")) {
            assertThat(s.ack.resultCode()).isEqualTo(53);
            assertThat(s.ack.supplements()).singleElement().asString()
                    .contains("User oscar does not have the authority (ADMINISTRATION) required to shut down the agent");
        }
        assertThat(agent.state()).isIn(AgentState.READY, AgentState.ACTIVE);
        assertThat(lastRefusal("oscar").authority()).isEqualTo(Authority.ADMINISTRATION);

        h.grant("oscar", Authority.ADMINISTRATION.role("STOPME"));
        try (TransferHarness.Submission s = h.submitAs("STOPME",
                new StopAgentRequest("6.00", TransferHarness.ME, "STOPME", false, null), "oscar")) {
            assertThat(s.ack.resultCode()).as("%s", s.ack.supplements()).isZero();
        }
        assertThat(agent.awaitStopped(Duration.ofSeconds(30))).as("the agent stopped").isTrue();
    }

    @Test
    void agentToAgentNeedsPutOnTheDestinationsAndBrowseOnTheSourcesAgentAuthorityQueue() throws Exception {
        h.agent("S2", CHECKING);
        h.agent("D2", CHECKING);
        h.grant("bob", Authority.TRANSFER.role("S2"));
        Path target = out.resolve("bob.txt");

        Reply noSend = transferAs("bob", request("S2", "D2", target));
        assertThat(noSend.resultCode()).isEqualTo(53);
        assertThat(noSend.supplements()).anySatisfy(s -> assertThat(s).contains(
                "User S2 does not have the authority (AGENT) required to send it a transfer on agent D2"));
        assertThat(target).doesNotExist();
        assertThat(lastRefusal("S2").agentRole()).isEqualTo("destinationAgent");

        h.grant("S2", Authority.AGENT_SEND.role("D2"));
        Reply noReceive = transferAs("bob", request("S2", "D2", target));
        assertThat(noReceive.resultCode()).isEqualTo(53);
        assertThat(noReceive.supplements()).anySatisfy(s -> assertThat(s).contains(
                "User D2 does not have the authority (AGENT) required to receive a transfer from it on agent S2"));
        assertThat(target).doesNotExist();

        h.grant("D2", Authority.AGENT_RECEIVE.role("S2"));
        Reply done = transferAs("bob", request("S2", "D2", target));
        assertThat(done.resultCode()).as("%s", done.supplements()).isZero();
        assertThat(target).hasContent("payroll");
    }

    @Test
    void agentsThatDisagreeAboutAuthorityCheckingRefuseTheTransferWith54() throws Exception {
        h.grant("erin", Authority.TRANSFER.role("SRC"));
        Path target = out.resolve("erin.txt");
        Reply r = transferAs("erin", request("SRC", "OPEN", target));
        assertThat(r.resultCode()).isEqualTo(54);
        assertThat(r.supplements()).anySatisfy(s -> assertThat(s).contains("authorityChecking=true")
                .contains("destination agent OPEN has authorityChecking=false"));
        assertThat(target).doesNotExist();
    }

    private TransferRequest request(String from, String to, Path target) {
        return TransferHarness.request(from, to, 0, TransferHarness.item(in.resolve("a.txt").toString(),
                target.toString(), DestinationType.FILE));
    }

    private Reply transferAs(String user, TransferRequest request) throws Exception {
        try (TransferHarness.Submission s = h.submitAs(request.sourceAgent().agent(), request, user)) {
            assertThat(s.ack.resultCode()).as("acknowledgement: %s", s.ack.supplements()).isZero();
            return s.awaitFinal(60);
        }
    }

    private AuthorityRefusal lastRefusal(String user) {
        return h.refusals.stream().filter(r -> user.equals(r.user())).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no NotAuthorized event for " + user + ": " + h.refusals));
    }
}
