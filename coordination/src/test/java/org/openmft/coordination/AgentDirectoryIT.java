package org.openmft.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.coordination.query.AgentDirectory;
import org.openmft.coordination.query.AgentView;
import org.openmft.xml.log.AgentStatus;
import org.openmft.xml.log.PublicationWriter;

/**
 * {@link AgentDirectory} against a real coordination queue manager that real agents publish to:
 * it sees running agents READY, a stopped one STOPPED, an agent whose last status is overdue
 * UNKNOWN, forgets a deleted agent, skips a status it cannot read, and reports a coordination
 * queue manager that is down with exit code 75.
 */
class AgentDirectoryIT {
    @TempDir
    Path dir;
    CoordinationHarness h;

    @BeforeEach
    void start() throws Exception {
        h = new CoordinationHarness(dir);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    private AgentDirectory directory() throws Exception {
        return AgentDirectory.forCoordination(h.coordination(), dir.resolve("qmgrs"), Clock.systemUTC());
    }

    /** Publishes a retained status on the coordination queue manager, as an agent's publisher does on Artemis. */
    private void publishRetained(String agent, String body) throws Exception {
        try (Connection c = h.coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createTopic(Publications.TOPIC))) {
                TextMessage m = s.createTextMessage(body);
                m.setStringProperty(Publications.TOPIC_STRING_PROPERTY, Publications.agentStatus(agent));
                m.setBooleanProperty(Publications.RETAINED_PROPERTY, true);
                p.send(m);
            }
        }
    }

    private static AgentStatus status(String agent, String state, Instant published, int rateMinSeconds) {
        return new AgentStatus(agent, "crafted by the test", "9.4.0.0", "STANDARD", "Linux", "UTC", "elsewhere",
                "QMX", "mq.example.org", 1414, "MFT.SVRCONN", state, published, published.minusSeconds(60),
                rateMinSeconds, 25, 25, 1000, 2, Map.of("414D5120514D58202020202020202020AAAAAAAAAAAAAAAA",
                        "RunningTransfer"), Map.of());
    }

    private List<String> shown(List<AgentView> views) {
        return views.stream().map(v -> v.agentName() + "=" + v.shownStatus()).toList();
    }

    @Test
    void runningAgentsAreReadyAndAControlledStopShowsStopped() throws Exception {
        h.agent("SRC", Map.of("agentDesc", "payments source"));
        h.agent("DST");
        AgentDirectory d = directory();
        CoordinationHarness.await("both agents READY", 20, () -> {
            try {
                return shown(d.agents("*")).equals(List.of("DST=READY", "SRC=READY"));
            } catch (QueueManagerException e) {
                return false;
            }
        });
        AgentView src = d.agent("src").orElseThrow();
        assertThat(src.status().description()).isEqualTo("payments source");
        assertThat(src.status().queueManager()).isEqualTo(CoordinationHarness.AGENT_QM);
        assertThat(src.age()).isNotNull().isLessThan(Duration.ofSeconds(10));
        assertThat(d.agents("S*")).extracting(AgentView::agentName).containsExactly("SRC");

        h.stopAgent("SRC");
        assertThat(d.agent("SRC").orElseThrow().shownStatus()).isEqualTo("STOPPED");
        assertThat(d.agent("DST").orElseThrow().shownStatus()).isEqualTo("READY");
    }

    @Test
    void anOverdueStatusIsUnknownAndADeletedAgentIsGone() throws Exception {
        PublicationWriter writer = new PublicationWriter();
        Instant hourAgo = Instant.now().minus(Duration.ofHours(1));
        publishRetained("GHOST", writer.write(status("GHOST", "READY", hourAgo, 300)));
        publishRetained("RESTING", writer.write(status("RESTING", "STOPPED", hourAgo, 300)));
        publishRetained("FRESH", writer.write(status("FRESH", "ACTIVE", Instant.now(), 300)));

        List<AgentView> views = directory().agents("*");
        assertThat(shown(views)).containsExactly("FRESH=ACTIVE", "GHOST=UNKNOWN", "RESTING=STOPPED");
        AgentView ghost = views.get(1);
        assertThat(ghost.publishedStatus()).isEqualTo("READY");
        assertThat(ghost.overdue()).isTrue();
        assertThat(ghost.age()).isBetween(Duration.ofMinutes(59), Duration.ofMinutes(61));
        assertThat(ghost.status().queueManagerHost()).isEqualTo("mq.example.org");
        assertThat(ghost.status().sourceTransferStates()).containsValue("RunningTransfer");
        assertThat(ghost.status().queuedTransfers()).isEqualTo(2);

        // IBM's fteDeleteAgent leaves an empty retained publication.
        publishRetained("GHOST", "");
        assertThat(shown(directory().agents("*"))).containsExactly("FRESH=ACTIVE", "RESTING=STOPPED");
    }

    @Test
    void aStatusThatCannotBeReadIsSkipped() throws Exception {
        publishRetained("BROKEN", "<properties><entry key=");
        publishRetained("FINE", new PublicationWriter().write(status("FINE", "READY", Instant.now(), 300)));
        assertThat(shown(directory().agents(null))).containsExactly("FINE=READY");
    }

    @Test
    void noAgentsIsAnEmptyList() throws Exception {
        long start = System.nanoTime();
        assertThat(directory().agents("*")).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waits only FIRST_WAIT")
                .isLessThan(AgentDirectory.FIRST_WAIT.plusSeconds(5));
    }

    @Test
    void aCoordinationQueueManagerThatIsDownIsExitCode75() throws Exception {
        AgentDirectory d = directory();
        h.stopCoordination();
        assertThatThrownBy(() -> d.agents("*")).isInstanceOfSatisfying(QueueManagerException.class,
                e -> assertThat(e.exitCode()).isEqualTo(QueueManagerException.UNAVAILABLE))
                .hasMessageContaining(CoordinationHarness.COORD_QM);
    }
}
