package org.openmft.agent.host;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.AgentService;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.lifecycle.AgentAssembly;
import org.openmft.agent.lifecycle.AgentLogs;
import org.openmft.agent.lifecycle.AgentThreads;
import org.openmft.agent.lifecycle.BoundedJoin;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
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
    /** How long closing waits for the hosted agents' services, side by side, to finish. */
    private static final Duration SERVICES_CLOSE_TIMEOUT = Duration.ofSeconds(30);
    /** How long closing waits for the request thread, whose receive closing ends. */
    private static final Duration REQUEST_THREAD_TIMEOUT = Duration.ofSeconds(5);
    /** How long the request thread waits in one receive (an empty timed receive costs a broker round trip). */
    private static final long IDLE_RECEIVE_MILLIS = 30_000;

    private final EmbeddedQueueManager qmgr;
    private final DataDirectory dataDirectory;
    private final AgentLogs logs;
    private final AgentService.Factory services;
    private final AgentThreads threads;
    private final Map<String, AgentAssembly> agents = new ConcurrentHashMap<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Connection connection;
    private final MessageConsumer requests;
    private final Thread thread;

    /**
     * Starts serving host requests for {@code qmgr}.
     *
     * @param dataDirectory where the hosted agents' configurations and logs are: the only place a
     *                      request can start an agent from
     * @param logs          gives each hosted agent its own log
     * @param services      creates each hosted agent's service (its coordination publisher), or null
     */
    public QueueManagerHost(EmbeddedQueueManager qmgr, DataDirectory dataDirectory, AgentLogs logs,
            AgentService.Factory services) throws QueueManagerException {
        this.qmgr = qmgr;
        this.dataDirectory = dataDirectory;
        this.logs = logs;
        this.services = services == null ? AgentService.Factory.NONE : services;
        this.threads = AgentThreads.forProcess(qmgr.settings().name());
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
        this.requests = consumer;
        this.thread = threads.newThread("host", () -> serve(session, consumer));
        thread.start();
    }

    private org.openmft.agent.config.QueueManagerEndpoint endpoint() {
        return new org.openmft.agent.config.QueueManagerEndpoint(MessagingProvider.ARTEMIS,
                qmgr.settings().name(), null, qmgr.settings().port(), "SYSTEM.DEF.SVRCONN");
    }

    private void serve(Session session, MessageConsumer consumer) {
        while (closing.getCount() > 0) {
            try {
                // No polling: close() closes the consumer, which ends this receive.
                Message m = consumer.receive(IDLE_RECEIVE_MILLIS);
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
        // Only the administrator may send here (the queue manager's permissions); the user the broker
        // validated is checked again, so that a change of those permissions cannot open this door.
        String user = m.getStringProperty("JMSXUserID");
        if (!isAdministrator(user)) {
            return refused(m, "only an administrator of queue manager " + qmgr.settings().name()
                    + " may send host requests, not user " + user);
        }
        String op = m.getStringProperty(HostRequests.OPERATION);
        if (!HostRequests.START_AGENT.equals(op)) {
            return refused(m, "unknown host request '" + op + "'");
        }
        for (String property : HostRequests.REFUSED_PATH_PROPERTIES) {
            if (m.propertyExists(property)) {
                return refused(m, "a startAgent request names the agent (" + HostRequests.AGENT_NAME + "), never a"
                        + " path: it carries " + property);
            }
        }
        String agent = m.getStringProperty(HostRequests.AGENT_NAME);
        String coordination = m.getStringProperty(HostRequests.COORDINATION_QMGR);
        if (agent == null || coordination == null) {
            return refused(m, "a startAgent request needs " + HostRequests.AGENT_NAME + " and "
                    + HostRequests.COORDINATION_QMGR);
        }
        try {
            return startAgent(coordination, agent);
        } catch (IllegalArgumentException e) {
            return refused(m, e.getMessage());
        }
    }

    private boolean isAdministrator(String user) {
        try {
            return user != null && qmgr.users().roles().getOrDefault(
                    org.openmft.agent.qmgr.security.Permissions.ADMIN, java.util.Set.of()).contains(user);
        } catch (IOException e) {
            log.warn("Host of queue manager {}: cannot read its roles: {}", qmgr.settings().name(), e.getMessage());
            return false;
        }
    }

    private HostRequests.Result refused(Message m, String why) throws JMSException {
        log.warn("Host of queue manager {}: refused a host request (message {}, user {}): {}", qmgr.settings().name(),
                m.getJMSMessageID(), m.getStringProperty("JMSXUserID"), why);
        return new HostRequests.Result(1, why);
    }

    /**
     * Starts the bindings agent {@code agent} of the configuration set of {@code coordination} in
     * this process, from its configuration in the host's data directory.
     *
     * @return the outcome, with a process exit code (0, 1, 75 or 78) and a message for the user
     * @throws IllegalArgumentException when a name is not a valid agent or queue manager name
     */
    public HostRequests.Result startAgent(String coordination, String agent) {
        return startAgent(dataDirectory.agentProperties(coordination, agent),
                dataDirectory.agentLogDir(coordination, agent));
    }

    /**
     * Starts a bindings agent in this process.
     *
     * @return the outcome, with a process exit code (0, 1, 75 or 78) and a message for the user
     */
    private HostRequests.Result startAgent(Path agentProperties, Path logDirectory) {
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
        Optional<AgentAssembly> started;
        try {
            started = AgentAssembly.tryStart(config, agentProperties, logDirectory, logs, services);
        } catch (IOException e) {
            return new HostRequests.Result(1, "cannot lock agent " + name + ": " + e.getMessage());
        } catch (QueueManagerException e) {
            return new HostRequests.Result(e.exitCode(), e.getMessage());
        } catch (ConfigurationException e) {
            return new HostRequests.Result(ConfigurationException.EXIT_CODE, e.getMessage());
        }
        if (started.isEmpty()) {
            return new HostRequests.Result(1, "agent " + name + " is already running");
        }
        AgentAssembly assembly = started.get();
        agents.put(name, assembly);
        // Forgotten when it ends, by its own command thread: no thread per hosted agent waits for that.
        assembly.agent().whenStopped(() -> forget(name, assembly));
        return new HostRequests.Result(0, "BFGCL0030I: The request to start agent " + name
                + " on queue manager " + qm + " has been successfully completed.");
    }

    /**
     * Forgets a hosted agent that stopped on its own (a stopAgent request): its service flushes and
     * its lock is released on a short-lived thread, so that the agent's command thread ends at once.
     * When the host is closing, {@link #close} does that instead.
     */
    private void forget(String name, AgentAssembly assembly) {
        if (agents.remove(name, assembly)) {
            threads.newDaemonThread("forget-" + name, assembly::close).start();
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
        for (Map.Entry<String, AgentAssembly> e : agents.entrySet()) {
            e.getValue().agent().close();
        }
        // Services (the agents' publishers) flush for a few seconds each: close them side by side, so
        // that stopping hundreds of agents does not take hundreds of flush timeouts.
        List<Thread> closers = new ArrayList<>();
        for (String name : List.copyOf(agents.keySet())) {
            AgentAssembly hosted = agents.remove(name);
            if (hosted != null) {
                Thread closer = threads.newThread("close-" + name, hosted::close);
                closer.start();
                closers.add(closer);
            }
        }
        String host = "Host of queue manager " + qmgr.settings().name();
        try {
            requests.close();
        } catch (JMSException | RuntimeException e) {
            log.debug("Closing the host's request consumer: {}", e.toString());
        }
        BoundedJoin.joinOrWarn(host + " closing its agents' services", closers, SERVICES_CLOSE_TIMEOUT);
        BoundedJoin.joinOrWarn(host, List.of(thread), REQUEST_THREAD_TIMEOUT);
        closeConnection();
    }

    private void closeConnection() {
        try {
            connection.close();
        } catch (JMSException e) {
            log.debug("Closing the host connection: {}", e.getMessage());
        }
    }
}
