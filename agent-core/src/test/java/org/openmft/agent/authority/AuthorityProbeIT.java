package org.openmft.agent.authority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.Agent;
import org.openmft.agent.AgentListener;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * An agent with {@code authorityChecking=true} on a plain Artemis broker, which does not remove
 * what senders write in the authority properties (anyone could claim any authority there): the
 * agent refuses to start (exit 78) rather than check against claims. The same agent without
 * checking starts on that broker, so the refusal is the probe's and nothing else's.
 */
class AuthorityProbeIT {
    @TempDir
    Path dir;
    EmbeddedActiveMQ broker;
    int port;

    @BeforeEach
    void startAPlainBroker() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ConfigurationImpl c = new ConfigurationImpl();
        c.setPersistenceEnabled(false);
        c.setSecurityEnabled(false);
        c.setJournalDirectory(dir.resolve("journal").toString());
        c.setBindingsDirectory(dir.resolve("bindings").toString());
        c.setPagingDirectory(dir.resolve("paging").toString());
        c.setLargeMessagesDirectory(dir.resolve("large").toString());
        c.addAcceptorConfiguration("plain", "tcp://127.0.0.1:" + port + "?protocols=CORE");
        broker = new EmbeddedActiveMQ();
        broker.setConfiguration(c);
        broker.start();
    }

    @AfterEach
    void stopTheBroker() throws Exception {
        broker.stop();
    }

    @Test
    void anAgentThatChecksAuthoritiesRefusesAQueueManagerThatDoesNotVouchForThem() throws Exception {
        Agent checking = agent(true);
        QueueManagerException e = assertThrows(QueueManagerException.class, checking::start);
        assertThat(e.exitCode()).isEqualTo(78);
        assertThat(e.getMessage()).contains("does not vouch for authorities")
                .contains("a message claiming one kept the claim");
        checking.close();

        Agent open = agent(false);
        open.start();
        try {
            assertThat(open.state().name()).isIn("READY", "ACTIVE");
        } finally {
            open.close();
            assertThat(open.awaitStopped(Duration.ofSeconds(30))).isTrue();
        }
    }

    private Agent agent(boolean authorityChecking) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", "PROBE", "agentQMgr", "PLAIN",
                "agentQMgrHost", "127.0.0.1", "agentQMgrPort", String.valueOf(port), "immediateShutdownTimeout", "5",
                "transferRoot", dir.toString(), "authorityChecking", String.valueOf(authorityChecking)));
        AgentConfig config = AgentConfig.from(raw, Map.of());
        return new Agent(config, QueueManagerConnector.forAgent(config.endpoint(), null), AgentListener.NONE,
                dir.resolve("state-" + authorityChecking));
    }
}
