package org.openmft.coordination.logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.coordination.logger.Logs.T0;
import static org.openmft.coordination.logger.Logs.id;
import static org.openmft.coordination.logger.Logs.record;
import static org.openmft.coordination.logger.Logs.started;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The contract on the default store: an embedded H2 file database. */
class H2LogStoreTest extends JdbcLogStoreContract {

    @TempDir
    Path directory;

    private String url;

    @BeforeEach
    void database() {
        url = JdbcLogStore.h2Url(directory);
    }

    @Override
    String url() {
        return url;
    }

    @Override
    String user() {
        return null;
    }

    @Override
    String password() {
        return null;
    }

    @Override
    void cutConnections() throws Exception {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
    }

    @Test
    void theDefaultDatabaseIsAFileInTheGivenDirectory() throws Exception {
        Path dir = directory.resolve("logs/COORD1/loggers/LGR1");
        try (JdbcLogStore store = JdbcLogStore.openH2(dir)) {
            store.storeAll(List.of(record(started(id(1), "A", "B", T0))));
            assertThat(store.toString()).contains("jdbc:h2:file:" + dir.resolve("logger"), "FTELOG");
        }
        assertThat(dir.resolve("logger.mv.db")).isRegularFile();
        try (JdbcLogStore again = JdbcLogStore.openH2(dir)) {
            assertThat(again.transfer(id(1))).isPresent();
        }
    }

    @Test
    void aCommittedBatchSurvivesAKilledProcess() throws Exception {
        Path dir = directory.resolve("killed");
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin",
                "java").toString());
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                StoreThenHalt.class.getName(), dir.toString())
                .redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes());
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(output).isEqualTo(StoreThenHalt.HALTED);
        assertThat(output).contains(StoreThenHalt.STORED);
        assertThat(Files.exists(dir.resolve("logger.mv.db"))).isTrue();

        try (JdbcLogStore store = JdbcLogStore.openH2(dir)) {
            for (int i = 0; i < StoreThenHalt.TRANSFERS; i++) {
                assertThat(store.transfer(id(i))).as("transfer %d", i).isPresent();
            }
        }
    }
}
