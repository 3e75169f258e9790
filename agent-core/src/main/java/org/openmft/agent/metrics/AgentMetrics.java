package org.openmft.agent.metrics;

import java.time.Clock;

import org.openmft.agent.AgentService;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;

/**
 * Puts an agent's metrics together when {@code openmft.metrics.port} asks for them: the
 * {@link ProcessMetrics} tagged with the agent's name, and the agent's {@link AgentMeters} in front
 * of its service; the endpoint lives as long as the service.
 */
public final class AgentMetrics {
    private AgentMetrics() {
    }

    /**
     * The agent's service with metrics in front of it, or {@code service} itself when the agent
     * serves no metrics. The endpoint is listening when this returns, so that a port in use stops
     * the agent before it takes any work.
     *
     * @throws ConfigurationException (exit 78) when the endpoint is not secure or cannot listen
     */
    public static AgentService wrap(AgentConfig config, AgentService service) throws ConfigurationException {
        var settings = config.metrics();
        if (settings.isEmpty()) {
            return service;
        }
        ProcessMetrics metrics = ProcessMetrics.start(settings.get(), "agent", config.agentName(),
                "agent " + config.agentName());
        return new AgentMeters(metrics.registry(), service, Clock.systemUTC()) {
            @Override
            public void close() {
                try {
                    super.close();
                } finally {
                    metrics.close();
                }
            }
        };
    }
}
