package org.openmft.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.json.JSONObject;
import org.junit.jupiter.api.Test;
import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.AgentService;
import org.openmft.agent.ForwardingAgentListener;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.transfer.source.FakeClock;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** The agent's meters against a scripted sequence of listener events, with a clock the test moves. */
class AgentMetersTest {
    private static final String AGENT = "SRC";

    /** The next service: counts what reaches it and says how many publications wait. */
    static final class Next extends ForwardingAgentListener implements AgentService, PublicationBacklog {
        final List<String> heard = new CopyOnWriteArrayList<>();
        volatile int waiting;

        @Override
        protected org.openmft.agent.AgentListener delegate() {
            return org.openmft.agent.AgentListener.NONE;
        }

        @Override
        public void transferEnded(String agent, Role role, TransferOutcome outcome) {
            heard.add("ended " + role + " " + outcome.transferId());
        }

        @Override
        public void progress(String agent, String transferId, int item, long itemBytesSent, long bytesSent) {
            heard.add("progress " + bytesSent);
        }

        @Override
        public int publicationsWaiting() {
            return waiting;
        }

        @Override
        public void start() {
            heard.add("start");
        }

        @Override
        public void close() {
            heard.add("close");
        }
    }

    private final FakeClock clock = new FakeClock();
    private final PrometheusMeterRegistry registry = ProcessMetrics.registry("agent", AGENT);
    private final Next next = new Next();
    private final AgentMeters meters = new AgentMeters(registry, next, clock);

    private static TransferInfo info(String id) {
        return new TransferInfo(id, null, null, null, null, 0, Map.of(), Instant.EPOCH, List.of(), 1);
    }

    private static TransferOutcome outcome(String id, int result) {
        return new TransferOutcome(id, result, null, List.of(), Instant.EPOCH, Instant.EPOCH);
    }

    private double gauge(String name, String... tags) {
        return registry.get(name).tags(tags).gauge().value();
    }

    private double counter(String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    @Test
    void aSourceTransferIsQueuedRunsCountsItsBytesOnceAndEndsUnderItsResult() {
        meters.transferQueued(AGENT, info("T1"), 1);
        meters.transferQueued(AGENT, info("T2"), 2);
        assertThat(gauge("openmft.agent.transfers.queued")).isEqualTo(2);

        meters.transferStarted(AGENT, Role.SOURCE, info("T1"));
        assertThat(gauge("openmft.agent.transfers.queued")).isEqualTo(1);
        assertThat(gauge("openmft.agent.transfers.running", "role", "source")).isEqualTo(1);
        assertThat(gauge("openmft.agent.transfers.running", "role", "destination")).isZero();

        meters.progress(AGENT, "T1", 0, 100, 100);
        meters.progress(AGENT, "T1", 0, 300, 300);
        // A gap at chunk 2 of 100 bytes: the source goes back and sends chunks 2 and 3 again; its
        // total (resends included) passes 300 by them before anything new is sent.
        meters.resending(AGENT, "T1", 2, "the destination reported a gap");
        meters.chunkResent(AGENT, "T1", 2, 100);
        meters.chunkResent(AGENT, "T1", 3, 100);
        meters.progress(AGENT, "T1", 0, 500, 500);
        assertThat(counter("openmft.agent.sent")).isEqualTo(300);
        meters.progress(AGENT, "T1", 0, 700, 700);
        assertThat(counter("openmft.agent.sent")).isEqualTo(500);
        assertThat(counter("openmft.agent.chunk.resends")).isEqualTo(2);
        assertThat(counter("openmft.agent.resent")).isEqualTo(200);
        assertThat(counter("openmft.agent.rewinds")).isEqualTo(1);

        // The item's result says what the progress events said already: nothing more is counted.
        meters.itemCompleted(AGENT, Role.SOURCE, "T1", new ItemOutcome(0, "a", "b", 500, ItemOutcome.SUCCESS,
                null, null));
        assertThat(counter("openmft.agent.sent")).isEqualTo(500);
        meters.transferEnded(AGENT, Role.SOURCE, outcome("T1", 0));
        // T2 was cancelled while it waited.
        meters.transferEnded(AGENT, Role.SOURCE, outcome("T2", 41));
        // A late progress event of an ended transfer counts nothing.
        meters.progress(AGENT, "T1", 0, 900, 900);

        assertThat(counter("openmft.agent.sent")).isEqualTo(500);
        assertThat(gauge("openmft.agent.transfers.queued")).isZero();
        assertThat(gauge("openmft.agent.transfers.running", "role", "source")).isZero();
        assertThat(counter("openmft.agent.transfers.ended", "role", "source", "result", "0", "outcome", "success"))
                .isEqualTo(1);
        assertThat(counter("openmft.agent.transfers.ended", "role", "source", "result", "41", "outcome",
                "cancelled")).isEqualTo(1);
        // Every event went on to the next service.
        assertThat(next.heard).containsSubsequence("progress 100", "progress 700", "ended SOURCE T1",
                "ended SOURCE T2", "progress 900");
    }

    @Test
    void aTransferThatFitsInOneWindowCountsItsBytesFromItsItems() {
        // No acknowledgement moves the window before the item is done: no progress event at all.
        meters.transferStarted(AGENT, Role.SOURCE, info("T5"));
        meters.itemCompleted(AGENT, Role.SOURCE, "T5", new ItemOutcome(0, "a", "b", 1234, ItemOutcome.SUCCESS,
                null, null));
        meters.itemCompleted(AGENT, Role.SOURCE, "T5", new ItemOutcome(1, "c", "d", 99, ItemOutcome.FAILED,
                "no space", null));
        meters.transferEnded(AGENT, Role.SOURCE, outcome("T5", 20));
        assertThat(counter("openmft.agent.sent")).isEqualTo(1234);
    }

    @Test
    void aDestinationTransferHasACheckpointLagAndCountsItsBytesAsTheyAreWritten() {
        assertThat(gauge("openmft.agent.checkpoint.lag")).isZero();
        meters.transferStarted(AGENT, Role.DESTINATION, info("T3"));
        clock.advance(Duration.ofSeconds(5));
        assertThat(gauge("openmft.agent.checkpoint.lag")).isEqualTo(5.0);
        meters.checkpointed(AGENT, "T3", 10);
        assertThat(gauge("openmft.agent.checkpoint.lag")).isZero();
        clock.advance(Duration.ofMillis(2500));
        assertThat(gauge("openmft.agent.checkpoint.lag")).isEqualTo(2.5);

        // Counted chunk by chunk, before the item is done; the item's result adds nothing.
        meters.chunkWritten(AGENT, "T3", 0, 400);
        assertThat(counter("openmft.agent.received")).isEqualTo(400);
        meters.chunkWritten(AGENT, "T3", 0, 300);
        meters.itemCompleted(AGENT, Role.DESTINATION, "T3", new ItemOutcome(0, "a", "b", 700, ItemOutcome.SUCCESS,
                null, null));
        meters.itemCompleted(AGENT, Role.DESTINATION, "T3", new ItemOutcome(1, "c", "d", 50, ItemOutcome.FAILED,
                "no space", null));
        assertThat(counter("openmft.agent.received")).isEqualTo(700);

        meters.transferEnded(AGENT, Role.DESTINATION, outcome("T3", 20));
        assertThat(gauge("openmft.agent.checkpoint.lag")).isZero();
        assertThat(gauge("openmft.agent.transfers.running", "role", "destination")).isZero();
        assertThat(counter("openmft.agent.transfers.ended", "role", "destination", "result", "20", "outcome",
                "partial_success")).isEqualTo(1);
    }

    @Test
    void reconnectsBacklogAndTheServiceLifecycleGoThrough() {
        assertThat(gauge("openmft.agent.queue.manager.connected")).isEqualTo(1);
        meters.connectionLost(AGENT, "QM1", "AMQ219016: connection failure");
        assertThat(gauge("openmft.agent.queue.manager.connected")).isZero();
        meters.connectionRestored(AGENT, "QM1");
        assertThat(gauge("openmft.agent.queue.manager.connected")).isEqualTo(1);
        assertThat(counter("openmft.agent.queue.manager.reconnects")).isEqualTo(1);

        next.waiting = 42;
        assertThat(gauge("openmft.agent.publication.backlog")).isEqualTo(42);

        meters.start();
        meters.close();
        assertThat(next.heard).containsExactly("start", "close");
    }

    @Test
    void theScrapeNamesEveryMeterWithTheAgentLabelInPrometheusSpelling() {
        meters.transferEnded(AGENT, Role.SOURCE, outcome("T9", 40));
        ProcessMetrics.bindJvm(registry).close();
        String text = registry.scrape();
        assertThat(text).contains("openmft_agent_transfers_running{agent=\"SRC\",role=\"source\"} 0",
                "openmft_agent_transfers_queued{agent=\"SRC\"} 0", "openmft_agent_sent_bytes_total{agent=\"SRC\"} 0",
                "openmft_agent_received_bytes_total{agent=\"SRC\"} 0",
                "openmft_agent_chunk_resends_total{agent=\"SRC\"} 0",
                "openmft_agent_resent_bytes_total{agent=\"SRC\"} 0", "openmft_agent_rewinds_total{agent=\"SRC\"} 0",
                "openmft_agent_checkpoint_lag_seconds{agent=\"SRC\"} 0",
                "openmft_agent_publication_backlog{agent=\"SRC\"} 0",
                "openmft_agent_queue_manager_reconnects_total{agent=\"SRC\"} 0",
                "openmft_agent_queue_manager_connected{agent=\"SRC\"} 1",
                "openmft_agent_transfers_ended_total{agent=\"SRC\",outcome=\"failed\",result=\"40\",role=\"source\"} 1",
                "jvm_memory_used_bytes{");
    }

    /**
     * The sample Grafana dashboard is valid JSON and every OpenMFT metric it queries is one the agents
     * or the queue managers expose (by their Prometheus names).
     */
    @Test
    void theGrafanaDashboardQueriesOnlyMetricsThatExist() throws IOException {
        Path file = Path.of("..", "docs", "grafana", "openmft-dashboard.json");
        JSONObject dashboard = new JSONObject(Files.readString(file));
        assertThat(dashboard.getJSONArray("panels").length()).isPositive();

        // A counter by result exists once a transfer ended.
        meters.transferEnded(AGENT, Role.SOURCE, outcome("T1", 0));
        Set<String> exposed = new TreeSet<>(PrometheusScrapes.seriesNames(registry.scrape()));
        exposed.addAll(PrometheusScrapes.seriesNames(qmgrScrape()));
        Set<String> referenced = new TreeSet<>();
        Matcher m = Pattern.compile("\\b(openmft_[a-z_]+|jvm_[a-z_]+|process_[a-z_]+)").matcher(dashboard.toString());
        while (m.find()) {
            if (!m.group(1).startsWith("openmft_logger_")) { // the logger's: LoggerMetersTest in coordination
                referenced.add(m.group(1));
            }
        }
        assertThat(referenced).as("metrics the dashboard queries").isNotEmpty();
        assertThat(exposed).containsAll(referenced);
    }

    private static String qmgrScrape() {
        PrometheusMeterRegistry qmgr = ProcessMetrics.registry("qmgr", "QM1");
        ProcessMetrics.bindJvm(qmgr).close();
        io.micrometer.core.instrument.MultiGauge.builder("openmft.qmgr.queue.depth").baseUnit("messages")
                .register(qmgr).register(List.of(io.micrometer.core.instrument.MultiGauge.Row.of(
                        io.micrometer.core.instrument.Tags.of("queue", "Q"), 1)));
        io.micrometer.core.instrument.MultiGauge.builder("openmft.qmgr.channel.state").register(qmgr)
                .register(List.of(io.micrometer.core.instrument.MultiGauge.Row.of(
                        io.micrometer.core.instrument.Tags.of("channel", "QM2", "state", "RUNNING"), 1)));
        return qmgr.scrape();
    }


    @Test
    void anEndpointOffLoopbackIsRefusedWithoutTlsAndALogin(@org.junit.jupiter.api.io.TempDir Path dir) {
        MetricsSettings open = new MetricsSettings(MetricsSettings.AGENT_PREFIX, "agent.properties", 9464, "0.0.0.0",
                null, "jks", null, null);
        assertThatThrownBy(open::check).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("openmft.metrics.keyStore").hasMessageContaining("not a loopback address");
        MetricsSettings noLogin = new MetricsSettings(MetricsSettings.AGENT_PREFIX, "agent.properties", 9464,
                "0.0.0.0", dir.resolve("k.p12"), "pkcs12", dir.resolve("k.pw"), null);
        assertThatThrownBy(noLogin::check).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("openmft.metrics.credentialsFile");
        MetricsSettings noPassword = new MetricsSettings(MetricsSettings.QMGR_PREFIX, "qmgr.properties", 9464,
                "127.0.0.1", dir.resolve("k.p12"), "pkcs12", null, null);
        assertThatThrownBy(noPassword::check).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("metrics.keyStoreCredentialsFile");
        MetricsSettings loopback = new MetricsSettings(MetricsSettings.AGENT_PREFIX, "agent.properties", 9464,
                "127.0.0.1", null, "jks", null, null);
        assertThat(loopback.tls()).isFalse();
    }

    @Test
    void agentPropertiesTurnTheEndpointOnAndAreCheckedAtTheAgentsStart() throws Exception {
        Map<String, String> raw = new java.util.HashMap<>(Map.of("agentName", "SRC", "agentQMgr", "QM1"));
        assertThat(org.openmft.agent.config.AgentConfig.from(raw, Map.of()).metrics()).isEmpty();
        raw.put("openmft.metrics.port", "9464");
        assertThat(org.openmft.agent.config.AgentConfig.from(raw, Map.of()).metrics()).get()
                .satisfies(m -> assertThat(m.bindAddress()).isEqualTo("127.0.0.1"));
        raw.put("openmft.metrics.bindAddress", "0.0.0.0");
        var config = org.openmft.agent.config.AgentConfig.from(raw, Map.of());
        assertThatThrownBy(config::metrics).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("openmft.metrics.keyStore").hasMessageContaining("0.0.0.0");
        assertThatThrownBy(() -> AgentMetrics.wrap(config, AgentService.NONE))
                .isInstanceOf(ConfigurationException.class);
    }

    @Test
    void aQueueManagerTurnsItsEndpointOnWithMetricsPort(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("qmgr.properties"), "name=QM1\nport=1414\n");
        assertThat(QueueManagerMetrics.settings(dir)).isNull();
        Files.writeString(dir.resolve("qmgr.properties"), "name=QM1\nmetrics.port=9465\nmetrics.bindAddress=0.0.0.0\n");
        assertThatThrownBy(() -> QueueManagerMetrics.settings(dir)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("metrics.keyStore");
        Files.writeString(dir.resolve("qmgr.properties"), "name=QM1\nmetrics.port=x\n");
        assertThatThrownBy(() -> QueueManagerMetrics.settings(dir)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("metrics.port=x is not a number");
        Files.writeString(dir.resolve("qmgr.properties"), "name=QM1\nmetrics.port=9465\n");
        assertThat(QueueManagerMetrics.settings(dir).bindAddress()).isEqualTo("127.0.0.1");
    }
}
