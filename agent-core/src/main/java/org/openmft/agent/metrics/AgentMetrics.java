package org.openmft.agent.metrics;

import java.time.Clock;

import org.openmft.agent.AgentService;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * Puts an agent's metrics together when {@code openmft.metrics.port} asks for them: a registry
 * tagged with the agent's name, the JVM's meters, the agent's {@link AgentMeters} in front of its
 * service, and the {@link MetricsEndpoint} serving them, which lives as long as the service.
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
        PrometheusMeterRegistry registry = registry("agent", config.agentName());
        JvmGcMetrics gc = bindJvm(registry);
        MetricsEndpoint endpoint;
        try {
            endpoint = MetricsEndpoint.start(settings.get(), registry, "agent " + config.agentName());
        } catch (ConfigurationException | RuntimeException e) {
            gc.close();
            registry.close();
            throw e;
        }
        return new AgentMeters(registry, service, Clock.systemUTC()) {
            @Override
            public void close() {
                try {
                    super.close();
                } finally {
                    endpoint.close();
                    gc.close();
                    registry.close();
                }
            }
        };
    }

    /** A Prometheus registry whose meters all carry {@code tag=value}. */
    static PrometheusMeterRegistry registry(String tag, String value) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags(tag, value);
        return registry;
    }

    /**
     * Binds the JVM basics (memory, garbage collection, threads, classes, CPU, uptime).
     *
     * @return the garbage collection meters, which hold a notification listener until closed
     */
    static JvmGcMetrics bindJvm(PrometheusMeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        return gc;
    }
}
