package org.openmft.agent.config;

import static org.openmft.agent.config.CoordinationProperties.*;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The typed, validated contents of one {@code coordination.properties}, read once.
 * Immutable and thread-safe.
 */
public final class CoordinationConfig extends QueueManagerConfig {

    private CoordinationConfig(ConfigValues values) throws ConfigurationException {
        super(values, COORDINATION_QMGR, COORDINATION_QMGR_HOST, COORDINATION_QMGR_PORT,
                COORDINATION_QMGR_CHANNEL, COORDINATION_QMGR_PROVIDER);
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
     * Lateness allowed to a status publication before it is reported stale.
     *
     * @return {@code agentStatusJitterTolerance} (milliseconds in the file)
     */
    public Duration agentStatusJitterTolerance() {
        return Duration.ofMillis(values.get(AGENT_STATUS_JITTER_TOLERANCE));
    }

    @Override
    public String toString() {
        return "CoordinationConfig[" + coordinationQMgr() + "]";
    }
}
