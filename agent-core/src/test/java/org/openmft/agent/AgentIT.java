package org.openmft.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.Originator;
import org.openmft.xml.PingAgentRequest;
import org.openmft.xml.Reply;
import org.openmft.xml.RequestParser;
import org.openmft.xml.StopAgentRequest;

/**
 * The agent daemon against a real embedded queue manager in this JVM: ping, wrong agent, stop by
 * request, its queues, and a lost connection reported with the queue manager's name and reason.
 */
class AgentIT {
    @TempDir
    Path dir;

    static final Originator ME = new Originator("testhost", "tester", null);

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static AgentConfig config(String name, String qmgr, String host, int port) throws Exception {
        Map<String, String> raw = new java.util.HashMap<>(Map.of("agentName", name, "agentQMgr", qmgr,
                "agentQMgrPort", String.valueOf(port), "immediateShutdownTimeout", "5"));
        if (host != null) {
            raw.put("agentQMgrHost", host);
        }
        return AgentConfig.from(raw, Map.of());
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Poll.until(what, java.time.Duration.ofSeconds(60), condition);
    }

    static final class Events implements AgentListener {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public void stateChanged(String agent, AgentState state) {
            seen.add("state " + state);
        }

        @Override
        public void requestRejected(String agent, String messageId, int resultCode, String reason) {
            seen.add("rejected " + resultCode + " " + reason);
        }

        @Override
        public void pinged(String agent, String originatorUser) {
            seen.add("pinged by " + originatorUser);
        }

        @Override
        public void connectionLost(String agent, String qmgr, String reason) {
            seen.add("lost " + qmgr + " " + reason);
        }

        @Override
        public void connectionRestored(String agent, String qmgr) {
            seen.add("restored " + qmgr);
        }
    }

    /** Sends a document to a COMMAND queue and returns the correlated reply, or null. */
    static Reply request(QueueManagerConnector c, String queue, org.openmft.xml.CommandDocument doc, long waitMillis)
            throws Exception {
        try (Connection conn = c.connect()) {
            Session s = conn.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TemporaryQueue replies = s.createTemporaryQueue();
            conn.start();
            TextMessage m = s.createTextMessage(new DocumentWriter().write(doc));
            m.setJMSReplyTo(replies);
            MessageProducer p = s.createProducer(s.createQueue(queue));
            p.send(m);
            MessageConsumer consumer = s.createConsumer(replies);
            Message r = consumer.receive(waitMillis);
            if (r == null) {
                return null;
            }
            assertThat(r.getJMSCorrelationID()).isEqualTo(m.getJMSMessageID());
            return new RequestParser().parseReply(((TextMessage) r).getText());
        }
    }

    @Test
    void bindingsAgentAnswersPingsRefusesOtherAgentsRequestsAndStopsOnRequest() throws Exception {
        int port = freePort();
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(
                new QueueManagerSettings("QMA", dir.resolve("qm"), "127.0.0.1", port))) {
            AgentConfig config = config("PINGME", "QMA", null, port);
            Events events = new Events();
            QueueManagerConnector connector = QueueManagerConnector.forAgent(config.endpoint(), null);
            assertThat(connector.artemisUrl()).isEqualTo("vm://" + qm.inVmId());
            Agent agent = new Agent(config, connector, events, dir.resolve("state"));
            agent.start();
            assertThat(agent.state()).isEqualTo(AgentState.READY);
            assertThat(new ArtemisQueueAdmin(connector).depths(List.of("SYSTEM.FTE.COMMAND.PINGME",
                    "SYSTEM.FTE.DATA.PINGME", "SYSTEM.FTE.REPLY.PINGME", "SYSTEM.FTE.STATE.PINGME",
                    "SYSTEM.FTE.EVENT.PINGME", "SYSTEM.FTE.CMD.RJCT.PINGME")))
                    .as("the agent defined its queues").doesNotContainValue(-1L);

            Reply pong = request(connector, "SYSTEM.FTE.COMMAND.PINGME",
                    new PingAgentRequest("6.00", ME, "pingme", "QMA", null), 10_000);
            assertThat(pong).isNotNull();
            assertThat(pong.resultCode()).isZero();
            // The user the queue manager logged in (this test's connection is the administrator's), not
            // the <userID> the ping document claims.
            assertThat(events.seen).contains("pinged by mftadmin").doesNotContain("pinged by tester");

            Reply wrong = request(connector, "SYSTEM.FTE.COMMAND.PINGME",
                    new PingAgentRequest("6.00", ME, "SOMEONE.ELSE", null, null), 10_000);
            assertThat(wrong.resultCode()).isEqualTo(4);
            assertThat(wrong.supplements()).anySatisfy(s -> assertThat(s).contains("SOMEONE.ELSE", "PINGME"));
            assertThat(events.seen).anySatisfy(e -> assertThat(e).startsWith("rejected 4"));

            Reply stopped = request(connector, "SYSTEM.FTE.COMMAND.PINGME",
                    new StopAgentRequest("1.00", ME, "PINGME", false, null), 20_000);
            assertThat(stopped).as("the stop is confirmed once done").isNotNull();
            assertThat(stopped.resultCode()).isZero();
            assertThat(agent.awaitStopped(Duration.ofSeconds(10))).isTrue();
            assertThat(agent.state()).isEqualTo(AgentState.STOPPED);
            assertThat(agent.exitCode()).isZero();
            assertThat(events.seen).containsSubsequence("state READY", "state STOPPING", "state STOPPED");
        }
    }

    @Test
    void aLostClientConnectionIsReportedWithTheQueueManagerAndReasonAndHeals() throws Exception {
        int port = freePort();
        QueueManagerSettings settings = new QueueManagerSettings("QMB", dir.resolve("qm"), "127.0.0.1", port);
        AgentConfig config = config("ROAMER", "QMB", "127.0.0.1", port);
        EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings);
        QueueManagerConnector connector = QueueManagerConnector.forAgent(config.endpoint(),
                qm.administrator().orElseThrow());
        Events events = new Events();
        Agent agent = new Agent(config, connector, events, dir.resolve("state"));
        try {
            agent.start();
            qm.close();
            await("the lost connection to be reported", () -> agent.state() == AgentState.PROBLEM);
            assertThat(events.seen).anySatisfy(e -> assertThat(e).startsWith("lost QMB").contains("Artemis"));

            qm = EmbeddedQueueManager.start(settings);
            await("the agent to reconnect", () -> agent.state() == AgentState.READY);
            assertThat(events.seen).contains("restored QMB");
            Reply pong = request(connector, "SYSTEM.FTE.COMMAND.ROAMER",
                    new PingAgentRequest("6.00", ME, "ROAMER", null, null), 10_000);
            assertThat(pong.resultCode()).isZero();
        } finally {
            agent.close();
            qm.close();
        }
    }

    @Test
    @SuppressWarnings("try") // the queue manager only has to run
    void aThreadOfTheAgentThatDiesMovesItToProblemUntilItHasStopped() throws Exception {
        int port = freePort();
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(
                new QueueManagerSettings("QMT", dir.resolve("qm"), "127.0.0.1", port))) {
            AgentConfig config = config("FRAGILE", "QMT", null, port);
            Events events = new Events();
            Agent agent = new Agent(config, QueueManagerConnector.forAgent(config.endpoint(), null), events,
                    dir.resolve("state"));
            agent.start();
            Thread dying = agent.threads().newThread("worker", () -> {
                throw new IllegalStateException("expected by the test");
            });
            assertThat(dying.getName()).isEqualTo("openmft-FRAGILE-worker");
            dying.start();
            dying.join(10_000);
            assertThat(agent.state()).isEqualTo(AgentState.PROBLEM);
            assertThat(events.seen).containsSubsequence("state READY", "state PROBLEM");

            agent.close();
            assertThat(agent.state()).isEqualTo(AgentState.STOPPED);
            Thread late = agent.threads().newThread("late", () -> {
                throw new IllegalStateException("expected by the test");
            });
            late.start();
            late.join(10_000);
            assertThat(agent.state()).as("a stopped agent stays stopped").isEqualTo(AgentState.STOPPED);
        }
    }

    @Test
    void aBindingsAgentWithoutItsQueueManagerInThisProcessFailsWith75() throws Exception {
        AgentConfig config = config("NOWHERE", "QMGONE", null, 1414);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> QueueManagerConnector.forAgent(config.endpoint(), null))
                .isInstanceOf(org.openmft.agent.qmgr.QueueManagerException.class)
                .hasMessageContaining("QMGONE")
                .satisfies(e -> assertThat(((org.openmft.agent.qmgr.QueueManagerException) e).exitCode()).isEqualTo(75));
        assertThat(new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QMGONE", null, 1414, "X").clientMode())
                .isFalse();
    }
}
