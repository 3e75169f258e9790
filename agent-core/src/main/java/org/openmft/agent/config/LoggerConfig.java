package org.openmft.agent.config;

import static org.openmft.agent.config.LoggerProperties.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The typed, validated contents of one {@code logger.properties}, read once at start-up, for the
 * logger of a given name (the default queue names contain it). Immutable and thread-safe; owns no
 * threads, connections or files.
 */
public final class LoggerConfig extends QueueManagerConfig {

    private final String loggerName;
    /** From {@code wmqfte.database.credentials}, or null. */
    private final org.openmft.agent.credentials.Credentials databaseCredentials;

    private LoggerConfig(ConfigValues values, String loggerName) throws ConfigurationException {
        super(values, QUEUE_MANAGER, QUEUE_MANAGER_HOST, QUEUE_MANAGER_PORT, QUEUE_MANAGER_CHANNEL,
                QUEUE_MANAGER_PROVIDER);
        this.loggerName = loggerName;
        this.databaseCredentials = readDatabaseCredentials(values, loggerName);
    }

    /**
     * IBM's {@code wmqfte.database.credentials}: the logger's {@code <logger>} entry of an
     * MQMFTCredentials.xml, read now so that a missing, open or incomplete file stops start-up (78).
     */
    private static org.openmft.agent.credentials.Credentials readDatabaseCredentials(ConfigValues values,
            String loggerName) throws ConfigurationException {
        Path file = values.get(DATABASE_CREDENTIALS);
        if (file == null) {
            return null;
        }
        String key = DATABASE_CREDENTIALS.name();
        for (ConfigKey<String> clash : java.util.List.of(OPENMFT_DATABASE_USER, OPENMFT_DATABASE_PASSWORD)) {
            if (values.get(clash) != null) {
                throw new ConfigurationException(values.sourceName() + ": " + key + " and " + clash.name() + " are"
                        + " both set: give the database user and password in one place (remove " + clash.name() + ")",
                        clash.name(), null);
            }
        }
        org.openmft.agent.credentials.Credentials credentials;
        try {
            credentials = org.openmft.agent.credentials.CredentialsFile.read(file).logger(loggerName, null)
                    .orElseThrow(() -> new ConfigurationException(values.sourceName() + ": " + key + "=" + file
                            + ": the credentials file has no <logger name=\"" + loggerName + "\" user=\"...\""
                            + " password=\"...\"/> entry (nor one without a name)", key, file.toString()));
        } catch (org.openmft.agent.credentials.CredentialsException e) {
            throw new ConfigurationException(values.sourceName() + ": " + key + "=" + e.getMessage(), key,
                    file.toString());
        }
        if (values.get(OPENMFT_DATABASE_URL) == null) {
            throw new ConfigurationException(values.sourceName() + ": " + key + " is set but openmft.database.url is"
                    + " not: the logger's embedded database has a generated password of its own, and the credentials"
                    + " are for a database named by openmft.database.url", key, file.toString());
        }
        return credentials;
    }

    /**
     * Reads and parses a logger.properties file.
     *
     * @param file the file, normally {@link DataDirectory#loggerProperties}
     * @param loggerName the logger's name, any case
     * @param env the environment for {@code ${VAR}} in paths
     * @return the configuration
     * @throws ConfigurationException when the file is missing, unreadable or has a bad or missing value
     * @throws IllegalArgumentException when the logger name is not valid
     */
    public static LoggerConfig load(Path file, String loggerName, Map<String, String> env)
            throws ConfigurationException {
        String name = QueueNames.validateLoggerName(loggerName);
        return new LoggerConfig(REGISTRY.parse(PropertiesFiles.read(file), file.toString(), env), name);
    }

    /**
     * Parses raw key-value pairs; messages call the source "logger.properties".
     *
     * @param raw key to value
     * @param loggerName the logger's name, any case
     * @param env the environment for {@code ${VAR}} in paths
     * @return the configuration
     * @throws ConfigurationException when a value is bad or missing
     * @throws IllegalArgumentException when the logger name is not valid
     */
    public static LoggerConfig from(Map<String, String> raw, String loggerName, Map<String, String> env)
            throws ConfigurationException {
        String name = QueueNames.validateLoggerName(loggerName);
        return new LoggerConfig(REGISTRY.parse(raw, REGISTRY.fileName(), env), name);
    }

    /**
     * The logger's name, upper-cased.
     *
     * @return the name
     */
    public String loggerName() {
        return loggerName;
    }

    /**
     * File or database.
     *
     * @return {@code wmqfte.logger.type}
     */
    public LoggerType loggerType() {
        return values.get(LOGGER_TYPE);
    }

    /**
     * The queue manager the logger connects to.
     *
     * @return {@code wmqfte.queue.manager}
     */
    public String queueManager() {
        return values.get(QUEUE_MANAGER);
    }

    /**
     * Most messages per transaction.
     *
     * @return {@code wmqfte.max.transaction.messages}
     */
    public int maxTransactionMessages() {
        return values.get(MAX_TRANSACTION_MESSAGES);
    }

    /**
     * Longest time a transaction stays open.
     *
     * @return {@code wmqfte.max.transaction.time} (milliseconds in the file)
     */
    public Duration maxTransactionTime() {
        return Duration.ofMillis(values.get(MAX_TRANSACTION_TIME));
    }

    /**
     * Rejections in a row after which the logger suspects its configuration.
     *
     * @return {@code wmqfte.max.consecutive.reject}
     */
    public int maxConsecutiveReject() {
        return values.get(MAX_CONSECUTIVE_REJECT);
    }

    /**
     * The reject queue.
     *
     * @return {@code wmqfte.reject.queue.name}, or {@code SYSTEM.FTE.LOG.RJCT.<LOGGER>} when not set
     */
    public String rejectQueueName() {
        String name = values.get(REJECT_QUEUE_NAME);
        return name != null ? name : QueueNames.loggerReject(loggerName);
    }

    /**
     * The command queue.
     *
     * @return {@code wmqfte.command.queue.name}, or {@code SYSTEM.FTE.LOG.CMD.<LOGGER>} when not set
     */
    public String commandQueueName() {
        String name = values.get(COMMAND_QUEUE_NAME);
        return name != null ? name : QueueNames.loggerCommand(loggerName);
    }

    /**
     * The database product of a database logger.
     *
     * @return {@code wmqfte.database.type}
     */
    public DatabaseType databaseType() {
        return values.get(DATABASE_TYPE);
    }

    /**
     * The schema holding the logger's tables.
     *
     * @return {@code wmqfte.database.schema}
     */
    public String databaseSchema() {
        return values.get(DATABASE_SCHEMA);
    }

    /**
     * The JDBC URL given in the file. For {@code h2}, absent means the logger's default file
     * database, whose URL the store computes from the directory it is given.
     *
     * @return {@code openmft.database.url}, if set
     */
    public Optional<String> databaseUrl() {
        return Optional.ofNullable(values.get(OPENMFT_DATABASE_URL));
    }

    /**
     * The database user.
     *
     * @return {@code openmft.database.user}, if set
     */
    public Optional<String> databaseUser() {
        if (databaseCredentials != null) {
            return Optional.of(databaseCredentials.user());
        }
        return Optional.ofNullable(values.get(OPENMFT_DATABASE_USER));
    }

    /**
     * The database password. Never log it: {@link #describe()} masks it, as it masks every secret.
     *
     * @return {@code openmft.database.password}, if set
     */
    public Optional<String> databasePassword() {
        if (databaseCredentials != null) {
            return Optional.of(databaseCredentials.password());
        }
        return Optional.ofNullable(values.get(OPENMFT_DATABASE_PASSWORD));
    }

    /**
     * Whether the database password comes from {@code wmqfte.database.credentials} rather than
     * {@code logger.properties} itself.
     */
    public boolean databaseCredentialsFile() {
        return databaseCredentials != null;
    }

    /**
     * Circular or linear.
     *
     * @return {@code wmqfte.file.logger.mode}
     */
    public FileLoggerMode fileLoggerMode() {
        return values.get(FILE_LOGGER_MODE);
    }

    /**
     * The largest size of one log file.
     *
     * @return {@code wmqfte.file.logger.fileSize} in bytes (KB, MB and GB are powers of 1024)
     */
    public long fileSizeBytes() {
        return parseSize(values.get(FILE_LOGGER_FILE_SIZE));
    }

    /**
     * Files kept in circular mode.
     *
     * @return {@code wmqfte.file.logger.fileCount}
     */
    public int fileCount() {
        return values.get(FILE_LOGGER_FILE_COUNT);
    }

    /**
     * How many of the last messages the file logger remembers against duplicates.
     *
     * @return {@code openmft.file.logger.dedupe.keys}
     */
    public int dedupeKeys() {
        return values.get(FILE_LOGGER_DEDUPE_KEYS);
    }

    /**
     * Where this logger serves its Prometheus metrics, when it does.
     *
     * @return {@code openmft.metrics.*}; empty when {@code openmft.metrics.port} is not set
     * @throws ConfigurationException (exit 78) when the endpoint would not be secure
     */
    public Optional<org.openmft.agent.metrics.MetricsSettings> metrics() throws ConfigurationException {
        return METRICS_KEYS.settings(values);
    }

    /** Text already checked by the key's validator: digits and an optional B, KB, MB or GB. */
    static long parseSize(String text) {
        String upper = text.toUpperCase(Locale.ROOT);
        int unitStart = 0;
        while (unitStart < upper.length() && Character.isDigit(upper.charAt(unitStart))) {
            unitStart++;
        }
        long number = Long.parseLong(upper.substring(0, unitStart));
        long factor = switch (upper.substring(unitStart)) {
            case "", "B" -> 1L;
            case "KB" -> 1L << 10;
            case "MB" -> 1L << 20;
            case "GB" -> 1L << 30;
            default -> throw new IllegalArgumentException("not a size: " + text);
        };
        return number * factor;
    }

    @Override
    public String toString() {
        return "LoggerConfig[" + loggerName + ", " + loggerType() + "]";
    }
}
