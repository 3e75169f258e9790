package org.openmft.xml;

import java.nio.charset.Charset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A source queue (message to file):
 * {@code <source type="queue"><queue useGroups=".." groupId=".." waitTime=".." delimiter=".." ...>QUEUE@QMGR</queue></source>},
 * what {@code fteCreateTransfer -sq -sqgi -sqwt -sqdt -sqdb -sqdp} write and what IBM's queue monitors
 * put in their tasks ({@code groupId="${GROUPID}"}). Immutable.
 *
 * <p>The attribute names are IBM's FileTransfer.xsd names as far as we know them; {@link #attributes()}
 * gives them in document order, and {@link #of} reads them back, so the parser and the writer go
 * through one spelling.
 *
 * @param queue             the queue, on the source agent's queue manager
 * @param qmgr              the queue manager after {@code @}, or null (it must be the source agent's own)
 * @param useGroups         read the first complete group only ({@code -sqgi}); else every message on the queue
 * @param groupId           read this group only (a queue monitor's {@code ${GroupId}}), or null
 * @param waitTimeSeconds   how long to wait for a message or a complete group ({@code -sqwt}), or -1 not to wait
 * @param delimiter         the delimiter written with each message: text ({@code -sqdt}, Java escapes such as
 *                          {@code \n} and a backslash-u and four hex digits allowed) or hex bytes ({@code -sqdb}); null for none
 * @param delimiterType     {@code text} or {@code binary}; null without a delimiter
 * @param delimiterPosition {@code prefix} (before each message's data) or {@code postfix} (after it, IBM's default)
 */
public record QueueSource(String queue, String qmgr, boolean useGroups, String groupId, int waitTimeSeconds,
        String delimiter, String delimiterType, String delimiterPosition) {

    /** IBM's attribute names, in the order they are written. */
    public static final Set<String> ATTRIBUTES = Set.of("useGroups", "groupId", "waitTime", "delimiter",
            "delimiterType", "delimiterPosition");
    /** The longest wait accepted, in seconds: a day (IBM's own rule keeps it below the ack timeout). */
    public static final int MAX_WAIT_SECONDS = 86_400;

    /** Validates; names the attribute that is wrong. */
    public QueueSource {
        queue = QueueSpec.queueName(queue, "source");
        qmgr = QueueSpec.qmgrName(qmgr, "source");
        groupId = groupId == null || groupId.isBlank() ? null : groupId.strip();
        if (groupId != null && groupId.indexOf('\'') >= 0) {
            throw new IllegalArgumentException("groupId=" + Checks.quote(groupId) + " may not contain a quote");
        }
        if (waitTimeSeconds < -1 || waitTimeSeconds > MAX_WAIT_SECONDS) {
            throw new IllegalArgumentException("waitTime=" + waitTimeSeconds + " is not valid; expected 0 to "
                    + MAX_WAIT_SECONDS + " seconds");
        }
        if (delimiter != null && delimiter.isEmpty()) {
            delimiter = null;
        }
        if (delimiter == null) {
            if (delimiterType != null) {
                throw new IllegalArgumentException("delimiterType=" + Checks.quote(delimiterType)
                        + " needs a delimiter");
            }
        } else {
            delimiterType = QueueSpec.delimiterType(delimiterType, delimiter, "text", QueueSource::unescape);
        }
        delimiterPosition = QueueSpec.position(delimiterPosition);
    }

    /**
     * A queue as written after {@code -sq} or in the element's text: {@code QUEUE} or {@code QUEUE@QMGR}.
     *
     * @param spec       the text
     * @param attributes IBM's attributes (see {@link #ATTRIBUTES}); others are refused
     * @return the source
     * @throws IllegalArgumentException naming what is wrong
     */
    public static QueueSource of(String spec, Map<String, String> attributes) {
        Objects.requireNonNull(spec, "queue");
        QueueSpec q = QueueSpec.of(spec, attributes, ATTRIBUTES, "source");
        String wait = attributes.get("waitTime");
        int waitTime;
        try {
            waitTime = wait == null || wait.isBlank() ? -1 : Integer.parseInt(wait.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("waitTime=" + Checks.quote(wait) + " is not a number of seconds");
        }
        if (wait != null && waitTime < 0) {
            throw new IllegalArgumentException("waitTime=" + Checks.quote(wait) + " must not be negative");
        }
        String groups = attributes.get("useGroups");
        Boolean useGroups = groups == null ? Boolean.FALSE : Checks.xsdBoolean(groups);
        if (useGroups == null) {
            throw new IllegalArgumentException("attribute useGroups=" + Checks.quote(groups)
                    + " is not valid; expected true or false");
        }
        return new QueueSource(q.queue(), q.qmgr(), useGroups, attributes.get("groupId"), waitTime,
                attributes.get("delimiter"), attributes.get("delimiterType"), attributes.get("delimiterPosition"));
    }

    /** {@code QUEUE} or {@code QUEUE@QMGR}, as IBM writes it. */
    public String spec() {
        return qmgr == null ? queue : queue + "@" + qmgr;
    }

    /**
     * The delimiter's bytes, or null without one: hex bytes as they are, text with its Java escapes
     * resolved and encoded in {@code charset}.
     */
    public byte[] delimiterBytes(Charset charset) {
        if (delimiter == null) {
            return null;
        }
        if ("binary".equals(delimiterType)) {
            return QueueSpec.hexBytes(delimiter);
        }
        return unescape(delimiter).getBytes(charset);
    }

    /**
     * The attributes that differ from IBM's defaults, in document order.
     *
     * @return name to value
     */
    public Map<String, String> attributes() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("useGroups", Boolean.toString(useGroups));
        if (groupId != null) {
            m.put("groupId", groupId);
        }
        if (waitTimeSeconds >= 0) {
            m.put("waitTime", Integer.toString(waitTimeSeconds));
        }
        if (delimiter != null) {
            m.put("delimiter", delimiter);
            m.put("delimiterType", delimiterType);
            m.put("delimiterPosition", delimiterPosition);
        }
        return m;
    }

    /**
     * Resolves Java's string-literal escapes ({@code \n \r \t \b \f \\ \' \"} and a backslash-u with four hex digits), as IBM
     * documents for {@code -sqdt}.
     *
     * @throws IllegalArgumentException for an escape Java does not know
     */
    static String unescape(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch != '\\') {
                sb.append(ch);
                continue;
            }
            if (++i == text.length()) {
                throw new IllegalArgumentException("text delimiter " + Checks.quote(text) + " ends with a lone \\");
            }
            char e = text.charAt(i);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case '\\', '\'', '"' -> sb.append(e);
                case 'u' -> {
                    if (i + 4 >= text.length()) {
                        throw new IllegalArgumentException("text delimiter " + Checks.quote(text)
                                + " has an incomplete \\u escape");
                    }
                    String hex = text.substring(i + 1, i + 5);
                    try {
                        sb.append((char) Integer.parseInt(hex, 16));
                    } catch (NumberFormatException x) {
                        throw new IllegalArgumentException("text delimiter " + Checks.quote(text) + " has \\u" + hex
                                + ", not four hex digits");
                    }
                    i += 4;
                }
                default -> throw new IllegalArgumentException("text delimiter " + Checks.quote(text) + " has \\" + e
                        + ", not a Java escape");
            }
        }
        return sb.toString();
    }
}
