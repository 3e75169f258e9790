package org.openmft.coordination.logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.TransferLog;

/**
 * One log message as the logger received it: a transfer log message or an authority refusal
 * ({@code SYSTEM.FTE/Log/<agent>/NotAuthorized}). Exactly one of {@link #log} and {@link #refusal}
 * is set. Immutable.
 *
 * @param key identifies the message for de-duplication: the same message delivered twice (also
 *     across a logger restart) has the same key and is stored once. Normally {@link #keyOf} of the
 *     message body; not blank, at most {@value #MAX_KEY_LENGTH} characters
 * @param topic the topic string it was published on, such as {@code SYSTEM.FTE/Log/AGENT1/414d...}
 * @param xml the message body as received
 * @param log the parsed transfer log message, or {@code null} for a refusal
 * @param refusal the parsed NotAuthorized message, or {@code null} for a transfer log message
 * @param received when the logger received it
 */
public record LogRecord(String key, String topic, String xml, TransferLog log, NotAuthorizedLog refusal,
        Instant received) {

    /** Longest key: a SHA-256 in hex. */
    public static final int MAX_KEY_LENGTH = 64;

    /** Checks that nothing is missing, that it is one kind of message, and that the key fits. */
    public LogRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(xml, "xml");
        Objects.requireNonNull(received, "received");
        if ((log == null) == (refusal == null)) {
            throw new IllegalArgumentException("a record holds a transfer log message or a refusal, exactly one");
        }
        if (key.isBlank() || key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("key must be 1 to " + MAX_KEY_LENGTH + " characters: '" + key + "'");
        }
    }

    /**
     * A transfer log message.
     *
     * @param key the key, see {@link #key()}
     * @param topic the topic string
     * @param xml the message body
     * @param log the parsed message
     * @param received when the logger received it
     */
    public LogRecord(String key, String topic, String xml, TransferLog log, Instant received) {
        this(key, topic, xml, Objects.requireNonNull(log, "log"), null, received);
    }

    /**
     * An authority refusal.
     *
     * @param key the key, see {@link #key()}
     * @param topic the topic string, {@code SYSTEM.FTE/Log/<agent>/NotAuthorized}
     * @param xml the message body
     * @param refusal the parsed message
     * @param received when the logger received it
     */
    public LogRecord(String key, String topic, String xml, NotAuthorizedLog refusal, Instant received) {
        this(key, topic, xml, null, Objects.requireNonNull(refusal, "refusal"), received);
    }

    /**
     * The usual key of a message body: its SHA-256 in lower-case hex.
     *
     * @param body the message body as received
     * @return 64 hex characters
     */
    public static String keyOf(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /**
     * The usual key of a text message body: the SHA-256 of its UTF-8 bytes in lower-case hex.
     *
     * @param body the message text as received
     * @return 64 hex characters
     */
    public static String keyOf(String body) {
        return keyOf(body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The agent that refused, for a refusal: our agents name it in the message, IBM's only in the
     * topic {@code SYSTEM.FTE/Log/<agent>/NotAuthorized}.
     *
     * @return the agent's name, or {@code null} for a transfer log message or when neither says
     */
    public String refusingAgent() {
        if (refusal == null) {
            return null;
        }
        if (refusal.agent() != null) {
            return refusal.agent().agent();
        }
        String[] levels = topic.split("/", -1);
        return levels.length == 4 && !levels[2].isEmpty() ? levels[2] : null;
    }

    /**
     * The transfer this message is about, or for a refusal the id of the refused request.
     *
     * @return {@code log().transferId()} or {@code refusal().id()}
     */
    public String transferId() {
        return log != null ? log.transferId() : refusal.id();
    }
}
