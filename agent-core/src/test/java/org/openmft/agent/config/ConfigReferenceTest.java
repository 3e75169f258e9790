package org.openmft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ConfigReferenceTest {

    @Test
    void everyKeyHasExactlyOneRow() {
        String md = ConfigReference.markdown();
        for (ConfigRegistry registry : List.of(AgentProperties.REGISTRY, CoordinationProperties.REGISTRY,
                CommandProperties.REGISTRY, InstallationProperties.REGISTRY, LoggerProperties.REGISTRY)) {
            assertTrue(md.contains("\n### " + registry.fileName() + "\n"), registry.fileName());
            // Within its file's section: a key may be in two files (openmft.metrics.*, agents' and loggers').
            String section = md.substring(md.indexOf("\n### " + registry.fileName() + "\n") + 1);
            int next = section.indexOf("\n### ");
            String rowsOfFile = next < 0 ? section : section.substring(0, next);
            for (ConfigKey<?> key : registry.keys()) {
                long rows = rowsOfFile.lines().filter(l -> l.startsWith("| `" + key.name() + "` |")).count();
                assertEquals(1, rows, registry.fileName() + ": " + key.name());
            }
        }
    }

    @Test
    void rowsShowDefaultAllowedAndSupport() {
        List<String> lines = ConfigReference.markdown().lines().toList();
        assertTrue(lines.contains("| `agentChunkSize` | `262144` | an integer from 1024 to 4128768 (bytes) | yes | "
                + "File data carried by one data message. |"));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("| `logCapture` | `false` | true or false | no |")));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("| `agentQMgr` | required |")));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("| `transferRoot` | home directory of the agent user |")));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("| `agentDesc` | none |")));
        assertTrue(lines.contains(
                "Rule: `agentStatusPublishRateMin` must be greater than or equal to `agentStatusPublishRateLimit`."));
    }

    @Test
    void isDeterministicAndMachineIndependent() {
        String md = ConfigReference.markdown();
        assertEquals(md, ConfigReference.markdown());
        assertFalse(md.contains(System.getProperty("user.home")), "no machine-specific default leaks in");
        assertTrue(md.endsWith("\n"));
    }

    @Test
    void tableCellsCannotBreakTheTable() {
        for (String line : ConfigReference.markdown().lines().filter(l -> l.startsWith("| `")).toList()) {
            assertEquals(7, line.split("(?<!\\\\)\\|", -1).length, line);
            assertFalse(line.contains("<"), "angle brackets would be read as HTML: " + line);
        }
    }
}
