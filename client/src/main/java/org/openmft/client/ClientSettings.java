package org.openmft.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.openmft.agent.config.CommandConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.client.internal.CommandChannel;
import org.openmft.client.internal.TransferHistory;
import org.openmft.coordination.logger.LogStore;

/**
 * Where the client connects, and how: the command queue manager (IBM's {@code command.properties},
 * where requests are sent) and the coordination queue manager ({@code coordination.properties},
 * where agents publish their status and progress). Either provider (Artemis or IBM MQ, the files'
 * {@code ...QMgrProvider}), bindings (no host) or client mode (a host), with the security the files
 * configure: a user and password from IBM's credentials file
 * ({@code connectionQMgrAuthenticationCredentialsFile}, possibly obfuscated with a key file), TLS
 * trust and key stores ({@code connectionSslTrustStore}, {@code connectionSslKeyStore} and their
 * friends). A bad or unsupported setting is refused when the settings are made, naming the key.
 * Immutable and thread-safe.
 */
public final class ClientSettings {
    /** The command queue manager: {@code command.properties}'s, or the coordination queue manager's. */
    private final QueueManagerEndpoint command;
    /** The coordination configuration, or null when there is none. */
    private final CoordinationConfig coordination;
    /** Why there is no coordination configuration, for the operations that need one; or null. */
    private final String noCoordination;
    /** The data directory (its queue managers, the set's loggers), or null. */
    private final DataDirectory dataDirectory;
    /** The configuration options set in the data directory, or null. */
    private final String configurationOptions;
    /** The database logger whose history is read, or null for the set's only one. */
    private final String logger;

    private ClientSettings(QueueManagerEndpoint command, CoordinationConfig coordination, String noCoordination,
            DataDirectory dataDirectory, String configurationOptions, String logger) {
        this.command = command;
        this.coordination = coordination;
        this.noCoordination = noCoordination;
        this.dataDirectory = dataDirectory;
        this.configurationOptions = configurationOptions;
        this.logger = logger;
    }

    /**
     * The settings the {@code mft} command line uses: {@code command.properties} and
     * {@code coordination.properties} of a configuration options set in an OpenMFT data directory.
     * A bindings queue manager of that data directory is reached through its loopback listener, as
     * its administrator when this user can read its credentials.
     *
     * @param dataDirectory the data directory, or null for {@code $OPENMFT_DATA}, else {@code ~/.openmft}
     * @param configurationOptions the configuration options set (the coordination queue manager's
     *     name), or null for the data directory's default
     * @return the settings
     * @throws MftClientException code 78 when a file is missing or holds a bad value
     */
    public static ClientSettings fromDataDirectory(Path dataDirectory, String configurationOptions)
            throws MftClientException {
        DataDirectory dd = DataDirectory.resolve(dataDirectory, System.getenv());
        try {
            String name = configurationOptions;
            if (name == null || name.isBlank()) {
                Optional<String> dflt = dd.defaultCoordination();
                if (dflt.isEmpty()) {
                    throw new MftClientException(MftClientException.CONFIGURATION, "no default configuration options"
                            + " in " + dd.installationProperties() + ": run 'mft setup coordination -coordinationQMgr"
                            + " <QMGR> -default' first, or name the configuration options");
                }
                name = dflt.get();
            }
            QueueManagerEndpoint command = CommandChannel.config(dd, name).endpoint();
            Path file = dd.coordinationProperties(name);
            if (!Files.exists(file)) {
                return new ClientSettings(command, null, "no coordination configuration " + file + ": run 'mft setup"
                        + " coordination -coordinationQMgr " + name + "' first, or give -p", dd, name, null);
            }
            try {
                return new ClientSettings(command, CoordinationConfig.load(file, System.getenv()), null, dd, name,
                        null);
            } catch (ConfigurationException e) {
                // Requests need only command.properties: said when an operation needs coordination.
                return new ClientSettings(command, null, e.getMessage(), dd, name, null);
            }
        } catch (MftClientException e) {
            throw e;
        } catch (ConfigurationException e) {
            throw new MftClientException(MftClientException.CONFIGURATION, e.getMessage(), e);
        } catch (Exception e) {
            throw new MftClientException(MftClientException.CONFIGURATION, String.valueOf(e.getMessage()), e);
        }
    }

    /**
     * The settings of a service of a configuration options set that may have no
     * {@code command.properties}, such as OpenMFT's REST API: as {@link #fromDataDirectory}, except
     * that {@code coordination.properties} must exist and requests go through the coordination queue
     * manager when there is no {@code command.properties}.
     *
     * @param dataDirectory the data directory, or null for {@code $OPENMFT_DATA}, else {@code ~/.openmft}
     * @param configurationOptions the configuration options set (the coordination queue manager's name)
     * @return the settings
     * @throws MftClientException code 78 when {@code coordination.properties} is missing, or a file
     *     holds a bad value
     */
    public static ClientSettings forCoordinationQueueManager(Path dataDirectory, String configurationOptions)
            throws MftClientException {
        DataDirectory dd = DataDirectory.resolve(dataDirectory, System.getenv());
        Objects.requireNonNull(configurationOptions, "configurationOptions");
        try {
            CoordinationConfig coordination = CoordinationConfig.load(dd.coordinationProperties(configurationOptions),
                    System.getenv());
            Path commandFile = dd.commandProperties(configurationOptions);
            QueueManagerEndpoint command = Files.exists(commandFile)
                    ? CommandConfig.load(commandFile, System.getenv()).endpoint() : coordination.endpoint();
            return new ClientSettings(command, coordination, null, dd, configurationOptions, null);
        } catch (ConfigurationException e) {
            throw new MftClientException(MftClientException.CONFIGURATION, e.getMessage(), e);
        }
    }

    /**
     * Settings from the keys of IBM's {@code command.properties} and {@code coordination.properties},
     * for an application without a data directory; {@code ${VAR}} in paths is taken from the
     * environment. For example {@code connectionQMgr=QM1}, {@code connectionQMgrHost=mft.example.com},
     * {@code connectionQMgrPort=1414}, {@code connectionQMgrAuthenticationCredentialsFile=/home/app/MQMFTCredentials.xml},
     * {@code connectionSslTrustStore=/home/app/trust.p12}.
     *
     * @param commandProperties the {@code command.properties} keys
     * @param coordinationProperties the {@code coordination.properties} keys, or null when agents,
     *     progress and listings are not wanted
     * @return the settings
     * @throws MftClientException code 78 naming the key when a value is missing, bad or unsupported
     */
    public static ClientSettings fromProperties(Map<String, String> commandProperties,
            Map<String, String> coordinationProperties) throws MftClientException {
        Objects.requireNonNull(commandProperties, "commandProperties");
        try {
            QueueManagerEndpoint command = CommandConfig.from(commandProperties, System.getenv()).endpoint();
            if (coordinationProperties == null || coordinationProperties.isEmpty()) {
                return new ClientSettings(command, null, "no coordination properties were given", null, null, null);
            }
            return new ClientSettings(command, CoordinationConfig.from(coordinationProperties, System.getenv()), null,
                    null, null, null);
        } catch (ConfigurationException e) {
            throw new MftClientException(MftClientException.CONFIGURATION, e.getMessage(), e);
        }
    }

    /**
     * The command queue manager's name.
     *
     * @return {@code connectionQMgr}
     */
    public String commandQueueManager() {
        return command.qmgrName();
    }

    /**
     * The coordination queue manager's name, when one is configured.
     *
     * @return {@code coordinationQMgr}, or empty
     */
    public Optional<String> coordinationQueueManager() {
        return coordination == null ? Optional.empty() : Optional.of(coordination.coordinationQMgr());
    }

    /**
     * These settings, with the transfer history ({@link MftClient#history}, {@link MftClient#transfer})
     * read from database logger {@code loggerName} of the configuration options set, for a set that
     * has several; by default the set's only {@code DATABASE} logger is read. Settings made
     * {@link #fromProperties from properties} have no data directory, so no history.
     *
     * @param loggerName the logger's name, as {@code mft logger create} gave it
     * @return the settings
     * @throws IllegalArgumentException when the name is not a logger name
     */
    public ClientSettings withLogger(String loggerName) {
        return new ClientSettings(command, coordination, noCoordination, dataDirectory, configurationOptions,
                org.openmft.agent.config.QueueNames.validateLoggerName(Objects.requireNonNull(loggerName,
                        "loggerName").strip()));
    }

    /** Opens the history's store; code 78 when these settings have no data directory or database logger. */
    Optional<LogStore> history() throws MftClientException {
        if (dataDirectory == null) {
            throw new MftClientException(MftClientException.CONFIGURATION, "the transfer history is read from a"
                    + " DATABASE logger of a data directory: these settings were made from properties and name none");
        }
        return TransferHistory.open(dataDirectory, configurationOptions, logger, System.getenv());
    }

    QueueManagerEndpoint command() {
        return command;
    }

    Path qmgrsDirectory() {
        return dataDirectory == null ? null : dataDirectory.qmgrsDir();
    }

    /** The coordination configuration; fails with code 78 saying why there is none. */
    CoordinationConfig coordination() throws MftClientException {
        if (coordination == null) {
            throw new MftClientException(MftClientException.CONFIGURATION, noCoordination);
        }
        return coordination;
    }

    @Override
    public String toString() {
        return "ClientSettings[command " + commandQueueManager() + ", coordination "
                + coordinationQueueManager().orElse("-") + "]";
    }
}
