package org.openmft.agent.config;

import static org.openmft.agent.config.CommonKeys.METRICS;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.openmft.agent.metrics.MetricsSettings;

/**
 * The {@code openmft.metrics.*} keys, spelled and meaning the same in agent.properties and
 * logger.properties; only the process named in their descriptions differs. Immutable.
 *
 * @param port                    the endpoint's port; not set: no endpoint
 * @param bindAddress             where it listens
 * @param keyStore                its HTTPS certificate
 * @param keyStoreType            the key store's format
 * @param keyStoreCredentialsFile the key store's password
 * @param credentialsFile         the one login of the endpoint
 */
public record MetricsKeys(ConfigKey<Integer> port, ConfigKey<String> bindAddress, ConfigKey<Path> keyStore,
        ConfigKey<String> keyStoreType, ConfigKey<Path> keyStoreCredentialsFile, ConfigKey<Path> credentialsFile) {

    /**
     * The keys of one kind of process.
     *
     * @param process what serves the metrics, as the descriptions say it: {@code agent}, {@code logger}
     */
    static MetricsKeys of(String process) {
        String p = MetricsSettings.AGENT_PREFIX;
        return new MetricsKeys(
                ConfigKey.integer(p + "port").validator(Validator.intRange(0, 65535)).supported().group(METRICS)
                        .description("OpenMFT only: serve this " + process + "'s Prometheus metrics (and the JVM's) at"
                                + " /metrics on this port; not set: no endpoint. 0 picks a free port and logs it.")
                        .build(),
                ConfigKey.string(p + "bindAddress").defaultValue(MetricsSettings.DEFAULT_BIND_ADDRESS).supported()
                        .group(METRICS)
                        .description("OpenMFT only: the address the metrics endpoint listens on. Loopback may serve"
                                + " plain HTTP without a login (every local user can read it); any other address"
                                + " needs " + p + "keyStore and " + p + "credentialsFile, else the " + process
                                + " does not start (exit 78).")
                        .build(),
                ConfigKey.path(p + "keyStore").supported().group(METRICS)
                        .description("OpenMFT only: key store with the metrics endpoint's certificate and key; setting"
                                + " it turns HTTPS on.")
                        .build(),
                ConfigKey.string(p + "keyStoreType").defaultValue("jks").validator(CommonKeys.STORE_TYPE).supported()
                        .group(METRICS)
                        .description("OpenMFT only: format of " + p + "keyStore (jks also reads pkcs12 files).")
                        .build(),
                ConfigKey.path(p + "keyStoreCredentialsFile").supported().group(METRICS)
                        .description("OpenMFT only: file holding the password of " + p + "keyStore (also the key's),"
                                + " in the forms of agentSslKeyStoreCredentialsFile; must not be readable by other"
                                + " users.")
                        .build(),
                ConfigKey.path(p + "credentialsFile").supported().group(METRICS)
                        .description("OpenMFT only: file whose first line is user:password, the HTTP Basic login the"
                                + " metrics endpoint asks for; must not be readable by other users. Not set: no"
                                + " login (loopback only).")
                        .build());
    }

    /** The keys, in the order the configuration reference lists them. */
    List<ConfigKey<?>> all() {
        return List.of(port, bindAddress, keyStore, keyStoreType, keyStoreCredentialsFile, credentialsFile);
    }

    /**
     * Where the process serves its metrics, when it does.
     *
     * @return the checked settings; empty when the port is not set
     * @throws ConfigurationException (exit 78) when the endpoint would not be secure: a non-loopback
     *         address without a key store or credentials file, a key store without its password file
     */
    Optional<MetricsSettings> settings(ConfigValues values) throws ConfigurationException {
        Integer number = values.get(port);
        if (number == null) {
            return Optional.empty();
        }
        return Optional.of(new MetricsSettings(MetricsSettings.AGENT_PREFIX, values.sourceName(), number,
                values.get(bindAddress), values.get(keyStore), values.get(keyStoreType),
                values.get(keyStoreCredentialsFile), values.get(credentialsFile)).check());
    }
}
