package org.openmft.agent.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import javax.jms.Connection;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TextMessage;

import org.openmft.agent.Agent;
import org.openmft.agent.AgentService;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process of an embedded queue manager, which also runs the agents that connect to it in
 * bindings mode: an Artemis bindings connection is an in-VM connection, so such an agent must live
 * in this JVM. Commands ask for an agent to be started by putting a message on
 * {@value #HOST_QUEUE} (see {@link HostRequests}); the host answers on the request's JMSReplyTo.
 * Agents stop through their own COMMAND queue as usual; the host forgets them when they end and
 * stops those still running when it closes.
 *
 * <p>Thread-safety: requests are served by one thread; {@link #close} may be called from any.
 */
public final class QueueManagerHost implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(QueueManagerHost.class);

    /** The queue on which a queue manager's host takes requests. OpenMFT's own, not IBM's. */
    public static final String HOST_QUEUE = "SYSTEM.OPENMFT.HOST";

    /** Attaches a per-agent log file when a hosted agent starts; closing it detaches. */
    @FunctionalInterface
    public interface AgentLogs {
        /** A no-op. */
        AgentLogs NONE = (config, dir) -> () -> { };

        /** Starts logging the agent's events to {@code logDirectory}. */
        AutoCloseable attach(AgentConfig config, Path logDirectory);
    }

    private final EmbeddedQueueManager qmgr;
    private final AgentLogs logs;
    private final AgentService.Factory services;
    private final Map<String, Hosted> agents = new ConcurrentHashMap<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Connection connection;
    private final Thread thread;

    private record Hosted(Agent agent, DirectoryLock lock, AutoCloseable logs, AgentService service) {
    }

    /**
     * Starts serving host requests for {@code qmgr}.
     *
     * @param services creates each hosted agent's service (its coordination publisher), or null
     */
    public QueueManagerHost(EmbeddedQueueManager qmgr, AgentLogs logs, AgentService.Factory services)
            throws QueueManagerException {
        this.qmgr = qmgr;
        this.logs = logs;
        this.services = services == null ? AgentService.Factory.NONE : services;
        this.connection = QueueManagerConnector.forAgent(endpoint(), null).connect();
        Session session;
        MessageConsumer consumer;
        try {
            session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            consumer = session.createConsumer(session.createQueue(HOST_QUEUE));
            connection.start();
        } catch (JMSException e) {
            closeConnection();
            throw new QueueManagerException("queue manager " + qmgr.settings().name()
                    + ": cannot serve " + HOST_QUEUE + ": " + ProviderErrors.describe(e), 1, e);
        }
        this.thread = new Thread(() -> serve(session, consumer), "openmft-host-" + qmgr.settings().name());
        thread.start();
    }

    private org.openmft.agent.config.QueueManagerEndpoint endpoint() {
        return new org.openmft.agent.config.QueueManagerEndpoint(MessagingProvider.ARTEMIS,
                qmgr.settings().name(), null, qmgr.settings().port(), "SYSTEM.DEF.SVRCONN");
    }

    private void serve(Session session, MessageConsumer consumer) {
        while (closing.getCount() > 0) {
            try {
                Message m = consumer.receive(500);
                if (m == null) {
                    continue;
                }
                HostRequests.Result result = handle(m);
                if (m.getJMSReplyTo() != null) {
                    TextMessage reply = session.createTextMessage(result.message());
                    reply.setIntProperty(HostRequests.EXIT_CODE, result.exitCode());
                    reply.setJMSCorrelationID(m.getJMSMessageID());
                    try (MessageProducer p = session.createProducer(m.getJMSReplyTo())) {
                        p.send(reply);
                    }
                }
            } catch (JMSException e) {
                if (closing.getCount() == 0) {
                    return;
                }
                log.warn("Host of queue manager {}: request failed: {}", qmgr.settings().name(),
                        ProviderErrors.describe(e));
            }
        }
    }

    private HostRequests.Result handle(Message m) throws JMSException {
        String op = m.getStringProperty(HostRequests.OPERATION);
        if (!HostRequests.START_AGENT.equals(op)) {
            return new HostRequests.Result(1, "unknown host request '" + op + "'");
        }
        String properties = m.getStringProperty(HostRequests.AGENT_PROPERTIES);
        String logDir = m.getStringProperty(HostRequests.AGENT_LOG_DIRECTORY);
        if (properties == null || logDir == null) {
            return new HostRequests.Result(1, "a startAgent request needs " + HostRequests.AGENT_PROPERTIES
                    + " and " + HostRequests.AGENT_LOG_DIRECTORY);
        }
        return startAgent(Path.of(properties), Path.of(logDir));
    }

    /**
     * Starts a bindings agent in this process.
     *
     * @return the outcome, with a process exit code (0, 1, 75 or 78) and a message for the user
     */
    public HostRequests.Result startAgent(Path agentProperties, Path logDirectory) {
        AgentConfig config;
        try {
            config = AgentConfig.load(agentProperties, System.getenv());
        } catch (ConfigurationException e) {
            return new HostRequests.Result(ConfigurationException.EXIT_CODE, e.getMessage());
        }
        String name = config.agentName();
        String qm = qmgr.settings().name();
        if (config.endpoint().clientMode() || config.provider() != MessagingProvider.ARTEMIS
                || !qm.equals(config.agentQMgr())) {
            return new HostRequests.Result(1, "agent " + name + " is not a bindings agent of queue manager " + qm);
        }
        Optional<DirectoryLock> lock;
        try {
            lock = DirectoryLock.tryAcquire(logDirectory.getParent(), "agent");
        } catch (IOException e) {
            return new HostRequests.Result(1, "cannot lock agent " + name + ": " + e.getMessage());
        }
        if (lock.isEmpty()) {
            return new HostRequests.Result(1, "agent " + name + " is already running");
        }
        AutoCloseable agentLogs = logs.attach(config, logDirectory);
        for (String warning : config.warnings()) {
            log.warn("Agent {}: {}", name, warning);
        }
        log.info("Agent {} configuration:\n{}", name, config.describe());
        AgentService service = AgentService.NONE;
        try {
            service = services.create(config, agentProperties);
            Agent agent = new Agent(config, QueueManagerConnector.forAgent(config.endpoint(), null), service,
                    logDirectory.getParent().resolve("state"));
            agent.start();
            service.start();
            agents.put(name, new Hosted(agent, lock.get(), agentLogs, service));
            Thread reaper = new Thread(() -> forgetWhenStopped(name, agent), "openmft-host-reaper-" + name);
            reaper.setDaemon(true);
            reaper.start();
            return new HostRequests.Result(0, "BFGCL0030I: The request to start agent " + name
                    + " on queue manager " + qm + " has been successfully completed.");
        } catch (QueueManagerException e) {
            service.close();
            closeQuietly(agentLogs);
            closeQuietly(lock.get());
            return new HostRequests.Result(e.exitCode(), e.getMessage());
        } catch (ConfigurationException e) {
            closeQuietly(agentLogs);
            closeQuietly(lock.get());
            return new HostRequests.Result(ConfigurationException.EXIT_CODE, e.getMessage());
        }
    }

    private void forgetWhenStopped(String name, Agent agent) {
        try {
            while (!agent.awaitStopped(Duration.ofSeconds(1))) {
                if (closing.getCount() == 0 && !agents.containsKey(name)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Hosted hosted = agents.remove(name);
        if (hosted != null) {
            hosted.service().close();
            closeQuietly(hosted.logs());
            closeQuietly(hosted.lock());
        }
    }

    /** The agents running in this process. */
    public List<String> agentNames() {
        return List.copyOf(agents.keySet());
    }

    /** Stops the hosted agents (immediately, each within its immediateShutdownTimeout), then serving. */
    @Override
    public void close() {
        closing.countDown();
        for (Map.Entry<String, Hosted> e : agents.entrySet()) {
            e.getValue().agent().close();
        }
        // Services (the agents' publishers) flush for a few seconds each: close them side by side, so
        // that stopping hundreds of agents does not take hundreds of flush timeouts.
        List<Thread> closers = new java.util.ArrayList<>();
        for (String name : List.copyOf(agents.keySet())) {
            Hosted hosted = agents.remove(name);
            if (hosted != null) {
                Thread closer = new Thread(() -> {
                    hosted.service().close();
                    closeQuietly(hosted.logs());
                    closeQuietly(hosted.lock());
                }, "openmft-host-close-" + name);
                closer.start();
                closers.add(closer);
            }
        }
        try {
            for (Thread closer : closers) {
                closer.join(30_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeConnection();
    }

    private void closeConnection() {
        try {
            connection.close();
        } catch (JMSException e) {
            log.debug("Closing the host connection: {}", e.getMessage());
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.debug("Close failed: {}", e.getMessage());
        }
    }
}
