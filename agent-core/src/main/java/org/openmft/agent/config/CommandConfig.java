package org.openmft.agent.config;

import static org.openmft.agent.config.CommandProperties.*;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The typed, validated contents of one {@code command.properties}, read once: where commands
 * such as fteCreateTransfer send their requests. Immutable and thread-safe.
 */
public final class CommandConfig {
    private final ConfigValues values;

    private CommandConfig(ConfigValues values) {
        this.values = values;
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

    /**
     * The messaging system.
     *
     * @return {@code connectionQMgrProvider}
     */
    public MessagingProvider provider() {
        return values.get(CONNECTION_QMGR_PROVIDER);
    }

    /**
     * Whether connections are client connections.
     *
     * @return true when {@code connectionQMgrHost} is set
     */
    public boolean clientMode() {
        return host().isPresent();
    }

    /**
     * The host.
     *
     * @return {@code connectionQMgrHost}, empty for bindings
     */
    public Optional<String> host() {
        return Optional.ofNullable(values.get(CONNECTION_QMGR_HOST));
    }

    /**
     * The client port.
     *
     * @return {@code connectionQMgrPort}
     */
    public int port() {
        return values.get(CONNECTION_QMGR_PORT);
    }

    /**
     * The server-connection channel.
     *
     * @return {@code connectionQMgrChannel}
     */
    public String channel() {
        return values.get(CONNECTION_QMGR_CHANNEL);
    }

    /**
     * Where the command queue manager is.
     *
     * @return the endpoint
     */
    public QueueManagerEndpoint endpoint() {
        return new QueueManagerEndpoint(provider(), connectionQMgr(), host().orElse(null), port(), channel());
    }

    /**
     * Any key of command.properties.
     *
     * @param <T> the value type
     * @param key a key of {@link CommandProperties#REGISTRY}
     * @return the value, or {@code null} when not set and without default
     */
    public <T> T get(ConfigKey<T> key) {
        return values.get(Objects.requireNonNull(key, "key"));
    }

    /**
     * The underlying values.
     *
     * @return the values
     */
    public ConfigValues values() {
        return values;
    }

    /**
     * Warnings about unknown and unsupported keys.
     *
     * @return the warnings
     */
    public List<String> warnings() {
        return values.warnings();
    }

    /**
     * The effective configuration, one key per line.
     *
     * @return the description
     */
    public String describe() {
        return values.describe();
    }

    @Override
    public String toString() {
        return "CommandConfig[" + connectionQMgr() + "]";
    }
}
