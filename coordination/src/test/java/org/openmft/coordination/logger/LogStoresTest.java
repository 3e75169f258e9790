package org.openmft.coordination.logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.coordination.logger.Logs.T0;
import static org.openmft.coordination.logger.Logs.id;
import static org.openmft.coordination.logger.Logs.record;
import static org.openmft.coordination.logger.Logs.started;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.LoggerConfig;

/** logger.properties chooses the store. */
class LogStoresTest {

    @TempDir
    Path dir;

    @Test
    void aFileLoggerWritesIbmsFilesInItsLogDirectory() throws Exception {
        LoggerConfig config = LoggerConfig.from(Map.of("wmqfte.logger.type", "FILE", "wmqfte.queue.manager", "COORD1",
                "wmqfte.file.logger.mode", "LINEAR", "wmqfte.file.logger.fileSize", "1KB"), "lgr1", Map.of());
        try (LogStore store = LogStores.open(config, dir)) {
            assertThat(store).isInstanceOf(FileLogStore.class);
            store.storeAll(List.of(record(started(id(1), "A", "B", T0))));
        }
        assertThat(dir.resolve("LGR10.log")).isRegularFile();
    }

    @Test
    void aDatabaseLoggerDefaultsToH2InItsLogDirectory() throws Exception {
        LoggerConfig config = LoggerConfig.from(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager",
                "COORD1"), "lgr1", Map.of());
        try (LogStore store = LogStores.open(config, dir)) {
            assertThat(store).isInstanceOf(JdbcLogStore.class);
            store.storeAll(List.of(record(started(id(1), "A", "B", T0))));
            assertThat(store.transfer(id(1))).isPresent();
        }
        assertThat(dir.resolve("logger.mv.db")).isRegularFile();
    }

    @Test
    void aDatabaseLoggerUsesTheGivenUrlAndSchema() throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("elsewhere") + ";WRITE_DELAY=0";
        LoggerConfig config = LoggerConfig.from(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager",
                "COORD1", "openmft.database.url", url, "wmqfte.database.schema", "audit"), "lgr1", Map.of());
        try (LogStore store = LogStores.open(config, dir)) {
            assertThat(store.toString()).contains("elsewhere", "schema audit");
            store.storeAll(List.of(record(started(id(1), "A", "B", T0))));
            assertThat(store.transfers(TransferQuery.latest(5))).hasSize(1);
        }
        assertThat(dir.resolve("elsewhere.mv.db")).isRegularFile();
    }
}
