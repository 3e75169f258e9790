package org.openmft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ConfigKeyTest {

    private static final List<ConfigRegistry> ALL = List.of(AgentProperties.REGISTRY, CoordinationProperties.REGISTRY,
            CommandProperties.REGISTRY, InstallationProperties.REGISTRY);

    @Test
    void declarationMistakesAreCaughtWhenTheKeyIsBuilt() {
        assertThrows(IllegalStateException.class, () -> ConfigKey.integer("x").defaultValue(0)
                .validator(Validator.intRange(1, 2)).group("g").description("d").build(), "default out of range");
        assertThrows(IllegalStateException.class, () -> ConfigKey.string("x").required().defaultValue("a")
                .group("g").description("d").build(), "required with default");
        assertThrows(IllegalStateException.class, () -> ConfigKey.string("x").group("g").build(), "no description");
        assertThrows(IllegalArgumentException.class, () -> ConfigKey.string("bad name"));
        assertThrows(IllegalArgumentException.class, () -> Validator.intRange(2, 1));
    }

    @Test
    void keysAreUnsupportedUnlessDeclaredSupported() {
        assertFalse(ConfigKey.bool("x").group("g").description("d").build().supported());
    }

    @Test
    void aRegistryRefusesDuplicateNames() {
        ConfigKey<String> a = ConfigKey.string("a").group("g").description("d").build();
        ConfigKey<String> otherA = ConfigKey.string("a").group("g").description("d").build();
        assertThrows(IllegalArgumentException.class, () -> ConfigRegistry.builder("f").add(a, otherA).build());
    }

    @Test
    void keyNamesAreUniqueAcrossTheThreeConnectionFiles() {
        // A key in two files would make "which file do I edit?" ambiguous for users.
        Set<String> seen = new HashSet<>();
        for (ConfigRegistry registry : ALL) {
            for (ConfigKey<?> key : registry.keys()) {
                assertTrue(seen.add(key.name()), key.name() + " is declared in two files");
            }
        }
    }

    @Test
    void everyKeyIsDocumented() {
        for (ConfigRegistry registry : ALL) {
            for (ConfigKey<?> key : registry.keys()) {
                assertFalse(key.description().isBlank(), key.name());
                assertTrue(key.description().endsWith("."), key.name() + ": descriptions are sentences");
                assertFalse(key.allowed().isBlank(), key.name());
            }
        }
    }

    @Test
    void docIsOneLineWithEverythingAUserNeeds() {
        String doc = AgentProperties.AGENT_CHUNK_SIZE.doc();
        assertEquals("agentChunkSize [Transfer data flow] int, default 262144, allowed: an integer from 1024 to 4128768 "
                + "(bytes). File data carried by one data message.", doc);
        assertTrue(AgentProperties.LOG_CAPTURE.doc().contains("recognised but not supported yet"));
        assertTrue(AgentProperties.AGENT_QMGR.doc().contains(", required,"));
        assertTrue(AgentProperties.TEXT_REPLACEMENT_CHARACTER_SEQUENCE.doc().contains("default empty"));
        assertTrue(AgentProperties.TRANSFER_ROOT.doc().contains("default home directory of the agent user"));
    }

    @Test
    void enumValuesAreReadInAnyCaseAndWrittenInTheirSpelling() throws Exception {
        ConfigValues values = CommandProperties.REGISTRY.parse(Map.of("connectionQMgr", "Q",
                "connectionQMgrProvider", "IbmMq"), "command.properties", Map.of());
        assertEquals(MessagingProvider.IBMMQ, values.get(CommandProperties.CONNECTION_QMGR_PROVIDER));
        assertEquals("ibmmq", CommandProperties.CONNECTION_QMGR_PROVIDER.format(MessagingProvider.IBMMQ));
    }

    @Test
    void anEmptyVariableNameIsAnError() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> AgentProperties.REGISTRY.parse(
                Map.of("agentName", "A", "agentQMgr", "Q", "transferRoot", "/x/${}"), "agent.properties", Map.of()));
        assertEquals("transferRoot", e.key());
    }
}
