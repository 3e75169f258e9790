package org.openmft.coordination.publish;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentService;
import org.openmft.agent.ForwardingAgentListener;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.lifecycle.AgentThreads;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.QueueManagerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An agent's publications to its coordination queue manager: pass it to the agent as its
 * listener, call {@link #start} once the agent runs, {@link #close} after it stopped.
 * See {@link AgentPublisher} for what is published and {@link PublicationSender} for how it
 * travels.
 *
 * <p>Thread-safe.
 */
public final class CoordinationPublisher extends ForwardingAgentListener implements AgentService,
        org.openmft.agent.metrics.PublicationBacklog {
    private static final Logger log = LoggerFactory.getLogger(CoordinationPublisher.class);

    /** Publications held in memory before the overflow policy applies. */
    public static final int BUFFER_CAPACITY = 10_000;

    private final AgentPublisher publisher;
    private final PublicationBuffer buffer;
    private final PublicationSender sender;
    private final String agent;
    private boolean started;
    private boolean closed;

    private CoordinationPublisher(String agent, AgentPublisher publisher, PublicationBuffer buffer,
            PublicationSender sender) {
        this.agent = agent;
        this.publisher = publisher;
        this.buffer = buffer;
        this.sender = sender;
    }

    /**
     * A publisher for an agent whose properties are in IBM's layout
     * ({@code config/<coordQM>/agents/<AGENT>/agent.properties}, beside
     * {@code config/<coordQM>/coordination.properties}).
     *
     * @return the publisher, or {@link AgentService#NONE} when there is no coordination.properties
     *         (the agent then publishes nothing, and says so in its log)
     * @throws ConfigurationException when coordination.properties is invalid
     * @throws QueueManagerException when a bindings coordination queue manager is not defined here
     */
    public static AgentService forAgent(AgentConfig config, Path agentProperties, Map<String, String> env)
            throws ConfigurationException, QueueManagerException {
        Path configDir = agentProperties.toAbsolutePath().getParent().getParent().getParent();
        Path file = configDir.resolve("coordination.properties");
        if (!Files.isRegularFile(file)) {
            log.warn("Agent {}: no {}; the agent publishes no status and no transfer log", config.agentName(), file);
            return AgentService.NONE;
        }
        CoordinationConfig coordination = CoordinationConfig.load(file, env);
        DataDirectory data = DataDirectory.of(configDir.getParent().getParent());
        return create(config, coordination, data.qmgrsDir(), Clock.systemUTC());
    }

    /**
     * The factory of agents' publishers, for {@link org.openmft.agent.lifecycle.AgentAssembly}:
     * {@link #forAgent} with {@code env}.
     */
    public static AgentService.Factory factory(Map<String, String> env) {
        return (config, agentProperties) -> forAgent(config, agentProperties, env);
    }

    /**
     * A publisher for {@code config} publishing to {@code coordination}.
     *
     * @param qmgrsDirectory where queue managers of this host are defined, to reach a bindings
     *                       coordination queue manager running in another process of this host
     */
    public static CoordinationPublisher create(AgentConfig config, CoordinationConfig coordination,
            Path qmgrsDirectory, Clock clock) throws QueueManagerException {
        PublicationBuffer buffer = new PublicationBuffer(BUFFER_CAPACITY);
        AgentPublisher publisher = new AgentPublisher(config, buffer, clock);
        // The outbox is the agent's own work, as the agent's user: over the connection its control
        // work shares (QueueManagerConnector.sharing).
        QueueManagerConnector agentQMgr = QueueManagerConnector.forAgent(config.endpoint(), null, qmgrsDirectory)
                .sharing();
        boolean sameQMgr = coordination.coordinationQMgr().equals(config.agentQMgr())
                && coordination.provider() == config.provider();
        // Another coordination queue manager: coordination.properties' credentials file, else the agent's
        // own file if it has an entry for that queue manager, else (a queue manager of this data
        // directory) its administrator's.
        Credentials coordinationLogin = coordination.endpoint().credentials();
        if (!sameQMgr && coordinationLogin == null) {
            try {
                coordinationLogin = config.credentialsFor(coordination.coordinationQMgr()).orElse(null);
            } catch (ConfigurationException e) {
                throw new QueueManagerException(e.getMessage(), QueueManagerException.CONFIGURATION, e);
            }
        }
        // Between embedded queue managers, a channel from the agent's to the coordination queue
        // manager is the way when there is one (see PublicationSender); a direct connection is
        // then not needed, and a coordination queue manager "not defined on this host" is no error.
        Delivery.ThroughChannel channel = !sameQMgr && config.provider() == MessagingProvider.ARTEMIS
                && coordination.provider() == MessagingProvider.ARTEMIS
                        ? new Delivery.ThroughChannel(new Routing(config.provider(), config.agentQMgr()),
                                coordination.coordinationQMgr())
                        : null;
        QueueManagerConnector target = agentQMgr;
        if (!sameQMgr) {
            try {
                // Shared by the agents of this process that publish with the same login
                // (QueueManagerConnector.sharing): one connection to the coordination queue manager.
                target = QueueManagerConnector.forCommand(coordination.endpoint(), qmgrsDirectory, coordinationLogin)
                        .sharing();
            } catch (QueueManagerException e) {
                if (channel == null) {
                    throw e;
                }
                log.info("Agent {}: coordination queue manager {} is reachable through a channel only: {}",
                        config.agentName(), coordination.coordinationQMgr(), e.getMessage());
                target = null;
            }
        }
        String outbox = sameQMgr ? null : QueueNames.publish(config.agentName());
        PublicationSender sender = new PublicationSender(config.agentName(), buffer, agentQMgr, target,
                Delivery.of(coordination.provider()), outbox, channel, publisher::tick, publisher::idle);
        log.info("Agent {} publishes to coordination queue manager {}{}", config.agentName(),
                coordination.coordinationQMgr(), sameQMgr ? "" : " through its outbox " + outbox
                        + (channel == null ? "" : " and, where there is one, channel " + channel.channel()));
        return new CoordinationPublisher(config.agentName(), publisher, buffer, sender);
    }

    /**
     * Publishes one document at once, as agents publish (see {@link Delivery}): for commands such as
     * fteDeleteAgent, which replaces an agent's retained status with an empty one.
     *
     * @param connection a connection to the coordination queue manager
     * @param provider its provider
     */
    public static void publish(Connection connection, MessagingProvider provider, Publication publication)
            throws JMSException {
        Delivery delivery = Delivery.of(provider);
        try (Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer producer = session.createProducer(delivery.destination(session))) {
            delivery.send(session, producer, publication);
        }
    }

    /**
     * Starts sending, on the process's publisher thread ({@code openmft-publisher}, one for every
     * agent of the process); call once the agent's queues exist.
     */
    @Override
    public synchronized void start() {
        if (!started) {
            started = true;
            buffer.onAdd(PublisherThread.PROCESS::wake);
            PublisherThread.PROCESS.add(sender);
        }
    }

    /** {@link #start()}: the publisher thread is the process's, not one of the agent's. */
    @Override
    public void start(AgentThreads threads) {
        start();
    }

    /** Publications waiting in memory (not those on the outbox queue). */
    public int held() {
        return buffer.size();
    }

    /** {@link #held()}: the agent's metrics' publication backlog. */
    @Override
    public int publicationsWaiting() {
        return held();
    }

    /**
     * Sends what is held for at most {@code timeout}, then stops. Publications that could not be
     * sent stay on the outbox queue, when there is one, for the next start.
     */
    public void close(Duration timeout) {
        synchronized (this) {
            if (!started || closed) {
                return;
            }
            closed = true;
        }
        sender.stop(timeout);
        PublisherThread.PROCESS.remove(sender);
        // On the closing thread: the others' publications go on meanwhile.
        sender.finishStep();
        log.debug("Agent {}: publisher stopped, {} publication(s) held in memory", agent, buffer.size());
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    @Override
    protected AgentListener delegate() {
        return publisher;
    }
}
