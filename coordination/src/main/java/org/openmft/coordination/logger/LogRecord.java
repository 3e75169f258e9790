package org.openmft.coordination.logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

import org.openmft.xml.log.MonitorLog;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.ScheduleLog;
import org.openmft.xml.log.TransferLog;

/**
 * One log message as the logger received it: a transfer log message (with the results of its
 * program calls), an authority refusal ({@code SYSTEM.FTE/Log/<agent>/NotAuthorized}), a schedule
 * log ({@code <schedulelog>}) or a monitor log ({@code <monitorLog>}). Exactly one of {@link #log},
 * {@link #refusal}, {@link #schedule} and {@link #monitor} is set. Immutable.
 *
 * <p>A managed call's {@code callStarted} and {@code callCompleted} are transfer log messages
 * ({@code <transaction>}, {@link #log}) whose action says so: the stores write them to their own
 * table ({@code CALL_REQUEST}) and lines ({@code [CSTR]}, {@code [CCOM]}).
 *
 * @param key identifies the message for de-duplication: the same message delivered twice (also
 *     across a logger restart) has the same key and is stored once. Normally {@link #keyOf} of the
 *     message body; not blank, at most {@value #MAX_KEY_LENGTH} characters
 * @param topic the topic string it was published on, such as {@code SYSTEM.FTE/Log/AGENT1/414d...}
 * @param xml the message body as received
 * @param log the parsed transfer log message, or {@code null}
 * @param refusal the parsed NotAuthorized message, or {@code null}
 * @param schedule the parsed schedule log, or {@code null}
 * @param monitor the parsed monitor log, or {@code null}
 * @param received when the logger received it
 */
public record LogRecord(String key, String topic, String xml, TransferLog log, NotAuthorizedLog refusal,
        ScheduleLog schedule, MonitorLog monitor, Instant received) {

    /** Longest key: a SHA-256 in hex. */
    public static final int MAX_KEY_LENGTH = 64;

    /** Checks that nothing is missing, that it is one kind of message, and that the key fits. */
    public LogRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(xml, "xml");
        Objects.requireNonNull(received, "received");
        int kinds = (log == null ? 0 : 1) + (refusal == null ? 0 : 1) + (schedule == null ? 0 : 1)
                + (monitor == null ? 0 : 1);
        if (kinds != 1) {
            throw new IllegalArgumentException("a record holds a transfer log message, a refusal, a schedule log or a"
                    + " monitor log, exactly one");
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
        this(key, topic, xml, Objects.requireNonNull(log, "log"), null, null, null, received);
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
        this(key, topic, xml, null, Objects.requireNonNull(refusal, "refusal"), null, null, received);
    }

    /**
     * A schedule log.
     *
     * @param key the key, see {@link #key()}
     * @param topic the topic string, {@code SYSTEM.FTE/Log/<agent>/<scheduleID>}
     * @param xml the message body
     * @param schedule the parsed message
     * @param received when the logger received it
     */
    public LogRecord(String key, String topic, String xml, ScheduleLog schedule, Instant received) {
        this(key, topic, xml, null, null, Objects.requireNonNull(schedule, "schedule"), null, received);
    }

    /**
     * A monitor log.
     *
     * @param key the key, see {@link #key()}
     * @param topic the topic string, {@code SYSTEM.FTE/Log/<agent>/Monitors/<monitor>/<referenceId>}
     * @param xml the message body
     * @param monitor the parsed message
     * @param received when the logger received it
     */
    public LogRecord(String key, String topic, String xml, MonitorLog monitor, Instant received) {
        this(key, topic, xml, null, null, null, Objects.requireNonNull(monitor, "monitor"), received);
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
     * What the message is about: the transfer, for a refusal the refused request, for a schedule
     * log the schedule's id, for a monitor log its create request's id (empty when it has none).
     *
     * @return the id
     */
    public String transferId() {
        if (log != null) {
            return log.transferId();
        }
        if (refusal != null) {
            return refusal.id();
        }
        if (schedule != null) {
            return Long.toString(schedule.id());
        }
        return monitor.referenceId() == null ? "" : monitor.referenceId();
    }
}
