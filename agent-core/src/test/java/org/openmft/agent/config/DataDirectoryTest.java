package org.openmft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DataDirectoryTest {

    @Test
    void explicitPathWinsOverEnvironmentAndHome(@TempDir Path dir) {
        Path explicit = dir.resolve("explicit");
        DataDirectory data = DataDirectory.resolve(explicit, Map.of("OPENMFT_DATA", dir.resolve("env").toString()));
        assertEquals(explicit, data.root());
    }

    @Test
    void environmentWinsOverHome(@TempDir Path dir) {
        Path env = dir.resolve("env");
        assertEquals(env, DataDirectory.resolve(null, Map.of("OPENMFT_DATA", env + " ")).root());
    }

    @Test
    void homeIsTheLastResort() {
        Path expected = Path.of(System.getProperty("user.home"), ".openmft").toAbsolutePath().normalize();
        assertEquals(expected, DataDirectory.resolve(null, Map.of()).root());
        assertEquals(expected, DataDirectory.resolve(null, Map.of("OPENMFT_DATA", "  ")).root(),
                "a blank variable counts as unset");
    }

    @Test
    void relativePathsBecomeAbsolute() {
        DataDirectory data = DataDirectory.resolve(Path.of("rel/../data"), Map.of());
        assertTrue(data.root().isAbsolute());
        assertEquals(Path.of("data").toAbsolutePath().normalize(), data.root());
    }

    @Test
    void layoutMirrorsIbm(@TempDir Path root) {
        DataDirectory data = DataDirectory.of(root);
        assertEquals(root.resolve("config/installation.properties"), data.installationProperties());
        assertEquals(root.resolve("config/COORD1"), data.configDir("COORD1"));
        assertEquals(root.resolve("config/COORD1/coordination.properties"), data.coordinationProperties("COORD1"));
        assertEquals(root.resolve("config/COORD1/command.properties"), data.commandProperties("COORD1"));
        assertEquals(root.resolve("config/COORD1/agents/AGENT1"), data.agentDir("COORD1", "agent1"));
        assertEquals(root.resolve("config/COORD1/agents/AGENT1/agent.properties"),
                data.agentProperties("COORD1", "Agent1"));
        assertEquals(root.resolve("config/COORD1/agents/AGENT1/AGENT1_create.mqsc"),
                data.agentMqsc("COORD1", "agent1", DataDirectory.MqscAction.CREATE));
        assertEquals(root.resolve("config/COORD1/agents/AGENT1/AGENT1_delete.mqsc"),
                data.agentMqsc("COORD1", "agent1", DataDirectory.MqscAction.DELETE));
        assertEquals(root.resolve("logs/COORD1/agents/AGENT1/logs"), data.agentLogDir("COORD1", "agent1"));
        assertEquals(root.resolve("qmgrs"), data.qmgrsDir());
        assertEquals(root.resolve("qmgrs/QM.one"), data.qmgrDir("QM.one"), "queue manager names keep their case");
        assertEquals(root.resolve("logs/qmgrs/QM.one"), data.qmgrLogDir("QM.one"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"..", ".", "a/b", "../etc", "", "QM 1", "ABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJABCDEFGHIJ"})
    void queueManagerNamesThatCannotNameADirectoryAreRefused(String name, @TempDir Path root) {
        DataDirectory data = DataDirectory.of(root);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> data.qmgrDir(name));
        assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> data.configDir(name));
    }

    @Test
    void agentNamesAreValidatedInPaths(@TempDir Path root) {
        DataDirectory data = DataDirectory.of(root);
        assertThrows(IllegalArgumentException.class, () -> data.agentDir("COORD1", "../x"));
    }

    @Test
    void defaultCoordination(@TempDir Path root) throws IOException, ConfigurationException {
        DataDirectory data = DataDirectory.of(root);
        assertEquals(Optional.empty(), data.defaultCoordination(), "no installation.properties yet");

        Files.createDirectories(data.installationProperties().getParent());
        Files.writeString(data.installationProperties(), "# written by setup\ndefaultProperties = COORD1 \n");
        assertEquals(Optional.of("COORD1"), data.defaultCoordination());

        Files.writeString(data.installationProperties(), "defaultProperties=\n");
        assertEquals(Optional.empty(), data.defaultCoordination());

        Files.writeString(data.installationProperties(), "defaultProperties=bad name\n");
        ConfigurationException e = assertThrows(ConfigurationException.class, data::defaultCoordination);
        assertEquals("defaultProperties", e.key());
        assertTrue(e.getMessage().startsWith(data.installationProperties().toString()), e.getMessage());
    }
}
