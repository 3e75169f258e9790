package org.openmft.agent;

import java.nio.file.Path;

import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.lifecycle.AgentThreads;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * A listener that lives as long as its agent, such as the publisher of its coordination
 * publications: created before the agent, {@link #start started} once the agent runs (its queues
 * exist), {@link #close closed} after the agent stopped (flushing what it holds).
 */
public interface AgentService extends AgentListener, AutoCloseable {
    /** A service that does nothing. */
    AgentService NONE = new AgentService() {
        @Override
        public void start() {
        }

        @Override
        public void close() {
        }
    };

    /** Begins work; the agent has started. */
    void start();

    /**
     * Begins work with threads from {@code threads}, the agent's own ({@link Agent#threads()}), so
     * that a thread of the service that dies is reported as a problem of the agent. By default
     * {@link #start()}.
     */
    default void start(AgentThreads threads) {
        start();
    }

    /** Finishes work; the agent has stopped. Never throws. */
    @Override
    void close();

    /** Creates the service of an agent. */
    @FunctionalInterface
    interface Factory {
        /** Creates nothing. */
        Factory NONE = (config, properties) -> AgentService.NONE;

        /**
         * The service for the agent configured by {@code agentProperties}.
         *
         * @throws ConfigurationException when the service's own configuration is invalid
         * @throws QueueManagerException when a queue manager it needs is not defined
         */
        AgentService create(AgentConfig config, Path agentProperties)
                throws ConfigurationException, QueueManagerException;
    }
}
