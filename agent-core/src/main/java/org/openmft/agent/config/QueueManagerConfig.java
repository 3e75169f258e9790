package org.openmft.agent.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.credentials.CredentialsCipher;
import org.openmft.agent.credentials.CredentialsException;
import org.openmft.agent.credentials.CredentialsFile;
import org.openmft.agent.tls.TlsClientSettings;
import org.openmft.agent.tls.TlsSettingException;

/**
 * What agent.properties, coordination.properties and command.properties have in common: one
 * queue manager connection (name, host, port, channel, provider; no host means bindings) over a
 * set of parsed values. Each file names its keys differently; the subclasses pass theirs.
 * Immutable and thread-safe.
 */
public abstract class QueueManagerConfig {
    /** The parsed values of the file. */
    protected final ConfigValues values;
    private final ConfigKey<String> qmgr;
    private final ConfigKey<String> host;
    private final ConfigKey<Integer> port;
    private final ConfigKey<String> channel;
    private final ConfigKey<MessagingProvider> provider;
    private final TlsClientSettings tls;
    private final Credentials credentials;
    private final String credentialsKey;
    /** fteObfuscate's key of IBM's {@code <prefix>CredentialsKeyFile}, or null. */
    private final CredentialsCipher cipher;

    QueueManagerConfig(ConfigValues values, ConfigKey<String> qmgr, ConfigKey<String> host, ConfigKey<Integer> port,
            ConfigKey<String> channel, ConfigKey<MessagingProvider> provider) throws ConfigurationException {
        this.values = values;
        this.qmgr = qmgr;
        this.host = host;
        this.port = port;
        this.channel = channel;
        this.provider = provider;
        String prefix = qmgr.name().endsWith("QMgr")
                ? qmgr.name().substring(0, qmgr.name().length() - "QMgr".length()) : null;
        this.tls = readTls(values, prefix);
        this.credentialsKey = (prefix == null ? "logger" : prefix) + "QMgrAuthenticationCredentialsFile";
        this.cipher = readKeyFile(values, prefix == null ? null : prefix + "CredentialsKeyFile");
        this.credentials = readCredentials(values, credentialsKey, values.get(qmgr), cipher);
    }

    /**
     * The entry for another queue manager in this file's credentials file, as IBM's file may hold one
     * per queue manager (an agent's for its coordination queue manager, say).
     *
     * @param otherQmgr the queue manager name
     * @return the credentials; empty when the file names no credentials file or it has no entry
     * @throws ConfigurationException when the credentials file cannot be used
     */
    public Optional<Credentials> credentialsFor(String otherQmgr) throws ConfigurationException {
        var key = values.registry().key(credentialsKey);
        if (key.isEmpty() || values.get(key.get()) == null) {
            return Optional.empty();
        }
        Path file = (Path) values.get(key.get());
        try {
            return CredentialsFile.read(file).queueManager(otherQmgr, CredentialsFile.localUser(), cipher);
        } catch (CredentialsException e) {
            throw new ConfigurationException(values.sourceName() + ": " + credentialsKey + "=" + e.getMessage(),
                    credentialsKey, file.toString());
        }
    }

    /**
     * The user and password of IBM's {@code <prefix>QMgrAuthenticationCredentialsFile}, read now so
     * that a missing, open or malformed file, or one without an entry for the queue manager, stops
     * start-up with exit code 78 naming the key.
     */
    private static Credentials readCredentials(ConfigValues values, String keyName, String qmgrName,
            CredentialsCipher cipher) throws ConfigurationException {
        var key = values.registry().key(keyName);
        if (key.isEmpty() || values.get(key.get()) == null) {
            return null;
        }
        Path file = (Path) values.get(key.get());
        String user = CredentialsFile.localUser();
        try {
            return CredentialsFile.read(file).queueManager(qmgrName, user, cipher).orElseThrow(() -> new ConfigurationException(
                    values.sourceName() + ": " + keyName + "=" + file + ": the credentials file has no <qmgr name=\""
                            + qmgrName + "\"> entry for local user " + user + " (nor one without a user attribute)",
                    keyName, file.toString()));
        } catch (CredentialsException e) {
            throw new ConfigurationException(values.sourceName() + ": " + keyName + "=" + e.getMessage(), keyName,
                    file.toString());
        }
    }

    /**
     * IBM's {@code <prefix>CredentialsKeyFile}: the key fteObfuscate encrypted the credentials file's
     * secrets with, read now so that a missing, open or short key file stops start-up with exit code
     * 78 naming the key.
     *
     * @return the cipher, or null when the key is not set or the file has no such key
     */
    private static CredentialsCipher readKeyFile(ConfigValues values, String keyName) throws ConfigurationException {
        if (keyName == null) {
            return null;
        }
        var key = values.registry().key(keyName);
        if (key.isEmpty() || values.get(key.get()) == null) {
            return null;
        }
        Path file = (Path) values.get(key.get());
        try {
            return CredentialsCipher.fromKeyFile(file);
        } catch (CredentialsException e) {
            throw new ConfigurationException(values.sourceName() + ": " + keyName + "=" + e.getMessage(), keyName,
                    file.toString());
        }
    }

    /**
     * IBM's {@code <prefix>Ssl*} keys, checked and with the stores opened, so that a TLS mistake stops
     * start-up with exit code 78 naming the key. Files without that family (logger.properties) have no TLS.
     */
    private static TlsClientSettings readTls(ConfigValues values, String prefix) throws ConfigurationException {
        ConfigRegistry registry = values.registry();
        if (prefix == null && registry.key(LOGGER_KEYS.get("TrustStore")).isPresent()) {
            return readLoggerTls(values);
        }
        if (prefix == null || registry.key(prefix + "SslTrustStore").isEmpty()) {
            return null;
        }
        try {
            return TlsClientSettings.builder(prefix)
                    .trustStore(path(values, prefix + "SslTrustStore"), string(values, prefix + "SslTrustStoreType"),
                            path(values, prefix + "SslTrustStoreCredentialsFile"))
                    .keyStore(path(values, prefix + "SslKeyStore"), string(values, prefix + "SslKeyStoreType"),
                            path(values, prefix + "SslKeyStoreCredentialsFile"))
                    .cipher(string(values, prefix + "SslCipherSpec"), string(values, prefix + "SslCipherSuite"))
                    .peerName(string(values, prefix + "SslPeerName"))
                    .fipsRequired(Boolean.TRUE.equals(values.get(registry.key(prefix + "SslFipsRequired").orElseThrow())))
                    .build().orElse(null);
        } catch (TlsSettingException e) {
            throw new ConfigurationException(values.sourceName() + ": " + e.getMessage(), e.key(), e.value());
        }
    }

    /** logger.properties' names for IBM's TLS keys (it has no CipherSpec and no store types). */
    private static final java.util.Map<String, String> LOGGER_KEYS = java.util.Map.of(
            "TrustStore", "wmqfte.ssl.truststore", "TrustStoreCredentialsFile", "wmqfte.ssl.truststore.credentials.file",
            "KeyStore", "wmqfte.ssl.keystore", "KeyStoreCredentialsFile", "wmqfte.ssl.keystore.credentials.file",
            "CipherSuite", "wmqfte.ssl.cipher.suite", "CipherSpec", "wmqfte.ssl.cipher.suite",
            "PeerName", "wmqfte.ssl.peer.name", "FipsRequired", "wmqfte.ssl.fips.required");

    private static TlsClientSettings readLoggerTls(ConfigValues values) throws ConfigurationException {
        try {
            return TlsClientSettings.builder(suffix -> LOGGER_KEYS.getOrDefault(suffix, "wmqfte.ssl." + suffix))
                    .trustStore(path(values, LOGGER_KEYS.get("TrustStore")), null,
                            path(values, LOGGER_KEYS.get("TrustStoreCredentialsFile")))
                    .keyStore(path(values, LOGGER_KEYS.get("KeyStore")), null,
                            path(values, LOGGER_KEYS.get("KeyStoreCredentialsFile")))
                    .cipher(null, string(values, LOGGER_KEYS.get("CipherSuite")))
                    .peerName(string(values, LOGGER_KEYS.get("PeerName")))
                    .fipsRequired(Boolean.TRUE.equals(values.get(values.registry()
                            .key(LOGGER_KEYS.get("FipsRequired")).orElseThrow())))
                    .build().orElse(null);
        } catch (TlsSettingException e) {
            throw new ConfigurationException(values.sourceName() + ": " + e.getMessage(), e.key(), e.value());
        }
    }

    private static Path path(ConfigValues values, String name) {
        return (Path) values.get(values.registry().key(name).orElseThrow());
    }

    private static String string(ConfigValues values, String name) {
        return (String) values.get(values.registry().key(name).orElseThrow());
    }

    /**
     * The messaging system.
     *
     * @return the file's {@code ...QMgrProvider}
     */
    public MessagingProvider provider() {
        return values.get(provider);
    }

    /**
     * Whether connections are client connections.
     *
     * @return true when the file's {@code ...QMgrHost} is set
     */
    public boolean clientMode() {
        return host().isPresent();
    }

    /**
     * The host.
     *
     * @return the file's {@code ...QMgrHost}, empty for bindings
     */
    public Optional<String> host() {
        return Optional.ofNullable(values.get(host));
    }

    /**
     * The client port.
     *
     * @return the file's {@code ...QMgrPort}
     */
    public int port() {
        return values.get(port);
    }

    /**
     * The server-connection channel.
     *
     * @return the file's {@code ...QMgrChannel}
     */
    public String channel() {
        return values.get(channel);
    }

    /**
     * Where the queue manager is.
     *
     * @return the endpoint
     */
    public QueueManagerEndpoint endpoint() {
        return new QueueManagerEndpoint(provider(), values.get(qmgr), host().orElse(null), port(), channel(), tls,
                credentials);
    }

    /**
     * TLS for client connections.
     *
     * @return the checked {@code <prefix>Ssl*} settings, empty when the file does not turn TLS on
     */
    public Optional<TlsClientSettings> tls() {
        return Optional.ofNullable(tls);
    }

    /**
     * Any key of the file; for unsupported keys this is the IBM default, which is how OpenMFT
     * behaves.
     *
     * @param <T> the value type
     * @param key a key of the file's registry
     * @return the value, or {@code null} when not set and without default
     */
    public <T> T get(ConfigKey<T> key) {
        return values.get(Objects.requireNonNull(key, "key"));
    }

    /**
     * The underlying values, for {@link ConfigValues#isSet} and {@link ConfigValues#rawValue}.
     *
     * @return the values
     */
    public ConfigValues values() {
        return values;
    }

    /**
     * Warnings about unknown and unsupported keys, one per key, to log at start-up.
     *
     * @return the warnings
     */
    public List<String> warnings() {
        return values.warnings();
    }

    /**
     * The effective configuration, one key per line, to log at start-up.
     *
     * @return the description
     * @see ConfigValues#describe()
     */
    public String describe() {
        return values.describe();
    }
}
