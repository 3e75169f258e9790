package org.openmft.agent.lifecycle;

import java.nio.file.Path;

import org.openmft.agent.config.AgentConfig;

/**
 * Gives a starting agent a log of its own (IBM's {@code output0.log} layout in the agent's log
 * directory); closing what it returns detaches it. The logging backend lives in the CLI, so the CLI
 * provides this.
 */
@FunctionalInterface
public interface AgentLogs {
    /** A no-op: the agent logs wherever the process logs. */
    AgentLogs NONE = (config, dir) -> () -> { };

    /**
     * Starts logging the events of the agent configured by {@code config} to {@code logDirectory}.
     *
     * @return what detaches the log again; its {@code close} should not throw
     */
    AutoCloseable attach(AgentConfig config, Path logDirectory);
}
