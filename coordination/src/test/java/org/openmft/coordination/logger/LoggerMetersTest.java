package org.openmft.coordination.logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.metrics.PrometheusScrapes;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** The logger's meters around a store that fails on demand, and the sample dashboard's logger panels. */
class LoggerMetersTest {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    /** A store that takes nothing: the database is down. */
    private static final class Down implements LogStore {
        @Override
        public List<StoreOutcome> storeAll(List<LogRecord> records) throws LogStoreException {
            throw new LogStoreException("connection refused");
        }

        @Override
        public List<StoredTransfer> transfers(TransferQuery query) {
            return List.of();
        }

        @Override
        public Optional<StoredTransfer> transfer(String transferId) {
            return Optional.empty();
        }

        @Override
        public void close() {
        }
    }

    private LoggerMeters meters() throws Exception {
        LoggerMeters meters = new LoggerMeters(new Down(), registry, Clock.systemUTC());
        LoggerConfig config = LoggerConfig.from(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager",
                "QMC"), "LOG1", Map.of());
        meters.watch(new LogSubscriber(config, null, meters));
        return meters;
    }

    @Test
    void aBatchTheStoreCannotTakeIsCountedAsAFailureAndNothingAsStored() throws Exception {
        LoggerMeters meters = meters();
        assertThatThrownBy(() -> meters.storeAll(List.of())).isInstanceOf(LogStoreException.class);
        assertThat(registry.get("openmft.logger.store.failures").counter().count()).isEqualTo(1);
        assertThat(registry.get("openmft.logger.store").timer().count()).isZero();
        assertThat(registry.get("openmft.logger.connected").gauge().value()).isZero();
        assertThat(registry.scrape()).contains("openmft_logger_publications_total{status=\"stored\",type=\"transfer\"} 0");
    }

    /** Every logger metric the sample Grafana dashboard queries is one the logger exposes. */
    @Test
    void theGrafanaDashboardQueriesOnlyLoggerMetricsThatExist() throws Exception {
        meters();
        String dashboard = Files.readString(Path.of("..", "docs", "grafana", "openmft-dashboard.json"));
        Set<String> referenced = new TreeSet<>();
        Matcher m = Pattern.compile("\\b(openmft_logger_[a-z_]+)").matcher(dashboard);
        while (m.find()) {
            referenced.add(m.group(1));
        }
        assertThat(referenced).as("logger metrics the dashboard queries").isNotEmpty();
        assertThat(PrometheusScrapes.seriesNames(registry.scrape())).containsAll(referenced);
    }
}
