package org.openmft.agent.compression;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.openmft.agent.ByAgent;

/**
 * A source agent's compression setting: the method it asks for with each destination agent
 * ({@code openmft.compression}, with exceptions per agent in {@code openmft.compressionByAgent}).
 * Only the source chooses; a destination decompresses whatever it is sent, whatever its own
 * setting, and says on START_OK what it can decompress (see {@link CompressionMethod#agreed}).
 *
 * @param method  the method with agents not in {@code byAgent}
 * @param byAgent methods with named agents (names in any case)
 */
public record CompressionPolicy(CompressionMethod method, Map<String, CompressionMethod> byAgent) {
    /** No compression with anyone. */
    public static final CompressionPolicy NONE = new CompressionPolicy(CompressionMethod.NONE, Map.of());

    /** The policy, its agent names upper-cased. */
    public CompressionPolicy {
        Map<String, CompressionMethod> upper = new LinkedHashMap<>();
        byAgent.forEach((k, v) -> upper.put(k.toUpperCase(Locale.ROOT), v));
        byAgent = Map.copyOf(upper);
    }

    /**
     * Reads {@code openmft.compressionByAgent}: {@code AGENT=method} pairs separated by commas.
     *
     * @param text the value, or null
     * @return agent (upper-case) to method, in the order given
     * @throws IllegalArgumentException naming the malformed pair
     */
    public static Map<String, CompressionMethod> parseByAgent(String text) {
        return ByAgent.parse(text, CompressionMethod::parse, "method", "AGENT2=lz4");
    }

    /**
     * The method this agent asks for when sending to {@code agent}.
     *
     * @param agent the destination agent, in any case
     * @return its method
     */
    public CompressionMethod methodFor(String agent) {
        return byAgent.getOrDefault(agent == null ? "" : agent.toUpperCase(Locale.ROOT), method);
    }
}
