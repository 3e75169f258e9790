package org.openmft.agent.qmgr;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Properties;

import org.openmft.agent.tls.StorePasswords;
import org.openmft.agent.tls.TlsClientSettings;
import org.openmft.agent.tls.TlsSettingException;

/**
 * TLS on an embedded queue manager's listener, as stored in {@code qmgr.properties}: the key store
 * with the listener's certificate, and for mutual TLS the trust store of the CAs whose client
 * certificates are accepted. Each store has a credentials file beside it (see
 * {@link StorePasswords}); relative paths are relative to the queue manager's directory.
 *
 * @param keyStore the listener's key store (PKCS12 or JKS)
 * @param keyStoreCredentials the file holding its password
 * @param trustStore the CAs trusted for client certificates; null without mutual TLS
 * @param trustStoreCredentials the file holding its password; null without a trust store
 * @param clientAuthRequired whether clients must present a certificate (mutual TLS)
 * @param localClientKeyStore a client certificate for commands on this host (mutual TLS with a
 *                            generated CA), or null
 * @param localClientCredentials the file holding its password, or null
 */
public record ListenerTls(Path keyStore, Path keyStoreCredentials, Path trustStore, Path trustStoreCredentials,
        boolean clientAuthRequired, Path localClientKeyStore, Path localClientCredentials) {

    /** Directory of generated material inside the queue manager's directory. */
    public static final String GENERATED_DIRECTORY = "tls";

    /**
     * Checks that the settings are complete.
     */
    public ListenerTls {
        if (keyStore == null || keyStoreCredentials == null) {
            throw new IllegalArgumentException("a TLS listener needs a key store and the file holding its password");
        }
        if (clientAuthRequired && (trustStore == null || trustStoreCredentials == null)) {
            throw new IllegalArgumentException("mutual TLS needs a trust store (the CAs of the client certificates)"
                    + " and the file holding its password");
        }
        if ((localClientKeyStore == null) != (localClientCredentials == null)) {
            throw new IllegalArgumentException("the local client key store and its password file go together");
        }
    }

    /** The stores opened for a start. */
    public record Opened(String keyStoreType, String keyStorePassword, String trustStoreType,
            String trustStorePassword, X509Certificate[] serverChain) {
        @Override
        public String toString() {
            return "Opened[" + keyStoreType + ", " + trustStoreType + ", passwords=****]";
        }
    }

    /**
     * Reads the passwords and opens the stores, so that a wrong password is reported by name before
     * the broker starts.
     *
     * @param directory the queue manager's directory, against which relative paths resolve
     * @return the types, passwords and the listener's certificate chain
     * @throws TlsSettingException naming the setting at fault
     */
    public Opened open(Path directory) {
        Path ks = directory.resolve(keyStore);
        String ksPassword = StorePasswords.read(directory.resolve(keyStoreCredentials), ks, "tls.keyStoreCredentials");
        KeyStore keys = load(ks, ksPassword, "tls.keyStore");
        X509Certificate[] chain = serverChain(keys, ks);
        String tsType = null;
        String tsPassword = null;
        if (trustStore != null) {
            Path ts = directory.resolve(trustStore);
            tsPassword = StorePasswords.read(directory.resolve(trustStoreCredentials), ts, "tls.trustStoreCredentials");
            tsType = load(ts, tsPassword, "tls.trustStore").getType();
        }
        return new Opened(keys.getType(), ksPassword, tsType, tsPassword, chain);
    }

    /**
     * The client side of a command on this host connecting to this listener through loopback: the
     * listener's own certificate is pinned, and with mutual TLS the local client certificate (if
     * one was generated) is presented.
     */
    public TlsClientSettings localClient(Path directory) {
        Opened o = open(directory);
        KeyStore client = null;
        Path clientPath = null;
        String clientPassword = null;
        if (clientAuthRequired && localClientKeyStore != null) {
            clientPath = directory.resolve(localClientKeyStore);
            clientPassword = StorePasswords.read(directory.resolve(localClientCredentials), clientPath,
                    "tls.localClientKeyStoreCredentials");
            client = load(clientPath, clientPassword, "tls.localClientKeyStore");
        }
        return TlsClientSettings.pinned(o.serverChain(), client, clientPath, clientPassword);
    }

    private static X509Certificate[] serverChain(KeyStore keys, Path file) {
        try {
            for (String alias : Collections.list(keys.aliases())) {
                if (keys.isKeyEntry(alias)) {
                    Certificate[] chain = keys.getCertificateChain(alias);
                    if (chain != null && chain.length > 0 && chain[0] instanceof X509Certificate) {
                        X509Certificate[] out = new X509Certificate[chain.length];
                        for (int i = 0; i < chain.length; i++) {
                            out[i] = (X509Certificate) chain[i];
                        }
                        return out;
                    }
                }
            }
        } catch (GeneralSecurityException e) {
            throw new TlsSettingException("tls.keyStore=" + file + ": " + e.getMessage(), "tls.keyStore",
                    file.toString());
        }
        throw new TlsSettingException("tls.keyStore=" + file + " holds no private key with a certificate for the"
                + " listener", "tls.keyStore", file.toString());
    }

    private static KeyStore load(Path file, String password, String key) {
        try {
            // Detects PKCS12 or JKS from the file itself.
            return KeyStore.getInstance(file.toFile(), password.toCharArray());
        } catch (IOException | GeneralSecurityException e) {
            throw new TlsSettingException(key + "=" + file + ": cannot open the store: " + e.getMessage()
                    + " (a wrong password in its credentials file also reads like this)", key, file.toString());
        }
    }

    /** Writes the settings into {@code qmgr.properties}' values. */
    void store(Properties p) {
        p.setProperty("tls.keyStore", keyStore.toString());
        p.setProperty("tls.keyStoreCredentials", keyStoreCredentials.toString());
        if (trustStore != null) {
            p.setProperty("tls.trustStore", trustStore.toString());
            p.setProperty("tls.trustStoreCredentials", trustStoreCredentials.toString());
        }
        p.setProperty("tls.clientAuth", clientAuthRequired ? "required" : "none");
        if (localClientKeyStore != null) {
            p.setProperty("tls.localClientKeyStore", localClientKeyStore.toString());
            p.setProperty("tls.localClientKeyStoreCredentials", localClientCredentials.toString());
        }
    }

    /** Reads the settings from {@code qmgr.properties}' values; null when the listener has no TLS. */
    static ListenerTls load(Properties p) {
        String ks = p.getProperty("tls.keyStore");
        if (ks == null) {
            return null;
        }
        return new ListenerTls(Path.of(ks), path(p, "tls.keyStoreCredentials"), path(p, "tls.trustStore"),
                path(p, "tls.trustStoreCredentials"), "required".equals(p.getProperty("tls.clientAuth")),
                path(p, "tls.localClientKeyStore"), path(p, "tls.localClientKeyStoreCredentials"));
    }

    private static Path path(Properties p, String key) {
        String v = p.getProperty(key);
        return v == null ? null : Path.of(v);
    }
}
