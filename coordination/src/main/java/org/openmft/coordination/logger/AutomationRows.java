package org.openmft.coordination.logger;

import static org.openmft.coordination.logger.JdbcLogStore.check;
import static org.openmft.coordination.logger.JdbcLogStore.setInt;
import static org.openmft.coordination.logger.JdbcLogStore.setLong;
import static org.openmft.coordination.logger.JdbcLogStore.setString;
import static org.openmft.coordination.logger.JdbcLogStore.setTime;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferTrigger;
import org.openmft.xml.log.LogCall;
import org.openmft.xml.log.MonitorLog;
import org.openmft.xml.log.ScheduleList;
import org.openmft.xml.log.ScheduleLog;
import org.openmft.xml.log.TransferLog;

/**
 * The rows of what the automation features log, for {@link JdbcLogStore} (V3__automation_tables.sql):
 * a transfer's program calls (CALL, CALL_ARGUMENT, CALL_RESULT, TRANSFER_CALLS), schedule logs
 * (SCHEDULE, SCHEDULE_SPEC, SCHEDULE_ITEM, SCHEDULE_ACTION), monitor logs (MONITOR,
 * MONITOR_ACTION with its TASK_REQUEST_ID from V6__monitor_action_task_request.sql, with
 * MONITOR_METADATA), managed calls (CALL_REQUEST, V4__call_request.sql, with CALL
 * rows) and a triggered transfer's conditions (TRIGGER_CONDITION, V5__trigger_and_monitor_details.sql). The store calls these inside the record's savepoint, after its duplicate check
 * and with the widths checked by {@link #tooLong}; they only write. Stateless.
 */
final class AutomationRows {

    /** IBM's call elements, in IBM's order, and the TRANSFER_CALLS column of each. */
    private static final Map<String, String> CALL_COLUMNS = callColumns();
    private static final String SEPARATOR = "\n";

    private AutomationRows() {}

    /** The widths of V3's VARCHAR columns, for {@link JdbcLogStore#COLUMN_WIDTHS}. */
    static void widths(Map<String, Integer> widths) {
        widths.put("call.command", 2000);
        widths.put("call.type", 16);
        widths.put("call.success_rc", 256);
        widths.put("call.outcome", 16);
        widths.put("call_result.outcome", 16);
        widths.put("transfer_calls.transfer_id", 48);
        widths.put("transfer_calls.record_key", LogRecord.MAX_KEY_LENGTH);
        widths.put("schedule_spec.source_agent", 28);
        widths.put("schedule_spec.source_qm", 48);
        widths.put("schedule_spec.destination_agent", 28);
        widths.put("schedule_spec.destination_qm", 48);
        widths.put("schedule_spec.start_timebase", 8);
        widths.put("schedule_spec.start_timezone", 64);
        widths.put("schedule_spec.start_time", 16);
        widths.put("schedule_spec.repeat_interval", 8);
        widths.put("schedule_spec.end_time", 16);
        widths.put("schedule_spec.job_name", 256);
        widths.put("schedule_item.source_filename", 4096);
        widths.put("schedule_item.destination_filename", 4096);
        widths.put("schedule_item.file_mode", 16);
        widths.put("schedule.agent", 28);
        widths.put("schedule.latest_action", 16);
        widths.put("schedule_action.action", 16);
        widths.put("schedule_action.originator_host", 256);
        widths.put("schedule_action.originator_user", 256);
        widths.put("schedule_action.record_key", LogRecord.MAX_KEY_LENGTH);
        widths.put("monitor.name", 256);
        widths.put("monitor.agent", 28);
        widths.put("monitor.qmgr", 48);
        widths.put("monitor.reference_id", 64);
        widths.put("monitor_action.action", 32);
        widths.put("monitor_action.originator_host", 256);
        widths.put("monitor_action.originator_user", 256);
        widths.put("monitor_action.originator_mq_user", 256);
        widths.put("monitor_action.record_key", LogRecord.MAX_KEY_LENGTH);
        widths.put("monitor_action.task_request_id", 48);
        widths.put("call_request.request_id", 48);
        widths.put("call_request.action", 16);
        widths.put("call_request.agent", 28);
        widths.put("call_request.agent_qm", 48);
        widths.put("call_request.originator_host", 256);
        widths.put("call_request.originator_user", 256);
        widths.put("call_request.originator_mq_user", 256);
        widths.put("call_request.job_name", 256);
        widths.put("call_request.record_key", LogRecord.MAX_KEY_LENGTH);
        widths.put("trigger_condition.transfer_id", 48);
        widths.put("trigger_condition.condition_type", 16);
        widths.put("trigger_condition.comparison", 16);
        widths.put("trigger_condition.value", 256);
        widths.put("trigger_condition.filename", 2000);
        widths.put("monitor_metadata.phase", 16);
        widths.put("monitor_metadata.key", 256);
        widths.put("monitor_metadata.value", 2000);
        widths.put("monitor_exit_result.exit_name", 256);
        widths.put("monitor_exit_result.result_code", 16);
        widths.put("monitor_exit_result.result_text", 2000);
    }

    // ---- checks

    /** Adds why a transfer log's calls cannot be stored: a value too long, or a call element not IBM's. */
    static void callProblems(List<String> problems, TransferLog log) {
        for (LogCall call : log.calls()) {
            String what = call.element() + " ";
            if (!CALL_COLUMNS.containsKey(call.element())) {
                problems.add("the call element " + call.element() + " is not one of " + CALL_COLUMNS.keySet());
            }
            commandProblems(problems, what, call);
        }
    }

    /** Adds why a call does not fit the CALL columns. */
    private static void commandProblems(List<String> problems, String what, LogCall call) {
        check(problems, "call.command", what + "command", call.command().name());
        check(problems, "call.success_rc", what + "successRC", call.command().successCodes().expression());
        check(problems, "call.outcome", what + "outcome", call.outcome());
    }

    /** Adds why the conditions of a transfer log's trigger do not fit TRIGGER_CONDITION. */
    static void triggerProblems(List<String> problems, TransferLog log) {
        if (log.trigger() == null) {
            return;
        }
        int n = 0;
        for (TransferTrigger.Condition condition : log.trigger().conditions()) {
            check(problems, "trigger_condition.filename", "trigger condition " + n++ + " file", condition.path());
        }
    }

    /** Adds why a managed call's log does not fit its columns. */
    static void managedCallProblems(List<String> problems, TransferLog log) {
        check(problems, "call_request.request_id", "call id", log.transferId());
        check(problems, "call_request.action", "action", log.action().xml());
        check(problems, "call_request.job_name", "job name", log.jobName());
        if (log.sourceAgent() != null) {
            check(problems, "call_request.agent", "agent", log.sourceAgent().agent());
            check(problems, "call_request.agent_qm", "agent queue manager", log.sourceAgent().qmgr());
        }
        originatorProblems(problems, "call_request", log.originator());
        if (log.originator() != null) {
            check(problems, "call_request.originator_mq_user", "originator MQ user", log.originator().mqmdUserId());
        }
        for (LogCall call : log.calls()) {
            commandProblems(problems, "", call);
        }
    }

    /** Adds why a schedule log does not fit its columns. */
    static void scheduleProblems(List<String> problems, ScheduleLog log) {
        check(problems, "schedule_action.action", "action", log.action());
        agentProblems(problems, "schedule_spec.source", "source", log.sourceAgent());
        agentProblems(problems, "schedule_spec.destination", "destination", log.destinationAgent());
        check(problems, "schedule_spec.start_timezone", "time zone", log.schedule().timezone());
        check(problems, "schedule_spec.job_name", "job name", log.jobName());
        originatorProblems(problems, "schedule_action", log.originator());
        int n = 0;
        for (ScheduleList.Item item : log.items()) {
            String what = "item " + n++ + " ";
            check(problems, "schedule_item.source_filename", what + "source", item.source());
            check(problems, "schedule_item.destination_filename", what + "destination", item.destination());
            check(problems, "schedule_item.file_mode", what + "mode", item.mode());
        }
    }

    /** Adds why a monitor log does not fit its columns. */
    static void monitorProblems(List<String> problems, MonitorLog log) {
        check(problems, "monitor.name", "monitor name", log.monitorName());
        check(problems, "monitor.agent", "agent", log.agent().agent());
        check(problems, "monitor.qmgr", "queue manager", log.agent().qmgr());
        check(problems, "monitor.reference_id", "reference id", log.referenceId());
        check(problems, "monitor_action.action", "action", log.action());
        check(problems, "monitor_action.task_request_id", "task request id", log.taskRequestId());
        originatorProblems(problems, "monitor_action", log.originator());
        if (log.originator() != null) {
            check(problems, "monitor_action.originator_mq_user", "originator MQ user", log.originator().mqmdUserId());
        }
        for (Map<String, String> items : List.of(log.originalMetadata(), log.updatedMetadata())) {
            items.forEach((key, value) -> {
                check(problems, "monitor_metadata.key", "metadata key", key);
                check(problems, "monitor_metadata.value", "metadata " + key, value);
            });
        }
    }

    private static void agentProblems(List<String> problems, String prefix, String what, AgentRef agent) {
        check(problems, prefix + "_agent", what + " agent", agent.agent());
        check(problems, prefix + "_qm", what + " queue manager", agent.qmgr());
    }

    private static void originatorProblems(List<String> problems, String table, Originator originator) {
        if (originator != null) {
            check(problems, table + ".originator_host", "originator host", originator.hostName());
            check(problems, table + ".originator_user", "originator user", originator.userId());
        }
    }

    // ---- program calls

    /**
     * The CALL rows of a transfer log's calls, linked to the transfer by one TRANSFER_CALLS row. A
     * call element reported twice (a result sent again after a restart) gets a CALL row each time;
     * TRANSFER_CALLS names the last.
     */
    static void insertCalls(Connection c, LogRecord record, String transferId) throws SQLException {
        TransferLog log = record.log();
        if (log.calls().isEmpty()) {
            return;
        }
        Map<String, Long> ids = new HashMap<>();
        for (LogCall call : log.calls()) {
            ids.put(call.element(), insertCall(c, call));
        }
        List<String> columns = new ArrayList<>(CALL_COLUMNS.values());
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO transfer_calls (transfer_id, record_key, "
                + String.join(", ", columns) + ") VALUES (?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, transferId);
            ps.setString(2, record.key());
            int i = 3;
            for (String element : CALL_COLUMNS.keySet()) {
                setLong(ps, i++, ids.get(element));
            }
            ps.executeUpdate();
        }
    }

    private static long insertCall(Connection c, LogCall call) throws SQLException {
        long id;
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO call (command, type, retries, retry_wait, "
                + "success_rc, outcome) VALUES (?, ?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, call.command().name());
            ps.setString(2, call.command().type().xml());
            ps.setInt(3, call.command().retryCount());
            ps.setInt(4, call.command().retryWaitSeconds());
            ps.setString(5, call.command().successCodes().expression());
            ps.setString(6, call.outcome());
            id = insertedId(ps);
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO call_argument (call_id, sequence, argument_value) VALUES (?, ?, ?)")) {
            int n = 1;
            for (String argument : call.command().arguments()) {
                ps.setLong(1, id);
                ps.setInt(2, n++);
                ps.setString(3, argument);
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO call_result (call_id, sequence, outcome, "
                + "return_code, stdout, stderr, error) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            ps.setLong(1, id);
            ps.setInt(2, call.retries() + 1);
            ps.setString(3, call.outcome());
            setInt(ps, 4, call.returnCode());
            setString(ps, 5, lines(call.stdout()));
            setString(ps, 6, lines(call.stderr()));
            setString(ps, 7, call.error());
            ps.executeUpdate();
        }
        return id;
    }

    /**
     * A managed call's log (IBM's {@code callStarted} or {@code callCompleted}): one CALL_REQUEST
     * row, and for a completed call its command and result (CALL, CALL_ARGUMENT, CALL_RESULT) named
     * by its CALL_ID. Returns why it cannot be stored (having written nothing), or {@code null}.
     */
    static String insertManagedCall(Connection c, LogRecord record, java.time.Instant time) throws SQLException {
        TransferLog log = record.log();
        String what = "the '" + log.action().xml() + "' message of managed call " + log.transferId();
        if (log.sourceAgent() == null) {
            return what + " names no <agent>";
        }
        LogCall call = log.calls().size() == 1 ? log.calls().get(0) : null;
        boolean completed = log.action() == org.openmft.xml.log.LogAction.CALL_COMPLETED;
        if (call == null) {
            return what + " holds " + log.calls().size() + " calls; a managed call has one";
        }
        if (completed && call.outcome() == null) {
            return what + " has no <callResult>";
        }
        Long callId = completed ? insertCall(c, call) : null;
        Originator who = log.originator();
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO call_request (request_id, action, action_time, "
                + "agent, agent_qm, originator_host, originator_user, originator_mq_user, job_name, resultcode, "
                + "result_text, call_id, record_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, log.transferId().toLowerCase(java.util.Locale.ROOT));
            ps.setString(2, log.action().xml());
            setTime(ps, 3, time);
            ps.setString(4, log.sourceAgent().agent());
            setString(ps, 5, log.sourceAgent().qmgr());
            setString(ps, 6, who == null ? null : who.hostName());
            setString(ps, 7, who == null ? null : who.userId());
            setString(ps, 8, who == null ? null : who.mqmdUserId());
            setString(ps, 9, log.jobName());
            setInt(ps, 10, log.resultCode());
            setString(ps, 11, lines(log.supplements()));
            setLong(ps, 12, callId);
            ps.setString(13, record.key());
            ps.executeUpdate();
        }
        return null;
    }

    // ---- triggers

    /**
     * The TRIGGER_CONDITION rows of a transfer log's {@code <trigger>}, once per transfer: a
     * started message sent again after a restart (another record) adds none.
     */
    static void insertTriggerConditions(Connection c, TransferLog log, String transferId) throws SQLException {
        if (log.trigger() == null) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM trigger_condition WHERE transfer_id = ?")) {
            ps.setString(1, transferId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO trigger_condition (transfer_id, condition_type, "
                + "comparison, " + JdbcLogStore.keywordColumn(c, "value") + ", filename, filesize) "
                + "VALUES (?, ?, ?, ?, ?, ?)")) {
            for (TransferTrigger.Condition condition : log.trigger().conditions()) {
                ps.setString(1, transferId);
                if (condition instanceof TransferTrigger.FileExist e) {
                    ps.setString(2, "fileExist");
                    ps.setString(3, e.comparison());
                    ps.setString(4, e.value());
                    setLong(ps, 6, null);
                } else {
                    TransferTrigger.FileSize size = (TransferTrigger.FileSize) condition;
                    ps.setString(2, "fileSize");
                    ps.setString(3, ">=");
                    ps.setString(4, Long.toString(size.value()));
                    ps.setLong(6, size.bytes());
                }
                ps.setString(5, condition.path());
                ps.executeUpdate();
            }
        }
    }

    // ---- schedules

    /**
     * A schedule log: its spec and items, the schedule (a new one for a submit, else the newest of
     * that agent and id, or a new one when the logger never saw its submit) and the action.
     */
    static void insertSchedule(Connection c, LogRecord record) throws SQLException {
        ScheduleLog log = record.schedule();
        long spec = insertSpec(c, log);
        String agent = log.sourceAgent().agent();
        Long schedule = log.action().equals("submit") ? null : latestSchedule(c, agent, log.id());
        if (schedule == null) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO schedule (agent, id_on_agent, creation_date, "
                    + "current_spec_id, latest_action) VALUES (?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, agent);
                ps.setLong(2, log.id());
                setTime(ps, 3, log.time());
                ps.setLong(4, spec);
                ps.setString(5, log.action());
                schedule = insertedId(ps);
            }
        } else {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE schedule SET current_spec_id = ?, latest_action = ? WHERE id = ?")) {
                ps.setLong(1, spec);
                ps.setString(2, log.action());
                ps.setLong(3, schedule);
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO schedule_action (schedule_id, action, time, "
                + "originator_host, originator_user, status_code, status_text, spec_after_id, record_key) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setLong(1, schedule);
            ps.setString(2, log.action());
            setTime(ps, 3, log.time());
            setString(ps, 4, log.originator() == null ? null : log.originator().hostName());
            setString(ps, 5, log.originator() == null ? null : log.originator().userId());
            ps.setInt(6, log.resultCode());
            setString(ps, 7, lines(log.supplements()));
            ps.setLong(8, spec);
            ps.setString(9, record.key());
            ps.executeUpdate();
        }
    }

    private static Long latestSchedule(Connection c, String agent, long idOnAgent) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id FROM schedule WHERE agent = ? AND id_on_agent = ? ORDER BY id DESC LIMIT 1")) {
            ps.setString(1, agent);
            ps.setLong(2, idOnAgent);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    private static long insertSpec(Connection c, ScheduleLog log) throws SQLException {
        TransferSchedule s = log.schedule();
        long id;
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO schedule_spec (source_agent, source_qm, "
                + "destination_agent, destination_qm, start_timebase, start_timezone, start_time, repeat_interval, "
                + "repeat_frequency, repeat_count, end_time, job_name, priority) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, log.sourceAgent().agent());
            setString(ps, 2, log.sourceAgent().qmgr());
            ps.setString(3, log.destinationAgent().agent());
            setString(ps, 4, log.destinationAgent().qmgr());
            ps.setString(5, s.timebase());
            setString(ps, 6, s.timezone());
            ps.setString(7, TransferSchedule.FORMAT.format(s.submit()));
            setString(ps, 8, s.interval());
            setInt(ps, 9, s.repeats() ? s.frequency() : null);
            setLong(ps, 10, s.expireCount() > 0 ? s.expireCount() : null);
            setString(ps, 11, s.expireTime() == null ? null : TransferSchedule.FORMAT.format(s.expireTime()));
            setString(ps, 12, log.jobName());
            setInt(ps, 13, log.priority() >= 0 ? log.priority() : null);
            id = insertedId(ps);
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO schedule_item (schedule_spec_id, sequence, "
                + "source_filename, destination_filename, file_mode) VALUES (?, ?, ?, ?, ?)")) {
            int n = 1;
            for (ScheduleList.Item item : log.items()) {
                ps.setLong(1, id);
                ps.setInt(2, n++);
                ps.setString(3, item.source());
                setString(ps, 4, item.destination());
                setString(ps, 5, item.mode());
                ps.executeUpdate();
            }
        }
        return id;
    }

    // ---- monitors

    /** A monitor log: the monitor (found by agent, name and create request, else added) and the action. */
    static void insertMonitor(Connection c, LogRecord record) throws SQLException {
        MonitorLog log = record.monitor();
        Long monitor;
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM monitor WHERE agent = ? AND name = ? AND "
                + (log.referenceId() == null ? "reference_id IS NULL AND ? IS NOT NULL" : "reference_id = ?")
                + " ORDER BY id DESC LIMIT 1")) {
            ps.setString(1, log.agent().agent());
            ps.setString(2, log.monitorName());
            ps.setString(3, log.referenceId() == null ? "" : log.referenceId());
            try (ResultSet rs = ps.executeQuery()) {
                monitor = rs.next() ? rs.getLong(1) : null;
            }
        }
        if (monitor == null) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO monitor (name, agent, qmgr, reference_id) "
                    + "VALUES (?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, log.monitorName());
                ps.setString(2, log.agent().agent());
                setString(ps, 3, log.agent().qmgr());
                setString(ps, 4, log.referenceId());
                monitor = insertedId(ps);
            }
        }
        Originator who = log.originator();
        long action;
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO monitor_action (monitor_id, action, time, "
                + "originator_host, originator_user, originator_mq_user, resultcode, result_text, record_key, "
                + "task_request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setLong(1, monitor);
            ps.setString(2, log.action());
            setTime(ps, 3, log.time());
            setString(ps, 4, who == null ? null : who.hostName());
            setString(ps, 5, who == null ? null : who.userId());
            setString(ps, 6, who == null ? null : who.mqmdUserId());
            ps.setInt(7, log.resultCode());
            setString(ps, 8, lines(log.supplements()));
            ps.setString(9, record.key());
            setString(ps, 10, log.taskRequestId());
            action = insertedId(ps);
        }
        insertMetadata(c, action, "original", log.originalMetadata());
        insertMetadata(c, action, "updated", log.updatedMetadata());
    }

    /** One MONITOR_METADATA row per item of one phase ({@code original} or {@code updated}) of an action. */
    private static void insertMetadata(Connection c, long action, String phase, Map<String, String> items)
            throws SQLException {
        if (items.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO monitor_metadata (action_id, phase, "
                + JdbcLogStore.keywordColumn(c, "key") + ", " + JdbcLogStore.keywordColumn(c, "value")
                + ") VALUES (?, ?, ?, ?)")) {
            for (Map.Entry<String, String> item : items.entrySet()) {
                ps.setLong(1, action);
                ps.setString(2, phase);
                ps.setString(3, item.getKey());
                ps.setString(4, item.getValue());
                ps.executeUpdate();
            }
        }
    }

    // ---- helpers

    /** Runs an insert and returns the identity it generated (the table's first column, {@code id}). */
    private static long insertedId(PreparedStatement ps) throws SQLException {
        ps.executeUpdate();
        try (ResultSet keys = ps.getGeneratedKeys()) {
            if (!keys.next()) {
                throw new SQLException("the database returned no generated id", "HY000");
            }
            return keys.getLong(1);
        }
    }

    private static String lines(List<String> lines) {
        return lines.isEmpty() ? null : String.join(SEPARATOR, lines);
    }

    private static Map<String, String> callColumns() {
        Map<String, String> columns = new LinkedHashMap<>();
        columns.put("preSourceCall", "pre_source_call");
        columns.put("postSourceCall", "post_source_call");
        columns.put("preDestinationCall", "pre_destination_call");
        columns.put("postDestinationCall", "post_destination_call");
        return java.util.Collections.unmodifiableMap(columns);
    }
}
