package org.openmft.agent.transfer.protocol;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Transfer identifiers as IBM MFT shows them: 48 lower-case hex characters, the 24 bytes of an MQ
 * message id ({@code "AMQ "}, the queue manager name blank-padded to 12 bytes, 8 unique bytes).
 * When the request arrived as an IBM MQ message its own message id is used, as IBM does; otherwise
 * one is made in the same shape, from the provider's message id when there is one, so that a
 * request delivered again keeps its transfer id in either case.
 */
public final class TransferIds {
    private static final Pattern MQ_MESSAGE_ID = Pattern.compile("(?i)ID:([0-9a-f]{48})");
    private static final Pattern TRANSFER_ID = Pattern.compile("[0-9a-f]{48}");
    /** Characters of an untrusted string shown in a message, at most. */
    private static final int SHOWN = 100;
    private static final AtomicLong COUNTER = new AtomicLong(new SecureRandom().nextLong() & 0xffffffL);

    private TransferIds() {
    }

    /**
     * The transfer id for a request message: its MQ message id when it has one; for another
     * provider's message id (Artemis: {@code ID:} and a UUID) an id made from it, the same each time
     * the message is delivered; without a message id, a new id.
     *
     * <p>A request whose acceptance was recorded but whose consumption was not committed (the queue
     * manager or the connection went in between) is delivered again; with the same transfer id the
     * agent recognises it as the transfer it resumed, instead of running the request twice.
     */
    public static String forRequest(String jmsMessageId, String qmgrName) {
        if (jmsMessageId != null && !jmsMessageId.isBlank()) {
            var m = MQ_MESSAGE_ID.matcher(jmsMessageId);
            if (m.matches()) {
                return m.group(1).toLowerCase(java.util.Locale.ROOT);
            }
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256").digest(jmsMessageId.getBytes(
                        StandardCharsets.UTF_8));
                long unique = 0;
                for (int i = 0; i < 8; i++) {
                    unique = unique << 8 | (digest[i] & 0xff);
                }
                return shaped(qmgrName, unique);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JVM has SHA-256", e);
            }
        }
        return newId(qmgrName);
    }

    /** A new id in the MQ message id shape. */
    public static String newId(String qmgrName) {
        return shaped(qmgrName, (System.currentTimeMillis() / 1000L) << 32
                | (COUNTER.incrementAndGet() & 0xffffffffL));
    }

    private static String shaped(String qmgrName, long unique) {
        byte[] id = new byte[24];
        byte[] prefix = "AMQ ".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(prefix, 0, id, 0, 4);
        byte[] qm = (qmgrName == null ? "" : qmgrName).getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 12; i++) {
            id[4 + i] = i < qm.length ? qm[i] : (byte) ' ';
        }
        for (int i = 0; i < 8; i++) {
            id[16 + i] = (byte) (unique >>> (56 - 8 * i));
        }
        return HexFormat.of().formatHex(id);
    }

    /** Whether {@code id} has the shape of a transfer id. */
    public static boolean isValid(String id) {
        return id != null && TRANSFER_ID.matcher(id).matches();
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
