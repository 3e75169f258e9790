package org.openmft.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.coordination.CoordinationHarness.await;
import static org.openmft.coordination.CoordinationHarness.file;
import static org.openmft.coordination.CoordinationHarness.item;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;


import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.ServerSession;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.spi.core.protocol.RemotingConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.Agent;
import org.openmft.agent.AgentState;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.xml.log.PublicationReader;

/**
 * Agents hosted in one process share what can be shared (docs/idle-agents.md): one publisher
 * thread for all, one connection for the control work of all agents that log in as the same user,
 * and each keeps only its transfer connection and its own consuming threads. Counted exactly (thread
 * names, the queue manager's connection count); every agent still takes commands, publishes its
 * status and transfers; one agent's stop leaves the others working; the shared connection dropped
 * by the queue manager, every agent reconnects.
 */
class SharedHostIT {
    private static final List<String> AGENTS = List.of("H1", "H2", "H3", "H4");
    /**
     * The threads each idle agent has of its own, by role: its command loop and the consumers of its
     * DATA and REPLY queues (a JMS session is single-threaded, so each consuming thread keeps one), and
     * its checkpoint writer. No monitor or scheduler thread while it has no monitor or schedule, no
     * publisher thread.
     */
    private static final Set<String> OWN_ROLES = Set.of("command", "data", "replies", "checkpoint");

    @TempDir
    Path dir;
    final PublicationReader reader = new PublicationReader();

    @Test
    void hostedAgentsShareThePublisherThreadAndOneControlConnectionAndRecoverTogether() throws Exception {
        Files.createDirectories(dir.resolve("out"));
        try (CoordinationHarness h = new CoordinationHarness(dir)) {
            int before = connections(h.agentQm);
            for (String a : AGENTS) {
                h.agent(a);
            }
            for (String a : AGENTS) {
                awaitStatus(h, a, "READY");
            }
            // Threads: each agent's own roles, no publisher of its own; one publisher for the process.
            for (String a : AGENTS) {
                assertThat(roles(a)).as("threads of %s", a).isEqualTo(new TreeSet<>(OWN_ROLES));
            }
            assertThat(threadsNamed("openmft-publisher")).as("publisher threads of the process").isEqualTo(1);
            // Connections to QMA: one transfer connection per agent, one shared by all their control work
            // (command loops, monitor and schedule stores, publication outboxes): they log in alike.
            int expected = before + AGENTS.size() + 1;
            await("QMA's connections settle at " + expected, 20, () -> connections(h.agentQm) == expected);

            // Every agent takes commands and transfers; every agent publishes.
            transfer(h, "H1", "H2", "a");
            transfer(h, "H3", "H4", "b");

            // One agent's stop leaves the others working, and the shared connection open.
            h.stopAgent("H1");
            assertThat(latestStatus(h, "H1")).isEqualTo("STOPPED");
            transfer(h, "H3", "H2", "c");
            awaitStatus(h, "H4", "READY");
            await("QMA's connections settle at " + (expected - 1), 20,
                    () -> connections(h.agentQm) == expected - 1);
            assertThat(threadsNamed("openmft-publisher")).isEqualTo(1);

            // The queue manager drops the shared connection: every agent that used it reconnects.
            RemotingConnection shared = sharedConnection(h.agentQm);
            shared.fail(new org.apache.activemq.artemis.api.core.ActiveMQNotConnectedException("dropped by the test"));
            for (String a : List.of("H2", "H3", "H4")) {
                Agent agent = h.agents.get(a);
                await(a + " READY again", 60, () -> agent.state() == AgentState.READY
                        && !sharedConnection(h.agentQm).equals(shared));
            }
            transfer(h, "H2", "H3", "d");
            transfer(h, "H4", "H2", "e");
            // The agents' transfer engines were replaced with their command sessions; the count is as before.
            await("QMA's connections settle at " + (expected - 1) + " after the reconnect", 30,
                    () -> connections(h.agentQm) == expected - 1);

            // A stop is not held up by the command loop's long receive.
            Agent h4 = h.agents.get("H4");
            h4.requestStop(false);
            assertThat(h4.awaitStopped(Duration.ofSeconds(10))).as("H4 stopped while idle").isTrue();
        }
    }

    private void transfer(CoordinationHarness h, String from, String to, String name) throws Exception {
        Path src = file(dir.resolve("in").resolve(name + ".bin"), 10_000);
        Path dst = dir.resolve("out").resolve(name + ".bin");
        assertThat(h.transfer(from, to, "job-" + name, item(src, dst)).resultCode()).isZero();
        assertThat(Files.readAllBytes(dst)).isEqualTo(Files.readAllBytes(src));
    }

    private void awaitStatus(CoordinationHarness h, String agent, String status) throws InterruptedException {
        await(agent + " publishes " + status, 30, () -> {
            try {
                return status.equals(latestStatus(h, agent));
            } catch (Exception | AssertionError e) {
                return false;
            }
        });
    }

    private String latestStatus(CoordinationHarness h, String agent) throws Exception {
        return reader.readAgentStatus(h.retainedStatus(agent).getText()).status();
    }

    /** The roles of agent {@code agent}'s live threads ({@code openmft-<agent>-<role>}). */
    private static Set<String> roles(String agent) {
        Set<String> out = new TreeSet<>();
        String prefix = "openmft-" + agent + "-";
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith(prefix)) {
                out.add(t.getName().substring(prefix.length()));
            }
        }
        return out;
    }

    private static long threadsNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().equals(name))
                .count();
    }

    private static ActiveMQServer server(EmbeddedQueueManager qm) {
        try {
            java.lang.reflect.Field f = EmbeddedQueueManager.class.getDeclaredField("broker");
            f.setAccessible(true);
            return ((EmbeddedActiveMQ) f.get(qm)).getActiveMQServer();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static int connections(EmbeddedQueueManager qm) {
        return server(qm).getConnectionCount();
    }

    /** The connection on which the most sessions are open: the agents' shared one. */
    private static RemotingConnection sharedConnection(EmbeddedQueueManager qm) {
        Map<RemotingConnection, Integer> sessions = new HashMap<>();
        for (ServerSession s : server(qm).getSessions()) {
            sessions.merge(s.getRemotingConnection(), 1, Integer::sum);
        }
        Map<Integer, RemotingConnection> byCount = new TreeMap<>();
        sessions.forEach((c, n) -> byCount.put(n, c));
        return ((TreeMap<Integer, RemotingConnection>) byCount).lastEntry().getValue();
    }
}
