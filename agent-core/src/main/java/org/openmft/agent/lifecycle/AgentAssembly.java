package org.openmft.agent.lifecycle;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import org.openmft.agent.Agent;
import org.openmft.agent.AgentService;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.agent.qmgr.QueueManagerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running agent with everything that lives as long as it: its directory lock, its log, its
 * service (the coordination publisher) and the {@link Agent}. The one place an agent is put
 * together, whether it runs in a process of its own ({@code fteStartAgent -F}) or inside its queue
 * manager's process ({@link org.openmft.agent.host.QueueManagerHost}).
 *
 * <p>{@link #tryStart} takes the lock ({@value #LOCK_NAME} in the parent of the agent's log
 * directory), attaches the log, logs the configuration's warnings and the effective configuration,
 * creates the service, then creates and starts the agent and then the service; when a step fails,
 * what was set up is undone in reverse order. Once the agent has stopped, {@link #close} finishes the
 * service (flushing its publications), detaches the log and releases the lock. The service comes
 * from an {@link AgentService.Factory} because it belongs to the coordination module, which depends
 * on this one.
 *
 * <p>Thread-safe: {@link #closeService} and {@link #close} may be called from any thread, more than
 * once (a shutdown hook and the main thread may both get there).
 */
public final class AgentAssembly implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AgentAssembly.class);

    /** The name of an agent's directory lock (and of its ready marker), in its log's parent directory. */
    public static final String LOCK_NAME = "agent";

    private final Agent agent;
    private final AgentService service;
    private final AutoCloseable agentLog;
    private final DirectoryLock lock;
    private final AtomicBoolean closed = new AtomicBoolean();

    private AgentAssembly(Agent agent, AgentService service, AutoCloseable agentLog, DirectoryLock lock) {
        this.agent = agent;
        this.service = service;
        this.agentLog = agentLog;
        this.lock = lock;
    }

    /**
     * Starts the agent configured by {@code config}.
     *
     * @param agentProperties the file {@code config} was read from, for the service factory
     * @param logDirectory    the agent's log directory ({@code .../agents/<AGENT>/logs}); its parent
     *                        holds the lock and the agent's {@code state} directory
     * @param logs            attaches the agent's own log
     * @param services        creates the agent's service; {@code null} for none
     * @return the running agent, or empty when another process holds the agent's lock (the agent is
     *         already running)
     * @throws IOException            when the lock cannot be taken for another reason
     * @throws ConfigurationException when the service's configuration is invalid
     * @throws QueueManagerException  when the agent cannot reach its queue manager, or a queue
     *                                manager the service needs is not defined
     */
    public static Optional<AgentAssembly> tryStart(AgentConfig config, Path agentProperties, Path logDirectory,
            AgentLogs logs, AgentService.Factory services)
            throws IOException, ConfigurationException, QueueManagerException {
        String name = config.agentName();
        Path agentDirectory = logDirectory.getParent();
        Optional<DirectoryLock> lock = DirectoryLock.tryAcquire(agentDirectory, LOCK_NAME);
        if (lock.isEmpty()) {
            return Optional.empty();
        }
        AutoCloseable agentLog = logs.attach(config, logDirectory);
        AgentService service = AgentService.NONE;
        Agent started = null;
        try {
            log.debug("Agent {}: holding {}", name, lock.get());
            for (String warning : config.warnings()) {
                log.warn("Agent {}: {}", name, warning);
            }
            log.info("Agent {} configuration:\n{}", name, config.describe());
            service = (services == null ? AgentService.Factory.NONE : services).create(config, agentProperties);
            // openmft.metrics.port: the agent's meters in front of the service, their endpoint listening.
            service = org.openmft.agent.metrics.AgentMetrics.wrap(config, service);
            QueueManagerConnector connector = QueueManagerConnector.forAgent(config.endpoint(), null,
                    qmgrsDirectory(agentProperties));
            if (config.endpoint().credentials() == null) {
                log.warn("Agent {} has no agentQMgrAuthenticationCredentialsFile: it connects to {}{}; 'fteCreateAgent"
                        + " -f' on the queue manager's host gives it a user of its own", name, connector.description(),
                        connector.user().map(u -> " as " + u + ", the queue manager's administrator")
                                .orElse(" without a user"));
            }
            Agent agent = new Agent(config, connector, service, agentDirectory.resolve("state"));
            agent.start();
            started = agent;
            service.start(agent.threads());
            return Optional.of(new AgentAssembly(agent, service, agentLog, lock.get()));
        } catch (ConfigurationException | QueueManagerException | RuntimeException | Error e) {
            if (started != null) {
                started.close();
            }
            service.close();
            closeQuietly(agentLog);
            closeQuietly(lock.get());
            throw e;
        }
    }

    /** The running agent. */
    public Agent agent() {
        return agent;
    }

    /** The agent's name. */
    public String name() {
        return agent.name();
    }

    /**
     * Finishes the agent's service (the publisher flushes for a bounded time); call after the agent
     * stopped. Never throws.
     */
    public void closeService() {
        service.close();
    }

    /**
     * Once the agent has stopped: finishes its service, detaches its log, releases its lock. Does
     * not stop the agent ({@link Agent#close()} does). Never throws; later calls do nothing.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            closeService();
            closeQuietly(agentLog);
            closeQuietly(lock);
        }
    }

    /**
     * The queue managers' directory of the data directory holding {@code agentProperties}, when it is
     * in IBM's layout ({@code <data>/config/<coordQM>/agents/<AGENT>/agent.properties}); else null.
     */
    private static Path qmgrsDirectory(Path agentProperties) {
        Path p = agentProperties.toAbsolutePath();
        for (int i = 0; i < 5 && p != null; i++) {
            p = p.getParent();
        }
        return p == null ? null : org.openmft.agent.config.DataDirectory.of(p).qmgrsDir();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            log.debug("Close failed: {}", e.getMessage());
        }
    }
}
