package org.openmft.agent.qmgr;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import javax.security.auth.x500.X500Principal;

import org.openmft.agent.tls.CertificateAuthority;

/**
 * The TLS material {@code mft qmgr create --tls-generate} makes for a first start, in the queue
 * manager's {@value ListenerTls#GENERATED_DIRECTORY} directory, every file readable by its owner
 * only (0600), each store with a generated password in {@code <store>.pw} beside it:
 * <pre>
 * tls/ca.p12            the private CA's key and certificate (to issue client certificates)
 * tls/trust.p12         the CA certificate: the trust store agents and commands use
 * tls/server.p12        the listener's key and certificate, signed by the CA
 * tls/local-client.p12  with mutual TLS: a client certificate for commands on this host
 * </pre>
 * Nothing is ever overwritten. Not thread-safe; one command at a time.
 */
public final class GeneratedTls {
    /** Validity of the CA certificate. */
    public static final Duration CA_VALIDITY = Duration.ofDays(3650);
    /** Default validity of the listener's and clients' certificates. */
    public static final Duration CERTIFICATE_VALIDITY = Duration.ofDays(825);

    private GeneratedTls() {
    }

    /**
     * Generates a CA, the listener's certificate and the trust store.
     *
     * @param directory the queue manager's directory
     * @param qmgrName the queue manager's name, for the certificates' subjects
     * @param subject the listener certificate's subject
     * @param names host names and IP addresses the listener answers on (subject alternative names)
     * @param clientAuth whether clients must present certificates (mutual TLS)
     * @return the settings to store with the queue manager, with paths relative to {@code directory}
     */
    public static ListenerTls generate(Path directory, String qmgrName, X500Principal subject, List<String> names,
            boolean clientAuth) throws IOException, GeneralSecurityException {
        Path dir = directory.resolve(ListenerTls.GENERATED_DIRECTORY);
        Instant now = Instant.now();
        // A little back-dating absorbs clock differences between this host and its clients.
        Instant from = now.minus(Duration.ofHours(1));
        CertificateAuthority ca = CertificateAuthority.create(new X500Principal("CN=" + qmgrName + " CA,O=OpenMFT"),
                from, now.plus(CA_VALIDITY));
        store(dir, "ca.p12", (f, pw) -> ca.store(f, pw));
        store(dir, "trust.p12", (f, pw) -> ca.storeTrust(f, pw));
        CertificateAuthority.Issued server = ca.issue(subject, names, from, now.plus(CERTIFICATE_VALIDITY), true,
                false);
        store(dir, "server.p12", (f, pw) -> server.store(f, "server", pw));
        Path local = null;
        Path localPw = null;
        if (clientAuth) {
            CertificateAuthority.Issued client = ca.issue(new X500Principal("CN=" + qmgrName + " local commands,"
                    + "O=OpenMFT"), List.of(), from, now.plus(CERTIFICATE_VALIDITY), false, true);
            store(dir, "local-client.p12", (f, pw) -> client.store(f, "client", pw));
            local = rel("local-client.p12");
            localPw = rel("local-client.p12.pw");
        }
        return new ListenerTls(rel("server.p12"), rel("server.p12.pw"), clientAuth ? rel("trust.p12") : null,
                clientAuth ? rel("trust.p12.pw") : null, clientAuth, local, localPw);
    }

    /**
     * Issues a client certificate from a queue manager's generated CA, for an agent or a command
     * connecting with mutual TLS.
     *
     * @param directory the queue manager's directory
     * @param subject the certificate's subject, such as {@code CN=AGENT1,O=OpenMFT}
     * @param out the PKCS12 key store to write; its password goes to {@code out + ".pw"}
     * @param validity how long the certificate is valid
     */
    public static void issueClient(Path directory, X500Principal subject, Path out, Duration validity)
            throws IOException, GeneralSecurityException {
        Path dir = directory.resolve(ListenerTls.GENERATED_DIRECTORY);
        Path caFile = dir.resolve("ca.p12");
        if (!Files.exists(caFile)) {
            throw new IOException("queue manager in " + directory + " has no generated CA (" + caFile
                    + "): it was not created with --tls-generate");
        }
        String caPassword = Files.readString(dir.resolve("ca.p12.pw"), StandardCharsets.UTF_8).strip();
        CertificateAuthority ca = CertificateAuthority.load(caFile, caPassword);
        Instant now = Instant.now();
        CertificateAuthority.Issued client = ca.issue(subject, List.of(), now.minus(Duration.ofHours(1)),
                now.plus(validity), false, true);
        String pw = CertificateAuthority.newPassword();
        client.store(out, "client", pw);
        CertificateAuthority.writePasswordFile(Path.of(out + ".pw"), pw);
    }

    private interface Writer {
        void write(Path file, String password) throws IOException, GeneralSecurityException;
    }

    private static void store(Path dir, String name, Writer writer) throws IOException, GeneralSecurityException {
        String pw = CertificateAuthority.newPassword();
        writer.write(dir.resolve(name), pw);
        CertificateAuthority.writePasswordFile(dir.resolve(name + ".pw"), pw);
    }

    private static Path rel(String name) {
        return Path.of(ListenerTls.GENERATED_DIRECTORY, name);
    }
}
