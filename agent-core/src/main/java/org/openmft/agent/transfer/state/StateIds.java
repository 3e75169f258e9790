package org.openmft.agent.transfer.state;

import org.openmft.agent.transfer.protocol.TransferIds;

/**
 * Transfer ids where they become file names and JMS selectors: only ids of IBM's shape (48
 * lower-case hex characters, {@link TransferIds#isValid}) get there, so that an id from a record
 * or from the wire such as {@code /home/mft/x} or {@code ' OR mftRole='S} names no file outside
 * the state directory and changes no selector. Stateless.
 */
public final class StateIds {
    /** Characters of an id shown in a message, at most. */
    private static final int SHOWN = 100;

    private StateIds() {
    }

    /**
     * Refuses an id that is not a transfer id.
     *
     * @param id   the id
     * @param what what it was going to be used for, for the message
     * @throws StateException naming the id, escaped
     */
    public static void require(String id, String what) throws StateException {
        if (!TransferIds.isValid(id)) {
            throw new StateException(invalid(id, what), null);
        }
    }

    /** {@link #require} for callers that cannot throw a checked exception: a programming error. */
    static String checked(String id, String what) {
        if (!TransferIds.isValid(id)) {
            throw new IllegalArgumentException(invalid(id, what));
        }
        return id;
    }

    private static String invalid(String id, String what) {
        return "refused to " + what + " for transfer id " + printable(id)
                + ": a transfer id is 48 lower-case hexadecimal characters";
    }

    /**
     * An untrusted string as a quoted Java literal for a log line: quotes, backslashes and control
     * characters escaped, cut at {@value #SHOWN} characters, so it can neither forge log lines nor
     * flood them.
     */
    public static String printable(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < Math.min(s.length(), SHOWN); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) || Character.getType(c) == Character.FORMAT
                    || c == '\u2028' || c == '\u2029') {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        if (s.length() > SHOWN) {
            b.append("\"... (").append(s.length()).append(" characters)");
        } else {
            b.append('"');
        }
        return b.toString();
    }
}
