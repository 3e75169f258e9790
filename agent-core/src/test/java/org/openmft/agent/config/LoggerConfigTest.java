package org.openmft.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.LoggerProperties.DatabaseType;
import org.openmft.agent.config.LoggerProperties.FileLoggerMode;
import org.openmft.agent.config.LoggerProperties.LoggerType;

/** logger.properties, the logger's queues and its directories. */
class LoggerConfigTest {

    private static LoggerConfig parse(Map<String, String> raw) throws ConfigurationException {
        return LoggerConfig.from(raw, "lgr1", Map.of());
    }

    @Test
    void ibmDefaults() throws Exception {
        LoggerConfig config = parse(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "COORD1"));
        assertThat(config.loggerName()).isEqualTo("LGR1");
        assertThat(config.loggerType()).isEqualTo(LoggerType.DATABASE);
        assertThat(config.queueManager()).isEqualTo("COORD1");
        assertThat(config.maxTransactionMessages()).isEqualTo(50);
        assertThat(config.maxTransactionTime()).isEqualTo(Duration.ofMillis(5000));
        assertThat(config.maxConsecutiveReject()).isEqualTo(50);
        assertThat(config.rejectQueueName()).isEqualTo("SYSTEM.FTE.LOG.RJCT.LGR1");
        assertThat(config.commandQueueName()).isEqualTo("SYSTEM.FTE.LOG.CMD.LGR1");
        assertThat(config.endpoint()).isEqualTo(
                new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "COORD1", null, 1414, "SYSTEM.DEF.SVRCONN"));
        assertThat(config.databaseType()).isEqualTo(DatabaseType.H2);
        assertThat(config.databaseSchema()).isEqualTo("FTELOG");
        assertThat(config.databaseUrl()).isEmpty();
        assertThat(config.databaseUser()).isEmpty();
        assertThat(config.databasePassword()).isEmpty();
        assertThat(config.fileLoggerMode()).isEqualTo(FileLoggerMode.CIRCULAR);
        assertThat(config.fileSizeBytes()).isEqualTo(10L << 20);
        assertThat(config.fileCount()).isEqualTo(3);
        assertThat(config.dedupeKeys()).isEqualTo(1000);
        assertThat(config.warnings()).isEmpty();
        assertThat(config.get(LoggerProperties.MESSAGE_SOURCE_TYPE)).isEqualTo("automatic");
    }

    @Test
    void fileFromIbmSetupWithClientConnection(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("logger.properties");
        Files.writeString(file, String.join("\n",
                "wmqfte.logger.type=file",
                "wmqfte.queue.manager=COORD1",
                "wmqfte.queue.manager.host=hub.example.org",
                "wmqfte.queue.manager.port=1515",
                "wmqfte.queue.manager.channel=MFT.SVRCONN",
                "openmft.queue.manager.provider=ibmmq",
                "wmqfte.file.logger.mode=LINEAR",
                "wmqfte.file.logger.fileSize=512kb",
                "wmqfte.file.logger.fileCount=7",
                "wmqfte.reject.queue.name=MY.REJECTS",
                "wmqfte.command.queue.name=MY.COMMANDS",
                "wmqfte.max.transaction.messages=10",
                "wmqfte.max.transaction.time=250",
                "wmqfte.max.consecutive.reject=3",
                ""));
        LoggerConfig config = LoggerConfig.load(file, "Lgr1", Map.of());
        assertThat(config.loggerType()).isEqualTo(LoggerType.FILE);
        assertThat(config.endpoint()).isEqualTo(
                new QueueManagerEndpoint(MessagingProvider.IBMMQ, "COORD1", "hub.example.org", 1515, "MFT.SVRCONN"));
        assertThat(config.fileLoggerMode()).isEqualTo(FileLoggerMode.LINEAR);
        assertThat(config.fileSizeBytes()).isEqualTo(512 * 1024L);
        assertThat(config.fileCount()).isEqualTo(7);
        assertThat(config.rejectQueueName()).isEqualTo("MY.REJECTS");
        assertThat(config.commandQueueName()).isEqualTo("MY.COMMANDS");
        assertThat(config.maxTransactionMessages()).isEqualTo(10);
        assertThat(config.maxTransactionTime()).isEqualTo(Duration.ofMillis(250));
        assertThat(config.maxConsecutiveReject()).isEqualTo(3);
    }

    @Test
    void sizesTakeIbmUnits() {
        assertThat(LoggerConfig.parseSize("100")).isEqualTo(100);
        assertThat(LoggerConfig.parseSize("100B")).isEqualTo(100);
        assertThat(LoggerConfig.parseSize("5MB")).isEqualTo(5L << 20);
        assertThat(LoggerConfig.parseSize("2gb")).isEqualTo(2L << 30);
        assertThat(LoggerConfig.parseSize("999999999GB")).isEqualTo(999999999L << 30);
    }

    @Test
    void badValuesStopStartUpNamingKeyAndRange() {
        assertThatThrownBy(() -> parse(Map.of("wmqfte.queue.manager", "C")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("logger.properties: wmqfte.logger.type is required");
        assertThatThrownBy(() -> parse(Map.of("wmqfte.logger.type", "DATABASE")))
                .hasMessage("logger.properties: wmqfte.queue.manager is required");
        assertThatThrownBy(() -> parse(Map.of("wmqfte.logger.type", "SYSLOG", "wmqfte.queue.manager", "C")))
                .hasMessage("logger.properties: wmqfte.logger.type=SYSLOG is not allowed: one of FILE, DATABASE is "
                        + "required");
        assertThatThrownBy(() -> parse(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "C",
                "wmqfte.max.transaction.messages", "0")))
                .hasMessage("logger.properties: wmqfte.max.transaction.messages=0 is not allowed: an integer from 1 "
                        + "to 10000 (messages) is required");
        assertThatThrownBy(() -> parse(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "C",
                "wmqfte.database.type", "db2")))
                .hasMessage("logger.properties: wmqfte.database.type=db2 is not allowed: one of h2, postgresql is "
                        + "required");
        assertThatThrownBy(() -> parse(Map.of("wmqfte.logger.type", "FILE", "wmqfte.queue.manager", "C",
                "wmqfte.file.logger.fileSize", "2d")))
                .hasMessageStartingWith("logger.properties: wmqfte.file.logger.fileSize=2d is not allowed: a size");
    }

    @Test
    void postgresqlNeedsAUrlOfItsOwnKind() throws Exception {
        assertThatThrownBy(() -> parse(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "C",
                "wmqfte.database.type", "postgresql")))
                .hasMessage("logger.properties: openmft.database.url is required when wmqfte.database.type=postgresql");
        assertThatThrownBy(() -> parse(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "C",
                "wmqfte.database.type", "postgresql", "openmft.database.url", "jdbc:h2:mem:x")))
                .hasMessageContaining("a jdbc:postgresql: URL is required");

        LoggerConfig config = parse(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "C",
                "wmqfte.database.type", "PostgreSQL", "openmft.database.url", "jdbc:postgresql://db:5432/mft",
                "openmft.database.user", "mft", "openmft.database.password", "s3cret", "wmqfte.database.schema",
                "audit"));
        assertThat(config.databaseType()).isEqualTo(DatabaseType.POSTGRESQL);
        assertThat(config.databaseUrl()).isEqualTo(Optional.of("jdbc:postgresql://db:5432/mft"));
        assertThat(config.databaseUser()).contains("mft");
        assertThat(config.databasePassword()).contains("s3cret");
        assertThat(config.databaseSchema()).isEqualTo("audit");
        assertThat(config.describe()).contains("openmft.database.password=********").doesNotContain("s3cret")
                .contains("openmft.database.user=mft");
    }

    @Test
    void theDatabaseUserAndPasswordMayComeFromIbmsCredentialsFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("MQMFTCredentials.xml");
        Files.writeString(file, "<tns:mqmftCredentials xmlns:tns=\"http://wmqfte.ibm.com/MQMFTCredentials\">"
                + "<tns:logger user=\"anyone\" password=\"generic\"/>"
                + "<tns:logger name=\"LOG1\" user=\"mftlog\" password=\"p&amp;w\"/></tns:mqmftCredentials>");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Map<String, String> raw = Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "C",
                "wmqfte.database.type", "postgresql", "openmft.database.url", "jdbc:postgresql://db/mft",
                "wmqfte.database.credentials", file.toString());
        LoggerConfig config = LoggerConfig.from(raw, "log1", Map.of());
        assertThat(config.databaseUser()).contains("mftlog");
        assertThat(config.databasePassword()).contains("p&w");
        assertThat(config.databaseCredentialsFile()).isTrue();
        assertThat(LoggerConfig.from(raw, "LOG2", Map.of()).databaseUser()).as("the entry without a name")
                .contains("anyone");

        var both = new java.util.HashMap<>(raw);
        both.put("openmft.database.password", "x");
        assertThatThrownBy(() -> LoggerConfig.from(both, "LOG1", Map.of()))
                .hasMessageContaining("wmqfte.database.credentials and openmft.database.password are both set");
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> LoggerConfig.from(raw, "LOG1", Map.of()))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("chmod 600");
    }

    @Test
    void ibmKeysOpenMftIgnoresAreWarnedAbout() throws Exception {
        LoggerConfig config = parse(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "C",
                "wmqfte.message.source.type", "queue", "wmqfte.database.driver", "/opt/db2/db2jcc4.jar",
                "wmqfte.ssl.fips.required", "false", "wmqfte.database.typo", "x"));
        assertThat(config.warnings()).containsExactly(
                "'wmqfte.message.source.type' is recognised but not supported yet by OpenMFT and is ignored",
                "'wmqfte.database.driver' is recognised but not supported yet by OpenMFT and is ignored",
                "unknown key 'wmqfte.database.typo' in logger.properties is ignored");
        assertThat(config.get(LoggerProperties.MESSAGE_SOURCE_TYPE)).isEqualTo("automatic");
    }

    @Test
    void loggerQueuesAreIbms() {
        assertThat(QueueNames.loggerCommand("lgr1")).isEqualTo("SYSTEM.FTE.LOG.CMD.LGR1");
        assertThat(QueueNames.loggerReject("lgr1")).isEqualTo("SYSTEM.FTE.LOG.RJCT.LGR1");
        String longest = "L234567890123456789012345678";
        assertThat(QueueNames.loggerReject(longest)).hasSize(QueueNames.MAX_QUEUE_NAME_LENGTH);
        assertThatThrownBy(() -> QueueNames.loggerReject(longest + "9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("logger name 'L2345678901234567890123456789' is not valid");
        assertThatThrownBy(() -> LoggerConfig.from(Map.of(), "bad/name", Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void loggerLayoutMirrorsIbm(@TempDir Path root) {
        DataDirectory data = DataDirectory.of(root);
        assertThat(data.loggerDir("COORD1", "lgr1")).isEqualTo(root.resolve("config/COORD1/loggers/LGR1"));
        assertThat(data.loggerProperties("COORD1", "lgr1"))
                .isEqualTo(root.resolve("config/COORD1/loggers/LGR1/logger.properties"));
        assertThat(data.loggerLogDir("COORD1", "lgr1")).isEqualTo(root.resolve("logs/COORD1/loggers/LGR1"));
        assertThatThrownBy(() -> data.loggerLogDir("COORD1", "../x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> data.loggerDir("..", "lgr1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theReferenceListsTheLoggerKeys() {
        String md = ConfigReference.markdown();
        assertThat(md).contains("\n### logger.properties\n");
        assertThat(md.lines()).anyMatch(l -> l.startsWith("| `wmqfte.max.transaction.messages` | `50` |"))
                .anyMatch(l -> l.startsWith("| `wmqfte.logger.type` | required |"))
                .anyMatch(l -> l.startsWith("| `wmqfte.reject.queue.name` | none |"))
                .anyMatch(l -> l.startsWith("| `wmqfte.message.source.type` | `automatic` | any text | no |"));
    }
}
