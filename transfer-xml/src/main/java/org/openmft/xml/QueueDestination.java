package org.openmft.xml;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A destination queue (file to message):
 * {@code <destination><queue persistent=".." setMqProps=".." ...>QUEUE@QMGR</queue></destination>},
 * what {@code fteCreateTransfer -dq -dqp -qmp -qs -dqdt -dqdb -dqdp -qi} write. Immutable.
 *
 * <p>The attribute names are IBM's FileTransfer.xsd names as far as we know them; {@link #attributes()}
 * gives them in document order, and {@link #of} reads them back, so the parser, the writer and the
 * agents' wire all go through one spelling.
 *
 * @param queue          the queue, on the destination agent's queue manager unless {@code qmgr} names another
 * @param qmgr           the queue manager after {@code @}, or null
 * @param persistence    {@code true}, {@code false} or {@code qdef} (the queue's default); IBM's default is true
 * @param setMqProps     whether the first message carries IBM's {@code usr.WMQFTE*} properties ({@code -qmp})
 * @param messageLength  split into messages of this many bytes ({@code -qs}), or 0 for no fixed-length split
 * @param delimiter      the delimiter: a Java regular expression for {@code text}, hex bytes for {@code binary};
 *                       null for none
 * @param delimiterType  {@code text} ({@code -dqdt}) or {@code binary} ({@code -dqdb}); null without a delimiter
 * @param delimiterPosition {@code prefix} or {@code postfix} (IBM's default)
 * @param includeDelimiter whether the delimiter stays in the messages ({@code -qi}); by default it is dropped
 */
public record QueueDestination(String queue, String qmgr, String persistence, boolean setMqProps, long messageLength,
        String delimiter, String delimiterType, String delimiterPosition, boolean includeDelimiter) {

    /** IBM's attribute names, in the order they are written. */
    public static final Set<String> ATTRIBUTES = Set.of("persistent", "setMqProps", "messageLength", "delimiter",
            "delimiterType", "delimiterPosition", "includeDelimiterInMessage");

    /** Validates; names the attribute that is wrong. */
    public QueueDestination {
        queue = QueueSpec.queueName(queue, "destination");
        qmgr = QueueSpec.qmgrName(qmgr, "destination");
        persistence = persistence == null ? "true" : persistence.strip().toLowerCase(Locale.ROOT);
        if (!Set.of("true", "false", "qdef").contains(persistence)) {
            throw new IllegalArgumentException("persistent=" + Checks.quote(persistence)
                    + " is not valid; expected true, false or qdef");
        }
        if (messageLength < 0) {
            throw new IllegalArgumentException("messageLength=" + messageLength + " must not be negative");
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
            if (messageLength > 0) {
                throw new IllegalArgumentException("a message length and a delimiter cannot both split a file"
                        + " (-qs with -dqdt or -dqdb)");
            }
            delimiterType = QueueSpec.delimiterType(delimiterType, delimiter, "binary", text -> {
                try {
                    Pattern.compile(text);
                } catch (PatternSyntaxException e) {
                    throw new IllegalArgumentException("text delimiter " + Checks.quote(text)
                            + " is not a Java regular expression: " + e.getDescription());
                }
            });
        }
        delimiterPosition = QueueSpec.position(delimiterPosition);
    }

    /**
     * A queue as written after {@code -dq} or in the element's text: {@code QUEUE} or {@code QUEUE@QMGR}.
     *
     * @param spec the text
     * @param attributes IBM's attributes (see {@link #ATTRIBUTES}); others are refused
     * @return the destination
     * @throws IllegalArgumentException naming what is wrong
     */
    public static QueueDestination of(String spec, Map<String, String> attributes) {
        Objects.requireNonNull(spec, "queue");
        QueueSpec q = QueueSpec.of(spec, attributes, ATTRIBUTES, "destination");
        String length = attributes.get("messageLength");
        long messageLength;
        try {
            messageLength = length == null ? 0 : parseSize(length);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("messageLength=" + Checks.quote(length) + " " + e.getMessage());
        }
        return new QueueDestination(q.queue(), q.qmgr(), attributes.get("persistent"),
                bool(attributes, "setMqProps"), messageLength, attributes.get("delimiter"),
                attributes.get("delimiterType"), attributes.get("delimiterPosition"),
                bool(attributes, "includeDelimiterInMessage"));
    }

    /**
     * IBM's {@code -qs} size: a number with an optional unit {@code B}, {@code K} or {@code M} (1024-based).
     *
     * @param text such as {@code 1K}
     * @return bytes, at least 1
     * @throws IllegalArgumentException when it is not such a size
     */
    public static long parseSize(String text) {
        String t = text.strip().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("B")) {
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("K")) {
            unit = 1024;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("M")) {
            unit = 1024 * 1024;
            t = t.substring(0, t.length() - 1);
        }
        long n;
        try {
            n = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("is not a size such as 512, 64K or 1M");
        }
        if (n < 1 || n > 100L * 1024 * 1024 / unit) {
            throw new IllegalArgumentException("is not between 1 byte and 100 MiB");
        }
        return n * unit;
    }

    private static boolean bool(Map<String, String> attributes, String name) {
        String v = attributes.get(name);
        if (v == null) {
            return false;
        }
        Boolean b = Checks.xsdBoolean(v);
        if (b == null) {
            throw new IllegalArgumentException("attribute " + name + "=" + Checks.quote(v)
                    + " is not valid; expected true or false");
        }
        return b;
    }

    /** {@code QUEUE} or {@code QUEUE@QMGR}, as IBM writes it. */
    public String spec() {
        return qmgr == null ? queue : queue + "@" + qmgr;
    }

    /** The binary delimiter's bytes, or null. */
    public byte[] delimiterBytes() {
        if (delimiter == null || !"binary".equals(delimiterType)) {
            return null;
        }
        return QueueSpec.hexBytes(delimiter);
    }

    /**
     * The attributes that differ from IBM's defaults, in document order.
     *
     * @return name to value
     */
    public Map<String, String> attributes() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("persistent", persistence);
        if (setMqProps) {
            m.put("setMqProps", "true");
        }
        if (messageLength > 0) {
            m.put("messageLength", Long.toString(messageLength));
        }
        if (delimiter != null) {
            m.put("delimiter", delimiter);
            m.put("delimiterType", delimiterType);
            m.put("delimiterPosition", delimiterPosition);
            if (includeDelimiter) {
                m.put("includeDelimiterInMessage", "true");
            }
        }
        return m;
    }
}
