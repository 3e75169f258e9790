package org.openmft.coordination.logger;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import org.openmft.xml.AgentRef;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.LogItem;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.TransferLog;

/**
 * Turns a transfer log message or an authority refusal into the lines of IBM's stand-alone file
 * logger default format. See {@link FileLogStore} for the format and what in it is confirmed or
 * guessed. Stateless.
 */
final class FileLogFormat {

    /** IBM's default separator between inserts. */
    static final String SEPARATOR = ";";

    /** {@code /transaction/action/@time} is cut to 19 characters: seconds, no zone. */
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

    /** Width of {@code /transaction/@ID}. */
    private static final int ID_WIDTH = 48;
    /** Width of the result code inserts. */
    private static final int RESULT_WIDTH = 3;

    /** The line type of an authority refusal. */
    static final String AUTH = "[AUTH]";

    /** Source and destination type of an item: OpenMFT's log items are files. */
    private static final String FILE = "file";

    private FileLogFormat() {
    }

    /**
     * The line type of an action.
     *
     * @param action the action
     * @return such as {@code [TSTR]}, or {@code null} when the default format has no line for it
     */
    static String type(LogAction action) {
        return switch (action) {
            case STARTED -> "[TSTR]";
            case PROGRESS -> "[TPRO]";
            case COMPLETED -> "[TCOM]";
            case CANCELLED -> "[TCAN]";
            // Managed calls: IBM's default format has callStarted and callCompleted lines, whose
            // line types are not confirmed; not written yet (the message is refused with the reason).
            case MALFORMED, CALL_STARTED, CALL_COMPLETED -> null;
        };
    }

    /**
     * The lines for one message: one for started, completed and cancelled, one per item for
     * progress (none when it reports no item).
     *
     * @param log the message, whose action has a {@link #type}
     * @param received when it was received, the time used when the message has none
     * @return the lines, without line terminators
     */
    static List<String> lines(TransferLog log, Instant received) {
        String type = type(log.action());
        if (type == null) {
            throw new IllegalArgumentException("no line type for '" + log.action().xml() + "'");
        }
        String prefix = prefix(log.time() != null ? log.time() : received, log.transferId(), type);
        List<String> lines = new ArrayList<>();
        switch (log.action()) {
            case STARTED -> lines.add(join(prefix, agent(log.sourceAgent()), qmgr(log.sourceAgent()),
                    agent(log.destinationAgent()), qmgr(log.destinationAgent()), user(log), log.jobName()));
            case PROGRESS -> {
                for (LogItem item : log.items()) {
                    lines.add(join(prefix, fixed(Integer.toString(item.resultCode()), RESULT_WIDTH), item.source(),
                            FILE, item.destination(), FILE, item.mode(), size(item.sourceSize()),
                            size(item.destinationSize()), item.checksumMethod(), item.checksum(), item.supplement()));
                }
            }
            case COMPLETED, CANCELLED -> lines.add(join(prefix,
                    fixed(log.resultCode() == null ? "" : log.resultCode().toString(), RESULT_WIDTH),
                    agent(log.sourceAgent()), qmgr(log.sourceAgent()), agent(log.destinationAgent()),
                    qmgr(log.destinationAgent()), user(log), log.jobName(), String.join(" ", log.supplements())));
            case MALFORMED, CALL_STARTED, CALL_COMPLETED -> throw new AssertionError("no line type");
        }
        return lines;
    }

    /**
     * The line of an authority refusal: the result code, the refusing agent, the user whose
     * authority was checked, the missing authority and the refusal in words (the first supplement).
     * The refused request (the second supplement, a whole XML document) is left out: the database
     * logger keeps it in AUTH_EVENT's ORIGINAL_XML_REQUEST.
     *
     * @param refusal the refusal
     * @param agent the refusing agent, or {@code null} when unknown
     * @return the line, without a line terminator
     */
    static String line(NotAuthorizedLog refusal, String agent) {
        List<String> supplements = refusal.supplements();
        return join(prefix(refusal.time(), refusal.id(), AUTH), fixed(Integer.toString(refusal.resultCode()),
                RESULT_WIDTH), agent, refusal.mqmdUserId(), refusal.authority(),
                supplements.isEmpty() ? null : supplements.get(0));
    }

    /** The inserts every line starts with: time, id and line type. */
    private static String prefix(Instant time, String id, String type) {
        return String.join(SEPARATOR, TIME.format(time), fixed(id, ID_WIDTH), type);
    }

    private static String join(String prefix, String... inserts) {
        StringBuilder line = new StringBuilder(prefix);
        for (String insert : inserts) {
            line.append(SEPARATOR).append(clean(insert));
        }
        return line.toString();
    }

    /** A line is one record: line breaks inside a value become spaces; a missing value is empty. */
    private static String clean(String value) {
        if (value == null) {
            return "";
        }
        return value.replace("\r\n", " ").replace('\r', ' ').replace('\n', ' ');
    }

    /** An insert with a width: padded with spaces or cut to exactly that many characters. */
    static String fixed(String value, int width) {
        String text = value == null ? "" : value;
        if (text.length() >= width) {
            return text.substring(0, width);
        }
        return text + " ".repeat(width - text.length());
    }

    private static String agent(AgentRef ref) {
        return ref == null ? null : ref.agent();
    }

    private static String qmgr(AgentRef ref) {
        return ref == null ? null : ref.qmgr();
    }

    private static String user(TransferLog log) {
        return log.originator() == null ? null : log.originator().userId();
    }

    private static String size(long bytes) {
        return bytes < 0 ? null : Long.toString(bytes);
    }
}
