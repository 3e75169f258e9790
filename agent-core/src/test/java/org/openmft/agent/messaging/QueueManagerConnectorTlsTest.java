package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import javax.net.ssl.SSLSocketFactory;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.CommandConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.tls.TlsFixtures;

import com.ibm.mq.jakarta.jms.MQConnectionFactory;

/**
 * IBM's *Ssl* keys become TLS settings: on IBM MQ the connection factory's SSLCipherSuite,
 * SSLPeerName, SSLFipsRequired and a socket factory with the stores (IBM MQ cannot run here, so the
 * mapping is what is tested); mistakes stop start-up with exit code 78 naming the key.
 */
class QueueManagerConnectorTlsTest {
    @TempDir
    Path dir;
    Path trust;

    @BeforeEach
    void stores() throws Exception {
        trust = TlsFixtures.trustStore(TlsFixtures.ca("Test CA"), dir, "trust.p12");
    }

    Map<String, String> agent(String provider) {
        Map<String, String> m = new HashMap<>();
        m.put("agentName", "AGENT1");
        m.put("agentQMgr", "QM1");
        m.put("agentQMgrHost", "mq.example.com");
        m.put("agentQMgrProvider", provider);
        m.put("agentSslTrustStore", trust.toString());
        m.put("agentSslTrustStoreType", "pkcs12");
        m.put("agentSslTrustStoreCredentialsFile", trust + ".pw");
        return m;
    }

    @Test
    void ibmMqGetsTheCipherSuiteThePeerNameFipsAndTheStores() throws Exception {
        Map<String, String> m = agent("ibmmq");
        m.put("agentSslCipherSpec", "ECDHE_RSA_AES_256_GCM_SHA384");
        m.put("agentSslCipherSuite", "TLS_AES_128_GCM_SHA256");
        m.put("agentSslPeerName", "CN=QM1*, O=Example");
        AgentConfig config = AgentConfig.from(m, Map.of());
        MQConnectionFactory cf = (MQConnectionFactory) QueueManagerConnector.forAgent(config.endpoint(), null).factory();
        // The CipherSpec wins over the CipherSuite, as in IBM MFT.
        assertThat(cf.getSSLCipherSuite()).isEqualTo("TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");
        assertThat(cf.getSSLPeerName()).isEqualTo("CN=QM1*, O=Example");
        assertThat(cf.getSSLFipsRequired()).isFalse();
        assertThat(cf.getSSLSocketFactory()).isInstanceOf(SSLSocketFactory.class);
        assertThat(cf.getHostName()).isEqualTo("mq.example.com");

        m.put("agentSslCipherSpec", "ANY_TLS13_OR_HIGHER");
        cf = (MQConnectionFactory) QueueManagerConnector.forAgent(AgentConfig.from(m, Map.of()).endpoint(), null)
                .factory();
        assertThat(cf.getSSLCipherSuite()).isEqualTo("*TLS13ORHIGHER");
        m.remove("agentSslCipherSpec");
        m.remove("agentSslCipherSuite");
        cf = (MQConnectionFactory) QueueManagerConnector.forAgent(AgentConfig.from(m, Map.of()).endpoint(), null)
                .factory();
        assertThat(cf.getSSLCipherSuite()).isEqualTo("*TLS12ORHIGHER");
    }

    @Test
    void artemisGetsTlsOnTheConnectorAndTheCommandFileHasItsOwnFamily() throws Exception {
        Map<String, String> m = agent("artemis");
        m.put("agentSslCipherSpec", "ANY_TLS13_OR_HIGHER");
        QueueManagerConnector c = QueueManagerConnector.forAgent(AgentConfig.from(m, Map.of()).endpoint(), null);
        assertThat(c.description()).contains("TLS");
        assertThat(AgentConfig.from(m, Map.of()).tls().orElseThrow().protocols()).containsExactly("TLSv1.3");

        CommandConfig command = CommandConfig.from(Map.of("connectionQMgr", "QM1", "connectionQMgrHost", "h",
                "connectionSslTrustStore", trust.toString(), "connectionSslTrustStoreCredentialsFile", trust + ".pw",
                "connectionSslPeerName", "CN=QM1"), Map.of());
        assertThat(command.endpoint().tls().peerName()).isPresent();
        assertThat(command.endpoint().tls().verifyHost()).isFalse();
        assertThat(command.describe()).contains("connectionSslPeerName=CN=QM1").doesNotContain("(ignored");
    }

    @Test
    void theLoggerReadsItsOwnWmqfteSslKeys() throws Exception {
        org.openmft.agent.config.LoggerConfig logger = org.openmft.agent.config.LoggerConfig.from(Map.of(
                "wmqfte.logger.type", "FILE", "wmqfte.queue.manager", "QM1", "wmqfte.queue.manager.host", "h",
                "wmqfte.ssl.truststore", trust.toString(), "wmqfte.ssl.truststore.credentials.file", trust + ".pw",
                "wmqfte.ssl.peer.name", "CN=QM1", "wmqfte.ssl.cipher.suite", "TLS_AES_128_GCM_SHA256"), "LOG1",
                Map.of());
        assertThat(logger.endpoint().tls().cipherSuites()).containsExactly("TLS_AES_128_GCM_SHA256");
        assertThat(logger.endpoint().tls().key("PeerName")).isEqualTo("wmqfte.ssl.peer.name");
        assertThat(QueueManagerConnector.forCommand(logger.endpoint(), dir, null).description()).contains("TLS");
        assertThatThrownBy(() -> org.openmft.agent.config.LoggerConfig.from(Map.of("wmqfte.logger.type", "FILE",
                "wmqfte.queue.manager", "QM1", "wmqfte.ssl.truststore", trust.toString()), "LOG1", Map.of()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("wmqfte.ssl.truststore.credentials.file is required");
    }

    @Test
    void mistakesStopStartUpNamingTheKey() {
        Map<String, String> fips = agent("artemis");
        fips.put("agentSslFipsRequired", "true");
        assertThatThrownBy(() -> AgentConfig.from(fips, Map.of())).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("agentSslFipsRequired=true").hasMessageContaining("FIPS 140 provider")
                .satisfies(e -> assertThat(((ConfigurationException) e).key()).isEqualTo("agentSslFipsRequired"));

        Map<String, String> spec = agent("artemis");
        spec.put("agentSslCipherSpec", "TRIPLE_DES_NONSENSE");
        assertThatThrownBy(() -> AgentConfig.from(spec, Map.of())).hasMessageContaining("agentSslCipherSpec")
                .hasMessageContaining("ANY_TLS12_OR_HIGHER");

        Map<String, String> noTrust = agent("artemis");
        noTrust.remove("agentSslTrustStore");
        noTrust.remove("agentSslTrustStoreCredentialsFile");
        noTrust.put("agentSslCipherSuite", "TLS_AES_128_GCM_SHA256");
        assertThatThrownBy(() -> AgentConfig.from(noTrust, Map.of()))
                .hasMessageContaining("agentSslTrustStore is required");

        Map<String, String> badPeer = agent("artemis");
        badPeer.put("agentSslPeerName", "CN=QM1, XX=1");
        assertThatThrownBy(() -> AgentConfig.from(badPeer, Map.of())).hasMessageContaining("agentSslPeerName")
                .hasMessageContaining("'XX'");

        Map<String, String> wrongPassword = agent("artemis");
        wrongPassword.put("agentSslTrustStoreCredentialsFile", dir.resolve("wrong.pw").toString());
        assertThatThrownBy(() -> {
            org.openmft.agent.tls.CertificateAuthority.writePasswordFile(dir.resolve("wrong.pw"), "nope");
            AgentConfig.from(wrongPassword, Map.of());
        }).hasMessageContaining("agentSslTrustStore=" + trust).hasMessageContaining("password");
    }
}
