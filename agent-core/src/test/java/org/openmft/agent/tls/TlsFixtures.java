package org.openmft.agent.tls;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import javax.security.auth.x500.X500Principal;

/** Real CAs, certificates and stores for tests, written with owner-only permissions. */
public final class TlsFixtures {
    private TlsFixtures() {
    }

    /** A new CA valid from an hour ago for a year. */
    public static CertificateAuthority ca(String cn) throws Exception {
        return CertificateAuthority.create(new X500Principal("CN=" + cn + ",O=Test"),
                Instant.now().minus(Duration.ofHours(1)), Instant.now().plus(Duration.ofDays(365)));
    }

    /** Writes {@code ca}'s trust store as {@code dir/name} with its password in {@code dir/name.pw}. */
    public static Path trustStore(CertificateAuthority ca, Path dir, String name) throws Exception {
        Path f = dir.resolve(name);
        String pw = CertificateAuthority.newPassword();
        ca.storeTrust(f, pw);
        CertificateAuthority.writePasswordFile(dir.resolve(name + ".pw"), pw);
        return f;
    }

    /** Issues a certificate valid from {@code from} to {@code to} and writes its key store with a password file. */
    public static Path keyStore(CertificateAuthority ca, Path dir, String name, String subject, List<String> names,
            Instant from, Instant to, boolean server) throws Exception {
        Path f = dir.resolve(name);
        String pw = CertificateAuthority.newPassword();
        ca.issue(new X500Principal(subject), names, from, to, server, !server).store(f, "key", pw);
        CertificateAuthority.writePasswordFile(dir.resolve(name + ".pw"), pw);
        return f;
    }
}
