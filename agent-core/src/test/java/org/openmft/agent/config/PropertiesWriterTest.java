package org.openmft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PropertiesWriterTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-01T12:34:56.789Z"), ZoneOffset.UTC);
    private final PropertiesWriter writer = new PropertiesWriter("OpenMFT test", CLOCK);

    private static Properties read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
            p.load(in);
        }
        return p;
    }

    @Test
    void roundTripThroughJavaUtilProperties(@TempDir Path dir) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("agentName", "AGENT1");
        values.put("agentQMgr", "QM1");
        values.put("agentDesc", "  leading spaces, a\\b back\\slash, k=v, a:b, #hash !bang, tab\there, trailing  ");
        values.put("textReplacementCharacterSequence", "é☃\uD83D\uDE00\u0000\r\n\f");
        values.put("transferRoot", "C:\\Users\\mft\\transfers");
        values.put("sandboxRoot", "=starts with equals");
        Path file = dir.resolve("agent.properties");

        writer.write(file, AgentProperties.REGISTRY, values, false);

        Properties back = read(file);
        assertEquals(values.size(), back.size());
        values.forEach((k, v) -> assertEquals(v, back.getProperty(k), k));
        byte[] bytes = Files.readAllBytes(file);
        for (byte b : bytes) {
            assertTrue(b > 0 && b < 0x7f, "output is printable ASCII: " + b);
        }
    }

    @Test
    void headerAndRegistryOrder() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("agentChunkSize", "65536");
        values.put("agentQMgr", "QM1");
        values.put("agentName", "AGENT1");
        values.put("agentDesc", null);
        String text = writer.render(AgentProperties.REGISTRY, values);
        assertEquals(List.of("# agent.properties", "# Written by OpenMFT test at 2026-03-01T12:34:56Z",
                "agentName=AGENT1", "agentQMgr=QM1", "agentChunkSize=65536"), text.lines().toList());
    }

    @Test
    void aLineBreakInTheWriterNameCannotInjectAProperty() {
        PropertiesWriter sneaky = new PropertiesWriter("x\nagentQMgr=EVIL", CLOCK);
        String text = sneaky.render(CommandProperties.REGISTRY, Map.of("connectionQMgr", "QM1"));
        assertTrue(text.lines().filter(l -> !l.startsWith("#")).allMatch("connectionQMgr=QM1"::equals), text);
    }

    @Test
    void unknownKeysAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> writer.render(CoordinationProperties.REGISTRY, Map.of("agentName", "A")));
    }

    @Test
    void refusesToOverwriteUnlessForced(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("coordination.properties");
        writer.write(file, CoordinationProperties.REGISTRY, Map.of("coordinationQMgr", "FIRST"), false);

        assertThrows(FileAlreadyExistsException.class,
                () -> writer.write(file, CoordinationProperties.REGISTRY, Map.of("coordinationQMgr", "SECOND"), false));
        assertEquals("FIRST", read(file).getProperty("coordinationQMgr"), "the existing file is untouched");

        writer.write(file, CoordinationProperties.REGISTRY, Map.of("coordinationQMgr", "THIRD"), true);
        assertEquals("THIRD", read(file).getProperty("coordinationQMgr"));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(file), files.toList(), "no temporary file is left behind");
        }
    }

    @Test
    void createsTheDirectoryAndTheAgentCanLoadTheResult(@TempDir Path dir) throws Exception {
        DataDirectory data = DataDirectory.of(dir);
        Path file = data.agentProperties("COORD1", "agent1");
        writer.write(file, AgentProperties.REGISTRY, Map.of("agentName", "AGENT1", "agentQMgr", "QM1",
                "agentQMgrHost", "mq.example.org", "transferRoot", "${HOME}/mft"), false);

        AgentConfig config = AgentConfig.load(file, Map.of("HOME", "/home/u"));
        assertEquals("AGENT1", config.agentName());
        assertTrue(config.clientMode());
        assertEquals(Path.of("/home/u/mft"), config.transferRoot(), "variables are written, not expanded");
        assertEquals(List.of(), config.warnings());
    }

    @Test
    void escapesLikeJavaUtilProperties() {
        assertEquals("\\ a b", PropertiesWriter.escape(" a b", false));
        assertEquals("a\\ b", PropertiesWriter.escape("a b", true));
        assertEquals("a\\=b\\:c\\\\d\\u00E9", PropertiesWriter.escape("a=b:c\\dé", false));
    }
}
