package org.openmft.rest;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.openmft.agent.Agent;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.client.ClientSettings;
import org.openmft.client.MftClient;
import org.openmft.coordination.logger.LogStores;
import org.openmft.coordination.logger.LogStore;
import org.openmft.coordination.logger.LogSubscriber;
import org.openmft.coordination.publish.CoordinationPublisher;
import org.openmft.coordination.query.AgentDirectory;
import org.openmft.coordination.query.ConfiguredLoggers;
import org.openmft.coordination.query.MonitorDirectory;

/**
 * A whole estate in this JVM for the REST API's tests: one real embedded queue manager QM1 (agent,
 * command and coordination queue manager at once), agents SRC and DST publishing their status and
 * transfer log as the agent daemon does, a database logger storing the log in an embedded H2
 * database, and the REST server reading that store, listening on a free loopback port. Its
 * configuration is laid out as a data directory ({@code data/}), as {@code mft} writes it.
 */
final class RestEstate implements AutoCloseable {
    static final String QMGR = "QM1";

    final Path root;
    final EmbeddedQueueManager qm;
    final Credentials user;
    /** A user without roles: may read, may not request. */
    final Credentials viewer;
    final List<Agent> agents = new ArrayList<>();
    final List<CoordinationPublisher> publishers = new ArrayList<>();
    final LogStore store;
    final LogSubscriber logger;
    final LiveProgress progress;
    final RestServer server;
    final MftResources resources;
    final UserLogin login;
    private final int port;

    RestEstate(Path root) throws Exception {
        this.root = root;
        this.port = freePort();
        Files.createDirectories(root.resolve("out"));
        qm = EmbeddedQueueManager.start(new QueueManagerSettings(QMGR, root.resolve("qm1"), "127.0.0.1", port));
        user = qm.users().add("alice", Set.of("requester"), true);
        viewer = qm.users().add("victor", Set.of(), true);
        Credentials loggerUser = qm.users().add("LOG1", Set.of("logger"), true);
        Path loggerCredentials = root.resolve("logger-credentials.xml");
        qm.users().writeCredentials(loggerCredentials, loggerUser, true);
        qm.applySecurityChanges();
        // Laid out as a data directory (configuration options QM1: coordination.properties, no
        // command.properties, database logger LOG1), so that the client API finds the logger's history.
        DataDirectory dd = DataDirectory.of(root.resolve("data"));
        write(dd.coordinationProperties(QMGR), coordinationProperties());
        Map<String, String> loggerProperties = Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager",
                QMGR, "wmqfte.queue.manager.host", "127.0.0.1", "wmqfte.queue.manager.port", String.valueOf(port),
                "loggerQMgrAuthenticationCredentialsFile", loggerCredentials.toString());
        write(dd.loggerProperties(QMGR, "LOG1"), loggerProperties);
        LoggerConfig loggerConfig = LoggerConfig.from(loggerProperties, "LOG1", Map.of());
        Path logDir = Files.createDirectories(dd.loggerLogDir(QMGR, "LOG1"));
        QueueManagerConnector loggerConnector = QueueManagerConnector.forAgent(loggerConfig.endpoint(), null);
        new ArtemisQueueAdmin(loggerConnector).createQueues(List.of(QueueNames.loggerCommand("LOG1"),
                QueueNames.loggerReject("LOG1")));
        store = LogStores.open(loggerConfig, logDir);
        logger = new LogSubscriber(loggerConfig, loggerConnector, store);
        Thread t = new Thread(logger, "logger");
        t.setDaemon(true);
        t.start();
        await("the logger subscribed", 30, logger::connected);
        agent("SRC");
        agent("DST");
        QueueManagerConnector coordination = QueueManagerConnector.forAgent(coordination().endpoint(), null);
        progress = new LiveProgress(coordination, Clock.systemUTC());
        resources = new MftResources(AgentDirectory.of(coordination, Duration.ofSeconds(5),
                Clock.systemUTC()), MonitorDirectory.of(coordination), () -> ConfiguredLoggers.openDatabase(dd, QMGR,
                        loggerConfig).orElseThrow(), client(), progress,
                Clock.systemUTC());
        login = new UserLogin(qm.users(), QMGR);
        server = new RestServer(RestConfig.from(Map.of("httpPort", "0")), resources, login);
        server.start();
    }

    /**
     * The client API as {@code mft rest start} makes it: from the data directory's configuration
     * options QM1, whose coordination queue manager takes the requests as there is no
     * command.properties, and whose database logger holds the history.
     */
    MftClient client() throws Exception {
        return MftClient.connect(ClientSettings.forCoordinationQueueManager(root.resolve("data"), QMGR));
    }

    private Map<String, String> coordinationProperties() {
        return Map.of("coordinationQMgr", QMGR, "coordinationQMgrHost", "127.0.0.1", "coordinationQMgrPort",
                String.valueOf(port), "coordinationQMgrAuthenticationCredentialsFile", qm.users()
                        .administratorCredentialsFile().toString());
    }

    private static void write(Path file, Map<String, String> properties) throws IOException {
        Files.createDirectories(file.getParent());
        java.util.Properties p = new java.util.Properties();
        p.putAll(properties);
        try (java.io.Writer w = Files.newBufferedWriter(file)) {
            p.store(w, null);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** QM1 as the coordination queue manager, reached as its administrator. */
    CoordinationConfig coordination() throws Exception {
        return CoordinationConfig.from(coordinationProperties(), Map.of());
    }

    private void agent(String name) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", name, "agentQMgr", QMGR,
                "agentQMgrPort", String.valueOf(port), "immediateShutdownTimeout", "5",
                "transferRoot", root.toString(), "agentStatusPublishRateLimit", "1",
                "agentStatusPublishRateMin", "2"));
        AgentConfig config = AgentConfig.from(raw, Map.of());
        CoordinationPublisher publisher = CoordinationPublisher.create(config, coordination(), root.resolve("qmgrs"),
                Clock.systemUTC());
        Agent agent = new Agent(config, QueueManagerConnector.forAgent(config.endpoint(), null), publisher,
                root.resolve("state-" + name));
        agent.start();
        publisher.start();
        agents.add(agent);
        publishers.add(publisher);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.port();
    }

    static Path file(Path path, int size) throws IOException {
        Files.createDirectories(path.getParent());
        byte[] b = new byte[size];
        new java.util.Random(size).nextBytes(b);
        return Files.write(path, b);
    }

    static void await(String what, long seconds, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    @Override
    public void close() throws org.openmft.coordination.logger.LogStoreException {
        server.close();
        progress.close();
        logger.stop();
        try {
            logger.awaitStopped(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Agent a : agents) {
            a.close();
        }
        for (CoordinationPublisher p : publishers) {
            p.close(Duration.ofSeconds(1));
        }
        store.close();
        qm.close();
    }
}
