package org.openmft.agent.config;

import static org.openmft.agent.config.CommonKeys.CONNECTION;
import static org.openmft.agent.config.CommonKeys.OPENMFT;
import static org.openmft.agent.config.CommonKeys.SECURITY;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The keys of {@code logger.properties}, which configure a logger: the process that subscribes to
 * {@code SYSTEM.FTE/Log/#} on the coordination queue manager and stores every transfer log message
 * in a database or in files ({@code config/<coordQM>/loggers/<LOGGER>/logger.properties}).
 *
 * <p>Key names and defaults are IBM's (reference §3.4, IBM's "MFT logger.properties file" page).
 * The connection keys, the {@code wmqfte.max.*} keys and the queue names are confirmed there; the
 * TLS key names, the file logger key names and the file logger defaults are recalled from IBM's
 * documentation and should be checked against a real installation. OpenMFT stores in H2 or
 * PostgreSQL rather than DB2 or Oracle, so it adds its own {@code openmft.database.*} keys where
 * IBM has none (IBM reads the database user and password from an MQMFTCredentials.xml file).
 */
public final class LoggerProperties {

    private LoggerProperties() {
    }

    private static final String LOGGER = "Logger";
    private static final String DATABASE = "Database logger";
    private static final String FILE = "File logger";

    /** What a logger writes to ({@code wmqfte.logger.type}). */
    public enum LoggerType {
        /** Lines in rotating text files (IBM's stand-alone file logger format). */
        FILE,
        /** Rows in a relational database. */
        DATABASE
    }

    /** The database of a database logger ({@code wmqfte.database.type}). */
    public enum DatabaseType {
        /** An embedded H2 database in the logger's log directory; nothing to install. */
        H2,
        /** A PostgreSQL server, named by {@code openmft.database.url}. */
        POSTGRESQL;

        /**
         * The spelling used in properties files.
         *
         * @return {@code h2} or {@code postgresql}
         */
        public String propertyValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a file logger keeps its files ({@code wmqfte.file.logger.mode}). */
    public enum FileLoggerMode {
        /** At most {@code fileCount} files of at most {@code fileSize}; the oldest is overwritten. */
        CIRCULAR,
        /** A new file whenever the current one reaches {@code fileSize}; none is ever deleted. */
        LINEAR
    }

    /** File or database. */
    public static final ConfigKey<LoggerType> LOGGER_TYPE =
            ConfigKey.enumeration("wmqfte.logger.type", LoggerType.class, LoggerType::name).required().supported()
                    .group(LOGGER).description("What the logger writes to: FILE (rotating text files) or DATABASE.")
                    .build();

    /** Messages per transaction. */
    public static final ConfigKey<Integer> MAX_TRANSACTION_MESSAGES =
            ConfigKey.integer("wmqfte.max.transaction.messages").defaultValue(50)
                    .validator(Validator.intRange(1, 10000)).unit("messages").supported().group(LOGGER)
            .description("Most log messages stored in one transaction before it is committed.").build();

    /** Time between commits. */
    public static final ConfigKey<Integer> MAX_TRANSACTION_TIME = ConfigKey.integer("wmqfte.max.transaction.time")
            .defaultValue(5000).validator(Validator.intRange(1, 3600000)).unit("ms").supported().group(LOGGER)
            .description("Longest time a transaction stays open before it is committed.").build();

    /** Rejections in a row before the logger blames its configuration. */
    public static final ConfigKey<Integer> MAX_CONSECUTIVE_REJECT = ConfigKey.integer("wmqfte.max.consecutive.reject")
            .defaultValue(50).validator(Validator.intRange(1, 1000000)).unit("messages").supported().group(LOGGER)
            .description("Messages rejected in a row, with none stored, after which the logger assumes its "
                    + "configuration is wrong, rolls back and retries at intervals instead of rejecting more.")
            .build();

    /** Reject queue; the default depends on the logger name, so it is computed by {@link LoggerConfig}. */
    public static final ConfigKey<String> REJECT_QUEUE_NAME = ConfigKey.string("wmqfte.reject.queue.name")
            .validator(queueName()).supported().group(LOGGER)
            .description("Queue for log messages the logger cannot store; not set means SYSTEM.FTE.LOG.RJCT.<logger>.")
            .build();

    /** Command queue; the default depends on the logger name, so it is computed by {@link LoggerConfig}. */
    public static final ConfigKey<String> COMMAND_QUEUE_NAME = ConfigKey.string("wmqfte.command.queue.name")
            .validator(queueName()).supported().group(LOGGER)
            .description("Queue the logger reads its commands from; not set means SYSTEM.FTE.LOG.CMD.<logger>.")
            .build();

    /** The coordination queue manager the logger connects to. */
    public static final ConfigKey<String> QUEUE_MANAGER = CommonKeys.qmgr("wmqfte.queue.manager",
            "Queue manager the logger connects to: the coordination queue manager, which holds SYSTEM.FTE.");

    /** Where log messages come from (not supported yet: always the logger's own durable subscription). */
    public static final ConfigKey<String> MESSAGE_SOURCE_TYPE = ConfigKey.string("wmqfte.message.source.type")
            .defaultValue("automatic").group(LOGGER)
            .description("automatic (the logger's own durable subscription to SYSTEM.FTE/Log/#), administrative "
                    + "(a subscription defined by the administrator) or queue.")
            .build();

    /** Name of the administrative subscription or queue (not supported yet). */
    public static final ConfigKey<String> MESSAGE_SOURCE_NAME = ConfigKey.string("wmqfte.message.source.name")
            .group(LOGGER).description("Subscription or queue read when wmqfte.message.source.type is not automatic.")
            .build();

    /** Host of the queue manager; absent means bindings. */
    public static final ConfigKey<String> QUEUE_MANAGER_HOST =
            CommonKeys.host("wmqfte.queue.manager.host", "wmqfte.queue.manager");

    /** Client port. */
    public static final ConfigKey<Integer> QUEUE_MANAGER_PORT = CommonKeys.port("wmqfte.queue.manager.port");

    /** Server-connection channel. */
    public static final ConfigKey<String> QUEUE_MANAGER_CHANNEL = CommonKeys.channel("wmqfte.queue.manager.channel");

    /** Messaging system (OpenMFT only). */
    public static final ConfigKey<MessagingProvider> QUEUE_MANAGER_PROVIDER =
            CommonKeys.provider("openmft.queue.manager.provider", "wmqfte.queue.manager");

    /** The database product. IBM's values db2 and oracle are refused: OpenMFT cannot write to them. */
    public static final ConfigKey<DatabaseType> DATABASE_TYPE =
            ConfigKey.enumeration("wmqfte.database.type", DatabaseType.class, DatabaseType::propertyValue)
                    .defaultValue(DatabaseType.H2).supported().group(DATABASE)
                    .description("Database of a DATABASE logger. IBM's db2 and oracle are not supported; h2 is an "
                            + "embedded database in the logger's log directory, postgresql needs openmft.database.url.")
                    .build();

    /** Schema holding the logger's tables. */
    public static final ConfigKey<String> DATABASE_SCHEMA = ConfigKey.string("wmqfte.database.schema")
            .defaultValue("FTELOG").validator(Validator.regex("[A-Za-z_][A-Za-z0-9_]{0,62}",
                    "a schema name of 1 to 63 characters from A-Z, a-z, 0-9 and '_', not starting with a digit"))
            .supported().group(DATABASE)
            .description("Schema holding the logger's tables; created when missing. Names are case-sensitive.").build();

    /** IBM's database name (DB2 or Oracle), not supported. */
    public static final ConfigKey<String> DATABASE_NAME = ConfigKey.string("wmqfte.database.name").group(DATABASE)
            .description("Name of the DB2 or Oracle database; OpenMFT names its database with openmft.database.url.")
            .build();

    /** IBM's credentials file for the logger's queue manager connection. */
    public static final ConfigKey<Path> QUEUE_MANAGER_CREDENTIALS =
            CommonKeys.credentialsFile("loggerQMgrAuthenticationCredentialsFile");

    /** IBM's credentials file for the database. */
    public static final ConfigKey<Path> DATABASE_CREDENTIALS = ConfigKey.path("wmqfte.database.credentials")
            .protection().supported().group(DATABASE)
            .description("MQMFTCredentials.xml (owner-only) whose <tns:logger name=\"<logger>\" user=\"...\""
                    + " password=\"...\"/> entry (or one without a name) gives the database user and password; not"
                    + " together with openmft.database.user or openmft.database.password.").build();

    /** IBM's JDBC driver jar, not supported: OpenMFT ships its drivers. */
    public static final ConfigKey<Path> DATABASE_DRIVER = ConfigKey.path("wmqfte.database.driver").group(DATABASE)
            .description("JDBC driver jar of the database.").build();

    /** JDBC URL (OpenMFT only). */
    public static final ConfigKey<String> OPENMFT_DATABASE_URL = ConfigKey.string("openmft.database.url")
            .validator(Validator.regex("jdbc:(h2|postgresql):.+",
                    "a JDBC URL starting with jdbc:h2: or jdbc:postgresql:"))
            .supported().group(DATABASE)
            .description("OpenMFT only: JDBC URL of the database, required for postgresql (such as "
                    + "jdbc:postgresql://dbhost:5432/mft); for h2 not set means a file database in the logger's log "
                    + "directory.")
            .build();

    /** Database user (OpenMFT only). */
    public static final ConfigKey<String> OPENMFT_DATABASE_USER = ConfigKey.string("openmft.database.user")
            .supported().group(DATABASE).description("OpenMFT only: database user.").build();

    /** Database password (OpenMFT only); never logged. */
    public static final ConfigKey<String> OPENMFT_DATABASE_PASSWORD = ConfigKey.string("openmft.database.password")
            .secret().supported().group(DATABASE)
            .description("OpenMFT only: database password; masked in the logged configuration, and a "
                    + "logger.properties holding it is written readable by its owner only.").build();

    /** Circular or linear file logging. */
    public static final ConfigKey<FileLoggerMode> FILE_LOGGER_MODE =
            ConfigKey.enumeration("wmqfte.file.logger.mode", FileLoggerMode.class, FileLoggerMode::name)
                    .defaultValue(FileLoggerMode.CIRCULAR).supported().group(FILE)
                    .description("CIRCULAR: at most wmqfte.file.logger.fileCount files, the oldest overwritten; "
                            + "LINEAR: new files without limit, none deleted.")
                    .build();

    /** Largest log file, with a unit. */
    public static final ConfigKey<String> FILE_LOGGER_FILE_SIZE = ConfigKey.string("wmqfte.file.logger.fileSize")
            .defaultValue("10MB").validator(Validator.regex("(?i)[1-9][0-9]{0,8}(B|KB|MB|GB)?",
                    "a size such as 512KB, 10MB or 1GB (B, KB, MB or GB; no unit means bytes)"))
            .supported().group(FILE).description("Largest size of one log file before the logger moves to the next.")
            .build();

    /** Files kept in circular mode. */
    public static final ConfigKey<Integer> FILE_LOGGER_FILE_COUNT = ConfigKey.integer("wmqfte.file.logger.fileCount")
            .defaultValue(3).validator(Validator.intRange(1, 999)).unit("files").supported().group(FILE)
            .description("Log files kept in CIRCULAR mode.").build();

    /** Keys remembered against duplicates (OpenMFT only). */
    public static final ConfigKey<Integer> FILE_LOGGER_DEDUPE_KEYS =
            ConfigKey.integer("openmft.file.logger.dedupe.keys").defaultValue(1000)
                    .validator(Validator.intRange(0, 1000000)).unit("messages").supported().group(FILE)
            .description("OpenMFT only: how many of the last messages written the file logger remembers, across "
                    + "restarts, so that a message delivered again is not written twice; 0 turns this off.")
            .build();

    /** The {@code openmft.metrics.*} keys, as an agent's: the logger's Prometheus endpoint. */
    public static final MetricsKeys METRICS_KEYS = MetricsKeys.of("logger");

    /** IBM's TLS keys of logger.properties, read by QueueManagerConfig as the agentSsl* family is. */
    private static final List<ConfigKey<?>> SSL = List.of(
            ConfigKey.string("wmqfte.ssl.cipher.suite").supported().group(SECURITY)
                    .description("Java (JSSE) cipher suite for a TLS client connection; setting it turns TLS on.")
                    .build(),
            ConfigKey.string("wmqfte.ssl.peer.name").supported().group(SECURITY)
                    .description("Distinguished-name pattern the queue manager's certificate subject must match "
                            + "(IBM MQ's SSLPEER rules); when set, it replaces the check of the host name.").build(),
            ConfigKey.bool("wmqfte.ssl.fips.required").defaultValue(false).supported().group(SECURITY)
                    .description("true refuses to start unless this Java runtime has a FIPS 140 provider "
                            + "configured first.").build(),
            ConfigKey.path("wmqfte.ssl.truststore").supported().group(SECURITY)
                    .description("Trust store (jks or pkcs12) holding the CA certificates of trusted queue managers; "
                            + "setting it turns TLS on.").build(),
            ConfigKey.path("wmqfte.ssl.truststore.credentials.file").supported().group(SECURITY)
                    .description("File holding the trust store password: MQMFTCredentials.xml or a file whose first "
                            + "line is the password.").build(),
            ConfigKey.path("wmqfte.ssl.keystore").supported().group(SECURITY)
                    .description("Key store holding this side's certificate for mutual TLS.").build(),
            ConfigKey.path("wmqfte.ssl.keystore.credentials.file").supported().group(SECURITY)
                    .description("File holding the key store password.").build());

    /** A database logger on PostgreSQL needs to be told where the server is. */
    private static final ConfigRegistry.Rule POSTGRESQL_NEEDS_URL = new ConfigRegistry.Rule() {
        @Override
        public void check(ConfigValues values) throws ConfigurationException {
            if (values.get(LOGGER_TYPE) == LoggerType.DATABASE && values.get(DATABASE_TYPE) == DatabaseType.POSTGRESQL
                    && values.get(OPENMFT_DATABASE_URL) == null) {
                throw new ConfigurationException(values.sourceName() + ": " + OPENMFT_DATABASE_URL.name()
                        + " is required when " + DATABASE_TYPE.name() + "=postgresql", OPENMFT_DATABASE_URL.name(),
                        null);
            }
            String url = values.get(OPENMFT_DATABASE_URL);
            DatabaseType type = values.get(DATABASE_TYPE);
            if (url != null && !url.startsWith("jdbc:" + type.propertyValue() + ":")) {
                throw new ConfigurationException(values.sourceName() + ": " + OPENMFT_DATABASE_URL.name() + "=" + url
                        + " is not allowed: a jdbc:" + type.propertyValue() + ": URL is required when "
                        + DATABASE_TYPE.name() + "=" + type.propertyValue(), OPENMFT_DATABASE_URL.name(), url);
            }
        }

        @Override
        public String describe() {
            return "`openmft.database.url` is required when `wmqfte.database.type` is `postgresql`, and must be a "
                    + "URL of that database type.";
        }
    };

    /** All keys of logger.properties. */
    public static final ConfigRegistry REGISTRY = ConfigRegistry.builder("logger.properties")
            .add(LOGGER_TYPE, MAX_TRANSACTION_MESSAGES, MAX_TRANSACTION_TIME, MAX_CONSECUTIVE_REJECT,
                    REJECT_QUEUE_NAME, COMMAND_QUEUE_NAME, MESSAGE_SOURCE_TYPE, MESSAGE_SOURCE_NAME)
            .add(QUEUE_MANAGER, QUEUE_MANAGER_HOST, QUEUE_MANAGER_PORT, QUEUE_MANAGER_CHANNEL)
            .add(QUEUE_MANAGER_PROVIDER)
            .add(DATABASE_TYPE, DATABASE_SCHEMA, DATABASE_NAME, DATABASE_CREDENTIALS, DATABASE_DRIVER,
                    OPENMFT_DATABASE_URL, OPENMFT_DATABASE_USER, OPENMFT_DATABASE_PASSWORD)
            .add(FILE_LOGGER_MODE, FILE_LOGGER_FILE_SIZE, FILE_LOGGER_FILE_COUNT, FILE_LOGGER_DEDUPE_KEYS)
            .addAll(SSL)
            .add(QUEUE_MANAGER_CREDENTIALS)
            .addAll(METRICS_KEYS.all())
            .rule(POSTGRESQL_NEEDS_URL)
            .build();

    private static Validator<String> queueName() {
        return Validator.regex(CommonKeys.MQ_CHARS + "{1,48}",
                "a queue name of 1 to 48 characters from A-Z, a-z, 0-9, '.', '_', '/' and '%'");
    }
}
