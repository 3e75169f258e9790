package org.openmft.coordination.logger;

import java.nio.file.Path;
import java.util.Objects;

import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.config.LoggerProperties.DatabaseType;

/** Opens the {@link LogStore} a logger.properties asks for. */
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
}
