package org.openmft.agent.metrics;

import org.openmft.agent.config.ConfigurationException;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * What every process that serves metrics has (an agent, a queue manager, a logger): a Prometheus
 * registry whose meters all carry the process's name as a tag ({@code agent="SRC"},
 * {@code qmgr="QM1"}, {@code logger="LOG1"}), the JVM's meters, and the {@link MetricsEndpoint}
 * serving them. The process adds its own meters to {@link #registry()}.
 *
 * <p>Thread-safe; {@link #close} stops the endpoint and releases the meters.
 */
public final class ProcessMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry;
    private final JvmGcMetrics gc;
    private final MetricsEndpoint endpoint;

    private ProcessMetrics(PrometheusMeterRegistry registry, JvmGcMetrics gc, MetricsEndpoint endpoint) {
        this.registry = registry;
        this.gc = gc;
        this.endpoint = endpoint;
    }

    /**
     * Starts serving; the endpoint listens when this returns, so that a port in use stops the
     * process before it takes any work.
     *
     * @param tag   the tag naming the process: {@code agent}, {@code qmgr}, {@code logger}
     * @param name  its name, the tag's value
     * @param owner whose metrics, such as "logger LOG1", for thread names and messages
     * @throws ConfigurationException (exit 78) when the endpoint is not secure or cannot listen
     */
    public static ProcessMetrics start(MetricsSettings settings, String tag, String name, String owner)
            throws ConfigurationException {
        PrometheusMeterRegistry registry = registry(tag, name);
        JvmGcMetrics gc = bindJvm(registry);
        try {
            return new ProcessMetrics(registry, gc, MetricsEndpoint.start(settings, registry, owner));
        } catch (ConfigurationException | RuntimeException e) {
            gc.close();
            registry.close();
            throw e;
        }
    }

    /** Where the process's own meters go. */
    public MeterRegistry registry() {
        return registry;
    }

    /** The port the endpoint listens on. */
    public int port() {
        return endpoint.port();
    }

    /** Stops the endpoint and releases the meters. Never throws. */
    @Override
    public void close() {
        endpoint.close();
        gc.close();
        registry.close();
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
