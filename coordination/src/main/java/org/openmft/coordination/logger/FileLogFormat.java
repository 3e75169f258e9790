package org.openmft.coordination.logger;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

import org.openmft.xml.AgentRef;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.LogCall;
import org.openmft.xml.log.LogItem;
import org.openmft.xml.log.MonitorLog;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.ScheduleList;
import org.openmft.xml.log.ScheduleLog;
import org.openmft.xml.log.TransferLog;

/**
 * Turns a transfer log message (with its program calls), an authority refusal, a schedule log or a
 * monitor log into the lines of IBM's stand-alone file logger default format. See {@link FileLogStore} for the format and what in it is confirmed or
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
    /** OpenMFT's line type of a transfer's program call (IBM's types are for managed calls). */
    static final String CALL = "[TCAL]";

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
            case MALFORMED -> null;
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
            case COMPLETED, CANCELLED -> {
                lines.add(join(prefix,
                        fixed(log.resultCode() == null ? "" : log.resultCode().toString(), RESULT_WIDTH),
                        agent(log.sourceAgent()), qmgr(log.sourceAgent()), agent(log.destinationAgent()),
                        qmgr(log.destinationAgent()), user(log), log.jobName(), String.join(" ", log.supplements())));
                for (LogCall call : log.calls()) {
                    lines.add(call(log, call, log.time() != null ? log.time() : received));
                }
            }
            case MALFORMED -> throw new AssertionError("no line type");
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

    /**
     * The line of a transfer's program call, {@value #CALL}: the inserts of IBM's
     * {@code callCompleted} after the line type (the call's return code, the agent that ran it and
     * its queue manager, the job, the command's type and name, the arguments, the outcome), then the
     * call element and the retries. An absent return code (the call did not run to its end) is empty.
     */
    private static String call(TransferLog log, LogCall call, Instant time) {
        AgentRef ranBy = call.element().endsWith("SourceCall") ? log.sourceAgent() : log.destinationAgent();
        return join(prefix(time, log.transferId(), CALL),
                fixed(call.returnCode() == null ? "" : call.returnCode().toString(), RESULT_WIDTH), agent(ranBy),
                qmgr(ranBy), log.jobName(), call.command().type().xml(), call.command().name(),
                String.join(" ", call.command().arguments()), call.outcome(), call.element(),
                Integer.toString(call.retries()));
    }

    /** Whether the default format has lines for this schedule log's action. */
    static boolean hasLines(ScheduleLog log) {
        return List.of("submit", "delete", "expire", "skipped").contains(log.action());
    }

    /**
     * The lines of a schedule log: {@code submit} writes {@code [SSIN]}, {@code [SSTR]} and one
     * {@code [SSTS]} per item; {@code delete}, {@code expire} and {@code skipped} write one
     * {@code [SDEL]}, {@code [SEXP]} or {@code [SSKP]}. The id is the schedule's.
     *
     * @param log the schedule log
     * @return the lines, without line terminators
     */
    static List<String> lines(ScheduleLog log) {
        String id = Long.toString(log.id());
        String result = fixed(Integer.toString(log.resultCode()), RESULT_WIDTH);
        String user = log.originator() == null ? null : log.originator().userId();
        String source = agent(log.sourceAgent());
        List<String> lines = new ArrayList<>();
        switch (log.action()) {
            case "submit" -> {
                TransferSchedule s = log.schedule();
                lines.add(join(prefix(log.time(), id, "[SSIN]"), result, source, log.action(), user, s.timebase(),
                        s.timezone(), s.expireCount() > 0 ? Long.toString(s.expireCount()) : null,
                        TransferSchedule.FORMAT.format(s.submit()), s.interval(),
                        s.repeats() ? Integer.toString(s.frequency()) : null,
                        s.expireTime() == null ? null : TransferSchedule.FORMAT.format(s.expireTime()), log.jobName()));
                lines.add(join(prefix(log.time(), id, "[SSTR]"), source, qmgr(log.sourceAgent()),
                        agent(log.destinationAgent()), qmgr(log.destinationAgent())));
                for (ScheduleList.Item item : log.items()) {
                    lines.add(join(prefix(log.time(), id, "[SSTS]"), item.source(), null, item.mode(),
                            item.destination(), null));
                }
            }
            case "delete", "expire", "skipped" -> lines.add(join(prefix(log.time(), id, switch (log.action()) {
                case "delete" -> "[SDEL]";
                case "expire" -> "[SEXP]";
                default -> "[SSKP]";
            }), result, source, log.action(), user, String.join(" ", log.supplements())));
            default -> throw new IllegalArgumentException("no line type for schedule action '" + log.action() + "'");
        }
        return lines;
    }

    /**
     * The line of a monitor log, by the reference id (the create request's): {@code create} writes
     * {@code [MCRT]} (monitor, agent, queue manager, action), {@code start}, {@code stop} and
     * {@code delete} {@code [MACT]} (the result code first), the trigger actions {@code [MFIR]} (as
     * {@code [MACT]}). The last insert is empty for {@code [MCRT]} and {@code [MACT]}, as IBM's lines
     * end with a separator; for {@code [MFIR]} it holds the supplements (what fired, or why it failed).
     *
     * @param log the monitor log
     * @return the line, without a line terminator
     */
    static String line(MonitorLog log) {
        String prefix = prefix(log.time(), log.referenceId(), switch (log.action()) {
            case "create" -> "[MCRT]";
            case "start", "stop", "delete" -> "[MACT]";
            default -> "[MFIR]";
        });
        AgentRef agent = log.agent();
        if (log.action().equals("create")) {
            return join(prefix, log.monitorName(), agent(agent), qmgr(agent), log.action(), null);
        }
        return join(prefix, fixed(Integer.toString(log.resultCode()), RESULT_WIDTH), log.monitorName(), agent(agent),
                qmgr(agent), log.action(), log.action().startsWith("trigger") ? String.join(" ", log.supplements())
                        : null);
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
