package org.openmft.agent.protection;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.security.auth.x500.X500Principal;

import org.openmft.agent.tls.CertificateAuthority;

/**
 * Makes the stores {@link AgentKeyStores} reads, as an administrator would with {@code keytool}
 * (see the README): for set-ups, benchmarks and tests that need protected agents without a person
 * at a prompt. Files are written readable by their owner only; existing files are never replaced.
 */
public final class ProtectionStores {
    private ProtectionStores() {
    }

    /**
     * Makes an agent's key store: a new RSA key and a certificate {@code CN=<agent>} for it.
     *
     * @param agent        the agent
     * @param store        the PKCS12 file to write
     * @param passwordFile the file its password goes to
     * @param validity     how long the certificate is valid from now
     * @return the certificate, for the peers' trust stores
     */
    public static X509Certificate createKeyStore(String agent, Path store, Path passwordFile, Duration validity)
            throws IOException, GeneralSecurityException {
        Instant now = Instant.now();
        CertificateAuthority issuer = CertificateAuthority.create(new X500Principal("CN=" + agent + " protection"),
                now.minus(Duration.ofMinutes(5)), now.plus(validity));
        CertificateAuthority.Issued issued = issuer.issue(new X500Principal("CN=" + agent), List.of(),
                now.minus(Duration.ofMinutes(5)), now.plus(validity), false, false);
        String password = CertificateAuthority.newPassword();
        issued.store(store, agent, password);
        CertificateAuthority.writePasswordFile(passwordFile, password);
        return issued.certificate();
    }

    /**
     * Writes a trust store holding each agent's certificate under the agent's name.
     *
     * @param store        the PKCS12 file to write
     * @param passwordFile the file its password goes to
     * @param peers        agent name to certificate
     */
    public static void createTrustStore(Path store, Path passwordFile, Map<String, X509Certificate> peers)
            throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        for (Map.Entry<String, X509Certificate> e : peers.entrySet()) {
            ks.setCertificateEntry(e.getKey(), e.getValue());
        }
        String password = CertificateAuthority.newPassword();
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        ks.store(buf, password.toCharArray());
        CertificateAuthority.writeSecret(store, buf.toByteArray());
        CertificateAuthority.writePasswordFile(passwordFile, password);
    }

    /**
     * Keys for a group of agents that all trust each other: in {@code directory}, each agent's key
     * store, a trust store with the others' certificates, and their password files.
     *
     * @param directory where the files go
     * @param agents    the agents
     * @param level     the level each agent asks for
     * @return per agent, the {@code agent.properties} entries that use them
     */
    public static Map<String, Map<String, String>> forAgents(Path directory, Collection<String> agents,
            ProtectionLevel level) throws IOException, GeneralSecurityException {
        Map<String, X509Certificate> certificates = new LinkedHashMap<>();
        for (String a : agents) {
            certificates.put(a, createKeyStore(a, directory.resolve(a + ".p12"), directory.resolve(a + ".p12.pw"),
                    Duration.ofDays(825)));
        }
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (String a : agents) {
            Map<String, X509Certificate> others = new LinkedHashMap<>(certificates);
            others.remove(a);
            Path trust = directory.resolve(a + "-peers.p12");
            createTrustStore(trust, directory.resolve(a + "-peers.p12.pw"), others);
            out.put(a, Map.of(MessageProtection.LEVEL_KEY, level.word(),
                    MessageProtection.KEY_STORE_KEY, directory.resolve(a + ".p12").toString(),
                    MessageProtection.KEY_STORE_KEY + "CredentialsFile", directory.resolve(a + ".p12.pw").toString(),
                    MessageProtection.TRUST_STORE_KEY, trust.toString(),
                    MessageProtection.TRUST_STORE_KEY + "CredentialsFile", directory.resolve(a + "-peers.p12.pw")
                            .toString()));
        }
        return out;
    }
}
