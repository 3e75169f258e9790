package org.openmft.coordination.logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

import org.openmft.xml.log.TransferLog;

/**
 * One transfer log message as the logger received it. Immutable.
 *
 * @param key identifies the message for de-duplication: the same message delivered twice (also
 *     across a logger restart) has the same key and is stored once. Normally {@link #keyOf} of the
 *     message body; not blank, at most {@value #MAX_KEY_LENGTH} characters
 * @param topic the topic string it was published on, such as {@code SYSTEM.FTE/Log/AGENT1/414d...}
 * @param xml the message body as received
 * @param log the parsed message
 * @param received when the logger received it
 */
public record LogRecord(String key, String topic, String xml, TransferLog log, Instant received) {

    /** Longest key: a SHA-256 in hex. */
    public static final int MAX_KEY_LENGTH = 64;

    /** Checks that nothing is missing and the key fits. */
    public LogRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(xml, "xml");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(received, "received");
        if (key.isBlank() || key.length() > MAX_KEY_LENGTH) {
            throw new IllegalArgumentException("key must be 1 to " + MAX_KEY_LENGTH + " characters: '" + key + "'");
        }
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
     * The transfer this message is about.
     *
     * @return {@code log().transferId()}
     */
    public String transferId() {
        return log.transferId();
    }
}
