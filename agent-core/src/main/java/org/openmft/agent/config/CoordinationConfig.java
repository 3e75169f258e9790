package org.openmft.agent.config;

import static org.openmft.agent.config.CoordinationProperties.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The typed, validated contents of one {@code coordination.properties}, read once.
 * Immutable and thread-safe.
 */
public final class CoordinationConfig {
    private final ConfigValues values;

    private CoordinationConfig(ConfigValues values) {
        this.values = values;
    }

    /**
     * Reads and parses a coordination.properties file.
     *
     * @param file the file
     * @param env the environment for {@code ${VAR}} in paths
     * @return the configuration
     * @throws ConfigurationException when the file is missing, unreadable or has a bad or missing value
     */
    public static CoordinationConfig load(Path file, Map<String, String> env) throws ConfigurationException {
        return new CoordinationConfig(REGISTRY.parse(PropertiesFiles.read(file), file.toString(), env));
    }

    /**
     * Parses raw key-value pairs; messages call the source "coordination.properties".
     *
     * @param raw key to value
     * @param env the environment for {@code ${VAR}} in paths
     * @return the configuration
     * @throws ConfigurationException when a value is bad or missing
     */
    public static CoordinationConfig from(Map<String, String> raw, Map<String, String> env)
            throws ConfigurationException {
        return new CoordinationConfig(REGISTRY.parse(raw, REGISTRY.fileName(), env));
    }

    /**
     * The coordination queue manager name.
     *
     * @return {@code coordinationQMgr}
     */
    public String coordinationQMgr() {
        return values.get(COORDINATION_QMGR);
    }

    /**
     * The messaging system.
     *
     * @return {@code coordinationQMgrProvider}
     */
    public MessagingProvider provider() {
        return values.get(COORDINATION_QMGR_PROVIDER);
    }

    /**
     * Whether connections are client connections.
     *
     * @return true when {@code coordinationQMgrHost} is set
     */
    public boolean clientMode() {
        return host().isPresent();
    }

    /**
     * The host.
     *
     * @return {@code coordinationQMgrHost}, empty for bindings
     */
    public Optional<String> host() {
        return Optional.ofNullable(values.get(COORDINATION_QMGR_HOST));
    }

    /**
     * The client port.
     *
     * @return {@code coordinationQMgrPort}
     */
    public int port() {
        return values.get(COORDINATION_QMGR_PORT);
    }

    /**
     * The server-connection channel.
     *
     * @return {@code coordinationQMgrChannel}
     */
    public String channel() {
        return values.get(COORDINATION_QMGR_CHANNEL);
    }

    /**
     * Where the coordination queue manager is.
     *
     * @return the endpoint
     */
    public QueueManagerEndpoint endpoint() {
        return new QueueManagerEndpoint(provider(), coordinationQMgr(), host().orElse(null), port(), channel());
    }

    /**
     * Lateness allowed to a status publication before it is reported stale.
     *
     * @return {@code agentStatusJitterTolerance} (milliseconds in the file)
     */
    public Duration agentStatusJitterTolerance() {
        return Duration.ofMillis(values.get(AGENT_STATUS_JITTER_TOLERANCE));
    }

    /**
     * Any key of coordination.properties.
     *
     * @param <T> the value type
     * @param key a key of {@link CoordinationProperties#REGISTRY}
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
        return "CoordinationConfig[" + coordinationQMgr() + "]";
    }
}
