package org.openmft.agent.metrics;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.Queue;
import org.openmft.agent.config.ConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * An embedded queue manager's metrics, tagged {@code qmgr}, with the JVM's, served by a
 * {@link MetricsEndpoint}:
 * <ul>
 * <li>{@code openmft_qmgr_queue_depth{queue}}: messages on each durable queue (the agents'
 * {@code SYSTEM.FTE.*} queues, the channels' transmission queues {@code SYSTEM.CHANNEL.XMIT.*},
 * application queues); temporary queues (replies of commands) are left out, so the number of series
 * follows what the administrator and the agents defined;</li>
 * <li>{@code openmft_qmgr_channel_state{channel,state}}: 1 for each channel's current state
 * ({@code RUNNING}, {@code RETRYING}, {@code STOPPED}), 0 for the others, as {@code mft qmgr
 * channel list} shows them.</li>
 * </ul>
 * Which queues and channels exist is looked at every {@value #REFRESH_SECONDS} seconds on the queue
 * manager's scheduled thread; a depth itself is read on each scrape.
 *
 * <p>Thread-safe; {@link #close} stops the endpoint and the refresh.
 */
public final class QueueManagerMetrics implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(QueueManagerMetrics.class);

    /** How often the set of queues and channels is refreshed. */
    public static final long REFRESH_SECONDS = 2;
    /** The states a channel can be in. */
    static final List<String> CHANNEL_STATES = List.of("RUNNING", "RETRYING", "STOPPED");

    /** A channel's state as the queue manager's channels report it. */
    public record ChannelState(String channel, String state) {
    }

    private final ProcessMetrics metrics;
    private final ScheduledFuture<?> refresh;

    private QueueManagerMetrics(ProcessMetrics metrics, ScheduledFuture<?> refresh) {
        this.metrics = metrics;
        this.refresh = refresh;
    }

    /**
     * Reads {@code metrics.*} from a queue manager's {@code qmgr.properties}.
     *
     * @param directory the queue manager's directory
     * @return the checked settings, or null when {@code metrics.port} is not set
     * @throws ConfigurationException (exit 78) naming the key when a value is malformed or the
     *                                endpoint would not be secure
     */
    public static MetricsSettings settings(Path directory) throws ConfigurationException {
        Path file = directory.resolve("qmgr.properties");
        java.util.Properties p = new java.util.Properties();
        try (var in = java.nio.file.Files.newInputStream(file)) {
            p.load(in);
        } catch (java.io.IOException e) {
            throw new ConfigurationException("cannot read " + file + ": " + e.getMessage(), e);
        }
        MetricsSettings s = MetricsSettings.fromQueueManager(p, file);
        return s == null ? null : s.check();
    }

    /**
     * Starts serving the metrics of a running queue manager.
     *
     * @param qmgr      its name
     * @param server    its broker
     * @param channels  its channels' states now (called on {@code scheduler}'s thread)
     * @param scheduler the queue manager's scheduled thread pool, for the refresh
     * @throws ConfigurationException (exit 78) when the endpoint cannot be served
     */
    public static QueueManagerMetrics start(MetricsSettings settings, String qmgr, ActiveMQServer server,
            Supplier<List<ChannelState>> channels, ScheduledExecutorService scheduler) throws ConfigurationException {
        ProcessMetrics metrics = ProcessMetrics.start(settings, "qmgr", qmgr, "queue manager " + qmgr);
        MeterRegistry registry = metrics.registry();
        MultiGauge depths = MultiGauge.builder("openmft.qmgr.queue.depth")
                .description("Messages on the queue").baseUnit("messages").register(registry);
        MultiGauge states = MultiGauge.builder("openmft.qmgr.channel.state")
                .description("1 for the channel's current state, 0 for the others").register(registry);
        Runnable update = () -> {
            try {
                refresh(server, depths, states, channels.get());
            } catch (RuntimeException e) {
                // Scheduled work catches everything: one failure must not end the refresh.
                log.debug("Queue manager {}: metrics not refreshed: {}", qmgr, e.toString());
            }
        };
        update.run();
        return new QueueManagerMetrics(metrics,
                scheduler.scheduleWithFixedDelay(update, REFRESH_SECONDS, REFRESH_SECONDS, TimeUnit.SECONDS));
    }

    private static void refresh(ActiveMQServer server, MultiGauge depths, MultiGauge states,
            List<ChannelState> channels) {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (var binding : server.getPostOffice().getAllBindings().toList()) {
            if (binding.getBindable() instanceof Queue q && q.isDurable() && !q.isTemporary() && !q.isInternalQueue()) {
                rows.add(MultiGauge.Row.of(Tags.of("queue", q.getName().toString()), q, Queue::getMessageCount));
            }
        }
        depths.register(rows, true);
        List<MultiGauge.Row<?>> stateRows = new ArrayList<>();
        for (ChannelState c : channels) {
            for (String state : CHANNEL_STATES) {
                stateRows.add(MultiGauge.Row.of(Tags.of("channel", c.channel(), "state", state),
                        state.equals(c.state().toUpperCase(Locale.ROOT)) ? 1 : 0));
            }
        }
        states.register(stateRows, true);
    }

    /** The port the endpoint listens on. */
    public int port() {
        return metrics.port();
    }

    /** Stops the endpoint and the refresh. Never throws. */
    @Override
    public void close() {
        refresh.cancel(false);
        metrics.close();
    }
}
