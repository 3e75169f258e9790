package org.openmft.xml;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What source and destination queues ({@link QueueSource}, {@link QueueDestination}) check alike:
 * IBM's {@code QUEUE[@QMGR]}, MQ's 48-character queue names, their attributes, hex byte delimiters
 * and the delimiter's position.
 *
 * @param queue the queue
 * @param qmgr  the queue manager after {@code @}, or null
 */
record QueueSpec(String queue, String qmgr) {
    /** Hex bytes as IBM writes them: {@code 0D0A}, {@code x0D0A}, {@code 0x0D,0x0A}. */
    static final Pattern HEX = Pattern.compile("(?i)(x|0x)?([0-9a-f]{2})+(,(0x)?([0-9a-f]{2})+)*");

    /**
     * Splits {@code QUEUE} or {@code QUEUE@QMGR}, refusing attributes not in {@code allowed}.
     *
     * @param side {@code source} or {@code destination}, for the messages
     */
    static QueueSpec of(String spec, Map<String, String> attributes, Set<String> allowed, String side) {
        for (String name : attributes.keySet()) {
            if (!allowed.contains(name)) {
                throw new IllegalArgumentException("attribute " + name + " is not allowed on a " + side + " <queue>");
            }
        }
        String s = spec.strip();
        int at = s.indexOf('@');
        String queue = at < 0 ? s : s.substring(0, at);
        String qmgr = at < 0 ? null : s.substring(at + 1);
        if (at >= 0 && qmgr.isBlank()) {
            throw new IllegalArgumentException(side + " queue " + Checks.quote(s) + " has nothing after @");
        }
        return new QueueSpec(queue, qmgr);
    }

    /** A queue name: not blank, at most 48 characters (MQ's limit). */
    static String queueName(String queue, String side) {
        String q = Checks.name(queue, side + " queue");
        if (q.length() > 48) {
            throw new IllegalArgumentException(side + " queue " + Checks.quote(q)
                    + " is longer than 48 characters, MQ's limit");
        }
        return q;
    }

    /** A queue manager name, or null when none. */
    static String qmgrName(String qmgr, String side) {
        return qmgr == null || qmgr.isBlank() ? null : Checks.name(qmgr.strip(), side + " queue manager");
    }

    /** {@code prefix} or {@code postfix} (IBM's default, for null). */
    static String position(String delimiterPosition) {
        String p = delimiterPosition == null ? "postfix" : delimiterPosition.strip().toLowerCase(Locale.ROOT);
        if (!"prefix".equals(p) && !"postfix".equals(p)) {
            throw new IllegalArgumentException("delimiterPosition=" + Checks.quote(p)
                    + " is not valid; expected prefix or postfix");
        }
        return p;
    }

    /**
     * A delimiter's type, {@code text} or {@code binary} ({@code defaultType} for null), with the
     * delimiter checked: hex bytes for binary, {@code textCheck} for text.
     */
    static String delimiterType(String type, String delimiter, String defaultType,
            java.util.function.Consumer<String> textCheck) {
        String t = type == null ? defaultType : type.strip().toLowerCase(Locale.ROOT);
        if ("binary".equals(t)) {
            checkHex(delimiter);
        } else if ("text".equals(t)) {
            textCheck.accept(delimiter);
        } else {
            throw new IllegalArgumentException("delimiterType=" + Checks.quote(t)
                    + " is not valid; expected text or binary");
        }
        return t;
    }

    /** Checks hex bytes ({@link #HEX}). */
    static void checkHex(String delimiter) {
        if (!HEX.matcher(delimiter).matches()) {
            throw new IllegalArgumentException("binary delimiter " + Checks.quote(delimiter)
                    + " is not hex bytes such as x0D0A or 0x0D,0x0A");
        }
    }

    /** The bytes of hex checked by {@link #checkHex}. */
    static byte[] hexBytes(String delimiter) {
        return java.util.HexFormat.of().parseHex(delimiter.replaceAll("(?i)0x|,|^x", ""));
    }
}
