package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import javax.security.auth.x500.X500Principal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.GeneratedTls;
import org.openmft.agent.qmgr.ListenerTls;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.tls.CertificateAuthority;
import org.openmft.agent.tls.TlsFixtures;

/**
 * Client connections to a real embedded queue manager with a real TLS listener, made with the
 * material {@code mft qmgr create --tls-generate} writes: trusted, mutual, and each refusal an MQ
 * administrator must be able to read (not trusted, expired, peer name, no client certificate).
 */
class TlsConnectionIT {
    static final String QM = "QMTLS";

    @TempDir
    Path dir;

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    QueueManagerSettings generated(boolean clientAuth, int port) throws Exception {
        return generated(clientAuth, port, List.of("localhost", "127.0.0.1"));
    }

    QueueManagerSettings generated(boolean clientAuth, int port, List<String> names) throws Exception {
        Path qmDir = dir.resolve("qm");
        ListenerTls tls = GeneratedTls.generate(qmDir, QM, new X500Principal("CN=" + QM + ",O=OpenMFT"), names,
                clientAuth);
        return new QueueManagerSettings(QM, qmDir, "127.0.0.1", port, tls, false);
    }

    Map<String, String> agent(int port, Path trustStore) {
        Map<String, String> m = new HashMap<>();
        m.put("agentName", "AGENT1");
        m.put("agentQMgr", QM);
        m.put("agentQMgrHost", "127.0.0.1");
        m.put("agentQMgrPort", String.valueOf(port));
        m.put("agentSslTrustStore", trustStore.toString());
        m.put("agentSslTrustStoreType", "pkcs12");
        m.put("agentSslTrustStoreCredentialsFile", trustStore + ".pw");
        return m;
    }

    static QueueManagerConnector connector(Map<String, String> agentProperties) throws Exception {
        var ep = AgentConfig.from(agentProperties, Map.of()).endpoint();
        return QueueManagerConnector.forAgent(ep, EmbeddedQueueManager.inVmAdministrator(ep.qmgrName()).orElse(null));
    }

    /**
     * A connection attempt started on another thread, for the refusals the client only learns of
     * through Artemis's call timeout (30 s: the server closes a connection whose TLS handshake it
     * refused, and the client's first blocking call waits it out); run side by side, they cost
     * that wait once rather than each.
     *
     * @return what the attempt threw, or null when it connected
     */
    static CompletableFuture<Throwable> attempt(Callable<QueueManagerConnector> connector) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                connector.call().connect().close();
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
    }

    /** A message put and got again over the connection: the channel really carries data. */
    static void roundTrip(QueueManagerConnector connector) throws Exception {
        try (Connection c = connector.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            s.createProducer(s.createQueue("TLS.TEST")).send(s.createTextMessage("over TLS"));
            MessageConsumer consumer = s.createConsumer(s.createQueue("TLS.TEST"));
            assertThat(((TextMessage) consumer.receive(10_000)).getText()).isEqualTo("over TLS");
        }
    }

    @Test
    void generatedMaterialIsOwnerOnlyAndAClientTrustingTheCaConnectsOthersAreRefused() throws Exception {
        int port = freePort();
        QueueManagerSettings settings = generated(false, port);
        Path tlsDir = settings.directory().resolve("tls");
        for (String f : List.of("ca.p12", "ca.p12.pw", "trust.p12", "trust.p12.pw", "server.p12", "server.p12.pw")) {
            assertThat(Files.getPosixFilePermissions(tlsDir.resolve(f)))
                    .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        }
        settings.store();
        assertThat(QueueManagerSettings.load(settings.directory())).isEqualTo(settings);
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings)) {
            assertThat(qm.isRunning()).isTrue();
            Map<String, String> ok = agent(port, tlsDir.resolve("trust.p12"));
            roundTrip(connector(ok));

            // The subject matches: with a peer name the host is not checked, the subject is.
            Map<String, String> peer = new HashMap<>(ok);
            peer.put("agentSslPeerName", "CN=" + QM + ", O=OpenMFT");
            roundTrip(connector(peer));
            peer.put("agentSslPeerName", "CN=OTHER");
            assertThatThrownBy(() -> connector(peer).connect()).isInstanceOf(QueueManagerException.class)
                    .hasMessageContaining("does not match agentSslPeerName=CN=OTHER")
                    .hasMessageContaining("CN is '" + QM + "' where 'OTHER' is required");

            // A trust store of another CA.
            Path otherTrust = TlsFixtures.trustStore(TlsFixtures.ca("Other CA"), dir, "other-trust.p12");
            assertThatThrownBy(() -> connector(agent(port, otherTrust)).connect())
                    .hasMessageContaining("is not trusted")
                    .hasMessageContaining("CN=" + QM + ",O=OpenMFT")
                    .hasMessageContaining("agentSslTrustStore=" + otherTrust);

        }
    }

    @Test
    void withoutAPeerNameTheHostMustBeInTheCertificateWithOneTheSubjectMustMatchInstead() throws Exception {
        int port = freePort();
        QueueManagerSettings settings = generated(false, port, List.of("mft1.example.com"));
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings)) {
            assertThat(qm.isRunning()).isTrue();
            Map<String, String> agent = agent(port, settings.directory().resolve("tls/trust.p12"));
            assertThatThrownBy(() -> connector(agent).connect()).isInstanceOf(QueueManagerException.class)
                    .hasMessageContaining("is not issued for the host name 127.0.0.1");
            agent.put("agentSslPeerName", "CN=QMT*");
            roundTrip(connector(agent));
        }
    }

    @Test
    void anExpiredQueueManagerCertificateIsRefusedSayingItExpired() throws Exception {
        int port = freePort();
        Path qmDir = dir.resolve("qm");
        CertificateAuthority ca = TlsFixtures.ca("Expiry CA");
        Path tlsDir = Files.createDirectories(qmDir.resolve("tls"));
        Instant past = Instant.now().minus(Duration.ofDays(30));
        TlsFixtures.keyStore(ca, tlsDir, "server.p12", "CN=" + QM + ",O=OpenMFT", List.of("127.0.0.1"),
                past.minus(Duration.ofDays(365)), past, true);
        Path trust = TlsFixtures.trustStore(ca, dir, "trust.p12");
        ListenerTls tls = new ListenerTls(Path.of("tls/server.p12"), Path.of("tls/server.p12.pw"), null, null, false,
                null, null);
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(new QueueManagerSettings(QM, qmDir, "127.0.0.1",
                port, tls, false))) {
            assertThat(qm.isRunning()).isTrue();
            assertThatThrownBy(() -> connector(agent(port, trust)).connect()).isInstanceOf(QueueManagerException.class)
                    .hasMessageContaining("certificate CN=" + QM + ",O=OpenMFT expired on");
        }
    }

    @Test
    void mutualTlsAcceptsAClientCertificateFromTheCaAndRefusesOneWithoutOrWithoutTls() throws Exception {
        int port = freePort();
        QueueManagerSettings settings = generated(true, port);
        Path tlsDir = settings.directory().resolve("tls");
        Path clientStore = dir.resolve("agent1.p12");
        GeneratedTls.issueClient(settings.directory(), new X500Principal("CN=AGENT1,O=OpenMFT"), clientStore,
                Duration.ofDays(1));
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings)) {
            assertThat(qm.isRunning()).isTrue();
            Map<String, String> with = agent(port, tlsDir.resolve("trust.p12"));
            with.put("agentSslKeyStore", clientStore.toString());
            with.put("agentSslKeyStoreType", "pkcs12");
            with.put("agentSslKeyStoreCredentialsFile", clientStore + ".pw");
            roundTrip(connector(with));

            Map<String, String> without = agent(port, tlsDir.resolve("trust.p12"));
            CompletableFuture<Throwable> withoutCertificate = attempt(() -> connector(without));
            // A client certificate of another CA is not accepted either.
            Path stranger = TlsFixtures.keyStore(TlsFixtures.ca("Stranger CA"), dir, "stranger.p12",
                    "CN=AGENT9,O=Elsewhere", List.of(), Instant.now().minus(Duration.ofHours(1)),
                    Instant.now().plus(Duration.ofDays(1)), false);
            Map<String, String> strangerAgent = new HashMap<>(with);
            strangerAgent.put("agentSslKeyStore", stranger.toString());
            strangerAgent.put("agentSslKeyStoreCredentialsFile", stranger + ".pw");
            CompletableFuture<Throwable> strangerCertificate = attempt(() -> connector(strangerAgent));
            // A plaintext client gets nowhere on a TLS listener.
            QueueManagerEndpoint plain = new QueueManagerEndpoint(MessagingProvider.ARTEMIS, QM, "127.0.0.1", port,
                    "SYSTEM.DEF.SVRCONN");
            CompletableFuture<Throwable> plaintext = attempt(() -> QueueManagerConnector.forAgent(plain, null));

            assertThat(withoutCertificate.get()).isInstanceOf(QueueManagerException.class)
                    .hasMessageContaining("requires a client certificate")
                    .hasMessageContaining("agentSslKeyStore is not set");
            assertThat(strangerCertificate.get()).isInstanceOf(QueueManagerException.class);
            assertThat(plaintext.get()).isInstanceOf(QueueManagerException.class);
        }
    }

    @Test
    void aPlaintextListenerOnANetworkAddressIsRefusedUnlessAllowed() throws Exception {
        Optional<InetAddress> address = nonLoopbackAddress();
        assumeTrue(address.isPresent(), "this machine has no non-loopback IPv4 address; ListenerPolicyTest covers"
                + " the rule");
        String bind = address.get().getHostAddress();
        int port = freePort();
        QueueManagerSettings refused = new QueueManagerSettings(QM, dir.resolve("qm"), bind, port);
        assertThatThrownBy(() -> EmbeddedQueueManager.start(refused)).isInstanceOf(QueueManagerException.class)
                .hasMessageContaining(bind + ":" + port + " without TLS")
                .satisfies(e -> assertThat(((QueueManagerException) e).exitCode()).isEqualTo(78));
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(new QueueManagerSettings(QM, dir.resolve("qm"), bind,
                port, null, true))) {
            assertThat(qm.isRunning()).isTrue();
        }
        QueueManagerSettings withTls = generated(false, port);
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(new QueueManagerSettings(QM, withTls.directory(),
                bind, port, withTls.tls(), false))) {
            assertThat(qm.isRunning()).isTrue();
        }
    }

    static Optional<InetAddress> nonLoopbackAddress() throws Exception {
        for (NetworkInterface ni : java.util.Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!ni.isUp() || ni.isLoopback()) {
                continue;
            }
            for (InetAddress a : java.util.Collections.list(ni.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    return Optional.of(a);
                }
            }
        }
        return Optional.empty();
    }
}
