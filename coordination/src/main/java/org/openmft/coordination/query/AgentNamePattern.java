package org.openmft.coordination.query;

import java.util.regex.Pattern;

/**
 * An agent name pattern as fteListAgents takes it: {@code *} matches any characters (none
 * included), {@code ?} exactly one, everything else itself; compared without regard to case, as
 * agent names are. No pattern, a blank one, or {@code *} matches every agent. Immutable.
 */
public final class AgentNamePattern {
    /** The pattern that matches every agent. */
    public static final AgentNamePattern ALL = new AgentNamePattern("*");

    private final String text;
    private final Pattern regex;

    private AgentNamePattern(String text) {
        this.text = text;
        StringBuilder re = new StringBuilder(text.length() + 8);
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    re.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                re.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            re.append(Pattern.quote(literal.toString()));
        }
        this.regex = Pattern.compile(re.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
    }

    /**
     * Compiles a pattern.
     *
     * @param pattern such as {@code PAY*}, {@code agent?}; {@code null} or blank for every agent
     * @return the pattern
     */
    public static AgentNamePattern of(String pattern) {
        return pattern == null || pattern.isBlank() ? ALL : new AgentNamePattern(pattern.strip());
    }

    /**
     * Whether an agent name matches.
     *
     * @param agentName the name
     * @return true when the whole name matches, ignoring case
     */
    public boolean matches(String agentName) {
        return agentName != null && regex.matcher(agentName).matches();
    }

    @Override
    public String toString() {
        return text;
    }
}
