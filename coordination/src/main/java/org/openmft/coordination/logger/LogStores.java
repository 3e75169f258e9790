package org.openmft.coordination.logger;

import java.nio.file.Path;
import java.util.Objects;

import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.config.LoggerProperties.DatabaseType;
import org.openmft.agent.config.LoggerProperties.LoggerType;

/** Opens the {@link LogStore} a logger.properties asks for: for the logger, or for reading it. */
public final class LogStores {

    private LogStores() {
    }

    /**
     * Opens the store of a logger: for {@code FILE}, a {@link FileLogStore} in {@code logDirectory};
     * for {@code DATABASE}, a {@link JdbcLogStore} on {@code openmft.database.url}, or on the default
     * H2 file database in {@code logDirectory} when the type is {@code h2} and no URL is given (made
     * private and password-protected by {@link EmbeddedDatabase}).
     *
     * @param config the logger's configuration
     * @param logDirectory the logger's log directory, normally {@code DataDirectory.loggerLogDir}
     * @return the open store, which the caller closes
     * @throws LogStoreException when the store cannot be opened
     */
    public static LogStore open(LoggerConfig config, Path logDirectory) throws LogStoreException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(logDirectory, "logDirectory");
        return switch (config.loggerType()) {
            case FILE -> FileLogStore.open(logDirectory, config.loggerName(), config.fileLoggerMode(),
                    config.fileSizeBytes(), config.fileCount(), config.dedupeKeys());
            case DATABASE -> {
                if (config.databaseUrl().isEmpty()) {
                    if (config.databaseType() != DatabaseType.H2) {
                        // LoggerProperties' rule makes the URL required for every other database.
                        throw new IllegalStateException("no openmft.database.url for " + config.databaseType());
                    }
                    // The default embedded database: private directory, generated password.
                    yield JdbcLogStore.openH2(logDirectory, config.databaseSchema());
                }
                yield JdbcLogStore.open(config.databaseUrl().get(), config.databaseUser().orElse(null),
                        config.databasePassword().orElse(null), config.databaseSchema());
            }
        };
    }

    /**
     * Opens the store of a database logger for reading, as {@code mft transfer list/show} does: the
     * default H2 database through the logger that owns it, or read-only when none runs
     * ({@link JdbcLogStore#readH2}), so that a reader never holds the file a starting logger needs;
     * a database by URL as {@link #open} does.
     *
     * @param config the configuration of a {@code DATABASE} logger
     * @param logDirectory the logger's log directory
     * @return the open store, which the caller closes
     * @throws LogStoreException when the store cannot be opened
     * @throws IllegalArgumentException when the logger is not a database logger
     */
    public static LogStore openForReading(LoggerConfig config, Path logDirectory) throws LogStoreException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(logDirectory, "logDirectory");
        if (config.loggerType() != LoggerType.DATABASE) {
            throw new IllegalArgumentException("logger " + config.loggerName() + " is a " + config.loggerType()
                    + " logger, not a database logger");
        }
        if (config.databaseUrl().isEmpty() && config.databaseType() == DatabaseType.H2) {
            return JdbcLogStore.readH2(logDirectory, config.databaseSchema());
        }
        return open(config, logDirectory);
    }
}
