package org.openmft.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.security.auth.x500.X500Principal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.tls.CertificateAuthority;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** The endpoint with HTTPS and a login: only the right login reads the metrics, over TLS only. */
class MetricsEndpointTest {
    @TempDir
    Path dir;

    @Test
    void httpsWithALoginServesTheRightLoginOnly() throws Exception {
        // An EC key (fast to make, unlike RSA) and a self-signed certificate for localhost.
        Instant now = Instant.now();
        java.security.KeyPairGenerator gen = java.security.KeyPairGenerator.getInstance("EC");
        gen.initialize(256);
        java.security.KeyPair pair = gen.generateKeyPair();
        X500Principal name = new X500Principal("CN=localhost");
        var builder = new org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder(name, java.math.BigInteger.ONE,
                java.util.Date.from(now.minusSeconds(60)), java.util.Date.from(now.plus(Duration.ofDays(1))), name,
                pair.getPublic());
        builder.addExtension(org.bouncycastle.asn1.x509.Extension.subjectAlternativeName, false,
                new org.bouncycastle.asn1.x509.GeneralNames(new org.bouncycastle.asn1.x509.GeneralName(
                        org.bouncycastle.asn1.x509.GeneralName.dNSName, "localhost")));
        java.security.cert.X509Certificate certificate = new org.bouncycastle.cert.jcajce.JcaX509CertificateConverter()
                .getCertificate(builder.build(new org.bouncycastle.operator.jcajce.JcaContentSignerBuilder(
                        "SHA256withECDSA").build(pair.getPrivate())));
        String password = CertificateAuthority.newPassword();
        Path store = dir.resolve("metrics.p12");
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("metrics", pair.getPrivate(), password.toCharArray(),
                new java.security.cert.Certificate[] {certificate});
        try (var out = Files.newOutputStream(store)) {
            keys.store(out, password.toCharArray());
        }
        Path storePassword = dir.resolve("metrics.p12.pw");
        CertificateAuthority.writePasswordFile(storePassword, password);
        Path login = dir.resolve("metrics.login");
        CertificateAuthority.writeSecret(login, "prometheus:s3cret:with:colons\n".getBytes(StandardCharsets.UTF_8));

        PrometheusMeterRegistry registry = ProcessMetrics.registry("agent", "SRC");
        registry.counter("openmft.agent.chunk.resends").increment();
        MetricsSettings settings = new MetricsSettings(MetricsSettings.AGENT_PREFIX, "agent.properties", 0,
                "127.0.0.1", store, "pkcs12", storePassword, login);
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(settings, registry, "agent SRC")) {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("metrics", certificate);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            HttpClient client = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(10)).build();
            URI uri = URI.create("https://localhost:" + endpoint.port() + "/metrics");

            assertThat(get(client, uri, null).statusCode()).isEqualTo(401);
            assertThat(get(client, uri, "prometheus:wrong").statusCode()).isEqualTo(401);
            HttpResponse<String> ok = get(client, uri, "prometheus:s3cret:with:colons");
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).contains("openmft_agent_chunk_resends_total{agent=\"SRC\"} 1");
            // Plain HTTP on the TLS port gets no answer at all.
            assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + endpoint.port() + "/metrics")).timeout(Duration.ofSeconds(30))
                    .build(), HttpResponse.BodyHandlers.ofString())).isInstanceOf(java.io.IOException.class);
        } finally {
            registry.close();
        }
    }

    @Test
    void aLoginFileOthersMayReadIsRefused() throws Exception {
        Path login = dir.resolve("metrics.login");
        Files.writeString(login, "prometheus:secret\n");
        Files.setPosixFilePermissions(login, PosixFilePermissions.fromString("rw-r--r--"));
        PrometheusMeterRegistry registry = ProcessMetrics.registry("agent", "SRC");
        MetricsSettings settings = new MetricsSettings(MetricsSettings.AGENT_PREFIX, "agent.properties", 0,
                "127.0.0.1", null, "jks", null, login);
        assertThatThrownBy(() -> MetricsEndpoint.start(settings, registry, "agent SRC"))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining("openmft.metrics.credentialsFile");
        registry.close();
    }

    private static HttpResponse<String> get(HttpClient client, URI uri, String login) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
        if (login != null) {
            b.header("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(login.getBytes(StandardCharsets.UTF_8)));
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
