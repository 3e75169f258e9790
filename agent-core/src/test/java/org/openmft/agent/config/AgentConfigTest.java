package org.openmft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AgentConfigTest {

    private static final Map<String, String> NO_ENV = Map.of();

    private static Map<String, String> minimal() {
        Map<String, String> raw = new HashMap<>();
        raw.put("agentName", "agent1");
        raw.put("agentQMgr", "QM1");
        return raw;
    }

    private static Map<String, String> with(String key, String value) {
        Map<String, String> raw = minimal();
        raw.put(key, value);
        return raw;
    }

    private static ConfigurationException failure(Map<String, String> raw) {
        return assertThrows(ConfigurationException.class, () -> AgentConfig.from(raw, NO_ENV));
    }

    @Test
    void everySupportedKeyHasItsDocumentedDefault() throws Exception {
        AgentConfig config = AgentConfig.from(minimal(), NO_ENV);

        assertEquals("AGENT1", config.agentName());
        assertEquals(Optional.empty(), config.agentDesc());
        assertEquals("QM1", config.agentQMgr());
        assertEquals(MessagingProvider.ARTEMIS, config.provider());
        assertFalse(config.clientMode());
        assertEquals(Optional.empty(), config.host());
        assertEquals(1414, config.port());
        assertEquals("SYSTEM.DEF.SVRCONN", config.channel());
        assertEquals("STANDARD", config.get(AgentProperties.AGENT_TYPE));
        assertEquals(262144, config.chunkSize());
        assertEquals(10, config.windowSize());
        assertEquals(5, config.frameSize());
        assertEquals(1, config.checkpointInterval());
        assertEquals(25, config.maxSourceTransfers());
        assertEquals(25, config.maxDestinationTransfers());
        assertEquals(1000, config.maxQueuedTransfers());
        assertEquals(5000, config.maxFilesForTransfer());
        assertEquals(Duration.ofMillis(60000), config.transferAckTimeout());
        assertEquals(5, config.transferAckTimeoutRetries());
        assertEquals(Optional.empty(), config.transferRecoveryTimeout(), "-1 means recover for ever");
        assertEquals(Duration.ofSeconds(10), config.immediateShutdownTimeout());
        assertFalse(config.doNotUseTempOutputFile());
        assertEquals(Path.of(System.getProperty("user.home")), config.transferRoot());
        assertEquals("", config.textReplacementCharacterSequence());
        assertEquals(Optional.empty(), config.sandboxRoot());
        assertEquals(Duration.ofSeconds(30), config.statusPublishRateLimit());
        assertEquals(Duration.ofSeconds(300), config.statusPublishRateMin());
        assertEquals(5, config.outputLogFiles());
        assertEquals(1024L * 1024L, config.outputLogSizeBytes());
        assertEquals(List.of(), config.warnings());
    }

    @Test
    void theSetOfSupportedKeysIsDeliberate() {
        // Marking a key supported promises behaviour; this list changes only together with the code that acts on it.
        Set<String> expected = new TreeSet<>(List.of("agentName", "agentDesc", "agentQMgr", "agentQMgrHost",
                "agentQMgrPort", "agentQMgrChannel", "agentType", "agentQMgrProvider", "agentChunkSize",
                "openmft.maxPlannedItems",
                "agentWindowSize", "agentFrameSize", "agentCheckpointInterval", "doNotUseTempOutputFile", "transferRoot",
                "textReplacementCharacterSequence", "maxSourceTransfers", "maxDestinationTransfers",
                "maxQueuedTransfers", "maxFilesForTransfer", "transferAckTimeout", "transferAckTimeoutRetries",
                "transferRecoveryTimeout", "openmft.sourceSilenceTimeout", "immediateShutdownTimeout",
                // Restarts: 'mft agent unit' writes them into the agent's systemd drop-in (SystemdUnits).
                "maxRestartCount", "maxRestartInterval",
                "monitorMaxResourcesInPoll", "monitorReportTriggerFail", "monitorSilenceOnTriggerFailure", "monitorGroupRetryLimit",
                "agentStatusPublishRateLimit",
                "agentStatusPublishRateMin", "sandboxRoot", "userSandboxes", "xmlConfigReloadInterval",
                "additionalWildcardSandboxChecking", "outputLogFiles", "outputLogSize",
                // Message protection (issue 15): opened by AgentConfig.messageProtection at the agent's start.
                "openmft.messageProtection", "openmft.messageProtectionByAgent", "openmft.protectionKeyStore",
                "openmft.protectionKeyStoreCredentialsFile", "openmft.protectionTrustStore",
                "openmft.protectionTrustStoreCredentialsFile",
                // Chunk compression: read by SourceSettings into a CompressionPolicy; ProtocolCodec compresses.
                "openmft.compression", "openmft.compressionByAgent",
                // The adaptive window: read by SourceSettings; SourceTransfer attaches an AdaptiveWindow.
                "openmft.adaptiveWindow",
                // Inline transfers: read by SourceSettings; SourceTransfer sends the chunk behind the START.
                "maxInlineFileSize",
                // Prometheus metrics: AgentConfig.metrics, served by AgentMetrics from AgentAssembly.
                "openmft.metrics.port", "openmft.metrics.bindAddress", "openmft.metrics.keyStore",
                "openmft.metrics.keyStoreType", "openmft.metrics.keyStoreCredentialsFile",
                "openmft.metrics.credentialsFile",
                // TLS (issue 14): read by QueueManagerConfig into TlsClientSettings.
                "agentSslCipherSpec", "agentSslCipherSuite", "agentSslPeerName", "agentSslFipsRequired",
                "agentSslTrustStore", "agentSslTrustStoreType", "agentSslTrustStoreCredentialsFile", "agentSslKeyStore",
                "agentSslKeyStoreType", "agentSslKeyStoreCredentialsFile",
                // Queue manager authentication: read by QueueManagerConfig into the endpoint's credentials.
                "agentQMgrAuthenticationCredentialsFile",
                // Authority checks (issue 14): Agent, DataDispatcher, ReplyDispatcher.
                "authorityChecking",
                // Program calls (issue 17): TransferEngine builds the CallRunner from them.
                "commandPath", "maxCommandOutputSize", "openmft.callTimeout",
                // Transfer exits (issue 17): loaded by TransferExits at the agent's start.
                "exitClassPath", "sourceTransferStartExitClasses", "sourceTransferEndExitClasses",
                "destinationTransferStartExitClasses", "destinationTransferEndExitClasses",
                // fteObfuscate's key: read by QueueManagerConfig into a CredentialsCipher.
                "agentCredentialsKeyFile",
                // Several channels (issue 16): read by SourceSettings; SourceTransfer spreads DATA (DataRoutes).
                "agentMultipleChannelsEnabled",
                // File to message (issue 17): read by TransferEngine into the destination's QueueWriter.
                "enableQueueInputOutput", "maxInputOutputMessageLength", "maxDelimiterMatchLength"));
        Set<String> actual = AgentProperties.REGISTRY.keys().stream().filter(ConfigKey::supported)
                .map(ConfigKey::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expected, actual);
    }

    @Test
    void explicitValuesOverrideDefaults() throws Exception {
        Map<String, String> raw = minimal();
        raw.put("agentDesc", "Payroll");
        raw.put("agentQMgrHost", "mq.example.org");
        raw.put("agentQMgrPort", "1415");
        raw.put("agentQMgrChannel", "MFT.SVRCONN");
        raw.put("agentQMgrProvider", "IBMMQ");
        raw.put("agentChunkSize", "1024");
        raw.put("agentWindowSize", "1000");
        raw.put("agentFrameSize", "2");
        raw.put("agentCheckpointInterval", "3");
        raw.put("maxSourceTransfers", "0");
        raw.put("maxDestinationTransfers", "1000");
        raw.put("maxQueuedTransfers", "7");
        raw.put("maxFilesForTransfer", "1000000");
        raw.put("transferAckTimeout", "1000");
        raw.put("transferAckTimeoutRetries", "0");
        raw.put("transferRecoveryTimeout", "0");
        raw.put("immediateShutdownTimeout", "0");
        raw.put("doNotUseTempOutputFile", "TRUE");
        raw.put("transferRoot", "/srv/mft");
        raw.put("textReplacementCharacterSequence", "?");
        raw.put("sandboxRoot", "/srv/mft:!/srv/mft/private");
        raw.put("agentStatusPublishRateLimit", "60");
        raw.put("agentStatusPublishRateMin", "60");
        raw.put("outputLogFiles", "9");
        raw.put("outputLogSize", "20");

        AgentConfig config = AgentConfig.from(raw, NO_ENV);

        assertEquals(Optional.of("Payroll"), config.agentDesc());
        assertEquals(MessagingProvider.IBMMQ, config.provider());
        assertTrue(config.clientMode());
        assertEquals(new QueueManagerEndpoint(MessagingProvider.IBMMQ, "QM1", "mq.example.org", 1415, "MFT.SVRCONN"),
                config.endpoint());
        assertEquals(1024, config.chunkSize());
        assertEquals(1000, config.windowSize());
        assertEquals(2, config.frameSize());
        assertEquals(3, config.checkpointInterval());
        assertEquals(0, config.maxSourceTransfers());
        assertEquals(1000, config.maxDestinationTransfers());
        assertEquals(7, config.maxQueuedTransfers());
        assertEquals(1000000, config.maxFilesForTransfer());
        assertEquals(Duration.ofSeconds(1), config.transferAckTimeout());
        assertEquals(0, config.transferAckTimeoutRetries());
        assertEquals(Optional.of(Duration.ZERO), config.transferRecoveryTimeout(), "0 means fail at once");
        assertEquals(Duration.ZERO, config.immediateShutdownTimeout());
        assertTrue(config.doNotUseTempOutputFile());
        assertEquals(Path.of("/srv/mft"), config.transferRoot());
        assertEquals("?", config.textReplacementCharacterSequence());
        assertEquals(Optional.of("/srv/mft:!/srv/mft/private"), config.sandboxRoot());
        assertEquals(Duration.ofSeconds(60), config.statusPublishRateLimit());
        assertEquals(Duration.ofSeconds(60), config.statusPublishRateMin(), "equal rates are allowed");
        assertEquals(9, config.outputLogFiles());
        assertEquals(20L * 1024 * 1024, config.outputLogSizeBytes());
        assertTrue(config.values().isSet(AgentProperties.AGENT_CHUNK_SIZE));
        assertFalse(config.values().isSet(AgentProperties.IO_THREAD_POOL_SIZE));
    }

    @Test
    void bindingsEndpointWhenNoHost() throws Exception {
        QueueManagerEndpoint endpoint = AgentConfig.from(minimal(), NO_ENV).endpoint();
        assertFalse(endpoint.clientMode());
        assertNull(endpoint.host());
        assertEquals("QM1", endpoint.qmgrName());
    }

    @Test
    void valuesAreTrimmedAndABlankHostMeansBindings() throws Exception {
        Map<String, String> raw = minimal();
        raw.put("agentChunkSize", "  4096\t");
        raw.put("agentQMgrHost", "   ");
        raw.put("agentQMgr", " QM1 ");
        AgentConfig config = AgentConfig.from(raw, NO_ENV);
        assertEquals(4096, config.chunkSize());
        assertFalse(config.clientMode());
        assertEquals("QM1", config.agentQMgr());
    }

    @Test
    void messageNamesFileKeyValueAndAllowedRange() {
        ConfigurationException e = failure(with("agentChunkSize", "0"));
        assertEquals("agent.properties: agentChunkSize=0 is not allowed: an integer from 1024 to 4128768 (bytes) "
                + "is required", e.getMessage());
        assertEquals("agentChunkSize", e.key());
        assertEquals("0", e.value());
        assertEquals(78, ConfigurationException.EXIT_CODE);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
        "agentChunkSize|abc|an integer from 1024 to 4128768 (bytes)",
        "agentChunkSize|1023|an integer from 1024 to 4128768 (bytes)",
        "agentChunkSize|4128769|an integer from 1024 to 4128768 (bytes)",
        "agentChunkSize|99999999999|an integer from 1024 to 4128768 (bytes)",
        "agentChunkSize|2.5|an integer from 1024 to 4128768 (bytes)",
        "agentWindowSize|0|an integer from 1 to 1000 (chunks)",
        "agentWindowSize|1001|an integer from 1 to 1000 (chunks)",
        "agentFrameSize|0|an integer from 1 to 1000 (windows)",
        "agentCheckpointInterval|1001|an integer from 1 to 1000 (frames)",
        "agentQMgrPort|0|an integer from 1 to 65535",
        "agentQMgrPort|65536|an integer from 1 to 65535",
        "agentQMgrPort|14x4|an integer from 1 to 65535",
        "maxSourceTransfers|-1|an integer from 0 to 1000",
        "maxSourceTransfers|1001|an integer from 0 to 1000",
        "maxDestinationTransfers|-1|an integer from 0 to 1000",
        "maxQueuedTransfers|100001|an integer from 0 to 100000",
        "maxFilesForTransfer|0|an integer from 1 to 1000000",
        "transferAckTimeout|999|an integer from 1000 to 86400000 (ms)",
        "transferAckTimeout|86400001|an integer from 1000 to 86400000 (ms)",
        "transferAckTimeoutRetries|-1|an integer from 0 to 1000",
        "transferRecoveryTimeout|-2|an integer from -1 to 31536000 (s)",
        "transferRecoveryTimeout|31536001|an integer from -1 to 31536000 (s)",
        "immediateShutdownTimeout|-1|an integer from 0 to 86400 (s)",
        "outputLogFiles|0|an integer from 1 to 1000 (files)",
        "outputLogSize|0|an integer from 1 to 10240 (MB)",
        "agentStatusPublishRateLimit|0|an integer from 1 to 86400 (s)",
        "maxInlineFileSize|-1|an integer from 0 to 104857600 (bytes)",
        "maxInlineFileSize|104857601|an integer from 0 to 104857600 (bytes)",
        "maxInlineFileSize|100KB|an integer from 0 to 104857600 (bytes)",
        "doNotUseTempOutputFile|yes|true or false",
        "doNotUseTempOutputFile|1|true or false",
        "agentQMgrProvider|kafka|one of artemis, ibmmq",
        "agentType|BRIDGE|STANDARD",
        "agentName|my-agent|a name of 1 to 28 characters from A-Z, a-z, 0-9, '.' and '_'",
        "agentName|ABCDEFGHIJKLMNOPQRSTUVWXYZ123|a name of 1 to 28 characters from A-Z, a-z, 0-9, '.' and '_'",
        "agentQMgr|QM 1|a queue manager name of 1 to 48 characters from A-Z, a-z, 0-9, '.', '_', '/' and '%'",
        "agentQMgrChannel|ABCDEFGHIJKLMNOPQRSTU|a channel name of 1 to 20 characters from A-Z, a-z, 0-9, '.', '_', '/' and '%'",
    })
    void badValuesStopStartUp(String key, String value, String allowed) {
        ConfigurationException e = failure(with(key, value));
        assertEquals("agent.properties: " + key + "=" + value + " is not allowed: " + allowed + " is required",
                e.getMessage());
        assertEquals(key, e.key());
        assertEquals(value, e.value());
    }

    @Test
    void anEmptyNumberIsAnErrorNotTheDefault() {
        ConfigurationException e = failure(with("agentChunkSize", " "));
        assertEquals("agent.properties: agentChunkSize= is not allowed: an integer from 1024 to 4128768 (bytes) is "
                + "required", e.getMessage());
    }

    @Test
    void missingRequiredKeys() {
        Map<String, String> noQMgr = minimal();
        noQMgr.remove("agentQMgr");
        ConfigurationException e = failure(noQMgr);
        assertEquals("agent.properties: agentQMgr is required", e.getMessage());
        assertEquals("agentQMgr", e.key());
        assertNull(e.value());

        Map<String, String> noName = minimal();
        noName.remove("agentName");
        assertEquals("agent.properties: agentName is required", failure(noName).getMessage());

        assertEquals("agent.properties: agentQMgr is required", failure(with("agentQMgr", "  ")).getMessage(),
                "a blank value is no value");
    }

    @Test
    void statusPublishRateMinMustNotBeBelowTheRateLimit() {
        Map<String, String> raw = with("agentStatusPublishRateMin", "20");
        ConfigurationException e = failure(raw);
        assertEquals("agent.properties: agentStatusPublishRateMin=20 is not allowed: a value greater than or equal to "
                + "agentStatusPublishRateLimit (30) is required", e.getMessage());
        assertEquals("agentStatusPublishRateMin", e.key());

        raw.put("agentStatusPublishRateLimit", "20");
        raw.put("agentStatusPublishRateMin", "19");
        assertTrue(failure(raw).getMessage().contains("agentStatusPublishRateLimit (20)"));
    }

    @Test
    void pathValuesExpandEnvironmentVariables() throws Exception {
        Map<String, String> raw = with("transferRoot", "${MFT_DATA}/in/${USER}");
        raw.put("sandboxRoot", "${MFT_DATA}:!${MFT_DATA}/private");
        raw.put("agentDesc", "${NOT_A_PATH}");
        AgentConfig config = AgentConfig.from(raw, Map.of("MFT_DATA", "/srv/mft", "USER", "bob"));
        assertEquals(Path.of("/srv/mft/in/bob"), config.transferRoot());
        assertEquals(Optional.of("/srv/mft:!/srv/mft/private"), config.sandboxRoot());
        assertEquals(Optional.of("${NOT_A_PATH}"), config.agentDesc(), "only path values expand variables");
    }

    @Test
    void undefinedVariableInAPathIsAnError() {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> AgentConfig.from(with("transferRoot", "${NOPE}/in"), Map.of("MFT_DATA", "/srv")));
        assertEquals("agent.properties: transferRoot=${NOPE}/in refers to environment variable 'NOPE', which is not "
                + "defined", e.getMessage());
        assertEquals("transferRoot", e.key());

        ConfigurationException unterminated = failure(with("sandboxRoot", "${HOME/in"));
        assertTrue(unterminated.getMessage().contains("'${' without a closing '}'"), unterminated.getMessage());
    }

    @Test
    void aLoneDollarIsKeptInPaths() throws Exception {
        assertEquals(Path.of("/srv/$pay/in"), AgentConfig.from(with("transferRoot", "/srv/$pay/in"), NO_ENV)
                .transferRoot());
    }

    @Test
    void unknownKeysGiveExactlyOneWarningEach() throws Exception {
        Map<String, String> raw = minimal();
        raw.put("foo", "1");
        raw.put("bar", "2");
        AgentConfig config = AgentConfig.from(raw, NO_ENV);
        assertEquals(List.of("unknown key 'bar' in agent.properties is ignored",
                "unknown key 'foo' in agent.properties is ignored"), config.warnings());
    }

    @Test
    void unknownKeyWithTheWrongCaseGetsAHint() throws Exception {
        AgentConfig config = AgentConfig.from(with("agentchunksize", "1"), NO_ENV);
        assertEquals(List.of("unknown key 'agentchunksize' in agent.properties is ignored (did you mean "
                + "'agentChunkSize'?)"), config.warnings());
        assertEquals(262144, config.chunkSize());
    }

    @Test
    void unsupportedKeysGiveExactlyOneWarningEachAndAreIgnored() throws Exception {
        Map<String, String> raw = minimal();
        raw.put("logCapture", "true");
        raw.put("highlyAvailable", "true");
        raw.put("agentCcsid", "819");
        raw.put("foo", "x");
        AgentConfig config = AgentConfig.from(raw, NO_ENV);
        assertEquals(List.of("'logCapture' is recognised but not supported yet by OpenMFT and is ignored",
                "'highlyAvailable' is recognised but not supported yet by OpenMFT and is ignored",
                "unknown key 'agentCcsid' in agent.properties is ignored",
                "unknown key 'foo' in agent.properties is ignored"), config.warnings());
        assertEquals(Boolean.FALSE, config.get(AgentProperties.LOG_CAPTURE), "OpenMFT behaves as the default");
        assertEquals(Optional.of("true"), config.values().rawValue("logCapture"));
    }

    @Test
    void unsupportedKeysAtTheirDefaultOrWithBadValuesDoNotStopStartUp() throws Exception {
        Map<String, String> raw = minimal();
        raw.put("authorityChecking", "False");
        raw.put("agentSslKeyStoreType", "jks");
        raw.put("ioThreadPoolSize", "many");
        AgentConfig config = AgentConfig.from(raw, NO_ENV);
        assertEquals(List.of("'ioThreadPoolSize' is recognised but not supported yet by OpenMFT and is ignored"),
                config.warnings(), "setting an ignored key to its default asks for nothing");
    }

    @Test
    void describeShowsEffectiveValuesOneKeyPerLine() throws Exception {
        Map<String, String> raw = minimal();
        raw.put("agentChunkSize", "65536");
        raw.put("agentQMgrProvider", "ibmmq");
        raw.put("logCapture", "true");
        String text = AgentConfig.from(raw, NO_ENV).describe();
        List<String> lines = text.lines().collect(Collectors.toList());

        assertTrue(lines.contains("agentName=AGENT1"), text);
        assertTrue(lines.contains("agentChunkSize=65536"), text);
        assertTrue(lines.contains("agentQMgrProvider=ibmmq"), text);
        assertTrue(lines.contains("agentWindowSize=10 (default)"), text);
        assertTrue(lines.contains("transferRecoveryTimeout=-1 (default)"), text);
        assertTrue(lines.contains("agentQMgrHost (not set)"), text);
        assertTrue(lines.contains("logCapture=true (ignored: not supported yet)"), text);
        assertFalse(text.contains("ioThreadPoolSize"), "unsupported keys the file does not set are left out");
        assertTrue(lines.contains("authorityChecking=false (default)"), text);
        long supported = AgentProperties.REGISTRY.keys().stream().filter(ConfigKey::supported).count();
        assertEquals(supported + 1, lines.size());
    }

    @Test
    void userSandboxesAreReadFromTheConfigurationDirectoryAndNeverWithSandboxRoot(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("agent.properties");
        Files.writeString(file, "agentName=A1\nagentQMgr=QM1\nuserSandboxes=true\nxmlConfigReloadInterval=5\n"
                + "additionalWildcardSandboxChecking=true\n");
        AgentConfig config = AgentConfig.load(file, NO_ENV);
        assertTrue(config.userSandboxes());
        assertTrue(config.additionalWildcardSandboxChecking());
        assertEquals(Duration.ofSeconds(5), config.xmlConfigReloadInterval());
        assertEquals(Optional.of(dir.toAbsolutePath()), config.configDirectory());
        assertEquals(List.of(), config.warnings());
        assertEquals(Optional.empty(), AgentConfig.from(minimal(), NO_ENV).configDirectory());

        Map<String, String> both = with("userSandboxes", "true");
        both.put("sandboxRoot", "/srv/in");
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> AgentConfig.from(both, NO_ENV));
        assertEquals("agent.properties: userSandboxes=true and sandboxRoot are both set, but they are mutually "
                + "exclusive: remove sandboxRoot or set userSandboxes=false", e.getMessage());
        assertEquals("userSandboxes", e.key());
        Map<String, String> off = with("userSandboxes", "false");
        off.put("sandboxRoot", "/srv/in");
        assertEquals(Optional.of("/srv/in"), AgentConfig.from(off, NO_ENV).sandboxRoot());
    }

    @Test
    void getRefusesAKeyOfAnotherFile() throws Exception {
        AgentConfig config = AgentConfig.from(minimal(), NO_ENV);
        assertThrows(IllegalArgumentException.class, () -> config.get(CoordinationProperties.COORDINATION_QMGR));
    }

    @Test
    void warningsCannotBeModified() throws Exception {
        List<String> warnings = AgentConfig.from(with("foo", "1"), NO_ENV).warnings();
        assertThrows(UnsupportedOperationException.class, () -> warnings.add("x"));
    }

    @Test
    void loadsAnIbmStyleFile() throws Exception {
        Path file = resource("ibm-agent.properties");
        AgentConfig config = AgentConfig.load(file, Map.of("MFT_HOME", "/opt/mft"));

        assertEquals("BRIDGELESS1", config.agentName());
        assertEquals(Optional.of("Payroll files to the bank"), config.agentDesc());
        assertEquals(new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QM.AGENTS", "mq.example.org", 1415,
                "MFT.SVRCONN"), config.endpoint());
        assertEquals(524288, config.chunkSize(), "trailing blanks after the value are trimmed");
        assertEquals(10, config.maxSourceTransfers());
        assertEquals(Duration.ofSeconds(30), config.transferAckTimeout());
        assertEquals(Path.of("/opt/mft/transfers"), config.transferRoot());
        assertEquals(Optional.of("/opt/mft/in:!/opt/mft/in/private"), config.sandboxRoot());
        assertEquals(List.of("'logCapture' is recognised but not supported yet by OpenMFT and is ignored",
                "'trace' is recognised but not supported yet by OpenMFT and is ignored"), config.warnings(),
                "userSandboxes=false and authorityChecking=false are the defaults: no warning, no refusal");
    }

    @Test
    void loadNamesTheFileByItsPath() throws Exception {
        Path file = resource("ibm-agent.properties");
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> AgentConfig.load(file, Map.of()));
        assertTrue(e.getMessage().startsWith(file + ": transferRoot="), e.getMessage());
    }

    @Test
    void missingFileIsAConfigurationProblem(@TempDir Path dir) {
        Path file = dir.resolve("agent.properties");
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> AgentConfig.load(file, NO_ENV));
        assertEquals(file + " does not exist", e.getMessage());
        assertNull(e.key());
    }

    @Test
    void readsUtf8AndFallsBackToLatin1(@TempDir Path dir) throws IOException, ConfigurationException {
        Path utf8 = dir.resolve("utf8.properties");
        Files.writeString(utf8, "agentName=A1\nagentQMgr=QM1\nagentDesc=Réseau ☃\n", StandardCharsets.UTF_8);
        assertEquals(Optional.of("Réseau ☃"), AgentConfig.load(utf8, NO_ENV).agentDesc());

        Path latin1 = dir.resolve("latin1.properties");
        Files.writeString(latin1, "agentName=A1\nagentQMgr=QM1\nagentDesc=Réseau\n", StandardCharsets.ISO_8859_1);
        assertEquals(Optional.of("Réseau"), AgentConfig.load(latin1, NO_ENV).agentDesc());
    }

    @Test
    void malformedEscapeIsAConfigurationProblem(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("agent.properties");
        Files.writeString(file, "agentName=A1\nagentQMgr=QM1\nagentDesc=\\uZZZZ\n");
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> AgentConfig.load(file, NO_ENV));
        assertTrue(e.getMessage().startsWith(file + " is not a valid properties file"), e.getMessage());
    }

    static Path resource(String name) throws URISyntaxException {
        return Path.of(AgentConfigTest.class.getResource("/config/" + name).toURI());
    }
}
