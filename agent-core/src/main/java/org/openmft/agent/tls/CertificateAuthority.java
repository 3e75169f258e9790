package org.openmft.agent.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;

import javax.security.auth.x500.X500Principal;

import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A private certificate authority for one queue manager: it signs the listener's certificate and
 * the client certificates of agents and commands for mutual TLS. Bouncy Castle builds the
 * certificates because the JDK has no public API for it (keytool's classes are internal, and
 * running keytool several times per queue manager costs a JVM start each); the jar is already on
 * the class path through the IBM MQ client.
 *
 * <p>Keys are RSA 2048, as IBM MQ MFT documents RSA keys for its TLS connections; certificates are
 * signed with SHA-256. Names are {@link X500Principal}s, so that a certificate's subject prints in
 * the order it was written. Not thread-safe; used by one command at a time.
 */
public final class CertificateAuthority {
    /** Alias of the CA's key entry in its PKCS12 file. */
    public static final String CA_ALIAS = "ca";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final X509Certificate certificate;
    private final PrivateKey key;

    private CertificateAuthority(X509Certificate certificate, PrivateKey key) {
        this.certificate = certificate;
        this.key = key;
    }

    /** A key and its chain, leaf first, ending with the CA's certificate. */
    public record Issued(PrivateKey key, X509Certificate[] chain) {
        /** The leaf certificate. */
        public X509Certificate certificate() {
            return chain[0];
        }

        /** Writes a PKCS12 key store with this key under {@code alias}, as a file only the owner can read. */
        public void store(Path file, String alias, String password) throws IOException, GeneralSecurityException {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry(alias, key, password.toCharArray(), chain);
            writeStore(ks, file, password);
        }
    }

    /**
     * Creates a new CA.
     *
     * @param subject its name, such as {@code CN=QM1 CA,O=OpenMFT}
     * @param notBefore start of validity
     * @param notAfter end of validity
     * @return the CA
     */
    public static CertificateAuthority create(X500Principal subject, Instant notBefore, Instant notAfter)
            throws GeneralSecurityException {
        KeyPair pair = rsa();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, serial(), Date.from(notBefore),
                    Date.from(notAfter), subject, pair.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            X509Certificate cert = new JcaX509CertificateConverter()
                    .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate())));
            return new CertificateAuthority(cert, pair.getPrivate());
        } catch (IOException | org.bouncycastle.operator.OperatorCreationException e) {
            throw new GeneralSecurityException("cannot build the CA certificate: " + e.getMessage(), e);
        }
    }

    /** Reads a CA written by {@link #store}. */
    public static CertificateAuthority load(Path file, String password) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            ks.load(in, password.toCharArray());
        }
        PrivateKey key = (PrivateKey) ks.getKey(CA_ALIAS, password.toCharArray());
        X509Certificate cert = (X509Certificate) ks.getCertificate(CA_ALIAS);
        if (key == null || cert == null) {
            throw new GeneralSecurityException(file + " holds no CA key under alias " + CA_ALIAS);
        }
        return new CertificateAuthority(cert, key);
    }

    /** The CA's certificate, which trust stores hold. */
    public X509Certificate certificate() {
        return certificate;
    }

    /**
     * Issues a certificate.
     *
     * @param subject the subject, such as {@code CN=QM1,O=OpenMFT}
     * @param names host names and IP addresses for the subject alternative names (server
     *              certificates); may be empty
     * @param notBefore start of validity
     * @param notAfter end of validity
     * @param server whether it may identify a TLS server
     * @param client whether it may identify a TLS client
     * @return the key and chain
     */
    public Issued issue(X500Principal subject, List<String> names, Instant notBefore, Instant notAfter,
            boolean server, boolean client) throws GeneralSecurityException {
        KeyPair pair = rsa();
        try {
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(certificate.getSubjectX500Principal(),
                    serial(), Date.from(notBefore), Date.from(notAfter), subject, pair.getPublic());
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            List<KeyPurposeId> purposes = new ArrayList<>();
            if (server) {
                purposes.add(KeyPurposeId.id_kp_serverAuth);
            }
            if (client) {
                purposes.add(KeyPurposeId.id_kp_clientAuth);
            }
            b.addExtension(Extension.extendedKeyUsage, false,
                    new ExtendedKeyUsage(purposes.toArray(KeyPurposeId[]::new)));
            if (!names.isEmpty()) {
                GeneralName[] san = names.stream().map(CertificateAuthority::generalName).toArray(GeneralName[]::new);
                b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(san));
            }
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
            X509Certificate cert = new JcaX509CertificateConverter()
                    .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withRSA").build(key)));
            return new Issued(pair.getPrivate(), new X509Certificate[] {cert, certificate});
        } catch (IOException | org.bouncycastle.operator.OperatorCreationException e) {
            throw new GeneralSecurityException("cannot build the certificate for " + subject + ": " + e.getMessage(), e);
        }
    }

    /** Writes the CA's key and certificate (to issue more certificates later), readable by the owner only. */
    public void store(Path file, String password) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry(CA_ALIAS, key, password.toCharArray(), new Certificate[] {certificate});
        writeStore(ks, file, password);
    }

    /** Writes a trust store holding only the CA's certificate, readable by the owner only. */
    public void storeTrust(Path file, String password) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry(CA_ALIAS, certificate);
        writeStore(ks, file, password);
    }

    /** A new random password: 32 characters from 24 random bytes, base64url. */
    public static String newPassword() {
        byte[] b = new byte[24];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /**
     * Writes a new file that only its owner may read and write (0600 from the start, never wider).
     *
     * @throws FileAlreadyExistsException when it exists: generated material is never overwritten
     */
    public static void writeSecret(Path file, byte[] content) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.TRUNCATE_EXISTING)) {
            out.write(content);
        }
    }

    /** Writes {@code password} and a line end into a new owner-only file: a store's credentials file. */
    public static void writePasswordFile(Path file, String password) throws IOException {
        writeSecret(file, (password + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void writeStore(KeyStore ks, Path file, String password) throws IOException,
            GeneralSecurityException {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        ks.store(buf, password.toCharArray());
        writeSecret(file, buf.toByteArray());
    }

    private static GeneralName generalName(String name) {
        if (looksLikeAddress(name)) {
            try {
                // A literal is parsed, never looked up.
                return new GeneralName(GeneralName.iPAddress, InetAddress.getByName(name).getHostAddress());
            } catch (java.net.UnknownHostException e) {
                throw new IllegalArgumentException("not an IP address: " + name, e);
            }
        }
        return new GeneralName(GeneralName.dNSName, name);
    }

    static boolean looksLikeAddress(String name) {
        return name.contains(":") || name.matches("[0-9]+(\\.[0-9]+){3}");
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048, RANDOM);
        return g.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM).add(BigInteger.ONE);
    }
}
