package org.openmft.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Never failing open: a security key OpenMFT does not support yet, set to anything but its
 * default, stops start-up with a {@link ConfigurationException} naming the key and the file,
 * instead of being ignored with a warning; at its default, or absent, it is accepted.
 */
class SecurityKeysTest {

    /** Each registry with security keys, and the least a file of it needs to parse. */
    private static final Map<ConfigRegistry, Map<String, String>> REGISTRIES = Map.of(
            AgentProperties.REGISTRY, Map.of("agentName", "A1", "agentQMgr", "QM1"),
            CoordinationProperties.REGISTRY, Map.of("coordinationQMgr", "QM1"),
            CommandProperties.REGISTRY, Map.of("connectionQMgr", "QM1"),
            LoggerProperties.REGISTRY, Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "QM1"));

    private static List<ConfigKey<?>> refusedKeys(ConfigRegistry registry) {
        return registry.keys().stream().filter(k -> k.asksForProtection() && !k.supported()).toList();
    }

    /** A value that asks for the feature: anything valid but the default. */
    private static String askingValue(ConfigKey<?> key) {
        return switch (key.type()) {
            case BOOLEAN -> "true";
            case INT, LONG -> "60";
            case PATH -> "/etc/openmft/" + key.name();
            case PATH_LIST -> "/srv/in";
            case STRING -> key.defaultText().filter("jks"::equals).isPresent() ? "pkcs12" : "CN=qm1.example.org";
            case ENUM -> throw new AssertionError("no security key is an enum yet: " + key.name());
        };
    }

    @Test
    void theKeysThatAskForProtectionIncludeEveryFamilyOfIbmsSecurityKeys() {
        List<String> refused = new ArrayList<>();
        REGISTRIES.keySet().forEach(r -> refusedKeys(r).forEach(k -> refused.add(k.name())));
        // Exits not supported yet: an exit named but never called would let through what it exists to stop.
        assertThat(refused).containsExactlyInAnyOrder("adminGroup", "monitorExitClasses",
                "protocolBridgeCredentialExitClasses", "ioExitClasses");
        assertThat(refused).as("supported, or no security feature").doesNotContain("authorityChecking",
                "wmqfte.database.credentials", "agentCredentialsKeyFile", "coordinationCredentialsKeyFile",
                "connectionCredentialsKeyFile", "sandboxRoot", "commandPath",
                "userSandboxes",
                "xmlConfigReloadInterval", "additionalWildcardSandboxChecking", "openmft.database.password",
                "logCapture", "agentSslTrustStore", "coordinationSslPeerName", "connectionSslKeyStore",
                "wmqfte.ssl.truststore", "agentQMgrAuthenticationCredentialsFile",
                "coordinationQMgrAuthenticationCredentialsFile", "connectionQMgrAuthenticationCredentialsFile",
                "loggerQMgrAuthenticationCredentialsFile");
        for (ConfigRegistry registry : REGISTRIES.keySet()) {
            for (ConfigKey<?> key : registry.keys()) {
                if (key.group().equals(CommonKeys.SECURITY) && !key.supported()) {
                    assertThat(key.asksForProtection()).as(key.name()).isTrue();
                }
            }
        }
    }

    @Test
    void eachUnsupportedSecurityKeySetStopsStartUpNamingKeyAndFile() {
        int checked = 0;
        for (Map.Entry<ConfigRegistry, Map<String, String>> e : REGISTRIES.entrySet()) {
            ConfigRegistry registry = e.getKey();
            for (ConfigKey<?> key : refusedKeys(registry)) {
                Map<String, String> raw = new HashMap<>(e.getValue());
                String value = askingValue(key);
                raw.put(key.name(), value);
                ConfigurationException refused = assertThrows(ConfigurationException.class,
                        () -> registry.parse(raw, registry.fileName(), Map.of()), key.name());
                assertThat(refused.getMessage()).as(key.name())
                        .startsWith(registry.fileName() + ": " + key.name() + "=" + value + " is not supported yet")
                        .contains("refuses to run without the protection");
                assertThat(refused.key()).isEqualTo(key.name());
                assertThat(refused.value()).isEqualTo(value);
                checked++;
            }
        }
        assertThat(checked).as("keys checked (authority checking, fteObfuscate's keys, the database credentials and"
                + " commandPath are supported now; three kinds of exit are not)").isEqualTo(4);
    }

    @Test
    void eachUnsupportedSecurityKeyAtItsDefaultOrEmptyIsAccepted() throws ConfigurationException {
        for (Map.Entry<ConfigRegistry, Map<String, String>> e : REGISTRIES.entrySet()) {
            ConfigRegistry registry = e.getKey();
            Map<String, String> raw = new HashMap<>(e.getValue());
            for (ConfigKey<?> key : refusedKeys(registry)) {
                // A default in another case is the default all the same (true/false, jks/JKS).
                raw.put(key.name(), key.defaultText().map(d -> d.toUpperCase(java.util.Locale.ROOT)).orElse(""));
            }
            ConfigValues values = registry.parse(raw, registry.fileName(), Map.of());
            for (ConfigKey<?> key : refusedKeys(registry)) {
                assertThat(values.warnings()).as("a key at its default asks for nothing")
                        .noneMatch(w -> w.contains("'" + key.name() + "'"));
            }
        }
    }

    @Test
    void aBadValueOfASecurityKeyIsRefusedTooNotTakenForTheDefault() {
        Map<String, String> raw = new HashMap<>(REGISTRIES.get(AgentProperties.REGISTRY));
        raw.put("authorityChecking", "yes");
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> AgentConfig.from(raw, Map.of()));
        assertThat(e.key()).isEqualTo("authorityChecking");
        assertThat(e.getMessage()).startsWith("agent.properties: ").contains("authorityChecking").contains("yes");

        raw.remove("authorityChecking");
        raw.put("adminGroup", "mqm");
        e = assertThrows(ConfigurationException.class, () -> AgentConfig.from(raw, Map.of()));
        assertThat(e.getMessage()).startsWith("agent.properties: adminGroup=mqm is not supported yet: OpenMFT does not"
                + " provide this security feature and refuses to run without the protection the file asks for");
    }

    @Test
    void authorityCheckingIsTakenOnBothProviders() throws Exception {
        Map<String, String> raw = new HashMap<>(REGISTRIES.get(AgentProperties.REGISTRY));
        raw.put("authorityChecking", "true");
        raw.put("agentQMgrProvider", "ibmmq");
        assertThat(AgentConfig.from(raw, Map.of()).authorityChecking()).isTrue();
        raw.put("agentQMgrProvider", "artemis");
        assertThat(AgentConfig.from(raw, Map.of()).authorityChecking()).isTrue();
    }

    @Test
    void anUndefinedVariableInASecurityPathIsRefused() {
        Map<String, String> raw = new HashMap<>(REGISTRIES.get(AgentProperties.REGISTRY));
        raw.put("agentSslTrustStore", "${NO_SUCH_VARIABLE}/trust.jks");
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> AgentConfig.from(raw, Map.of()));
        assertThat(e.key()).isEqualTo("agentSslTrustStore");
    }

    @Test
    void aLoadedFileIsNamedByItsPath(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("agent.properties");
        Files.writeString(file, "agentName=A1\nagentQMgr=QM1\nadminGroup=mqm\n");
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> AgentConfig.load(file, Map.of()));
        assertThat(e.getMessage()).startsWith(file + ": adminGroup=mqm is not supported yet");
        assertThat(ConfigurationException.EXIT_CODE).as("IBM's and sysexits' configuration problem").isEqualTo(78);
    }

    @Test
    void otherUnsupportedKeysStillOnlyWarn() throws ConfigurationException {
        Map<String, String> raw = new HashMap<>(REGISTRIES.get(AgentProperties.REGISTRY));
        raw.put("logCapture", "true");
        assertThat(AgentConfig.from(raw, Map.of()).warnings())
                .containsExactly("'logCapture' is recognised but not supported yet by OpenMFT and is ignored");
    }

    @Test
    void theReferenceMarksRefusedKeys() {
        assertThat(ConfigReference.markdown().lines())
                .anyMatch(l -> l.startsWith("| `adminGroup` | none | any text | no (refused when set) |"))
                .anyMatch(l -> l.startsWith("| `agentCredentialsKeyFile` | none | a file path | yes |"))
                .anyMatch(l -> l.startsWith("| `logCapture` | `false` | true or false | no |"))
                .anyMatch(l -> l.startsWith("| `sandboxRoot` | none |") && l.contains("| yes |"));
        assertThat(AgentProperties.ADMIN_GROUP.doc()).contains("a value other than the default stops start-up");
    }
}
