package org.openmft.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** coordination.properties and command.properties. */
class ConnectionConfigsTest {

    @Test
    void coordinationDefaults() throws Exception {
        CoordinationConfig config = CoordinationConfig.from(Map.of("coordinationQMgr", "COORD1"), Map.of());
        assertEquals("COORD1", config.coordinationQMgr());
        assertEquals(MessagingProvider.ARTEMIS, config.provider());
        assertFalse(config.clientMode());
        assertEquals(Optional.empty(), config.host());
        assertEquals(1414, config.port());
        assertEquals("SYSTEM.DEF.SVRCONN", config.channel());
        assertEquals(Duration.ofMillis(3000), config.agentStatusJitterTolerance());
        assertEquals(new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "COORD1", null, 1414, "SYSTEM.DEF.SVRCONN"),
                config.endpoint());
        assertEquals(List.of(), config.warnings());
    }

    @Test
    void coordinationFileFromIbmSetup() throws Exception {
        CoordinationConfig config = CoordinationConfig.load(AgentConfigTest.resource("coordination.properties"),
                Map.of());
        assertEquals(new QueueManagerEndpoint(MessagingProvider.IBMMQ, "COORD1", "hub.example.org", 1414,
                "MFT.SVRCONN"), config.endpoint());
        assertTrue(config.clientMode());
    }

    @Test
    void coordinationErrorsAndWarnings() throws Exception {
        ConfigurationException missing = assertThrows(ConfigurationException.class,
                () -> CoordinationConfig.from(Map.of("coordinationQMgrHost", "hub"), Map.of()));
        assertEquals("coordination.properties: coordinationQMgr is required", missing.getMessage());

        ConfigurationException jitter = assertThrows(ConfigurationException.class, () -> CoordinationConfig.from(
                Map.of("coordinationQMgr", "C", "agentStatusJitterTolerance", "-1"), Map.of()));
        assertEquals("coordination.properties: agentStatusJitterTolerance=-1 is not allowed: an integer from 0 to "
                + "3600000 (ms) is required", jitter.getMessage());

        CoordinationConfig config = CoordinationConfig.from(Map.of("coordinationQMgr", "C",
                "coordinationQMgrStandby", "standby(1414)", "coordinationSslFipsRequired", "false",
                "coordinationCcsid", "819"), Map.of());
        assertEquals(List.of(
                "'coordinationQMgrStandby' is recognised but not supported yet by OpenMFT and is ignored",
                "'coordinationCcsid' is recognised but not supported yet by OpenMFT and is ignored"),
                config.warnings(), "a security key at its default asks for nothing");

        ConfigurationException credentials = assertThrows(ConfigurationException.class, () -> CoordinationConfig.from(
                Map.of("coordinationQMgr", "C", "coordinationCredentialsKeyFile", "/c.key"), Map.of()));
        assertTrue(credentials.getMessage().startsWith("coordination.properties: coordinationCredentialsKeyFile=/c.key:"
                + " the credentials key file cannot be read"), credentials.getMessage());
        assertEquals("coordinationCredentialsKeyFile", credentials.key());
        ConfigurationException noFile = assertThrows(ConfigurationException.class, () -> CoordinationConfig.from(
                Map.of("coordinationQMgr", "C", "coordinationQMgrAuthenticationCredentialsFile", "/c.xml"), Map.of()));
        assertEquals("coordination.properties: coordinationQMgrAuthenticationCredentialsFile=/c.xml: the credentials "
                + "file does not exist", noFile.getMessage());
        assertEquals("coordinationQMgrAuthenticationCredentialsFile", noFile.key());
    }

    @Test
    void commandDefaultsAndClientMode() throws Exception {
        CommandConfig bindings = CommandConfig.from(Map.of("connectionQMgr", "QM1"), Map.of());
        assertEquals(new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QM1", null, 1414, "SYSTEM.DEF.SVRCONN"),
                bindings.endpoint());

        CommandConfig client = CommandConfig.from(Map.of("connectionQMgr", "QM1", "connectionQMgrHost", "h",
                "connectionQMgrPort", "1515", "connectionQMgrChannel", "CMD.SVRCONN", "connectionQMgrProvider",
                "ibmmq"), Map.of());
        assertEquals(new QueueManagerEndpoint(MessagingProvider.IBMMQ, "QM1", "h", 1515, "CMD.SVRCONN"),
                client.endpoint());
        assertEquals("QM1", client.connectionQMgr());
        assertEquals(Optional.of("h"), client.host());
        assertEquals(1515, client.port());
        assertEquals("CMD.SVRCONN", client.channel());
        assertEquals(MessagingProvider.IBMMQ, client.provider());
        assertTrue(client.describe().lines().anyMatch("connectionQMgrPort=1515"::equals), client.describe());
    }

    @Test
    void commandErrorsAndWarnings() throws Exception {
        ConfigurationException missing = assertThrows(ConfigurationException.class,
                () -> CommandConfig.from(Map.of(), Map.of()));
        assertEquals("command.properties: connectionQMgr is required", missing.getMessage());

        ConfigurationException provider = assertThrows(ConfigurationException.class, () -> CommandConfig.from(
                Map.of("connectionQMgr", "QM1", "connectionQMgrProvider", "rabbit"), Map.of()));
        assertEquals("command.properties: connectionQMgrProvider=rabbit is not allowed: one of artemis, ibmmq is "
                + "required", provider.getMessage());

        CommandConfig config = CommandConfig.from(Map.of("connectionQMgr", "QM1", "connectionQMgrStandby", "s(1)",
                "connectionCcsid", "819", "coordinationQMgr", "C"), Map.of());
        assertEquals(List.of(
                "'connectionQMgrStandby' is recognised but not supported yet by OpenMFT and is ignored",
                "'connectionCcsid' is recognised but not supported yet by OpenMFT and is ignored",
                "unknown key 'coordinationQMgr' in command.properties is ignored"), config.warnings());

        ConfigurationException credentials = assertThrows(ConfigurationException.class, () -> CommandConfig.from(
                Map.of("connectionQMgr", "QM1", "connectionCredentialsKeyFile", "/home/u/mft.key"), Map.of()));
        assertTrue(credentials.getMessage().startsWith("command.properties: connectionCredentialsKeyFile"
                + "=/home/u/mft.key: the credentials key file cannot be read"), credentials.getMessage());
    }

    @Test
    void aTlsKeyWithoutTlsOnIsAConfigurationErrorNotSilentlyPlaintext() {
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> CommandConfig.from(
                Map.of("connectionQMgr", "QM1", "connectionSslPeerName", "CN=x"), Map.of()));
        assertEquals("connectionSslPeerName", e.key());
        assertTrue(e.getMessage().contains("TLS is not on"), e.getMessage());
    }

    @Test
    void endpointRejectsImpossibleValues() {
        assertThrows(IllegalArgumentException.class,
                () -> new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QM", "h", 0, "C"));
        assertThrows(IllegalArgumentException.class,
                () -> new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QM", " ", 1414, "C"));
        assertThrows(NullPointerException.class, () -> new QueueManagerEndpoint(null, "QM", null, 1414, "C"));
    }
}
