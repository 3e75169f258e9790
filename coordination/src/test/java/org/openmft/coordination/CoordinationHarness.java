package org.openmft.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.openmft.agent.Agent;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.coordination.publish.CoordinationPublisher;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * Two real embedded queue managers in this JVM: QMA, where agents run in bindings mode, and
 * QMC, a separate coordination queue manager reached over TCP; agents publish through
 * {@link CoordinationPublisher}s exactly as the agent daemon does.
 */
final class CoordinationHarness implements AutoCloseable {
    static final String AGENT_QM = "QMA";
    static final String COORD_QM = "QMC";

    final Path root;
    final int agentPort;
    final int coordPort;
    final EmbeddedQueueManager agentQm;
    EmbeddedQueueManager coordQm;
    final Map<String, Agent> agents = new LinkedHashMap<>();
    final Map<String, CoordinationPublisher> publishers = new HashMap<>();
    /** The port agents made from now on connect to QMC on directly; QMC's own unless a test changes it. */
    int agentsCoordinationPort;

    CoordinationHarness(Path root) throws Exception {
        this.root = root;
        int[] ports = freePorts(2);
        this.agentPort = ports[0];
        this.coordPort = ports[1];
        this.agentsCoordinationPort = coordPort;
        this.agentQm = EmbeddedQueueManager.start(new QueueManagerSettings(AGENT_QM, root.resolve("qma"), "127.0.0.1",
                agentPort));
        startCoordination();
    }

    static int freePort() throws IOException {
        return freePorts(1)[0];
    }

    /**
     * {@code n} distinct free ports: every socket stays open until all are chosen, since a port is free
     * again once its socket closes, and the next {@link #freePort} may be given the same one (CI once
     * started both queue managers on one port).
     */
    static int[] freePorts(int n) throws IOException {
        java.util.List<ServerSocket> open = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                open.add(new ServerSocket(0));
            }
            return open.stream().mapToInt(ServerSocket::getLocalPort).toArray();
        } finally {
            for (ServerSocket s : open) {
                s.close();
            }
        }
    }

    void startCoordination() throws Exception {
        coordQm = EmbeddedQueueManager.start(new QueueManagerSettings(COORD_QM, root.resolve("qmc"), "127.0.0.1",
                coordPort));
    }

    void stopCoordination() {
        coordQm.close();
        coordQm = null;
    }

    /**
     * A channel from QMA to QMC, running when this returns: a user with the role channel on QMC,
     * the definition on QMA.
     */
    void channelToCoordination() throws Exception {
        org.openmft.agent.credentials.Credentials login = coordQm.users().add("channel." + AGENT_QM,
                java.util.Set.of(org.openmft.agent.qmgr.security.Permissions.CHANNEL), true);
        coordQm.applySecurityChanges();
        Path credentials = root.resolve("channel-to-qmc.xml");
        coordQm.users().writeCredentials(credentials, login, false);
        new org.openmft.agent.qmgr.channel.ChannelDefinition(COORD_QM, "127.0.0.1", coordPort, credentials, null, null,
                false).store(root.resolve("qma"));
        Path status = root.resolve("qma").resolve(org.openmft.agent.qmgr.channel.ChannelDefinition.DIRECTORY)
                .resolve(org.openmft.agent.qmgr.channel.Channels.STATUS_FILE);
        await("channel QMA.TO.QMC running", 30, () -> {
            try {
                return Files.exists(status) && Files.readString(status).contains(COORD_QM + ".state=RUNNING");
            } catch (IOException e) {
                return false;
            }
        });
    }

    CoordinationConfig coordination() throws Exception {
        return coordination(coordPort);
    }

    /** QMC's configuration with {@code port} for a direct connection (a port nothing listens on: none). */
    private CoordinationConfig coordination(int port) throws Exception {
        // The agents and the test publish and read as QMC's administrator: what is tested here is coordination.
        return CoordinationConfig.from(Map.of("coordinationQMgr", COORD_QM, "coordinationQMgrHost", "127.0.0.1",
                "coordinationQMgrPort", String.valueOf(port), "coordinationQMgrAuthenticationCredentialsFile",
                org.openmft.agent.qmgr.security.QueueManagerUsers.of(COORD_QM, root.resolve("qmc"))
                        .administratorCredentialsFile().toString()), Map.of());
    }

    /** A client connection to the coordination queue manager; the caller closes it. */
    Connection coordinationConnection() throws Exception {
        return QueueManagerConnector.forAgent(coordination().endpoint(), null).connect();
    }

    Agent agent(String name, Map<String, String> extra) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", name, "agentQMgr", AGENT_QM,
                "agentQMgrPort", String.valueOf(agentPort), "immediateShutdownTimeout", "5",
                "transferRoot", root.toString(), "agentStatusPublishRateLimit", "1",
                "agentStatusPublishRateMin", "2"));
        raw.putAll(extra);
        AgentConfig config = AgentConfig.from(raw, Map.of());
        CoordinationPublisher publisher = CoordinationPublisher.create(config, coordination(agentsCoordinationPort),
                root.resolve("qmgrs"), Clock.systemUTC());
        Agent agent = new Agent(config, QueueManagerConnector.forAgent(config.endpoint(), null), publisher,
                root.resolve("state-" + name));
        agent.start();
        publisher.start();
        agents.put(name, agent);
        publishers.put(name, publisher);
        return agent;
    }

    Agent agent(String name) throws Exception {
        return agent(name, Map.of());
    }

    /** A controlled stop, as fteStopAgent: the agent publishes STOPPED and its publisher flushes. */
    void stopAgent(String name) throws Exception {
        Agent a = agents.remove(name);
        a.requestStop(false);
        assertThat(a.awaitStopped(Duration.ofSeconds(30))).as("agent %s stopped", name).isTrue();
        a.close();
        publishers.remove(name).close();
    }

    static TransferItem item(Path source, Path destination) {
        return new TransferItem(Mode.BINARY, ChecksumMethod.MD5, new ItemSource(false, Disposition.LEAVE,
                source.toString(), null), new ItemDestination(DestinationType.FILE, ExistAction.ERROR,
                        destination.toString(), null, null));
    }

    /** Submits a transfer on QMA and waits for its final reply; returns the reply. */
    Reply transfer(String from, String to, String job, TransferItem... items) throws Exception {
        TransferRequest request = new TransferRequest("6.00", new Originator("testhost", "tester"),
                new AgentRef(from, AGENT_QM), new AgentRef(to, AGENT_QM), new ReplyTo("WMQFTE.TEST", AGENT_QM, true),
                new TransferSet(0, null, Map.of("team", "payments"), List.of(items)), job);
        try (Connection c = QueueManagerConnector.forAgent(agentConfigEndpoint(), null).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            TemporaryQueue replies = s.createTemporaryQueue();
            c.start();
            TextMessage m = s.createTextMessage(new DocumentWriter().write(request));
            m.setJMSReplyTo(replies);
            try (MessageProducer p = s.createProducer(s.createQueue("SYSTEM.FTE.COMMAND." + from))) {
                p.send(m);
            }
            MessageConsumer consumer = s.createConsumer(replies);
            Message ack = consumer.receive(30_000);
            assertThat(ack).as("acknowledgement").isNotNull();
            assertThat(new RequestParser().parseReply(((TextMessage) ack).getText()).resultCode()).isZero();
            Message fin = consumer.receive(60_000);
            assertThat(fin).as("final reply").isNotNull();
            return new RequestParser().parseReply(((TextMessage) fin).getText());
        }
    }

    /** The retained status publication of {@code agent} on the coordination queue manager (within 10 s). */
    TextMessage retainedStatus(String agent) throws Exception {
        try (Connection c = coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            MessageConsumer sub = s.createConsumer(s.createTopic(org.openmft.agent.messaging.Publications.TOPIC),
                    org.openmft.agent.messaging.Publications.selector(
                            org.openmft.agent.messaging.Publications.agentStatus(agent)));
            List<TextMessage> got = receive(sub, 1, 10);
            assertThat(got).as("retained status of %s", agent).hasSize(1);
            return got.get(0);
        }
    }

    /** Puts raw text on an agent's COMMAND queue. */
    void sendRaw(String agent, String text) throws Exception {
        try (Connection c = QueueManagerConnector.forAgent(agentConfigEndpoint(), null).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createQueue("SYSTEM.FTE.COMMAND." + agent))) {
                p.send(s.createTextMessage(text));
            }
        }
    }

    private org.openmft.agent.config.QueueManagerEndpoint agentConfigEndpoint() {
        return new org.openmft.agent.config.QueueManagerEndpoint(org.openmft.agent.config.MessagingProvider.ARTEMIS,
                AGENT_QM, null, agentPort, "SYSTEM.DEF.SVRCONN");
    }

    static Path file(Path path, int size) throws IOException {
        Files.createDirectories(path.getParent());
        byte[] b = new byte[size];
        new java.util.Random(size).nextBytes(b);
        return Files.write(path, b);
    }

    /** Receives text messages until {@code count} arrived or {@code seconds} passed. */
    static List<TextMessage> receive(MessageConsumer c, int count, long seconds) throws Exception {
        List<TextMessage> out = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (out.size() < count) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                break;
            }
            Message m = c.receive(left);
            if (m != null) {
                out.add((TextMessage) m);
            }
        }
        return out;
    }

    static void await(String what, long seconds, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    @Override
    public void close() {
        for (Agent a : agents.values()) {
            a.close();
        }
        for (CoordinationPublisher p : publishers.values()) {
            p.close(Duration.ofSeconds(1));
        }
        agentQm.close();
        if (coordQm != null) {
            coordQm.close();
        }
    }
}
