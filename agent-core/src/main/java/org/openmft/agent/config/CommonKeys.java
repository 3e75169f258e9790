package org.openmft.agent.config;

import java.util.List;

/**
 * Declarations shared by the three registries, which describe the same kind of connection under
 * three prefixes ({@code agent}, {@code coordination}, {@code connection}). Package-private: the
 * public constants live on each registry class.
 */
final class CommonKeys {
    static final String CONNECTION = "Connection";
    static final String OPENMFT = "OpenMFT";
    static final String SECURITY = "Security";
    static final String TRANSFER = "Transfer data flow";
    static final String QUEUE_IO = "Queue input/output";
    static final String LIMITS = "Limits";
    static final String TIMEOUTS = "Timeouts and recovery";
    static final String STATUS = "Status publication";
    static final String MONITORS = "Monitors";
    static final String EXITS = "Exits";
    static final String LOGGING = "Logging";
    static final String HIGH_AVAILABILITY = "High availability";
    static final String WINDOWS = "Windows service";

    /** IBM MQ object-name characters; '/' and '%' are legal in MQ names. */
    static final String MQ_CHARS = "[A-Za-z0-9._/%]";

    static final Validator<String> QMGR_NAME = Validator.regex(MQ_CHARS + "{1,48}",
            "a queue manager name of 1 to 48 characters from A-Z, a-z, 0-9, '.', '_', '/' and '%'");
    static final Validator<String> CHANNEL_NAME = Validator.regex(MQ_CHARS + "{1,20}",
            "a channel name of 1 to 20 characters from A-Z, a-z, 0-9, '.', '_', '/' and '%'");
    static final Validator<Integer> PORT = Validator.intRange(1, 65535);
    static final Validator<String> STORE_TYPE = Validator.regex("(?i)jks|pkcs12", "jks or pkcs12");

    static final String DEFAULT_CHANNEL = "SYSTEM.DEF.SVRCONN";
    static final int DEFAULT_PORT = 1414;

    private CommonKeys() {
    }

    static ConfigKey<String> qmgr(String name, String what) {
        return ConfigKey.string(name).required().validator(QMGR_NAME).supported().group(CONNECTION)
                .description(what).build();
    }

    static ConfigKey<String> host(String name, String qmgrKey) {
        return ConfigKey.string(name).supported().group(CONNECTION)
                .description("Host name or address of " + qmgrKey + " for a client connection; not set means a "
                        + "bindings (local) connection.")
                .build();
    }

    static ConfigKey<Integer> port(String name) {
        return ConfigKey.integer(name).defaultValue(DEFAULT_PORT).validator(PORT).supported().group(CONNECTION)
                .description("Listener port for a client connection.").build();
    }

    static ConfigKey<String> channel(String name) {
        return ConfigKey.string(name).defaultValue(DEFAULT_CHANNEL).validator(CHANNEL_NAME).supported()
                .group(CONNECTION)
                .description("Server-connection channel for a client connection to IBM MQ (Artemis ignores it).")
                .build();
    }

    static ConfigKey<MessagingProvider> provider(String name, String qmgrKey) {
        return ConfigKey.enumeration(name, MessagingProvider.class, MessagingProvider::propertyValue)
                .defaultValue(MessagingProvider.ARTEMIS).supported().group(OPENMFT)
                .description("OpenMFT only: the messaging system of " + qmgrKey
                        + ", artemis (Apache ActiveMQ Artemis) or ibmmq (IBM MQ).")
                .build();
    }

    static ConfigKey<String> standby(String name) {
        return ConfigKey.string(name).group(CONNECTION)
                .description("host(port) of the standby instance of a multi-instance queue manager.").build();
    }

    static ConfigKey<String> ccsid(String name) {
        return ConfigKey.string(name).group(CONNECTION)
                .description("Coded character set of the messages put to the queue manager.").build();
    }

    static ConfigKey<java.nio.file.Path> credentialsFile(String name) {
        return ConfigKey.path(name).group(SECURITY)
                .description("MQMFTCredentials.xml holding the user and password for the queue manager connection.")
                .build();
    }

    static ConfigKey<java.nio.file.Path> credentialsKeyFile(String name) {
        return ConfigKey.path(name).group(SECURITY)
                .description("Key file used to decrypt credentials files encrypted with fteObfuscate.").build();
    }

    /** IBM's TLS family, identical under each prefix: {@code agentSsl…}, {@code coordinationSsl…}, … */
    static List<ConfigKey<?>> ssl(String prefix) {
        return List.of(
                ConfigKey.string(prefix + "SslCipherSpec").group(SECURITY)
                        .description("IBM MQ CipherSpec for a TLS client connection.").build(),
                ConfigKey.string(prefix + "SslCipherSuite").group(SECURITY)
                        .description("Java cipher suite for a TLS client connection.").build(),
                ConfigKey.string(prefix + "SslPeerName").group(SECURITY)
                        .description("Distinguished-name pattern the queue manager's certificate must match.").build(),
                ConfigKey.bool(prefix + "SslFipsRequired").defaultValue(false).group(SECURITY)
                        .description("Use only FIPS-certified cryptography.").build(),
                ConfigKey.path(prefix + "SslTrustStore").group(SECURITY)
                        .description("Trust store holding the certificates of trusted queue managers.").build(),
                ConfigKey.string(prefix + "SslTrustStoreType").defaultValue("jks").validator(STORE_TYPE)
                        .group(SECURITY).description("Format of the trust store.").build(),
                ConfigKey.path(prefix + "SslTrustStoreCredentialsFile").group(SECURITY)
                        .description("Credentials file holding the trust store password.").build(),
                ConfigKey.path(prefix + "SslKeyStore").group(SECURITY)
                        .description("Key store holding this side's certificate for mutual TLS.").build(),
                ConfigKey.string(prefix + "SslKeyStoreType").defaultValue("jks").validator(STORE_TYPE)
                        .group(SECURITY).description("Format of the key store.").build(),
                ConfigKey.path(prefix + "SslKeyStoreCredentialsFile").group(SECURITY)
                        .description("Credentials file holding the key store password.").build());
    }
}
