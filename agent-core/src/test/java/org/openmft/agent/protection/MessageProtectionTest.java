package org.openmft.agent.protection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;

class MessageProtectionTest {
    @TempDir
    static Path dir;
    static Map<String, Map<String, String>> stores;

    @BeforeAll
    static void keys() throws Exception {
        stores = ProtectionStores.forAgents(dir, List.of("SRC", "DST"), ProtectionLevel.PRIVACY);
    }

    private static MessageProtection open(String agent, ProtectionLevel level, Map<String, ProtectionLevel> byAgent,
            Clock clock) throws ProtectionException {
        Map<String, String> s = stores.get(agent);
        return MessageProtection.open(agent, level, byAgent, Path.of(s.get("openmft.protectionKeyStore")),
                Path.of(s.get("openmft.protectionKeyStoreCredentialsFile")), Path.of(s.get("openmft.protectionTrustStore")),
                Path.of(s.get("openmft.protectionTrustStoreCredentialsFile")), clock);
    }

    @Test
    void levelsAndExceptionsPerAgent() {
        assertThat(ProtectionLevel.parse("Privacy")).isEqualTo(ProtectionLevel.PRIVACY);
        assertThatThrownBy(() -> ProtectionLevel.parse("secret")).hasMessageContaining("none, integrity or privacy");
        assertThat(ProtectionLevel.PRIVACY.satisfies(ProtectionLevel.INTEGRITY)).isTrue();
        assertThat(ProtectionLevel.NONE.satisfies(ProtectionLevel.INTEGRITY)).isFalse();

        Map<String, ProtectionLevel> by = MessageProtection.parseByAgent(" agent2=privacy, LEGACY = none");
        assertThat(by).containsExactly(Map.entry("AGENT2", ProtectionLevel.PRIVACY),
                Map.entry("LEGACY", ProtectionLevel.NONE));
        MessageProtection p = MessageProtection.of(ProtectionLevel.INTEGRITY, by, PeerKeys.NONE);
        assertThat(p.levelFor("Agent2")).isEqualTo(ProtectionLevel.PRIVACY);
        assertThat(p.levelFor("LEGACY")).isEqualTo(ProtectionLevel.NONE);
        assertThat(p.levelFor("OTHER")).isEqualTo(ProtectionLevel.INTEGRITY);

        assertThatThrownBy(() -> MessageProtection.parseByAgent("AGENT2")).hasMessageContaining("'AGENT2' is not AGENT=level");
        assertThatThrownBy(() -> MessageProtection.parseByAgent("A=none,a=privacy")).hasMessageContaining("named twice");
        assertThatThrownBy(() -> MessageProtection.parseByAgent("A/B=none")).hasMessageContaining("not AGENT=level");
    }

    @Test
    void aLevelAboveNoneWithoutStoresStopsTheAgentNamingTheKeys() {
        assertThatThrownBy(() -> AgentConfig.from(Map.of("agentName", "SRC", "agentQMgr", "QM1",
                "openmft.messageProtection", "integrity"), Map.of()).messageProtection(Clock.systemUTC()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("openmft.protectionKeyStore and openmft.protectionTrustStore are required");
        assertThatThrownBy(() -> AgentConfig.from(Map.of("agentName", "SRC", "agentQMgr", "QM1",
                "openmft.messageProtectionByAgent", "DST=sealed"), Map.of()))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("openmft.messageProtectionByAgent");
        // none everywhere needs no keys
        assertThat(MessageProtection.NONE.levelFor("X")).isEqualTo(ProtectionLevel.NONE);
    }

    @Test
    void anAgentNamedAboveNoneWithoutACertificateStopsTheAgent() {
        assertThatThrownBy(() -> open("SRC", ProtectionLevel.NONE, Map.of("NOBODY", ProtectionLevel.PRIVACY),
                Clock.systemUTC())).hasMessageContaining("openmft.messageProtectionByAgent asks for privacy with agent"
                        + " NOBODY").hasMessageContaining("no certificate of agent NOBODY");
    }

    @Test
    void keysWrappedForAPeerOpenOnlyThereAndSignaturesNameTheirSigner() throws Exception {
        PeerKeys src = open("SRC", ProtectionLevel.PRIVACY, Map.of(), Clock.systemUTC()).keys();
        PeerKeys dst = open("DST", ProtectionLevel.PRIVACY, Map.of(), Clock.systemUTC()).keys();
        byte[] key = new byte[32];
        key[5] = 9;
        byte[] wrapped = src.wrap("dst", key);
        assertThat(dst.unwrap(wrapped)).isEqualTo(key);
        assertThatThrownBy(() -> src.unwrap(wrapped)).isInstanceOf(ProtectionException.class)
                .hasMessageContaining("not wrapped for this agent");

        byte[] signature = src.sign("START".getBytes());
        dst.verify("SRC", "START".getBytes(), signature);
        assertThatThrownBy(() -> dst.verify("SRC", "STARt".getBytes(), signature))
                .hasMessageContaining("not agent SRC's");
        byte[] dstSignature = dst.sign("START".getBytes());
        assertThatThrownBy(() -> src.verify("XYZ", "START".getBytes(), dstSignature))
                .hasMessageContaining("no certificate of agent XYZ");
        // DST signing in SRC's name: SRC's certificate does not verify it.
        assertThatThrownBy(() -> src.verify("SRC", "START".getBytes(), dstSignature))
                .hasMessageContaining("not agent SRC's");
    }

    @Test
    void anExpiredCertificateIsRefusedWhenUsedAndAtStart() throws Exception {
        Clock later = Clock.fixed(Instant.now().plus(Duration.ofDays(900)), ZoneOffset.UTC);
        assertThatThrownBy(() -> open("SRC", ProtectionLevel.PRIVACY, Map.of(), later))
                .hasMessageContaining("this agent's certificate").hasMessageContaining("expired on");
    }

    @Test
    void theKeytoolCommandsTheReadmeGivesMakeStoresTheAgentAccepts() throws Exception {
        Path kt = dir.resolve("keytool");
        Files.createDirectories(kt);
        for (String agent : List.of("AGENT1", "AGENT2")) {
            keytool("-genkeypair", "-alias", agent, "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=" + agent,
                    "-validity", "825", "-storetype", "pkcs12", "-keystore", kt.resolve(agent + ".p12").toString(),
                    "-storepass", "secret-" + agent);
            keytool("-exportcert", "-alias", agent, "-keystore", kt.resolve(agent + ".p12").toString(), "-storepass",
                    "secret-" + agent, "-file", kt.resolve(agent + ".cer").toString());
        }
        keytool("-importcert", "-noprompt", "-alias", "AGENT2", "-file", kt.resolve("AGENT2.cer").toString(),
                "-storetype", "pkcs12", "-keystore", kt.resolve("AGENT1-peers.p12").toString(), "-storepass", "peers1");
        keytool("-importcert", "-noprompt", "-alias", "AGENT1", "-file", kt.resolve("AGENT1.cer").toString(),
                "-storetype", "pkcs12", "-keystore", kt.resolve("AGENT2-peers.p12").toString(), "-storepass", "peers2");
        AgentKeyStores one = AgentKeyStores.open("AGENT1", kt.resolve("AGENT1.p12"), "secret-AGENT1".toCharArray(),
                kt.resolve("AGENT1-peers.p12"), "peers1".toCharArray(), Clock.systemUTC());
        AgentKeyStores two = AgentKeyStores.open("AGENT2", kt.resolve("AGENT2.p12"), "secret-AGENT2".toCharArray(),
                kt.resolve("AGENT2-peers.p12"), "peers2".toCharArray(), Clock.systemUTC());
        assertThat(one.peers()).containsExactly("AGENT2");
        byte[] key = "0123456789abcdef0123456789abcdef".getBytes();
        assertThat(two.unwrap(one.wrap("AGENT2", key))).isEqualTo(key);
        two.verify("AGENT1", key, one.sign(key));

        keytool("-genkeypair", "-alias", "EC", "-keyalg", "EC", "-dname", "CN=EC", "-storetype", "pkcs12",
                "-keystore", kt.resolve("ec.p12").toString(), "-storepass", "secret-ec");
        assertThatThrownBy(() -> AgentKeyStores.open("EC", kt.resolve("ec.p12"), "secret-ec".toCharArray(),
                kt.resolve("AGENT1-peers.p12"), "peers1".toCharArray(), Clock.systemUTC()))
                .hasMessageContaining("needs an RSA key");
        assertThatThrownBy(() -> AgentKeyStores.open("AGENT1", kt.resolve("AGENT1.p12"), "wrong".toCharArray(),
                kt.resolve("AGENT1-peers.p12"), "peers1".toCharArray(), Clock.systemUTC()))
                .hasMessageContaining("key store cannot be opened");
    }

    private static void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as("keytool %s: %s", cmd, out).isZero();
    }
}
