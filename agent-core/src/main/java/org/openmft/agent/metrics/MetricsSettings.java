package org.openmft.agent.metrics;

import java.nio.file.Path;
import java.util.Properties;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.qmgr.ListenerPolicy;

/**
 * Where and how a process serves its Prometheus metrics: an agent's ({@code openmft.metrics.*} in
 * agent.properties) or a queue manager's ({@code metrics.*} in qmgr.properties).
 *
 * <p>Secure by default: the endpoint binds to {@code 127.0.0.1}; on any other address it needs
 * TLS (a key store) and HTTP Basic credentials, and {@link #check} refuses it otherwise. On loopback
 * both are optional: every local user can then read the metrics (which hold agent and queue names
 * and counts, never file names, users or data).
 *
 * @param keyPrefix               how the keys are spelled where they were read, such as
 *                                {@code openmft.metrics.}, for messages
 * @param source                  the file they were read from, for messages
 * @param port                    the TCP port; 0 picks a free one (logged; for tests)
 * @param bindAddress             the address to listen on
 * @param keyStore                the key store of the HTTPS certificate, or null for plain HTTP
 * @param keyStoreType            its format: jks or pkcs12
 * @param keyStoreCredentialsFile the file holding its password (the forms of
 *                                agentSslKeyStoreCredentialsFile), or null
 * @param credentialsFile         an owner-only file whose first line is {@code user:password},
 *                                the one HTTP Basic login accepted; null for none
 */
public record MetricsSettings(String keyPrefix, String source, int port, String bindAddress, Path keyStore,
        String keyStoreType, Path keyStoreCredentialsFile, Path credentialsFile) {

    /** The bind address unless set: loopback only. */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";

    /** The prefix of the keys in agent.properties. */
    public static final String AGENT_PREFIX = "openmft.metrics.";
    /** The prefix of the keys in a queue manager's qmgr.properties. */
    public static final String QMGR_PREFIX = "metrics.";

    /** Whether the endpoint serves HTTPS. */
    public boolean tls() {
        return keyStore != null;
    }

    /**
     * Refuses what is not secure or not complete: a non-loopback address without TLS or without
     * credentials, a key store without its password file, a port out of range.
     *
     * @return these settings
     * @throws ConfigurationException (exit 78) naming the key to set
     */
    public MetricsSettings check() throws ConfigurationException {
        if (port < 0 || port > 65535) {
            throw new ConfigurationException(source + ": " + keyPrefix + "port=" + port
                    + " is not allowed: a port from 1 to 65535 is required (0 picks a free one)", keyPrefix + "port",
                    String.valueOf(port));
        }
        if (keyStore != null && keyStoreCredentialsFile == null) {
            throw new ConfigurationException(source + ": " + keyPrefix + "keyStore is set but "
                    + keyPrefix + "keyStoreCredentialsFile is not: the metrics endpoint cannot open its key store",
                    keyPrefix + "keyStoreCredentialsFile", "");
        }
        if (!ListenerPolicy.isLoopback(bindAddress)) {
            if (keyStore == null) {
                throw new ConfigurationException(source + ": the metrics endpoint binds to " + bindAddress + " ("
                        + keyPrefix + "bindAddress), which is not a loopback address: set " + keyPrefix
                        + "keyStore (and " + keyPrefix + "keyStoreCredentialsFile) so that it serves HTTPS",
                        keyPrefix + "keyStore", "");
            }
            if (credentialsFile == null) {
                throw new ConfigurationException(source + ": the metrics endpoint binds to " + bindAddress + " ("
                        + keyPrefix + "bindAddress), which is not a loopback address: set " + keyPrefix
                        + "credentialsFile (an owner-only file whose first line is user:password) so that it asks"
                        + " for a login", keyPrefix + "credentialsFile", "");
            }
        }
        return this;
    }

    /**
     * Reads the settings of a queue manager from its {@code qmgr.properties}: {@code metrics.port}
     * turns them on.
     *
     * @return the settings, unchecked; null when {@code metrics.port} is not set
     * @throws ConfigurationException when a value is malformed
     */
    public static MetricsSettings fromQueueManager(Properties p, Path file) throws ConfigurationException {
        String port = p.getProperty(QMGR_PREFIX + "port");
        if (port == null || port.isBlank()) {
            return null;
        }
        int number;
        try {
            number = Integer.parseInt(port.trim());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(file + ": " + QMGR_PREFIX + "port=" + port + " is not a number",
                    QMGR_PREFIX + "port", port);
        }
        String type = p.getProperty(QMGR_PREFIX + "keyStoreType", "jks").trim();
        if (!type.equalsIgnoreCase("jks") && !type.equalsIgnoreCase("pkcs12")) {
            throw new ConfigurationException(file + ": " + QMGR_PREFIX + "keyStoreType=" + type
                    + " is not allowed: jks or pkcs12", QMGR_PREFIX + "keyStoreType", type);
        }
        return new MetricsSettings(QMGR_PREFIX, file.toString(), number,
                p.getProperty(QMGR_PREFIX + "bindAddress", DEFAULT_BIND_ADDRESS).trim(),
                path(p, QMGR_PREFIX + "keyStore"), type, path(p, QMGR_PREFIX + "keyStoreCredentialsFile"),
                path(p, QMGR_PREFIX + "credentialsFile"));
    }

    private static Path path(Properties p, String key) {
        String value = p.getProperty(key);
        return value == null || value.isBlank() ? null : Path.of(value.trim());
    }
}
