package org.openmft.bench.harness;

import org.openmft.agent.config.AgentProperties;

/**
 * What this build of the agent makes of an agent.properties key a scenario sets: a section that
 * compares a key's values says so beside its figures, so that a table measured before the key was
 * implemented is not read as the key's effect.
 */
public final class AgentKeys {
    private AgentKeys() {
    }

    /** "honoured by this build", "recognised but not supported yet by this build: ignored", or "unknown to this build: ignored". */
    public static String status(String key) {
        return AgentProperties.REGISTRY.key(key).map(k -> k.supported() ? "honoured by this build"
                : "recognised but not supported yet by this build: ignored, so every value ran the same code")
                .orElse("unknown to this build: ignored, so every value ran the same code");
    }

    /** Whether this build acts on {@code key}. */
    public static boolean honoured(String key) {
        return AgentProperties.REGISTRY.key(key).map(k -> k.supported()).orElse(false);
    }
}
