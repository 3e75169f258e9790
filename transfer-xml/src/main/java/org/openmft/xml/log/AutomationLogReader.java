package org.openmft.xml.log;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.openmft.xml.AgentRef;
import org.openmft.xml.CallType;
import org.openmft.xml.Checks;
import org.openmft.xml.DocumentCursor.Frame;
import org.openmft.xml.Originator;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.SuccessCodes;
import org.openmft.xml.TransferSchedule;

/**
 * Reads what the automation features publish on {@code SYSTEM.FTE/Log/#}, for
 * {@link PublicationReader}: a transfer log's {@code <trigger>}, the program calls inside its
 * {@code <transferSet>}, schedule logs ({@code <schedulelog>}) and monitor logs ({@code <monitorLog>},
 * with their {@code <monitorMetaData>}), with the publication reader's
 * hardening, limits and tolerance (unknown elements are skipped). What is read must make sense: the
 * root, the action among IBM's, the time, the agents, the status, and the numbers.
 */
final class AutomationLogReader {

    /** IBM's schedule log actions. */
    static final Set<String> SCHEDULE_ACTIONS = Set.of("submit", "delete", "expire", "skipped");
    /** IBM's monitor log actions (MonitorLog.xsd's monitorActionType). */
    static final Set<String> MONITOR_ACTIONS = Set.of("create", "start", "stop", "delete", "triggerSatisfied",
            "triggerNotSatisfied", "triggerFail");
    /** IBM's call outcomes. */
    private static final Set<String> OUTCOMES = Set.of("success", "failure", "error");

    private AutomationLogReader() {}

    // ---------------------------------------------------------------- program calls

    /**
     * A call element of a transfer log's transfer set ({@code <preSourceCall>} ..., a managed call's
     * {@code <call>}): its {@code <command>} and {@code <callResult outcome retries><result returnCode>}
     * with the output; {@code null} for a transfer's call element without a {@code <callResult>} (one
     * that did not run), a started call for a managed call's {@code <call>} without one.
     */
    static LogCall call(PublicationCursor c, String element) throws MalformedPublicationException {
        Frame f = c.current();
        Set<String> seen = new HashSet<>();
        ProgramCall command = null;
        CallResult result = null;
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "command" -> command = PublicationReader.readOnce(c, seen, f, AutomationLogReader::command);
                case "callResult" -> result = PublicationReader.readOnce(c, seen, f, AutomationLogReader::callResult);
                default -> c.skip();
            }
        }
        if (result == null) {
            // Not run (yet): a call element without a result says what was asked, not what happened;
            // a managed call's callStarted names its command so (LogCall.started).
            return element.equals("call") && command != null ? LogCall.started(element, command) : null;
        }
        if (command == null) {
            throw c.error(f, "missing required element <command> in <" + element + ">");
        }
        ProgramCall call = command;
        CallResult r = result;
        return PublicationReader.build(c, f, () -> new LogCall(element, call, r.outcome, r.retries, r.returnCode,
                r.stdout, r.stderr, r.error));
    }

    private static ProgramCall command(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        String name = PublicationReader.requiredAttribute(c, f, "name");
        String typeText = c.attribute("type");
        int retryCount = Math.max(0, PublicationReader.intValue(c, f, "attribute retryCount", c.attribute("retryCount")));
        int retryWait = Math.max(0, PublicationReader.intValue(c, f, "attribute retryWait", c.attribute("retryWait")));
        String successRc = c.attribute("successRC");
        List<String> arguments = new ArrayList<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (child.equals("argument")) {
                arguments.add(c.text());
            } else {
                c.skip();
            }
        }
        return PublicationReader.build(c, f, () -> new ProgramCall(
                CallType.fromXml(typeText == null ? "executable" : typeText.strip()), name, arguments, retryCount,
                retryWait, successRc == null ? SuccessCodes.ZERO : SuccessCodes.of(successRc.strip())));
    }

    /** What a {@code <callResult>} says. */
    private record CallResult(String outcome, int retries, Integer returnCode, List<String> stdout,
            List<String> stderr, String error) {}

    private static CallResult callResult(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        String outcome = PublicationReader.requiredAttribute(c, f, "outcome").strip();
        if (!OUTCOMES.contains(outcome)) {
            throw c.error(f, "unknown outcome " + Checks.quote(outcome) + "; expected success, failure or error");
        }
        int retries = Math.max(0, PublicationReader.intValue(c, f, "attribute retries", c.attribute("retries")));
        Integer returnCode = null;
        List<String> stdout = new ArrayList<>();
        List<String> stderr = new ArrayList<>();
        String error = null;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (!child.equals("result")) {
                c.skip();
                continue;
            }
            // IBM writes a <result> per attempt; the last one is what the call ended with.
            Frame at = c.current();
            String code = c.attribute("returnCode");
            returnCode = code == null || code.isBlank() ? null
                    : PublicationReader.intValue(c, at, "attribute returnCode", code);
            stdout.clear();
            stderr.clear();
            error = null;
            seen.clear();
            for (String part = c.nextChild(); part != null; part = c.nextChild()) {
                switch (part) {
                    case "stdout" -> {
                        PublicationReader.once(c, seen, at);
                        lines(c, stdout);
                    }
                    case "stderr" -> {
                        PublicationReader.once(c, seen, at);
                        lines(c, stderr);
                    }
                    case "error" -> {
                        PublicationReader.once(c, seen, at);
                        error = c.text();
                    }
                    default -> c.skip();
                }
            }
        }
        return new CallResult(outcome, retries, returnCode, List.copyOf(stdout), List.copyOf(stderr), error);
    }

    private static void lines(PublicationCursor c, List<String> lines) throws MalformedPublicationException {
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (child.equals("line")) {
                lines.add(c.text());
            } else {
                c.skip();
            }
        }
    }

    // ---------------------------------------------------------------- schedule logs

    /**
     * {@code <schedulelog version ID>}: originator ({@code <submit>} or {@code <delete>} holding host and
     * user), action, schedule, agents, status, transfer set and job, as {@link SchedulePublications}
     * writes them.
     */
    static ScheduleLog scheduleLog(PublicationCursor c) throws MalformedPublicationException {
        Frame f = root(c, "schedulelog");
        String idText = PublicationReader.requiredAttribute(c, f, "ID");
        long id = PublicationReader.longValue(c, f, "attribute ID", idText);
        if (id < 0) {
            throw c.error(f, "attribute ID=" + Checks.quote(idText) + " is not a schedule id");
        }
        String action = null;
        Instant time = null;
        Originator originator = null;
        TransferSchedule schedule = null;
        AgentRef source = null;
        AgentRef destination = null;
        PublicationReader.Status status = null;
        ScheduleItems items = null;
        String job = null;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "originator" -> originator = PublicationReader.readOnce(c, seen, f,
                        AutomationLogReader::scheduleOriginator);
                case "action" -> {
                    time = PublicationReader.actionTime(c, seen, f);
                    action = action(c, SCHEDULE_ACTIONS);
                }
                case "schedule" -> schedule = PublicationReader.readOnce(c, seen, f, AutomationLogReader::schedule);
                case "sourceAgent" -> source = PublicationReader.readOnce(c, seen, f, PublicationReader::agent);
                case "destinationAgent" -> destination = PublicationReader.readOnce(c, seen, f,
                        PublicationReader::agent);
                case "status" -> status = PublicationReader.readOnce(c, seen, f, PublicationReader::status);
                case "transferSet" -> items = PublicationReader.readOnce(c, seen, f, AutomationLogReader::items);
                case "job" -> job = PublicationReader.readOnce(c, seen, f, PublicationReader::job);
                default -> c.skip();
            }
        }
        for (String required : List.of("action", "schedule", "sourceAgent", "destinationAgent", "status")) {
            if (!seen.contains(required)) {
                throw c.error(f, "missing required element <" + required + ">");
            }
        }
        String a = action;
        Instant at = time;
        Originator who = originator;
        TransferSchedule s = schedule;
        AgentRef from = source;
        AgentRef to = destination;
        PublicationReader.Status st = status;
        ScheduleItems set = items == null ? new ScheduleItems(-1, List.of()) : items;
        String jobName = job;
        return PublicationReader.build(c, f, () -> new ScheduleLog(id, a, at, who, s, from, to, st.resultCode(),
                st.supplements(), set.priority, set.items, jobName));
    }

    /** {@code <originator><submit|delete><hostName/><userID/></...></originator>}; null when empty. */
    private static Originator scheduleOriginator(PublicationCursor c) throws MalformedPublicationException {
        Originator found = null;
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (found == null && (child.equals("submit") || child.equals("delete"))) {
                found = PublicationReader.originator(c);
            } else {
                c.skip();
            }
        }
        return found;
    }

    private static TransferSchedule schedule(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        String timebase = null;
        String timezone = null;
        LocalDateTime submit = null;
        String interval = null;
        int frequency = 1;
        long expireCount = 0;
        LocalDateTime expireTime = null;
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "submit" -> {
                    PublicationReader.once(c, seen, f);
                    Frame at = c.current();
                    timebase = PublicationReader.requiredAttribute(c, at, "timebase").strip();
                    timezone = c.attribute("timezone");
                    submit = localTime(c, at, c.text());
                }
                case "repeat" -> {
                    PublicationReader.once(c, seen, f);
                    Frame repeat = c.current();
                    Set<String> parts = new HashSet<>();
                    for (String r = c.nextChild(); r != null; r = c.nextChild()) {
                        Frame at = c.current();
                        switch (r) {
                            case "frequency" -> {
                                PublicationReader.once(c, parts, repeat);
                                interval = PublicationReader.requiredAttribute(c, at, "interval").strip();
                                frequency = PublicationReader.intValue(c, at, "text", c.text());
                            }
                            case "expireCount" -> {
                                PublicationReader.once(c, parts, repeat);
                                expireCount = PublicationReader.longValue(c, at, "text", c.text());
                            }
                            case "expireTime" -> {
                                PublicationReader.once(c, parts, repeat);
                                expireTime = localTime(c, at, c.text());
                            }
                            default -> c.skip();
                        }
                    }
                }
                default -> c.skip();
            }
        }
        if (timebase == null) {
            throw c.error(f, "missing required element <submit>");
        }
        String tb = timebase;
        String tz = timezone == null ? null : timezone.strip();
        LocalDateTime start = submit;
        String unit = interval;
        int every = frequency;
        long count = Math.max(0, expireCount);
        LocalDateTime end = expireTime;
        return PublicationReader.build(c, f, () -> new TransferSchedule(tb, tz, start, unit, every, count, end));
    }

    private static LocalDateTime localTime(PublicationCursor c, Frame f, String text)
            throws MalformedPublicationException {
        try {
            return LocalDateTime.parse(text.strip(), TransferSchedule.FORMAT);
        } catch (DateTimeParseException e) {
            throw c.error(f, Checks.quote(text) + " is not a time of the form yyyy-MM-ddThh:mm");
        }
    }

    /** A schedule log's {@code <transferSet priority>} with its items. */
    private record ScheduleItems(int priority, List<ScheduleList.Item> items) {}

    private static ScheduleItems items(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        int priority = PublicationReader.intValue(c, f, "attribute priority", c.attribute("priority"));
        List<ScheduleList.Item> items = new ArrayList<>();
        SchedulePublications.readItems(c, items);
        for (ScheduleList.Item item : items) {
            if (item.source() == null || item.source().isEmpty()) {
                throw c.error(f, "an item has no source file");
            }
        }
        return new ScheduleItems(priority, items);
    }

    // ---------------------------------------------------------------- triggers

    /**
     * A transfer log's {@code <trigger log="yes|no">}: its {@code <fileExist comparison value>} and
     * {@code <fileSize comparison=">=" value units>} conditions, each naming its file in its text,
     * as IBM's started message carries them; {@code null} when it holds no condition that is known.
     * A fileSize without {@code units} is in bytes.
     */
    static org.openmft.xml.TransferTrigger trigger(PublicationCursor c) throws MalformedPublicationException {
        Frame f = c.current();
        String log = c.attribute("log");
        List<org.openmft.xml.TransferTrigger.Condition> conditions = new ArrayList<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            Frame at = c.current();
            switch (child) {
                case "fileExist" -> {
                    String comparison = PublicationReader.requiredAttribute(c, at, "comparison").strip();
                    String value = PublicationReader.requiredAttribute(c, at, "value").strip();
                    String path = c.text().strip();
                    conditions.add(PublicationReader.build(c, at,
                            () -> new org.openmft.xml.TransferTrigger.FileExist(comparison, value, path)));
                }
                case "fileSize" -> {
                    String comparison = PublicationReader.requiredAttribute(c, at, "comparison").strip();
                    if (!comparison.equals(">=")) {
                        throw c.error(at, "comparison " + Checks.quote(comparison) + " of <fileSize> is not >=");
                    }
                    long value = PublicationReader.longValue(c, at, "attribute value",
                            PublicationReader.requiredAttribute(c, at, "value"));
                    String units = c.attribute("units");
                    String path = c.text().strip();
                    conditions.add(PublicationReader.build(c, at, () -> new org.openmft.xml.TransferTrigger.FileSize(
                            value, units == null || units.isBlank() ? "B" : units.strip(), path)));
                }
                default -> c.skip();
            }
        }
        if (conditions.isEmpty()) {
            return null;
        }
        boolean logged = log == null || !log.strip().equals("no");
        return PublicationReader.build(c, f, () -> new org.openmft.xml.TransferTrigger(logged, conditions));
    }

    // ---------------------------------------------------------------- monitor logs

    /**
     * {@code <monitorLog version monitorName referenceId>} with originator, references (the
     * {@code <taskRequest>} kept), action, {@code <monitorAgent>}, status and metadata.
     */
    static MonitorLog monitorLog(PublicationCursor c) throws MalformedPublicationException {
        Frame f = root(c, "monitorLog");
        String version = PublicationReader.requiredAttribute(c, f, "version").strip();
        String name = PublicationReader.requiredAttribute(c, f, "monitorName").strip();
        String referenceId = c.attribute("referenceId");
        String action = null;
        Instant time = null;
        Originator originator = null;
        AgentRef agent = null;
        PublicationReader.Status status = null;
        String taskRequest = null;
        Map<String, String> original = new LinkedHashMap<>();
        Map<String, String> updated = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            switch (child) {
                case "monitorMetaData" -> {
                    PublicationReader.once(c, seen, f);
                    monitorMetadata(c, original, updated);
                }
                case "originator" -> originator = PublicationReader.readOnce(c, seen, f, PublicationReader::originator);
                case "action" -> {
                    time = PublicationReader.actionTime(c, seen, f);
                    action = action(c, MONITOR_ACTIONS);
                }
                case "monitorAgent" -> agent = PublicationReader.readOnce(c, seen, f, PublicationReader::agent);
                case "status" -> status = PublicationReader.readOnce(c, seen, f, PublicationReader::status);
                case "references" -> {
                    PublicationReader.once(c, seen, f);
                    taskRequest = taskRequest(c);
                }
                default -> c.skip();
            }
        }
        for (String required : List.of("action", "monitorAgent", "status")) {
            if (!seen.contains(required)) {
                throw c.error(f, "missing required element <" + required + ">");
            }
        }
        String reference = referenceId == null || referenceId.isBlank() ? null : referenceId.strip();
        String a = action;
        Instant at = time;
        Originator who = originator;
        AgentRef by = agent;
        PublicationReader.Status st = status;
        String task = taskRequest;
        return PublicationReader.build(c, f, () -> new MonitorLog(version, name, reference, who, a, at, by,
                st.resultCode(), st.supplements(), original, updated, task));
    }

    /**
     * {@code <references>}: the {@code <taskRequest>} id, or null ({@code <createRequest>} repeats
     * the root's {@code referenceId} and is not kept apart).
     */
    private static String taskRequest(PublicationCursor c) throws MalformedPublicationException {
        String task = null;
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            if (child.equals("taskRequest")) {
                String text = c.text().strip();
                task = text.isEmpty() ? null : text;
            } else {
                c.skip();
            }
        }
        return task;
    }

    /**
     * {@code <monitorMetaData>}: its {@code <originalMetaData>} and {@code <updatedMetaData>}, each
     * of {@code <metaData key="K">V</metaData>} items; a key given twice keeps its last value.
     */
    private static void monitorMetadata(PublicationCursor c, Map<String, String> original,
            Map<String, String> updated) throws MalformedPublicationException {
        Frame f = c.current();
        Set<String> seen = new HashSet<>();
        for (String child = c.nextChild(); child != null; child = c.nextChild()) {
            Map<String, String> into = switch (child) {
                case "originalMetaData" -> original;
                case "updatedMetaData" -> updated;
                default -> null;
            };
            if (into == null) {
                c.skip();
                continue;
            }
            PublicationReader.once(c, seen, f);
            for (String item = c.nextChild(); item != null; item = c.nextChild()) {
                if (!item.equals("metaData")) {
                    c.skip();
                    continue;
                }
                String key = PublicationReader.requiredAttribute(c, c.current(), "key").strip();
                into.put(key, c.text());
            }
        }
    }

    // ---------------------------------------------------------------- shared

    private static Frame root(PublicationCursor c, String expected) throws MalformedPublicationException {
        String root = c.root();
        Frame f = c.current();
        if (!root.equals(expected) || !c.namespace().isEmpty()) {
            throw c.error(f, "unknown root element <" + root + ">; expected <" + expected + "> in no namespace");
        }
        return f;
    }

    /** The text of the current {@code <action>}, one of {@code allowed}. */
    private static String action(PublicationCursor c, Set<String> allowed) throws MalformedPublicationException {
        Frame at = c.current();
        String text = c.text().strip();
        if (!allowed.contains(text)) {
            throw c.error(at, "unknown action " + Checks.quote(text) + "; expected one of "
                    + String.join(", ", allowed.stream().sorted().toList()));
        }
        return text;
    }
}
