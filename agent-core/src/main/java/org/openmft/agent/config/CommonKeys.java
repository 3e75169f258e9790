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
    static final String METRICS = "Metrics (Prometheus)";

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
        return ConfigKey.path(name).supported().group(SECURITY)
                .description("MQMFTCredentials.xml holding the user and password for the queue manager connection: "
                        + "the <tns:qmgr name=\"QM\" [user=\"local user\"] mqUserId=\"...\" mqPassword=\"...\"/> "
                        + "entry of the queue manager (the one for the local user running the process, else the one "
                        + "without user); must not be readable by other users (exit 78). Not set, a process of the "
                        + "data directory's owner connects to a queue manager of this data directory as its "
                        + "administrator.")
                .build();
    }

    static ConfigKey<java.nio.file.Path> credentialsKeyFile(String name) {
        return ConfigKey.path(name).supported().group(SECURITY)
                .description("Key file (owner-only, at least 16 bytes) that OpenMFT's fteObfuscate encrypted the"
                        + " credentials file's *Cipher values with; they are decrypted with it. IBM's own cipher"
                        + " values cannot be read.").build();
    }

    /**
     * IBM's TLS family, identical under each prefix: {@code agentSsl…}, {@code coordinationSsl…}, … ;
     * read by {@link QueueManagerConfig} into {@link org.openmft.agent.tls.TlsClientSettings}.
     */
    static List<ConfigKey<?>> ssl(String prefix) {
        return List.of(
                ConfigKey.string(prefix + "SslCipherSpec").supported().group(SECURITY)
                        .description("IBM MQ CipherSpec for a TLS client connection, such as ANY_TLS12_OR_HIGHER or "
                                + "ECDHE_RSA_AES_256_GCM_SHA384; wins over " + prefix + "SslCipherSuite; setting it "
                                + "turns TLS on.").build(),
                ConfigKey.string(prefix + "SslCipherSuite").supported().group(SECURITY)
                        .description("Java (JSSE) cipher suite for a TLS client connection, such as "
                                + "TLS_AES_256_GCM_SHA384; setting it turns TLS on.").build(),
                ConfigKey.string(prefix + "SslPeerName").supported().group(SECURITY)
                        .description("Distinguished-name pattern the queue manager's certificate subject must match, "
                                + "in IBM MQ's SSLPEER syntax (CN=QM1*, O=Example); when set, it replaces the check "
                                + "of the host name against the certificate.").build(),
                ConfigKey.bool(prefix + "SslFipsRequired").defaultValue(false).supported().group(SECURITY)
                        .description("true refuses to start (exit 78) unless this Java runtime has a FIPS 140 "
                                + "provider configured first; IBM MQ connections also set SSLFipsRequired.").build(),
                ConfigKey.path(prefix + "SslTrustStore").supported().group(SECURITY)
                        .description("Trust store holding the CA certificates of trusted queue managers; setting it "
                                + "turns TLS on, and TLS needs it.").build(),
                ConfigKey.string(prefix + "SslTrustStoreType").defaultValue("jks").validator(STORE_TYPE).supported()
                        .group(SECURITY).description("Format of the trust store (jks also reads pkcs12 files).")
                        .build(),
                ConfigKey.path(prefix + "SslTrustStoreCredentialsFile").supported().group(SECURITY)
                        .description("File holding the trust store password: MQMFTCredentials.xml with a "
                                + "<tns:file path=\"store\" password=\"...\"/> entry, or a file whose first line is "
                                + "the password; must not be readable by other users.").build(),
                ConfigKey.path(prefix + "SslKeyStore").supported().group(SECURITY)
                        .description("Key store holding this side's certificate, for queue managers that require "
                                + "client certificates (mutual TLS).").build(),
                ConfigKey.string(prefix + "SslKeyStoreType").defaultValue("jks").validator(STORE_TYPE).supported()
                        .group(SECURITY).description("Format of the key store (jks also reads pkcs12 files).").build(),
                ConfigKey.path(prefix + "SslKeyStoreCredentialsFile").supported().group(SECURITY)
                        .description("File holding the key store password, in the same forms as "
                                + prefix + "SslTrustStoreCredentialsFile.").build());
    }
}
