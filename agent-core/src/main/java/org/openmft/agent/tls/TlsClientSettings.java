package org.openmft.agent.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Provider;
import java.security.Security;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import javax.net.ssl.SSLContext;

/**
 * How a client connection to a queue manager uses TLS, from IBM's {@code <prefix>Ssl*} keys
 * (prefix {@code agent}, {@code coordination} or {@code connection}), checked and with the stores
 * loaded, so that a wrong password or an unknown cipher stops start-up rather than the first
 * connection.
 *
 * <p>TLS is on when a trust store, a CipherSpec or a CipherSuite is set. OpenMFT then requires the
 * trust store (IBM MFT does too): the queue manager's certificate must chain to one of its
 * entries. A CipherSpec wins over a CipherSuite, as in IBM MFT. Without a peer name the host name
 * the client connects to must be in the queue manager's certificate (Artemis {@code verifyHost});
 * with a peer name the certificate's subject must match it instead, as IBM MQ clients check.
 *
 * <p>Immutable after construction (the loaded stores are never changed) and thread-safe.
 */
public final class TlsClientSettings {
    private final java.util.function.UnaryOperator<String> keyNames;
    private final Path trustStore;
    private final KeyStore trust;
    private final Path keyStore;
    private final KeyStore keys;
    private final String keyStorePassword;
    private final List<String> cipherSuites;
    private final List<String> protocols;
    private final String ibmCipherSuite;
    private final String ibmPeerName;
    private final PeerNamePattern peerName;
    private final boolean fipsRequired;
    private final boolean verifyHost;

    private TlsClientSettings(Builder b, KeyStore trust, KeyStore keys, List<String> cipherSuites,
            List<String> protocols, String ibmCipherSuite, PeerNamePattern peerName, boolean verifyHost) {
        this.keyNames = b.keyNames;
        this.trustStore = b.trustStore;
        this.trust = trust;
        this.keyStore = b.keyStore;
        this.keys = keys;
        this.keyStorePassword = b.keyStorePassword;
        this.cipherSuites = cipherSuites;
        this.protocols = protocols;
        this.ibmCipherSuite = ibmCipherSuite;
        this.ibmPeerName = b.peerName;
        this.peerName = peerName;
        this.fipsRequired = b.fipsRequired;
        this.verifyHost = verifyHost;
    }

    /**
     * Starts the settings of one connection.
     *
     * @param prefix IBM's key prefix, such as {@code agent}, used in messages ({@code agentSslTrustStore})
     * @return a builder
     */
    public static Builder builder(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        return new Builder(suffix -> prefix + "Ssl" + suffix);
    }

    /**
     * Starts the settings of a connection whose file names the keys its own way (logger.properties'
     * {@code wmqfte.ssl.*}).
     *
     * @param keyNames maps IBM's suffix ({@code TrustStore}, {@code PeerName}, ...) to the file's key name
     * @return a builder
     */
    public static Builder builder(java.util.function.UnaryOperator<String> keyNames) {
        return new Builder(Objects.requireNonNull(keyNames, "keyNames"));
    }

    /**
     * Settings for a connection from a command on this host to a local queue manager's own
     * listener: the queue manager's certificate itself is the only one trusted (so the host name
     * is not checked), and {@code keys}, if any, is the client certificate for mutual TLS.
     *
     * @param serverCertificates the queue manager's certificate chain, leaf first
     * @param keys a key store with a client certificate, or null
     * @param keyStorePath where {@code keys} came from, for messages, or null
     * @param keyStorePassword its password, or null
     * @return the settings
     */
    public static TlsClientSettings pinned(java.security.cert.X509Certificate[] serverCertificates, KeyStore keys,
            Path keyStorePath, String keyStorePassword) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            for (int i = 0; i < serverCertificates.length; i++) {
                trust.setCertificateEntry("qmgr-" + i, serverCertificates[i]);
            }
            Builder b = new Builder(suffix -> "connectionSsl" + suffix);
            b.keyStore = keyStorePath;
            b.keyStorePassword = keyStorePassword;
            return new TlsClientSettings(b, trust, keys, List.of(), List.of(), null, null, false);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a trust store in memory", e);
        }
    }

    /** Where the trusted certificates came from, for messages; null for a pinned certificate. */
    public Path trustStore() {
        return trustStore;
    }

    /** The trusted certificates. */
    public KeyStore trust() {
        return trust;
    }

    /** The client certificate store for mutual TLS, if any. */
    public Optional<KeyStore> keys() {
        return Optional.ofNullable(keys);
    }

    /** Where the client certificate came from, for messages, if any. */
    public Optional<Path> keyStore() {
        return Optional.ofNullable(keyStore);
    }

    /** The key store's password (also the key's), or null. */
    public String keyStorePassword() {
        return keyStorePassword;
    }

    /** The JSSE cipher suites to enable; empty means the JVM's defaults. */
    public List<String> cipherSuites() {
        return cipherSuites;
    }

    /** The protocol versions to enable, such as {@code TLSv1.3}; empty means the JVM's defaults. */
    public List<String> protocols() {
        return protocols;
    }

    /** What the IBM MQ JMS client's {@code SSLCipherSuite} is set to. */
    public String ibmCipherSuite() {
        return ibmCipherSuite;
    }

    /** The peer name as written, for IBM MQ's {@code SSLPeerName}, if any. */
    public Optional<String> ibmPeerName() {
        return Optional.ofNullable(ibmPeerName);
    }

    /** The parsed peer name, if any. */
    public Optional<PeerNamePattern> peerName() {
        return Optional.ofNullable(peerName);
    }

    /** Whether only FIPS-validated cryptography may be used. */
    public boolean fipsRequired() {
        return fipsRequired;
    }

    /** Whether the host name connected to must be in the queue manager's certificate. */
    public boolean verifyHost() {
        return verifyHost;
    }

    /** The file's name of a key, such as {@code agentSslPeerName} for {@code PeerName}. */
    public String key(String suffix) {
        return keyNames.apply(suffix);
    }

    @Override
    public String toString() {
        return "TLS[trustStore=" + (trustStore == null ? "(queue manager certificate)" : trustStore)
                + (keyStore == null ? "" : ", keyStore=" + keyStore)
                + (cipherSuites.isEmpty() ? "" : ", cipherSuites=" + cipherSuites)
                + (protocols.isEmpty() ? "" : ", protocols=" + protocols)
                + (peerName == null ? "" : ", peerName=" + peerName) + (fipsRequired ? ", FIPS" : "") + "]";
    }

    /**
     * Whether this Java runtime has a FIPS 140 provider configured first. OpenMFT cannot check a
     * provider's validation certificate; it takes the provider the administrator put first in
     * {@code java.security} (BCFIPS, SunPKCS11-NSS-FIPS, IBMJCEFIPS and the like all say FIPS in
     * their name).
     */
    static boolean fipsProviderConfigured() {
        Provider[] providers = Security.getProviders();
        return providers.length > 0 && providers[0].getName().toUpperCase(Locale.ROOT).contains("FIPS");
    }

    /** Collects the raw values of the keys, then checks them in {@link #build()}. */
    public static final class Builder {
        private final java.util.function.UnaryOperator<String> keyNames;
        private Path trustStore;
        private String trustStoreType;
        private Path trustStoreCredentials;
        private Path keyStore;
        private String keyStoreType;
        private Path keyStoreCredentials;
        private String keyStorePassword;
        private String cipherSpec;
        private String cipherSuite;
        private String peerName;
        private boolean fipsRequired;

        private Builder(java.util.function.UnaryOperator<String> keyNames) {
            this.keyNames = keyNames;
        }

        private String key(String suffix) {
            return keyNames.apply(suffix);
        }

        /** {@code <prefix>SslTrustStore}, {@code ...Type} (null: jks) and {@code ...CredentialsFile}. */
        public Builder trustStore(Path store, String type, Path credentialsFile) {
            this.trustStore = store;
            this.trustStoreType = type;
            this.trustStoreCredentials = credentialsFile;
            return this;
        }

        /** {@code <prefix>SslKeyStore}, {@code ...Type} (null: jks) and {@code ...CredentialsFile}. */
        public Builder keyStore(Path store, String type, Path credentialsFile) {
            this.keyStore = store;
            this.keyStoreType = type;
            this.keyStoreCredentials = credentialsFile;
            return this;
        }

        /** {@code <prefix>SslCipherSpec} and {@code <prefix>SslCipherSuite}; either may be null. */
        public Builder cipher(String spec, String suite) {
            this.cipherSpec = spec;
            this.cipherSuite = suite;
            return this;
        }

        /** {@code <prefix>SslPeerName}, or null. */
        public Builder peerName(String pattern) {
            this.peerName = pattern;
            return this;
        }

        /** {@code <prefix>SslFipsRequired}. */
        public Builder fipsRequired(boolean required) {
            this.fipsRequired = required;
            return this;
        }

        /**
         * Checks the values and loads the stores.
         *
         * @return the settings, or empty when none of the keys turns TLS on
         * @throws TlsSettingException naming the key and what is wrong
         */
        public Optional<TlsClientSettings> build() {
            boolean on = trustStore != null || cipherSpec != null || cipherSuite != null;
            if (!on) {
                for (String[] stray : new String[][] {{"KeyStore", str(keyStore)}, {"PeerName", peerName},
                        {"TrustStoreCredentialsFile", str(trustStoreCredentials)}}) {
                    if (stray[1] != null) {
                        throw new TlsSettingException(key(stray[0]) + "=" + stray[1] + " is set, but TLS is not on:"
                                + " set " + key("TrustStore") + " (and " + key("CipherSpec") + " for IBM MQ) to use TLS",
                                key(stray[0]), stray[1]);
                    }
                }
                if (fipsRequired) {
                    throw new TlsSettingException(key("FipsRequired") + "=true needs a TLS connection: set "
                            + key("TrustStore"), key("FipsRequired"), "true");
                }
                return Optional.empty();
            }
            if (fipsRequired && !fipsProviderConfigured()) {
                throw new TlsSettingException(key("FipsRequired") + "=true, but this Java runtime has no FIPS 140"
                        + " provider configured first in java.security (providers: "
                        + Arrays.stream(Security.getProviders()).map(Provider::getName)
                                .collect(Collectors.joining(", "))
                        + "); OpenMFT does not connect with cryptography that may not be FIPS-validated. Configure"
                        + " a FIPS provider for this Java runtime, or set " + key("FipsRequired") + "=false",
                        key("FipsRequired"), "true");
            }
            if (trustStore == null) {
                throw new TlsSettingException(key("TrustStore") + " is required for a TLS connection (TLS is on"
                        + " because " + (cipherSpec != null ? key("CipherSpec") : key("CipherSuite"))
                        + " is set): name the trust store holding the certificate of the queue manager's CA",
                        key("TrustStore"), null);
            }
            if (trustStoreCredentials == null) {
                throw new TlsSettingException(key("TrustStoreCredentialsFile") + " is required: the file holding the"
                        + " password of " + trustStore, key("TrustStoreCredentialsFile"), null);
            }
            KeyStore trust = load(trustStore, trustStoreType, StorePasswords.read(trustStoreCredentials, trustStore,
                    key("TrustStoreCredentialsFile")), "TrustStore");
            try {
                if (!trust.aliases().hasMoreElements()) {
                    throw new TlsSettingException(key("TrustStore") + "=" + trustStore + " holds no certificates",
                            key("TrustStore"), trustStore.toString());
                }
            } catch (java.security.KeyStoreException e) {
                throw new IllegalStateException(e);
            }
            KeyStore keys = null;
            if (keyStore != null) {
                if (keyStoreCredentials == null) {
                    throw new TlsSettingException(key("KeyStoreCredentialsFile") + " is required: the file holding"
                            + " the password of " + keyStore, key("KeyStoreCredentialsFile"), null);
                }
                keyStorePassword = StorePasswords.read(keyStoreCredentials, keyStore, key("KeyStoreCredentialsFile"));
                keys = load(keyStore, keyStoreType, keyStorePassword, "KeyStore");
            }
            List<String> suites = List.of();
            List<String> protocols = List.of();
            String ibm;
            if (cipherSpec != null) {
                Optional<CipherSpecs.Alias> alias = CipherSpecs.alias(cipherSpec);
                if (alias.isPresent()) {
                    protocols = alias.get().protocols();
                    ibm = alias.get().ibmJmsName();
                } else {
                    String suite = CipherSpecs.suite(cipherSpec).orElseThrow(() -> new TlsSettingException(
                            key("CipherSpec") + "=" + cipherSpec + " is not a CipherSpec OpenMFT knows; known are "
                                    + CipherSpecs.known(), key("CipherSpec"), cipherSpec));
                    suites = List.of(available(suite, "CipherSpec", cipherSpec));
                    ibm = suite;
                }
            } else if (cipherSuite != null) {
                suites = List.of(available(cipherSuite, "CipherSuite", cipherSuite));
                ibm = cipherSuite;
            } else {
                ibm = "*TLS12ORHIGHER";
            }
            PeerNamePattern pattern = null;
            if (peerName != null) {
                try {
                    pattern = PeerNamePattern.parse(peerName);
                } catch (IllegalArgumentException e) {
                    throw new TlsSettingException(key("PeerName") + "=" + peerName + " is not a valid peer name: "
                            + e.getMessage(), key("PeerName"), peerName);
                }
            }
            return Optional.of(new TlsClientSettings(this, trust, keys, suites, protocols, ibm, pattern,
                    pattern == null));
        }

        private String available(String suite, String suffix, String value) {
            try {
                Set<String> supported = Set.of(SSLContext.getDefault().getSupportedSSLParameters().getCipherSuites());
                if (!supported.contains(suite)) {
                    throw new TlsSettingException(key(suffix) + "=" + value + ": cipher suite " + suite
                            + " is not available in this Java runtime", key(suffix), value);
                }
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("this Java runtime has no TLS", e);
            }
            return suite;
        }

        private KeyStore load(Path file, String type, String password, String suffix) {
            String t = type == null ? "jks" : type;
            try (InputStream in = Files.newInputStream(file)) {
                // With keystore.type.compat (the JDK default) a "jks" store also reads PKCS12 files.
                KeyStore ks = KeyStore.getInstance(t.toUpperCase(Locale.ROOT));
                ks.load(in, password.toCharArray());
                return ks;
            } catch (IOException | GeneralSecurityException e) {
                String why = e.getCause() instanceof java.security.UnrecoverableKeyException
                        || String.valueOf(e.getMessage()).contains("password")
                        ? "the password from " + key(suffix + "CredentialsFile") + " is wrong, or the file is not a "
                                + t + " store"
                        : e.getMessage();
                throw new TlsSettingException(key(suffix) + "=" + file + ": cannot open it as a " + t + " store: "
                        + why, key(suffix), file.toString());
            }
        }

        private static String str(Object o) {
            return o == null ? null : o.toString();
        }
    }
}
