package org.openmft.client.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.LoggerConfig;
import org.openmft.client.MftClientException;
import org.openmft.coordination.logger.LogStore;
import org.openmft.coordination.logger.LogStoreException;
import org.openmft.coordination.query.ConfiguredLoggers;

/**
 * The transfer history of a configuration options set: the store of its {@code DATABASE} logger
 * (the one named, or the only one), opened for reading, as {@code mft transfer list} and the REST
 * API read it.
 *
 * <p>Internal to OpenMFT; not part of the public API.
 */
public final class TransferHistory {
    private TransferHistory() {
    }

    /**
     * Opens the logger's store for one query.
     *
     * @param dd the data directory
     * @param coordination the configuration options set
     * @param loggerName the logger, or null for the only database logger of the set
     * @param env the environment, for {@code ${VAR}} in the loggers' files
     * @return the store, which the caller closes; empty when the logger has not created its embedded
     *     database yet (it has stored nothing)
     * @throws MftClientException code 78 when there is no such database logger, or several and none
     *     is named; 1 when the database cannot be opened
     */
    public static Optional<LogStore> open(DataDirectory dd, String coordination, String loggerName, Map<String,
            String> env) throws MftClientException {
        ConfiguredLoggers loggers;
        try {
            loggers = ConfiguredLoggers.scan(dd, coordination, env);
        } catch (Exception e) {
            throw new MftClientException(MftClientException.CONFIGURATION, "the loggers of " + coordination
                    + " cannot be read: " + e.getMessage(), e);
        }
        LoggerConfig logger = logger(loggers, coordination, loggerName);
        try {
            return ConfiguredLoggers.openDatabase(dd, coordination, logger);
        } catch (LogStoreException e) {
            throw new MftClientException(MftClientException.FAILED, "logger " + logger.loggerName() + ": "
                    + e.getMessage(), e);
        }
    }

    private static LoggerConfig logger(ConfiguredLoggers loggers, String coordination, String name)
            throws MftClientException {
        List<LoggerConfig> databases = loggers.databaseLoggers();
        if (name != null) {
            if (loggers.unreadable().containsKey(name)) {
                throw new MftClientException(MftClientException.CONFIGURATION, loggers.unreadable().get(name));
            }
            LoggerConfig named = loggers.named(name).orElseThrow(() -> new MftClientException(
                    MftClientException.CONFIGURATION, "logger " + name + " is not configured for " + coordination));
            if (!databases.contains(named)) {
                throw new MftClientException(MftClientException.CONFIGURATION, "logger " + name + " is a "
                        + named.loggerType() + " logger: only a DATABASE logger keeps a transfer history");
            }
            return named;
        }
        if (databases.size() != 1) {
            throw new MftClientException(MftClientException.CONFIGURATION, "the transfer history is read from a"
                    + " DATABASE logger, and " + coordination + " has " + databases.size()
                    + (databases.isEmpty() ? ": create one with 'mft logger create <NAME> -loggerType DATABASE'"
                            : " (" + databases.stream().map(LoggerConfig::loggerName).collect(Collectors.joining(
                                    ", ")) + "): name one (ClientSettings.withLogger)"));
        }
        return databases.get(0);
    }
}
