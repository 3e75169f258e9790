package org.openmft.coordination.query;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.config.LoggerProperties;
import org.openmft.agent.config.LoggerProperties.DatabaseType;
import org.openmft.agent.config.LoggerProperties.LoggerType;
import org.openmft.coordination.logger.JdbcLogStore;
import org.openmft.coordination.logger.LogStore;
import org.openmft.coordination.logger.LogStoreException;
import org.openmft.coordination.logger.LogStores;

/**
 * The loggers configured for one coordination queue manager, in IBM's layout
 * ({@code config/<coordQM>/loggers/<LOGGER>/logger.properties}), and the way to the transfer history
 * a database logger keeps. Immutable.
 *
 * @param loggers the loggers whose properties could be read, sorted by name
 * @param unreadable logger name to the reason its properties could not be read, sorted by name
 */
public record ConfiguredLoggers(List<LoggerConfig> loggers, Map<String, String> unreadable) {

    /** Copies the collections. */
    public ConfiguredLoggers {
        loggers = List.copyOf(loggers);
        unreadable = Collections.unmodifiableMap(new LinkedHashMap<>(unreadable));
    }

    /**
     * Reads every logger's properties under a coordination queue manager's configuration.
     *
     * @param dd the data directory
     * @param coordQM the coordination queue manager (IBM's configuration options)
     * @param env the environment for {@code ${VAR}} in paths
     * @return the loggers; none when there is no {@code loggers} directory
     * @throws IOException when the directory cannot be listed
     */
    public static ConfiguredLoggers scan(DataDirectory dd, String coordQM, Map<String, String> env)
            throws IOException {
        Path dir = dd.configDir(coordQM).resolve("loggers");
        List<LoggerConfig> loggers = new ArrayList<>();
        Map<String, String> unreadable = new LinkedHashMap<>();
        if (!Files.isDirectory(dir)) {
            return new ConfiguredLoggers(loggers, unreadable);
        }
        try (Stream<Path> dirs = Files.list(dir)) {
            for (Path d : dirs.sorted().toList()) {
                Path file = d.resolve(LoggerProperties.REGISTRY.fileName());
                if (!Files.isRegularFile(file)) {
                    continue;
                }
                String name = d.getFileName().toString();
                try {
                    loggers.add(LoggerConfig.load(file, name, env));
                } catch (ConfigurationException | IllegalArgumentException e) {
                    unreadable.put(name, e.getMessage());
                }
            }
        }
        return new ConfiguredLoggers(loggers, unreadable);
    }

    /**
     * The database loggers, whose stores can be queried.
     *
     * @return the loggers of type {@code DATABASE}, sorted by name
     */
    public List<LoggerConfig> databaseLoggers() {
        return loggers.stream().filter(l -> l.loggerType() == LoggerType.DATABASE).toList();
    }

    /**
     * A logger by name.
     *
     * @param name the name, any case
     * @return the logger, if its properties were read
     */
    public Optional<LoggerConfig> named(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return loggers.stream().filter(l -> l.loggerName().equals(upper)).findFirst();
    }

    /**
     * Opens a database logger's store for reading ({@link LogStores#openForReading} on the logger's
     * log directory). The default embedded H2 database is read only when the logger has created it
     * (a query does not create an empty one): through the running logger, which alone opens the
     * file, or read-only when no logger runs, with the password the logger keeps beside it (see
     * {@link org.openmft.coordination.logger.EmbeddedDatabase}).
     *
     * @param dd the data directory
     * @param coordQM the coordination queue manager
     * @param logger a logger of type {@code DATABASE}
     * @return the store, which the caller closes; empty when the logger has not created its
     *     embedded database yet
     * @throws LogStoreException when the database cannot be opened
     * @throws IllegalArgumentException when the logger is not a database logger
     */
    public static Optional<LogStore> openDatabase(DataDirectory dd, String coordQM, LoggerConfig logger)
            throws LogStoreException {
        if (logger.loggerType() != LoggerType.DATABASE) {
            throw new IllegalArgumentException("logger " + logger.loggerName() + " is a " + logger.loggerType()
                    + " logger, not a database logger");
        }
        Path logDir = dd.loggerLogDir(coordQM, logger.loggerName());
        if (logger.databaseUrl().isEmpty() && logger.databaseType() == DatabaseType.H2
                && !Files.exists(embeddedDatabaseFile(logDir))) {
            return Optional.empty();
        }
        return Optional.of(LogStores.openForReading(logger, logDir));
    }

    /**
     * The file of a logger's default embedded database.
     *
     * @param loggerLogDir the logger's log directory
     * @return {@code <loggerLogDir>/logger.mv.db}
     */
    public static Path embeddedDatabaseFile(Path loggerLogDir) {
        return loggerLogDir.resolve(JdbcLogStore.H2_DATABASE_NAME + ".mv.db");
    }
}
