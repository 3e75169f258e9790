package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

class LogSetupTest {
    @TempDir Path dir;

    @AfterEach
    void backToText() {
        LogSetup.applyFormat(new Properties(), Map.of());
    }

    @Test
    void jsonWritesOneObjectPerLineWithLevelLoggerAndMessage() throws Exception {
        LogSetup.applyFormat(props(LogSetup.FORMAT_PROPERTY, "JSON"), Map.of());
        var appender = LogSetup.addDaemonLog(dir, null, 2, 1);
        try {
            LoggerFactory.getLogger("org.openmft.test.Json").info("agent {} started", "SRC");
            LoggerFactory.getLogger("org.openmft.test.Json").warn("line one\nline \"two\"");
        } finally {
            LogSetup.remove(appender);
        }
        List<String> lines = Files.readAllLines(dir.resolve("output0.log"), StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank()).toList();
        assertThat(lines).hasSize(2);
        ObjectMapper json = new ObjectMapper();
        JsonNode first = json.readTree(lines.get(0));
        assertThat(first.get("level").asText()).isEqualTo("INFO");
        assertThat(first.get("loggerName").asText()).isEqualTo("org.openmft.test.Json");
        assertThat(first.get("message").asText()).isEqualTo("agent {} started");
        assertThat(first.get("formattedMessage").asText()).isEqualTo("agent SRC started");
        JsonNode second = json.readTree(lines.get(1));
        assertThat(second.get("level").asText()).isEqualTo("WARN");
        assertThat(second.get("message").asText()).isEqualTo("line one\nline \"two\"");
    }

    @Test
    void aPatternShapesTextLines() throws Exception {
        LogSetup.applyFormat(props(LogSetup.PATTERN_PROPERTY, "%level|%logger|%msg%n"), Map.of());
        assertThat(logOnce("org.openmft.test.Text", "hello")).isEqualTo("INFO|org.openmft.test.Text|hello\n");
    }

    @Test
    void whatCannotBeHonouredIsRefusedByName() {
        assertThatThrownBy(() -> LogSetup.applyFormat(props(LogSetup.FORMAT_PROPERTY, "xml"), Map.of()))
                .hasMessageContaining("openmft.log.format=xml").hasMessageContaining("json");
        assertThatThrownBy(() -> LogSetup.applyFormat(props(LogSetup.PATTERN_PROPERTY, "%nosuchword %msg"), Map.of()))
                .hasMessageContaining("openmft.log.pattern").hasMessageContaining("nosuchword");
        Properties both = props(LogSetup.FORMAT_PROPERTY, "json");
        both.setProperty(LogSetup.PATTERN_PROPERTY, "%msg%n");
        assertThatThrownBy(() -> LogSetup.applyFormat(both, Map.of())).hasMessageContaining("text logs only");
        assertThatThrownBy(() -> LogSetup.applyFormat(new Properties(), Map.of(LogSetup.FORMAT_ENV, "yaml")))
                .hasMessageContaining("OPENMFT_LOG_FORMAT=yaml");
    }

    @Test
    void theEnvironmentSetsAPatternWithSpacesAndAPropertyWinsOverIt() throws Exception {
        LogSetup.applyFormat(props(LogSetup.FORMAT_PROPERTY, "text"),
                Map.of(LogSetup.FORMAT_ENV, "json", LogSetup.PATTERN_ENV, "%level %msg%n"));
        assertThat(logOnce("org.openmft.test.Env", "from the environment")).isEqualTo("INFO from the environment\n");
    }

    /** Logs one INFO event into a daemon log file in {@code dir} and returns the file's text. */
    private String logOnce(String logger, String message) throws Exception {
        var appender = LogSetup.addDaemonLog(dir, null, 2, 1);
        try {
            LoggerFactory.getLogger(logger).info(message);
        } finally {
            LogSetup.remove(appender);
        }
        return Files.readString(dir.resolve("output0.log"));
    }

    private static Properties props(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return p;
    }
}
