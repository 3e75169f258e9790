package org.openmft.agent.config;

import static org.openmft.agent.config.CommandProperties.*;

import java.nio.file.Path;
import java.util.Map;

/**
 * The typed, validated contents of one {@code command.properties}, read once: where commands
 * such as fteCreateTransfer send their requests. Immutable and thread-safe.
 */
public final class CommandConfig extends QueueManagerConfig {

    private CommandConfig(ConfigValues values) throws ConfigurationException {
        super(values, CONNECTION_QMGR, CONNECTION_QMGR_HOST, CONNECTION_QMGR_PORT,
                CONNECTION_QMGR_CHANNEL, CONNECTION_QMGR_PROVIDER);
    }

    /**
     * Reads and parses a command.properties file.
     *
     * @param file the file
     * @param env the environment for {@code ${VAR}} in paths
     * @return the configuration
     * @throws ConfigurationException when the file is missing, unreadable or has a bad or missing value
     */
    public static CommandConfig load(Path file, Map<String, String> env) throws ConfigurationException {
        return new CommandConfig(REGISTRY.parse(PropertiesFiles.read(file), file.toString(), env));
    }

    /**
     * Parses raw key-value pairs; messages call the source "command.properties".
     *
     * @param raw key to value
     * @param env the environment for {@code ${VAR}} in paths
     * @return the configuration
     * @throws ConfigurationException when a value is bad or missing
     */
    public static CommandConfig from(Map<String, String> raw, Map<String, String> env)
            throws ConfigurationException {
        return new CommandConfig(REGISTRY.parse(raw, REGISTRY.fileName(), env));
    }

    /**
     * The command queue manager name.
     *
     * @return {@code connectionQMgr}
     */
    public String connectionQMgr() {
        return values.get(CONNECTION_QMGR);
    }

    @Override
    public String toString() {
        return "CommandConfig[" + connectionQMgr() + "]";
    }
}
