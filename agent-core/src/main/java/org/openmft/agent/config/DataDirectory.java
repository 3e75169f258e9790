package org.openmft.agent.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The on-disk layout of an OpenMFT installation, mirroring IBM MFT's {@code MQ_DATA_PATH/mqft}:
 *
 * <pre>
 * &lt;root&gt;/config/installation.properties                       defaultProperties=&lt;coordQM&gt;
 * &lt;root&gt;/config/&lt;coordQM&gt;/coordination.properties
 * &lt;root&gt;/config/&lt;coordQM&gt;/command.properties
 * &lt;root&gt;/config/&lt;coordQM&gt;/agents/&lt;AGENT&gt;/agent.properties
 * &lt;root&gt;/config/&lt;coordQM&gt;/agents/&lt;AGENT&gt;/&lt;AGENT&gt;_create.mqsc, &lt;AGENT&gt;_delete.mqsc
 * &lt;root&gt;/logs/&lt;coordQM&gt;/agents/&lt;AGENT&gt;/logs/
 * &lt;root&gt;/transfers/&lt;coordQM&gt;/&lt;AGENT&gt;/                   what fteCreateAgent lets the agent read and write
 * &lt;root&gt;/config/&lt;coordQM&gt;/loggers/&lt;LOGGER&gt;/logger.properties
 * &lt;root&gt;/logs/&lt;coordQM&gt;/loggers/&lt;LOGGER&gt;/
 * &lt;root&gt;/qmgrs/&lt;QMGR&gt;/                                     embedded queue managers
 * &lt;root&gt;/logs/qmgrs/&lt;QMGR&gt;/
 * </pre>
 *
 * The root is, in order of precedence: an explicit path (the CLI's {@code --data-dir}), the
 * environment variable {@value #ENV_VAR}, or {@code ~/.openmft}. Agent and logger names are
 * upper-cased in paths; queue manager names are used as written, because MQ names are case-sensitive.
 *
 * <p>This class only computes paths; it creates nothing. Immutable and thread-safe.
 */
public final class DataDirectory {

    /** Environment variable overriding the default root. */
    public static final String ENV_VAR = "OPENMFT_DATA";

    /** Directory under the user's home used when nothing else is given. */
    public static final String DEFAULT_DIRECTORY_NAME = ".openmft";

    /** Which of an agent's two MQSC scripts. */
    public enum MqscAction {
        /** {@code <AGENT>_create.mqsc}. */
        CREATE("create"),
        /** {@code <AGENT>_delete.mqsc}. */
        DELETE("delete");

        private final String suffix;

        MqscAction(String suffix) {
            this.suffix = suffix;
        }
    }

    private static final Pattern QMGR_NAME = Pattern.compile(CommonKeys.MQ_CHARS + "{1,48}");

    private final Path root;

    private DataDirectory(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /**
     * Uses the given root as is.
     *
     * @param root the data directory
     * @return the layout under it
     */
    public static DataDirectory of(Path root) {
        return new DataDirectory(Objects.requireNonNull(root, "root"));
    }

    /**
     * Finds the data directory: {@code explicitOrNull} if given, else {@value #ENV_VAR} if set and
     * not blank, else {@code ~/.openmft} (from the {@code user.home} system property).
     *
     * @param explicitOrNull the CLI's {@code --data-dir}, or null
     * @param env the environment, normally {@link System#getenv()}
     * @return the layout; relative paths are made absolute against the working directory
     */
    public static DataDirectory resolve(Path explicitOrNull, Map<String, String> env) {
        if (explicitOrNull != null) {
            return new DataDirectory(explicitOrNull);
        }
        String fromEnv = env.get(ENV_VAR);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return new DataDirectory(Path.of(fromEnv.trim()));
        }
        return new DataDirectory(Path.of(System.getProperty("user.home"), DEFAULT_DIRECTORY_NAME));
    }

    /**
     * The data directory.
     *
     * @return the absolute, normalised root
     */
    public Path root() {
        return root;
    }

    /**
     * The file naming the default coordination configuration.
     *
     * @return {@code <root>/config/installation.properties}
     */
    public Path installationProperties() {
        return root.resolve("config").resolve("installation.properties");
    }

    /**
     * The default coordination queue manager, from {@code defaultProperties} in installation.properties.
     *
     * @return the name, or empty when the file or the key is absent
     * @throws ConfigurationException when the file exists but cannot be read or holds a bad name
     */
    public Optional<String> defaultCoordination() throws ConfigurationException {
        Path file = installationProperties();
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        ConfigValues values = InstallationProperties.REGISTRY.parse(PropertiesFiles.read(file), file.toString(),
                Map.of());
        return Optional.ofNullable(values.get(InstallationProperties.DEFAULT_PROPERTIES));
    }

    /**
     * The configuration directory of one coordination queue manager.
     *
     * @param coordQM the coordination queue manager name
     * @return {@code <root>/config/<coordQM>}
     * @throws IllegalArgumentException when the name is not a queue manager name usable as a directory name
     */
    public Path configDir(String coordQM) {
        return root.resolve("config").resolve(directoryName(coordQM));
    }

    /**
     * The coordination properties file.
     *
     * @param coordQM the coordination queue manager name
     * @return {@code <root>/config/<coordQM>/coordination.properties}
     */
    public Path coordinationProperties(String coordQM) {
        return configDir(coordQM).resolve(CoordinationProperties.REGISTRY.fileName());
    }

    /**
     * The command properties file.
     *
     * @param coordQM the coordination queue manager name
     * @return {@code <root>/config/<coordQM>/command.properties}
     */
    public Path commandProperties(String coordQM) {
        return configDir(coordQM).resolve(CommandProperties.REGISTRY.fileName());
    }

    /**
     * An agent's configuration directory.
     *
     * @param coordQM the coordination queue manager name
     * @param agent the agent name, any case
     * @return {@code <root>/config/<coordQM>/agents/<AGENT>}
     * @throws IllegalArgumentException when a name is not valid
     */
    public Path agentDir(String coordQM, String agent) {
        return configDir(coordQM).resolve("agents").resolve(QueueNames.validateAgentName(agent));
    }

    /**
     * An agent's properties file.
     *
     * @param coordQM the coordination queue manager name
     * @param agent the agent name, any case
     * @return {@code <agentDir>/agent.properties}
     */
    public Path agentProperties(String coordQM, String agent) {
        return agentDir(coordQM, agent).resolve(AgentProperties.REGISTRY.fileName());
    }

    /**
     * One of an agent's MQSC scripts.
     *
     * @param coordQM the coordination queue manager name
     * @param agent the agent name, any case
     * @param action which script
     * @return {@code <agentDir>/<AGENT>_create.mqsc} or {@code <agentDir>/<AGENT>_delete.mqsc}
     */
    public Path agentMqsc(String coordQM, String agent, MqscAction action) {
        String name = QueueNames.validateAgentName(agent);
        return agentDir(coordQM, name).resolve(name + "_" + action.suffix + ".mqsc");
    }

    /**
     * An agent's log directory (output logs and diagnostics).
     *
     * @param coordQM the coordination queue manager name
     * @param agent the agent name, any case
     * @return {@code <root>/logs/<coordQM>/agents/<AGENT>/logs}
     */
    public Path agentLogDir(String coordQM, String agent) {
        return root.resolve("logs").resolve(directoryName(coordQM)).resolve("agents")
                .resolve(QueueNames.validateAgentName(agent)).resolve("logs");
    }

    /**
     * The directory an agent created by {@code fteCreateAgent} may read and write without being
     * told more (its {@code sandboxRoot} and {@code transferRoot}). OpenMFT's, not IBM's: an IBM agent
     * is unrestricted by default.
     *
     * @param coordQM the coordination queue manager name
     * @param agent the agent name, any case
     * @return {@code <root>/transfers/<coordQM>/<AGENT>}
     */
    public Path agentTransferDir(String coordQM, String agent) {
        return root.resolve("transfers").resolve(directoryName(coordQM)).resolve(QueueNames.validateAgentName(agent));
    }

    /**
     * A logger's configuration directory.
     *
     * @param coordQM the coordination queue manager name
     * @param logger the logger name, any case
     * @return {@code <root>/config/<coordQM>/loggers/<LOGGER>}
     * @throws IllegalArgumentException when a name is not valid
     */
    public Path loggerDir(String coordQM, String logger) {
        return configDir(coordQM).resolve("loggers").resolve(QueueNames.validateLoggerName(logger));
    }

    /**
     * A logger's properties file.
     *
     * @param coordQM the coordination queue manager name
     * @param logger the logger name, any case
     * @return {@code <loggerDir>/logger.properties}
     */
    public Path loggerProperties(String coordQM, String logger) {
        return loggerDir(coordQM, logger).resolve(LoggerProperties.REGISTRY.fileName());
    }

    /**
     * A logger's log directory, which holds a file logger's files and, by default, a database
     * logger's embedded database.
     *
     * @param coordQM the coordination queue manager name
     * @param logger the logger name, any case
     * @return {@code <root>/logs/<coordQM>/loggers/<LOGGER>}
     */
    public Path loggerLogDir(String coordQM, String logger) {
        return root.resolve("logs").resolve(directoryName(coordQM)).resolve("loggers")
                .resolve(QueueNames.validateLoggerName(logger));
    }

    /**
     * The directory holding every embedded queue manager.
     *
     * @return {@code <root>/qmgrs}
     */
    public Path qmgrsDir() {
        return root.resolve("qmgrs");
    }

    /**
     * One embedded queue manager's data directory.
     *
     * @param qmgr the queue manager name
     * @return {@code <root>/qmgrs/<qmgr>}
     */
    public Path qmgrDir(String qmgr) {
        return qmgrsDir().resolve(directoryName(qmgr));
    }

    /**
     * One embedded queue manager's log directory.
     *
     * @param qmgr the queue manager name
     * @return {@code <root>/logs/qmgrs/<qmgr>}
     */
    public Path qmgrLogDir(String qmgr) {
        return root.resolve("logs").resolve("qmgrs").resolve(directoryName(qmgr));
    }

    /**
     * Checks that a queue manager name can name a directory. MQ allows '/' in names, but here it
     * would create a subdirectory, and "." or ".." would leave the data directory; such names are
     * refused rather than mapped, so that a directory name always equals its queue manager name.
     */
    private static String directoryName(String qmgr) {
        if (qmgr == null || !QMGR_NAME.matcher(qmgr).matches()) {
            throw new IllegalArgumentException("queue manager name '" + qmgr + "' is not valid: a queue manager name "
                    + "is 1 to 48 characters from A-Z, a-z, 0-9, '.', '_', '/' and '%'");
        }
        if (qmgr.indexOf('/') >= 0 || qmgr.equals(".") || qmgr.equals("..")) {
            throw new IllegalArgumentException("queue manager name '" + qmgr + "' cannot be used in the data "
                    + "directory: it must not contain '/' or be '.' or '..'");
        }
        return qmgr;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DataDirectory other && other.root.equals(root);
    }

    @Override
    public int hashCode() {
        return root.hashCode();
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
