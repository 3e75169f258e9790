package org.openmft.agent.monitor;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openmft.agent.ResultCode;

/**
 * IBM's variable substitution into a monitor's task (reference §1.5): {@code ${Name}} and
 * {@code ${Name{token=N}{separator=c}}}, names not case-sensitive, exactly IBM's names for a
 * directory monitor: {@code FileName}, {@code FilePath}, {@code FileSize}, {@code LastModifiedDate},
 * {@code LastModifiedTime}, {@code LastModifiedDateUTC}, {@code LastModifiedTimeUTC},
 * {@code AgentName}, {@code CurrentTimeStamp}, {@code CurrentTimeStampUTC}, and for a trigger file
 * that lists files ({@code -tc}) {@code contentSource} and {@code contentDestination}. Nothing else: a name
 * IBM does not define fails the task with result 110, as a name missing from the metadata does on
 * IBM's agent.
 *
 * <p>Tokens: the value is split on the separator (default: the agent's file separator) as
 * {@link StringTokenizer} does, empty tokens skipped; N counts from 1 at the left, a negative N
 * from the right. A token out of range, a zero N or an unclosed brace is a syntax error, result
 * 100. Values are escaped for XML, since they land in a request document's text and attributes.
 *
 * <p>Batches ({@code <batch maxSize>} above 1, or the lines of a {@code -tc} trigger file): every
 * {@code <item>} of the request that uses a variable is repeated once per file of the batch, with
 * that file's values; variables outside the items take the first file's values.
 *
 * <p>Formats, where IBM says only "ISO 8601": dates {@code 2026-11-26}, times {@code 05:37:12.123}
 * (the agent's zone, or UTC for the UTC names), time stamps {@code 20261126T053712123} and
 * {@code 20261126T053712123Z}: no colons, so they can go into file names on every platform.
 *
 * <p>Stateless and thread-safe.
 */
public final class TaskVariables {

    /** The names a directory monitor's trigger provides, in IBM's spelling. */
    public static final List<String> DIRECTORY_NAMES = List.of("FileName", "FilePath", "FileSize",
            "LastModifiedDate", "LastModifiedTime", "LastModifiedDateUTC", "LastModifiedTimeUTC", "AgentName",
            "CurrentTimeStamp", "CurrentTimeStampUTC");

    /**
     * The names a queue monitor's trigger provides besides the first message's user properties
     * (named without {@code usr.}) and the monitor's default variables: IBM's list (reference
     * §1.5); {@code GroupId} only under {@code completeGroups}, {@code Encoding} when the message
     * carries one.
     */
    public static final List<String> QUEUE_NAMES = List.of("AgentName", "QueueName", "Encoding", "MessageId",
            "GroupId", "CurrentTimeStamp", "CurrentTimeStampUTC");

    /**
     * The names a trigger file that lists files ({@code -tc}) provides besides the directory
     * names, per listed file: IBM's {@code ${contentSource}} and {@code ${contentDestination}}
     * (only when the line gives a destination).
     */
    public static final List<String> CONTENT_NAMES = List.of("contentSource", "contentDestination");

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{");
    private static final Pattern CONTENT_SOURCE = Pattern.compile("(?i)\\$\\{\\s*contentSource\\s*[{}]");
    private static final Pattern ITEM = Pattern.compile("<item[\\s>].*?</item\\s*>", Pattern.DOTALL);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS");

    /**
     * A task that cannot be submitted, with IBM's result code: 100 or 110 for its variables, others
     * for what its substituted request is ({@link MonitorService}).
     */
    public static final class TaskException extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient ResultCode resultCode;

        TaskException(ResultCode resultCode, String message) {
            super(message);
            this.resultCode = resultCode;
        }

        /** @return why, as an MFT result code */
        public ResultCode resultCode() {
            return resultCode;
        }
    }

    private final String separator;
    private final ZoneId zone;

    /**
     * @param separator the default token separator (the agent's file separator)
     * @param zone the agent's time zone, for the local dates and times
     */
    public TaskVariables(String separator, ZoneId zone) {
        this.separator = separator;
        this.zone = zone;
    }

    /**
     * The values one file provides.
     *
     * @param file the triggering file, or {@code null} for a trigger without one ({@code fileNoMatch})
     * @param agentName the monitoring agent
     * @param now the trigger time
     * @return the values by lower-case name
     */
    public Map<String, String> metadata(FileSnapshot file, String agentName, Instant now) {
        Map<String, String> values = new HashMap<>();
        values.put("agentname", agentName);
        values.put("currenttimestamp", STAMP.format(now.atZone(zone)));
        values.put("currenttimestamputc", STAMP.format(now.atZone(ZoneOffset.UTC)) + "Z");
        if (file != null) {
            Instant modified = Instant.ofEpochMilli(file.lastModifiedMillis());
            values.put("filename", file.name());
            values.put("filepath", file.path());
            values.put("filesize", Long.toString(file.size()));
            values.put("lastmodifieddate", DATE.format(modified.atZone(zone)));
            values.put("lastmodifiedtime", TIME.format(modified.atZone(zone)));
            values.put("lastmodifieddateutc", DATE.format(modified.atZone(ZoneOffset.UTC)));
            values.put("lastmodifiedtimeutc", TIME.format(modified.atZone(ZoneOffset.UTC)));
        }
        return values;
    }

    /**
     * The values one queue monitor trigger provides.
     *
     * @param message the first message of the queue or of the complete group
     * @param agentName the monitoring agent
     * @param queue the monitored queue
     * @param groups whether the condition is {@code completeGroups}, which provides {@code GroupId}
     * @param defaults the monitor's default variables, for properties the message lacks
     * @param now the trigger time
     * @return the values by lower-case name
     */
    public Map<String, String> queueMetadata(QueueMessage message, String agentName, String queue, boolean groups,
            Map<String, String> defaults, Instant now) {
        Map<String, String> values = new HashMap<>();
        defaults.forEach((k, v) -> values.put(k.toLowerCase(Locale.ROOT), v));
        message.properties().forEach((k, v) -> values.put(k.toLowerCase(Locale.ROOT), v));
        values.put("agentname", agentName);
        values.put("queuename", queue);
        values.put("messageid", message.messageId());
        if (message.encoding() != null) {
            values.put("encoding", message.encoding());
        }
        if (groups) {
            values.put("groupid", message.group());
        }
        values.put("currenttimestamp", STAMP.format(now.atZone(zone)));
        values.put("currenttimestamputc", STAMP.format(now.atZone(ZoneOffset.UTC)) + "Z");
        return values;
    }

    /**
     * Substitutes a task for a batch of trigger matches.
     *
     * @param task the request XML with variables
     * @param batch the values of each file of the batch, at least one
     * @return the request XML
     * @throws TaskException naming the variable and what is wrong with it
     */
    public String substitute(String task, List<Map<String, String>> batch) throws TaskException {
        if (batch.size() == 1) {
            return substitute(task, batch.get(0));
        }
        StringBuilder out = new StringBuilder();
        Matcher items = ITEM.matcher(task);
        int last = 0;
        while (items.find()) {
            out.append(substitute(task.substring(last, items.start()), batch.get(0)));
            String item = items.group();
            if (VARIABLE.matcher(item).find()) {
                for (Map<String, String> values : batch) {
                    out.append(substitute(item, values));
                }
            } else {
                out.append(item);
            }
            last = items.end();
        }
        out.append(substitute(task.substring(last), batch.get(0)));
        return out.toString();
    }

    /**
     * A listed file's values ({@code -tc}): the trigger file's with {@code contentSource} and
     * {@code contentDestination} added.
     *
     * @param trigger the trigger file's values
     * @param source the listed source
     * @param destination the listed destination, or {@code null}
     * @return a new map
     */
    static Map<String, String> withContent(Map<String, String> trigger, String source, String destination) {
        Map<String, String> values = new HashMap<>(trigger);
        values.put("contentsource", source);
        if (destination != null) {
            values.put("contentdestination", destination);
        }
        return values;
    }

    /** @return whether the text uses {@code ${contentSource}}, tokens or not */
    static boolean usesContentSource(String text) {
        return CONTENT_SOURCE.matcher(text).find();
    }

    /**
     * @param text text with variables
     * @return whether it uses any
     */
    public static boolean usesVariables(String text) {
        return VARIABLE.matcher(text).find();
    }

    /**
     * Substitutes every variable of {@code text}.
     *
     * @param text the text
     * @param values the values by lower-case name
     * @return the text with values, escaped for XML
     * @throws TaskException naming the variable and what is wrong with it
     */
    public String substitute(String text, Map<String, String> values) throws TaskException {
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        while (true) {
            int start = text.indexOf("${", at);
            if (start < 0) {
                out.append(text, at, text.length());
                return out.toString();
            }
            out.append(text, at, start);
            int end = closing(text, start + 2);
            if (end < 0) {
                throw new TaskException(ResultCode.MONITOR_VARIABLE_SYNTAX, "BFGDM0060E: variable "
                        + shorten(text.substring(start)) + " has no closing brace");
            }
            out.append(escape(value(text.substring(start, end + 1), values)));
            at = end + 1;
        }
    }

    /** Index of the brace closing a {@code ${}, nested {@code {...}} allowed one level deep. */
    private static int closing(String text, int from) {
        int depth = 0;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{') {
                if (++depth > 1) {
                    return -1;
                }
            } else if (c == '}') {
                if (depth == 0) {
                    return i;
                }
                depth--;
            } else if (c == '<' || c == '>' || c == '\n') {
                return -1;
            }
        }
        return -1;
    }

    private String value(String variable, Map<String, String> values) throws TaskException {
        String inner = variable.substring(2, variable.length() - 1);
        int brace = inner.indexOf('{');
        String name = (brace < 0 ? inner : inner.substring(0, brace)).strip();
        String value = values.get(name.toLowerCase(Locale.ROOT));
        if (value == null) {
            String known = values.containsKey("queuename")
                    ? " is neither provided by a queue monitor (" + String.join(", ", QUEUE_NAMES) + ") nor a property"
                            + " of the message, and has no default (-dv)"
                    : DIRECTORY_NAMES.stream().anyMatch(n -> n.equalsIgnoreCase(name))
                    || CONTENT_NAMES.stream().anyMatch(n -> n.equalsIgnoreCase(name))
                    ? " is not provided by this trigger" + (name.equalsIgnoreCase("contentDestination")
                            ? " (a line of the trigger file gives no destination)"
                            : name.equalsIgnoreCase("contentSource") ? " (only a monitor with -tc provides it)" : "")
                    : " is not a variable of a directory monitor; expected one of "
                    + String.join(", ", DIRECTORY_NAMES) + " (and with -tc " + String.join(", ", CONTENT_NAMES) + ")";
            throw new TaskException(ResultCode.MONITOR_VARIABLE_NOT_FOUND, "variable " + variable + known);
        }
        if (brace < 0) {
            return value;
        }
        Integer token = null;
        String separators = separator;
        String rest = inner.substring(brace);
        while (!rest.isEmpty()) {
            int close = rest.indexOf('}');
            if (!rest.startsWith("{") || close < 0) {
                throw syntax(variable, "expected {token=N} or {separator=c}");
            }
            String option = rest.substring(1, close);
            rest = rest.substring(close + 1);
            int eq = option.indexOf('=');
            String key = eq < 0 ? option : option.substring(0, eq).strip();
            String setting = eq < 0 ? "" : option.substring(eq + 1);
            if (key.equalsIgnoreCase("token")) {
                try {
                    token = Integer.parseInt(setting.strip());
                } catch (NumberFormatException e) {
                    throw syntax(variable, "token " + setting + " is not a whole number");
                }
            } else if (key.equalsIgnoreCase("separator") && !setting.isEmpty()) {
                separators = setting;
            } else {
                throw syntax(variable, "expected {token=N} or {separator=c}");
            }
        }
        if (token == null) {
            throw syntax(variable, "{separator=c} needs {token=N}");
        }
        List<String> tokens = new ArrayList<>();
        StringTokenizer tokenizer = new StringTokenizer(value, separators);
        while (tokenizer.hasMoreTokens()) {
            tokens.add(tokenizer.nextToken());
        }
        int index = token > 0 ? token - 1 : tokens.size() + token;
        if (token == 0 || index < 0 || index >= tokens.size()) {
            throw syntax(variable, "token " + token + " is out of range: the value " + value + " has " + tokens.size()
                    + " tokens");
        }
        return tokens.get(index);
    }

    private static TaskException syntax(String variable, String why) {
        return new TaskException(ResultCode.MONITOR_VARIABLE_SYNTAX, "variable " + variable + ": " + why);
    }

    private static String shorten(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }

    private static String escape(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (char c : value.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&apos;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
