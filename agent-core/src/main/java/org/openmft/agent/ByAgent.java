package org.openmft.agent;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads the {@code openmft.*ByAgent} settings: {@code AGENT=value} pairs separated by commas, the
 * exceptions per peer agent to one of this agent's settings ({@code openmft.messageProtectionByAgent},
 * {@code openmft.compressionByAgent}). One reader, so every such key accepts the same agent names and
 * refuses the same mistakes.
 */
public final class ByAgent {
    private ByAgent() {
    }

    /**
     * @param text    the value, or null
     * @param value   reads one value (throws {@link IllegalArgumentException} for a bad one)
     * @param what    what a value is, for the message (such as {@code level})
     * @param example a well-formed pair, for the message (such as {@code AGENT2=privacy})
     * @param <T>     the type of the values
     * @return agent (upper-case) to value, in the order given
     * @throws IllegalArgumentException naming the malformed pair, or an agent named twice
     */
    public static <T> Map<String, T> parse(String text, Function<String, T> value, String what, String example) {
        Map<String, T> out = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            String agent = eq < 0 ? "" : pair.substring(0, eq).trim();
            if (eq < 0 || !agent.matches("[A-Za-z0-9._%]{1,28}")) {
                throw new IllegalArgumentException("'" + pair.trim() + "' is not AGENT=" + what + " (such as "
                        + example + ")");
            }
            if (out.put(agent.toUpperCase(Locale.ROOT), value.apply(pair.substring(eq + 1))) != null) {
                throw new IllegalArgumentException("agent " + agent + " is named twice");
            }
        }
        return out;
    }
}
