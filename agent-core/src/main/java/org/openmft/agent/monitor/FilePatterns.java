package org.openmft.agent.monitor;

import java.util.regex.Pattern;
import org.openmft.xml.MonitorCondition;

/**
 * A monitor condition's pattern and exclusion, compiled: IBM's wildcards ({@code *} any run,
 * {@code ?} one character, matched against the whole file name, case-sensitive) or Java regular
 * expressions. Immutable.
 */
final class FilePatterns {
    private final Pattern include;
    private final Pattern exclude;

    FilePatterns(MonitorCondition condition) {
        this.include = compile(condition.pattern());
        this.exclude = condition.exclude() == null ? null : compile(condition.exclude());
    }

    boolean matches(String fileName) {
        return include.matcher(fileName).matches() && (exclude == null || !exclude.matcher(fileName).matches());
    }

    static Pattern compile(MonitorCondition.FilePattern pattern) {
        if (pattern.regex()) {
            return Pattern.compile(pattern.text());
        }
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : pattern.text().toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
}
