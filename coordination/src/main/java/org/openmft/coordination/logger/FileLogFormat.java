package org.openmft.coordination.logger;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;

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
 * monitor log into the lines of IBM's stand-alone file logger default format. See {@link FileLogStore} for the
 * format, insert by insert, and where each part of it was taken from. Every insert is followed by the
 * separator, the last one too, as IBM's lines end with {@code ;}. Stateless.
 */
final class FileLogFormat {

    /** IBM's default separator, written after every insert. */
    static final String SEPARATOR = ";";

    /** {@code /transaction/action/@time} is cut to 19 characters: seconds, no zone. */
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

    /** Width of {@code /transaction/@ID}. */
    private static final int ID_WIDTH = 48;
    /** Width of the result code inserts. */
    private static final int RESULT_WIDTH = 3;
    /** Width of an item's source disposition: IBM writes {@code leave} as {@code "leave "}. */
    private static final int DISPOSITION_WIDTH = 6;
    /** What IBM writes for an absent insert whose {@code ignoreNull} is false, such as a monitor's missing id. */
    private static final String NULL = "null";

    /** The line type of an authority refusal. */
    static final String AUTH = "[AUTH]";
    /** OpenMFT's line type of a transfer's program call (IBM's types are for managed calls). */
    static final String CALL = "[TCAL]";

    /** The line type of a managed call's {@code callStarted}. */
    static final String CALL_STARTED_TYPE = "[CSTR]";
    /** The line type of a managed call's {@code callCompleted}. */
    static final String CALL_COMPLETED_TYPE = "[CCOM]";

    /** Source and destination type of an item: OpenMFT's log items are files. */
    private static final String FILE = "file";
    /** {@code /notAuthorized/action}: the only action of a refusal. */
    private static final String NOT_AUTHORIZED = "not_authorized";

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
            // Managed calls: IBM's default format has callStarted and callCompleted lines; their
            // line types are OpenMFT's reading (IBM's pages seen name the inserts, not the types).
            case CALL_STARTED -> CALL_STARTED_TYPE;
            case CALL_COMPLETED -> CALL_COMPLETED_TYPE;
            case MALFORMED -> null;
        };
    }

    /**
     * The lines for one message: one for started, completed and cancelled (then one per program
     * call), one per item for progress (none when it reports no item).
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
        Instant time = log.time() != null ? log.time() : received;
        List<String> lines = new ArrayList<>();
        switch (log.action()) {
            // After each queue manager: the agent type; after the job: the schedule id. OpenMFT's
            // messages carry neither.
            case STARTED -> lines.add(line(time, log.transferId(), type, result(log.resultCode()),
                    agent(log.sourceAgent()), qmgr(log.sourceAgent()), null, agent(log.destinationAgent()),
                    qmgr(log.destinationAgent()), user(log), log.jobName(), null, metadata(log)));
            case PROGRESS -> {
                for (LogItem item : log.items()) {
                    boolean known = item.destination() != null;
                    // After each file: alias, filespace, (destination: truncateRecords,) correlation
                    // boolean, number and string, which OpenMFT's items do not have.
                    lines.add(line(time, log.transferId(), type, result(item.resultCode()), item.source(),
                            size(item.sourceSize()), FILE, fixed(item.sourceDisposition(), DISPOSITION_WIDTH),
                            null, null, null, null, null,
                            item.destination(), size(item.destinationSize()), known ? FILE : null,
                            item.destinationExist(), null, null, null, null, null, null, item.supplement()));
                }
            }
            case COMPLETED, CANCELLED -> {
                // The agent types (after each queue manager) are not in OpenMFT's messages; [TCAN] ends
                // with the supplements, [TCOM] adds the metadata.
                String[] inserts = {result(log.resultCode()), agent(log.sourceAgent()), qmgr(log.sourceAgent()),
                    null, agent(log.destinationAgent()), qmgr(log.destinationAgent()), null, user(log),
                    log.jobName(), supplements(log.supplements()), metadata(log)};
                lines.add(line(time, log.transferId(), type, log.action() == LogAction.COMPLETED ? inserts
                        : Arrays.copyOf(inserts, inserts.length - 1)));
                for (LogCall call : log.calls()) {
                    lines.add(call(log, call, time));
                }
            }
            // A managed call names its agent as <agent> (kept in sourceAgent) and holds one call.
            case CALL_STARTED -> lines.add(line(time, log.transferId(), type, agent(log.sourceAgent()),
                    qmgr(log.sourceAgent()), null, user(log), log.jobName(), commandType(log), commandName(log)));
            case CALL_COMPLETED -> lines.add(managedCall(log, time, type));
            case MALFORMED -> throw new AssertionError("no line type");
        }
        return lines;
    }

    /**
     * A managed call's {@code callCompleted} line, IBM's default inserts in IBM's order: the result
     * code, the agent and its queue manager, the job, the command's type and name, the arguments and
     * the call's outcome.
     */
    private static String managedCall(TransferLog log, Instant time, String type) {
        LogCall call = log.calls().isEmpty() ? null : log.calls().get(0);
        return line(time, log.transferId(), type, result(log.resultCode()), agent(log.sourceAgent()),
                qmgr(log.sourceAgent()), log.jobName(), commandType(log), commandName(log),
                call == null ? null : String.join(" ", call.command().arguments()), call == null ? null : call.outcome());
    }

    private static String commandType(TransferLog log) {
        return log.calls().isEmpty() ? null : log.calls().get(0).command().type().xml();
    }

    private static String commandName(TransferLog log) {
        return log.calls().isEmpty() ? null : log.calls().get(0).command().name();
    }

    /**
     * The line of an authority refusal, IBM's {@code notAuthorized} inserts: the result code, the
     * action ({@code not_authorized}), the missing authority, the originator's user id (empty: the
     * message carries only the MQMD user), the MQMD user id and the refusal in words (the first
     * supplement). The refused request (the second supplement, a whole XML document) is left out: the
     * database logger keeps it in AUTH_EVENT's ORIGINAL_XML_REQUEST.
     *
     * @param refusal the refusal
     * @return the line, without a line terminator
     */
    static String line(NotAuthorizedLog refusal) {
        List<String> supplements = refusal.supplements();
        return line(refusal.time(), refusal.id(), AUTH, result(refusal.resultCode()), NOT_AUTHORIZED,
                refusal.authority(), null, refusal.mqmdUserId(), supplements.isEmpty() ? null : supplements.get(0));
    }

    /**
     * The line of a transfer's program call, {@value #CALL}: the inserts of IBM's
     * {@code callCompleted} after the line type (the call's return code, the agent that ran it and
     * its queue manager, the job, the command's type and name, the arguments, the outcome), then the
     * call element and the retries. An absent return code (the call did not run to its end) is empty.
     */
    private static String call(TransferLog log, LogCall call, Instant time) {
        AgentRef ranBy = call.element().endsWith("SourceCall") ? log.sourceAgent() : log.destinationAgent();
        return line(time, log.transferId(), CALL, result(call.returnCode()), agent(ranBy), qmgr(ranBy),
                log.jobName(), call.command().type().xml(), call.command().name(),
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
        String result = result(log.resultCode());
        String user = log.originator() == null ? null : log.originator().userId();
        String source = agent(log.sourceAgent());
        List<String> lines = new ArrayList<>();
        switch (log.action()) {
            case "submit" -> {
                TransferSchedule s = log.schedule();
                lines.add(line(log.time(), id, "[SSIN]", result, source, log.action(), user, s.timebase(),
                        s.timezone(), s.expireCount() > 0 ? Long.toString(s.expireCount()) : null,
                        TransferSchedule.FORMAT.format(s.submit()), s.interval(),
                        s.repeats() ? Integer.toString(s.frequency()) : null,
                        s.expireTime() == null ? null : TransferSchedule.FORMAT.format(s.expireTime()), log.jobName()));
                lines.add(line(log.time(), id, "[SSTR]", source, qmgr(log.sourceAgent()),
                        agent(log.destinationAgent()), qmgr(log.destinationAgent())));
                for (ScheduleList.Item item : log.items()) {
                    lines.add(line(log.time(), id, "[SSTS]", item.source(), null, item.mode(), item.destination(),
                            null));
                }
            }
            case "delete", "expire", "skipped" -> lines.add(line(log.time(), id, switch (log.action()) {
                case "delete" -> "[SDEL]";
                case "expire" -> "[SEXP]";
                default -> "[SSKP]";
            }, result, source, log.action(), user, supplements(log.supplements())));
            default -> throw new IllegalArgumentException("no line type for schedule action '" + log.action() + "'");
        }
        return lines;
    }

    /**
     * The line of a monitor log, by the reference id (the create request's; {@code null} written as
     * IBM does when there is none): {@code create} writes {@code [MCRT]} (monitor, agent, queue manager,
     * action), {@code start}, {@code stop} and {@code delete} {@code [MACT]} (the result code first),
     * the trigger actions {@code [MFIR]} (as {@code [MACT]}, then the supplements: what fired, or why it
     * failed).
     *
     * @param log the monitor log
     * @return the line, without a line terminator
     */
    static String line(MonitorLog log) {
        AgentRef agent = log.agent();
        return switch (log.action()) {
            case "create" -> line(log.time(), log.referenceId(), "[MCRT]", log.monitorName(), agent(agent),
                    qmgr(agent), log.action());
            case "start", "stop", "delete" -> line(log.time(), log.referenceId(), "[MACT]",
                    result(log.resultCode()), log.monitorName(), agent(agent), qmgr(agent), log.action());
            default -> line(log.time(), log.referenceId(), "[MFIR]", result(log.resultCode()), log.monitorName(),
                    agent(agent), qmgr(agent), log.action(), supplements(log.supplements()));
        };
    }

    /**
     * One line: the time, the id and the line type, then the inserts, each followed by the separator.
     * An absent id is written {@value #NULL}, as IBM does; an absent insert is empty.
     */
    private static String line(Instant time, String id, String type, String... inserts) {
        StringBuilder line = new StringBuilder(TIME.format(time)).append(SEPARATOR)
                .append(fixed(id == null ? NULL : id, ID_WIDTH)).append(SEPARATOR).append(type).append(SEPARATOR);
        for (String insert : inserts) {
            line.append(clean(insert)).append(SEPARATOR);
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

    /** A result code insert: three characters, blank when there is none. */
    private static String result(Integer code) {
        return fixed(code == null ? null : code.toString(), RESULT_WIDTH);
    }

    /** The status supplements, one after the other. */
    private static String supplements(List<String> supplements) {
        return String.join(" ", supplements);
    }

    /** IBM's {@code metadata} system insert: {@code key=value} pairs separated by {@code ", "}, in order. */
    private static String metadata(TransferLog log) {
        StringJoiner pairs = new StringJoiner(", ");
        log.metadata().forEach((key, value) -> pairs.add(key + "=" + value));
        return pairs.toString();
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
