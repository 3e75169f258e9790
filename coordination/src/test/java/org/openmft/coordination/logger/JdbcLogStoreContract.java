package org.openmft.coordination.logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.openmft.coordination.logger.Logs.REFUSED_REQUEST;
import static org.openmft.coordination.logger.Logs.SHA256;
import static org.openmft.coordination.logger.Logs.T0;
import static org.openmft.coordination.logger.Logs.cancelled;
import static org.openmft.coordination.logger.Logs.completed;
import static org.openmft.coordination.logger.Logs.completedWithCalls;
import static org.openmft.coordination.logger.Logs.monitorLog;
import static org.openmft.coordination.logger.Logs.scheduleLog;
import static org.openmft.coordination.logger.Logs.id;
import static org.openmft.coordination.logger.Logs.item;
import static org.openmft.coordination.logger.Logs.malformed;
import static org.openmft.coordination.logger.Logs.progress;
import static org.openmft.coordination.logger.Logs.record;
import static org.openmft.coordination.logger.Logs.refusal;
import static org.openmft.coordination.logger.Logs.sha256Item;
import static org.openmft.coordination.logger.Logs.started;
import static org.openmft.coordination.logger.Logs.startedWithTrigger;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openmft.coordination.logger.StoreOutcome.Status;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.TransferLog;

/**
 * What every database behind {@link JdbcLogStore} must do. Subclasses give each test an empty
 * database ({@link #url()} and friends) and the means to cut the store's connection.
 */
abstract class JdbcLogStoreContract {

    private final List<JdbcLogStore> opened = new ArrayList<>();

    /** The JDBC URL of this test's database, empty before the first open. */
    abstract String url();

    abstract String user();

    abstract String password();

    /** Ends every session of the database but the caller's, as a crash or an administrator would. */
    abstract void cutConnections() throws Exception;

    String schema() {
        return JdbcLogStore.DEFAULT_SCHEMA;
    }

    JdbcLogStore open() throws LogStoreException {
        JdbcLogStore store = JdbcLogStore.open(url(), user(), password(), schema());
        opened.add(store);
        return store;
    }

    Connection connect() throws SQLException {
        Properties properties = new Properties();
        if (user() != null) {
            properties.setProperty("user", user());
        }
        if (password() != null) {
            properties.setProperty("password", password());
        }
        Connection c = DriverManager.getConnection(url(), properties);
        c.setSchema(schema());
        return c;
    }

    @AfterEach
    void closeStores() throws LogStoreException {
        for (JdbcLogStore store : opened) {
            store.close();
        }
    }

    private static List<Status> statuses(List<StoreOutcome> outcomes) {
        return outcomes.stream().map(StoreOutcome::status).toList();
    }

    private long count(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void startedProgressCompletedBuildOneTransferWithItems() throws Exception {
        String id = id(1);
        try (JdbcLogStore store = open()) {
            List<StoreOutcome> outcomes = store.storeAll(List.of(
                    record(started(id, "SRC", "DST", T0)),
                    record(progress(id, "SRC", "DST", T0.plusSeconds(1), 0, item("/in/a.txt", "/out/a.txt", 0))),
                    record(progress(id, "SRC", "DST", T0.plusSeconds(2), 1, item("/in/b.txt", "/out/b.txt", 0))),
                    record(completed(id, "SRC", "DST", T0.plusSeconds(3), 0,
                            "BFGRP0032I: The file transfer request has successfully completed."))));
            assertThat(statuses(outcomes)).containsOnly(Status.STORED);

            StoredTransfer t = store.transfer(id).orElseThrow();
            assertThat(t.id()).isEqualTo(id);
            assertThat(t.sourceAgent()).isEqualTo("SRC");
            assertThat(t.sourceQMgr()).isEqualTo("QM_SRC");
            assertThat(t.destinationAgent()).isEqualTo("DST");
            assertThat(t.destinationQMgr()).isEqualTo("QM_DST");
            assertThat(t.originatorUser()).isEqualTo("alice");
            assertThat(t.originatorHost()).isEqualTo("host1.example.org");
            assertThat(t.jobName()).isEqualTo("nightly");
            assertThat(t.state()).isEqualTo(TransferState.SUCCESSFUL);
            assertThat(t.resultCode()).isZero();
            assertThat(t.supplements()).containsExactly(
                    "BFGRP0032I: The file transfer request has successfully completed.");
            assertThat(t.startTime()).isEqualTo(T0);
            assertThat(t.endTime()).isEqualTo(T0.plusSeconds(3));
            assertThat(t.totalItems()).isEqualTo(2);
            assertThat(t.bytesSent()).isEqualTo(2048);
            assertThat(t.items()).containsExactly(
                    new StoredItem(0, "/in/a.txt", 1000, "/out/a.txt", 1000, "binary", "MD5",
                            "9e107d9d372bb6826bd81d3542a419d6", 0, null),
                    new StoredItem(1, "/in/b.txt", 1000, "/out/b.txt", 1000, "binary", "MD5",
                            "9e107d9d372bb6826bd81d3542a419d6", 0, null));
            assertThat(store.transfer(id.toUpperCase(Locale.ROOT))).contains(t);
            assertThat(store.transfer(id(999))).isEmpty();
        }
        assertThat(count("SELECT COUNT(*) FROM log_record")).isEqualTo(4);
    }

    @Test
    void aSha256ChecksumIsStoredWithItsMethodInIbmsColumns() throws Exception {
        String id = id(1);
        try (JdbcLogStore store = open()) {
            store.storeAll(List.of(record(started(id, "SRC", "DST", T0)),
                    record(progress(id, "SRC", "DST", T0.plusSeconds(1), 0, sha256Item("/in/s.bin", "/out/s.bin"),
                            item("/in/m.txt", "/out/m.txt", 0)))));
            assertThat(store.transfer(id).orElseThrow().items()).extracting(StoredItem::checksumMethod,
                    StoredItem::checksum).containsExactly(tuple("SHA-256", SHA256),
                            tuple("MD5", "9e107d9d372bb6826bd81d3542a419d6"));
        }
        assertThat(count("SELECT COUNT(*) FROM transfer_item WHERE checksum_method = 'SHA-256' AND checksum = '"
                + SHA256 + "'")).isOne();
    }

    @Test
    void statesFollowTheMessages() throws Exception {
        try (JdbcLogStore store = open()) {
            store.storeAll(List.of(record(started(id(1), "A", "B", T0)), record(started(id(2), "A", "B", T0)),
                    record(started(id(3), "A", "B", T0)), record(started(id(4), "A", "B", T0)),
                    record(started(id(5), "A", "B", T0))));
            assertThat(store.transfer(id(1)).orElseThrow().state()).isEqualTo(TransferState.STARTED);
            assertThat(store.transfer(id(1)).orElseThrow().endTime()).isNull();
            assertThat(store.transfer(id(1)).orElseThrow().resultCode()).isNull();

            store.storeAll(List.of(record(progress(id(2), "A", "B", T0, -1, item("/a", "/b", 1))),
                    record(completed(id(3), "A", "B", T0, 20)), record(completed(id(4), "A", "B", T0, 40)),
                    record(cancelled(id(5), "A", "B", T0.plusSeconds(9)))));
            assertThat(store.transfer(id(2)).orElseThrow().state()).isEqualTo(TransferState.IN_PROGRESS);
            assertThat(store.transfer(id(3)).orElseThrow().state()).isEqualTo(TransferState.PARTIAL);
            assertThat(store.transfer(id(4)).orElseThrow().state()).isEqualTo(TransferState.FAILED);
            StoredTransfer cancelled = store.transfer(id(5)).orElseThrow();
            assertThat(cancelled.state()).isEqualTo(TransferState.CANCELLED);
            assertThat(cancelled.resultCode()).isEqualTo(41);
            assertThat(cancelled.endTime()).isEqualTo(T0.plusSeconds(9));
        }
    }

    @Test
    void progressWithoutIndexAppendsAndARepeatedIndexReplaces() throws Exception {
        String id = id(7);
        try (JdbcLogStore store = open()) {
            store.storeAll(List.of(record(started(id, "A", "B", T0)),
                    record(progress(id, "A", "B", T0, -1, item("/1", "/o1", 0), item("/2", "/o2", 0))),
                    record(progress(id, "A", "B", T0, -1, item("/3", "/o3", 1))),
                    record(progress(id, "A", "B", T0, 1, item("/2", "/o2-again", 2)))));
            List<StoredItem> items = store.transfer(id).orElseThrow().items();
            assertThat(items).extracting(StoredItem::index).containsExactly(0, 1, 2);
            assertThat(items).extracting(StoredItem::source).containsExactly("/1", "/2", "/3");
            assertThat(items.get(1).destination()).isEqualTo("/o2-again");
            assertThat(items.get(1).resultCode()).isEqualTo(2);
            assertThat(items.get(1).supplement()).isEqualTo("BFGIO0006E: exists");
        }
    }

    @Test
    void aMalformedRequestNeedsNoStartedAndCountsAsFailed() throws Exception {
        try (JdbcLogStore store = open()) {
            assertThat(statuses(store.storeAll(List.of(record(malformed(id(8), T0)))))).containsExactly(Status.STORED);
            StoredTransfer t = store.transfer(id(8)).orElseThrow();
            assertThat(t.state()).isEqualTo(TransferState.FAILED);
            assertThat(t.resultCode()).isEqualTo(43);
            assertThat(t.sourceAgent()).isNull();
            assertThat(t.supplements()).containsExactly("BFGCH0004E: The request could not be parsed.");
        }
    }

    @Test
    void aRecordDeliveredTwiceIsStoredOnceAlsoAfterARestart() throws Exception {
        String id = id(2);
        LogRecord started = record(started(id, "SRC", "DST", T0));
        LogRecord progress = record(progress(id, "SRC", "DST", T0.plusSeconds(1), 0, item("/a", "/b", 0)));
        try (JdbcLogStore store = open()) {
            assertThat(statuses(store.storeAll(List.of(started, progress, started))))
                    .containsExactly(Status.STORED, Status.STORED, Status.DUPLICATE);
            assertThat(statuses(store.storeAll(List.of(progress)))).containsExactly(Status.DUPLICATE);
        }
        try (JdbcLogStore restarted = open()) {
            assertThat(statuses(restarted.storeAll(List.of(started, progress))))
                    .containsExactly(Status.DUPLICATE, Status.DUPLICATE);
            assertThat(restarted.transfer(id).orElseThrow().items()).hasSize(1);
        }
        assertThat(count("SELECT COUNT(*) FROM log_record")).isEqualTo(2);
    }

    @Test
    void progressForAnUnknownTransferIsRejectedAndTheRestOfTheBatchStored() throws Exception {
        try (JdbcLogStore store = open()) {
            List<StoreOutcome> outcomes = store.storeAll(List.of(
                    record(started(id(1), "SRC", "DST", T0)),
                    record(progress(id(66), "SRC", "DST", T0, 0, item("/a", "/b", 0))),
                    record(completed(id(67), "SRC", "DST", T0, 0)),
                    record(completed(id(1), "SRC", "DST", T0.plusSeconds(5), 0))));
            assertThat(statuses(outcomes))
                    .containsExactly(Status.STORED, Status.REJECTED, Status.REJECTED, Status.STORED);
            assertThat(outcomes.get(1).reason()).contains("no 'started' message", id(66), "'progress'");
            assertThat(outcomes.get(2).reason()).contains("'completed'");
            assertThat(store.transfer(id(66))).isEmpty();
            assertThat(store.transfer(id(1)).orElseThrow().state()).isEqualTo(TransferState.SUCCESSFUL);
        }
        assertThat(count("SELECT COUNT(*) FROM log_record")).isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM transfer_item")).isZero();
    }

    /** AUTH_EVENT's columns of the only row, by IBM's names. */
    private Map<String, Object> authEvent() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, action, command_id, time, originator_mq_user, authority, "
                        + "original_xml_request, resultcode, result_text, record_key, agent FROM auth_event")) {
            assertThat(rs.next()).as("a row in auth_event").isTrue();
            Map<String, Object> row = new java.util.LinkedHashMap<>();
            for (String column : List.of("id", "action", "command_id", "originator_mq_user", "authority",
                    "original_xml_request", "resultcode", "result_text", "record_key", "agent")) {
                row.put(column, rs.getObject(column));
            }
            row.put("time", rs.getObject("time", OffsetDateTime.class).toInstant());
            assertThat(rs.next()).as("a second row in auth_event").isFalse();
            return row;
        }
    }

    @Test
    void aRefusalIsOneAuthEventRowInIbmsColumnsAndNoTransfer() throws Exception {
        NotAuthorizedLog refusal = refusal(id(7), "SRC", "mallory", "transfer", T0);
        LogRecord record = record(refusal, "SRC");
        try (JdbcLogStore store = open()) {
            assertThat(statuses(store.storeAll(List.of(record)))).containsExactly(Status.STORED);
            assertThat(store.transfers(TransferQuery.latest(10))).isEmpty();
        }
        Map<String, Object> row = authEvent();
        assertThat(row.get("id")).isNotNull();
        assertThat(row).containsEntry("action", "not_authorized").containsEntry("command_id", id(7))
                .containsEntry("time", T0).containsEntry("originator_mq_user", "mallory")
                .containsEntry("authority", "transfer").containsEntry("original_xml_request", REFUSED_REQUEST)
                .containsEntry("resultcode", 53).containsEntry("result_text", refusal.supplements().get(0))
                .containsEntry("record_key", record.key()).containsEntry("agent", "SRC");
        assertThat(count("SELECT COUNT(*) FROM log_record")).isZero();
    }

    @Test
    void ibmsRefusalWithoutAgentUserIdOrRequestTakesTheAgentFromTheTopic() throws Exception {
        NotAuthorizedLog ibms = new NotAuthorizedLog("3.00", "", "sourceAgent", T0, null, null, "administration", 53,
                List.of("BFGCH0083E: The user does not have the authority (ADMINISTRATION)."));
        try (JdbcLogStore store = open()) {
            assertThat(statuses(store.storeAll(List.of(record(ibms, "PAY.SRC"))))).containsExactly(Status.STORED);
        }
        Map<String, Object> row = authEvent();
        assertThat(row).containsEntry("agent", "PAY.SRC").containsEntry("authority", "administration")
                .containsEntry("command_id", null).containsEntry("originator_mq_user", null)
                .containsEntry("original_xml_request", null).containsEntry("result_text", ibms.supplements().get(0));
    }

    @Test
    void aRefusalDeliveredTwiceIsStoredOnceAlsoAfterARestart() throws Exception {
        LogRecord refused = record(refusal(id(8), "SRC", "mallory", "transfer", T0), "SRC");
        LogRecord started = record(started(id(9), "SRC", "DST", T0));
        try (JdbcLogStore store = open()) {
            assertThat(statuses(store.storeAll(List.of(refused, started, refused))))
                    .containsExactly(Status.STORED, Status.STORED, Status.DUPLICATE);
        }
        try (JdbcLogStore restarted = open()) {
            assertThat(statuses(restarted.storeAll(List.of(refused, started))))
                    .containsExactly(Status.DUPLICATE, Status.DUPLICATE);
        }
        assertThat(count("SELECT COUNT(*) FROM auth_event")).isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM log_record")).isEqualTo(1);
    }

    @Test
    void programCallsAreStoredOnceWithTheirTransferInIbmsCallTables() throws Exception {
        String id = id(20);
        LogRecord started = record(started(id, "SRC", "DST", T0));
        LogRecord completed = record(completedWithCalls(id, "SRC", "DST", T0.plusSeconds(5)));
        try (JdbcLogStore store = open()) {
            assertThat(statuses(store.storeAll(List.of(started, completed, completed))))
                    .containsExactly(Status.STORED, Status.STORED, Status.DUPLICATE);
        }
        try (JdbcLogStore restarted = open()) {
            assertThat(statuses(restarted.storeAll(List.of(completed)))).containsExactly(Status.DUPLICATE);
        }
        assertThat(count("SELECT COUNT(*) FROM call")).isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM transfer_calls t JOIN call p ON p.id = t.pre_source_call"
                + " JOIN call d ON d.id = t.post_destination_call WHERE t.transfer_id = '" + id + "' AND"
                + " t.post_source_call IS NULL AND t.pre_destination_call IS NULL AND p.command = 'check.sh' AND"
                + " p.type = 'executable' AND p.retries = 1 AND p.retry_wait = 5 AND p.success_rc = '0|4' AND"
                + " p.outcome = 'success' AND d.command = '/opt/bin/notify' AND d.outcome = 'failure'")).isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM call_argument a JOIN call c ON c.id = a.call_id WHERE"
                + " c.command = 'check.sh' AND ((a.sequence = 1 AND a.argument_value = '-v') OR"
                + " (a.sequence = 2 AND a.argument_value = 'a b'))")).isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM call_result r JOIN call c ON c.id = r.call_id WHERE"
                + " c.command = 'check.sh' AND r.sequence = 2 AND r.outcome = 'success' AND r.return_code = 4 AND"
                + " r.stdout = 'checked' || CHR(10) || 'ok' AND r.stderr IS NULL AND r.error IS NULL")).isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM call_result WHERE return_code = 2 AND stderr = 'no route'"))
                .isEqualTo(1);
    }

    @Test
    void scheduleLogsBuildOneScheduleWithEachActionStoredOnce() throws Exception {
        LogRecord submit = record(scheduleLog(5, "submit", "SRC", T0));
        LogRecord skipped = record(scheduleLog(5, "skipped", "SRC", T0.plusSeconds(60)));
        LogRecord delete = record(scheduleLog(5, "delete", "SRC", T0.plusSeconds(120)));
        LogRecord otherAgent = record(scheduleLog(5, "submit", "OTHER", T0));
        try (JdbcLogStore store = open()) {
            assertThat(statuses(store.storeAll(List.of(submit, skipped, submit, otherAgent))))
                    .containsExactly(Status.STORED, Status.STORED, Status.DUPLICATE, Status.STORED);
        }
        try (JdbcLogStore restarted = open()) {
            assertThat(statuses(restarted.storeAll(List.of(skipped, delete))))
                    .containsExactly(Status.DUPLICATE, Status.STORED);
        }
        assertThat(count("SELECT COUNT(*) FROM schedule")).isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM schedule s JOIN schedule_spec p ON p.id = s.current_spec_id WHERE"
                + " s.agent = 'SRC' AND s.id_on_agent = 5 AND s.latest_action = 'delete' AND p.source_qm = 'QM_SRC'"
                + " AND p.destination_agent = 'DST' AND p.start_timebase = 'UTC' AND p.start_timezone IS NULL AND"
                + " p.start_time = '2030-01-01T11:00' AND p.repeat_interval = 'hours' AND p.repeat_frequency = 2 AND"
                + " p.repeat_count = 3 AND p.end_time IS NULL AND p.job_name = 'NIGHTLY' AND p.priority = 5"))
                .isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM schedule_action a JOIN schedule s ON s.id = a.schedule_id WHERE"
                + " s.agent = 'SRC' AND a.originator_user = 'alice' AND a.status_code = 0 AND ((a.action = 'submit'"
                + " AND a.status_text IS NULL) OR (a.action IN ('skipped', 'delete') AND a.status_text LIKE"
                + " 'schedule 5 %'))")).isEqualTo(3);
        assertThat(count("SELECT COUNT(*) FROM schedule_item i JOIN schedule_action a ON a.spec_after_id ="
                + " i.schedule_spec_id WHERE a.action = 'delete' AND ((i.sequence = 1 AND i.source_filename ="
                + " '/in/a.txt' AND i.destination_filename = '/out/a.txt' AND i.file_mode = 'text') OR"
                + " (i.sequence = 2 AND i.source_filename = '/in/b.bin'))")).isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM log_record")).as("no transfer rows").isZero();
    }

    @Test
    void monitorLogsBuildOneMonitorPerCreateRequestWithEachActionStoredOnce() throws Exception {
        LogRecord create = record(monitorLog("MON1", 30, "create", 0, T0));
        LogRecord fired = record(monitorLog("MON1", 30, "triggerSatisfied", 0, T0.plusSeconds(10)));
        LogRecord failed = record(monitorLog("MON1", 30, "triggerFail", 106, T0.plusSeconds(20)));
        LogRecord recreated = record(monitorLog("MON1", 31, "create", 0, T0.plusSeconds(30)));
        try (JdbcLogStore store = open()) {
            assertThat(statuses(store.storeAll(List.of(create, fired, create, failed))))
                    .containsExactly(Status.STORED, Status.STORED, Status.DUPLICATE, Status.STORED);
        }
        try (JdbcLogStore restarted = open()) {
            assertThat(statuses(restarted.storeAll(List.of(failed, recreated))))
                    .containsExactly(Status.DUPLICATE, Status.STORED);
        }
        assertThat(count("SELECT COUNT(*) FROM monitor WHERE name = 'MON1' AND agent = 'SRC' AND qmgr = 'QM_SRC'"))
                .isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM monitor_action a JOIN monitor m ON m.id = a.monitor_id WHERE"
                + " m.reference_id = '" + id(30) + "' AND a.originator_host = 'host1.example.org' AND"
                + " a.originator_user = 'bob' AND a.originator_mq_user = 'bob' AND ((a.action IN ('create',"
                + " 'triggerSatisfied') AND a.resultcode = 0 AND a.result_text IS NULL) OR (a.action = 'triggerFail'"
                + " AND a.resultcode = 106 AND a.result_text = 'BFGDM0107E: failed'))")).isEqualTo(3);
    }

    @Test
    void aTriggersConditionsAndAMonitorActionsMetadataAreStoredOnceInIbmsTables() throws Exception {
        String id = id(50);
        LogRecord started = record(startedWithTrigger(id, "SRC", "DST", T0));
        LogRecord startedAgain = record(startedWithTrigger(id, "SRC", "DST", T0.plusSeconds(1)));
        Map<String, String> metadata = new java.util.LinkedHashMap<>();
        metadata.put("AGENTNAME", "SRC");
        metadata.put("FILENAME", "ready.ctl");
        metadata.put("FILEPATH", "/in/ready.ctl");
        LogRecord fired = record(monitorLog("MON3", 51, "triggerSatisfied", T0, metadata, 52));
        LogRecord tooLong = record(monitorLog("MON3", 51, "triggerSatisfied", T0, Map.of("FILEPATH", "p".repeat(2001)),
                53));
        try (JdbcLogStore store = open()) {
            List<StoreOutcome> outcomes = store.storeAll(List.of(started, fired, started, startedAgain, tooLong));
            assertThat(statuses(outcomes)).containsExactly(Status.STORED, Status.STORED, Status.DUPLICATE,
                    Status.STORED, Status.REJECTED);
            assertThat(outcomes.get(4).reason()).contains("metadata FILEPATH", "monitor_metadata.value holds 2000");
        }
        try (JdbcLogStore restarted = open()) {
            assertThat(statuses(restarted.storeAll(List.of(started, fired))))
                    .containsExactly(Status.DUPLICATE, Status.DUPLICATE);
        }
        String value;
        String key;
        try (Connection c = connect()) {
            value = JdbcLogStore.keywordColumn(c, "value");
            key = JdbcLogStore.keywordColumn(c, "key");
        }
        assertThat(count("SELECT COUNT(*) FROM trigger_condition")).as("once per transfer").isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM trigger_condition WHERE transfer_id = '" + id + "' AND ((condition_type"
                + " = 'fileExist' AND comparison = '=' AND " + value + " = 'exist' AND filename = '/in/ready.ctl' AND"
                + " filesize IS NULL) OR (condition_type = 'fileSize' AND comparison = '>=' AND " + value + " = '2' AND"
                + " filename = '/in/data.bin' AND filesize = 2097152))")).isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM monitor_metadata d JOIN monitor_action a ON a.id = d.action_id JOIN"
                + " monitor m ON m.id = a.monitor_id WHERE m.name = 'MON3' AND a.action = 'triggerSatisfied' AND"
                + " d.phase = 'original' AND ((d." + key + " = 'AGENTNAME' AND d." + value + " = 'SRC') OR (d." + key
                + " = 'FILENAME' AND d." + value + " = 'ready.ctl') OR (d." + key + " = 'FILEPATH' AND d." + value
                + " = '/in/ready.ctl'))")).isEqualTo(3);
        assertThat(count("SELECT COUNT(*) FROM monitor_metadata")).isEqualTo(3);
        assertThat(count("SELECT COUNT(*) FROM monitor_action WHERE action = 'triggerSatisfied' AND task_request_id = '"
                + id(52) + "'")).as("the transfer the trigger submitted").isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM monitor_exit_result")).as("no monitor exits run").isZero();
    }

    @Test
    void anAutomationLogThatDoesNotFitIsRejectedAndTheRestOfTheBatchStored() throws Exception {
        String id = id(40);
        try (JdbcLogStore store = open()) {
            List<StoreOutcome> outcomes = store.storeAll(List.of(record(monitorLog("M".repeat(300), 41, "create", 0,
                    T0)), record(scheduleLog(6, "submit", "S".repeat(29), T0)), record(started(id, "SRC", "DST", T0)),
                    record(monitorLog("MON2", 42, "start", 0, T0))));
            assertThat(statuses(outcomes)).containsExactly(Status.REJECTED, Status.REJECTED, Status.STORED,
                    Status.STORED);
            assertThat(outcomes.get(0).reason()).contains("monitor name", "300 characters", "monitor.name holds 256");
            assertThat(outcomes.get(1).reason()).contains("source agent", "schedule_spec.source_agent holds 28");
        }
        assertThat(count("SELECT COUNT(*) FROM monitor")).isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM schedule_spec")).isZero();
    }

    @Test
    void aRefusalWithAValueTooLongIsRejectedAndTheRestOfTheBatchStored() throws Exception {
        NotAuthorizedLog longAuthority = refusal(id(10), "SRC", "mallory", "a".repeat(40), T0);
        try (JdbcLogStore store = open()) {
            List<StoreOutcome> outcomes = store.storeAll(List.of(record(longAuthority, "SRC"),
                    record(refusal(id(11), "SRC", "mallory", "transfer", T0), "SRC")));
            assertThat(statuses(outcomes)).containsExactly(Status.REJECTED, Status.STORED);
            assertThat(outcomes.get(0).reason()).contains("authority", "40 characters", "auth_event.authority holds 32");
        }
        assertThat(authEvent()).containsEntry("command_id", id(11));
    }

    @Test
    void aValueTooLongIsRejectedNotTruncated() throws Exception {
        TransferLog good = started(id(1), "SRC", "DST", T0);
        TransferLog longJob = new TransferLog("6.00", id(2), TransferLog.SOURCE_AGENT, good.action(), T0,
                good.sourceAgent(), good.destinationAgent(), good.originator(), "j".repeat(300), T0, 1, 0, -1,
                List.of(), null, List.of(), null, Map.of());
        String longPath = "/" + "p".repeat(5000);
        try (JdbcLogStore store = open()) {
            List<StoreOutcome> outcomes = store.storeAll(List.of(record(good), record(longJob),
                    record(progress(id(1), "SRC", "DST", T0, 0, item(longPath, "/b", 0)))));
            assertThat(statuses(outcomes)).containsExactly(Status.STORED, Status.REJECTED, Status.REJECTED);
            assertThat(outcomes.get(1).reason()).contains("job name", "300 characters", "transfer.job_name holds 256");
            assertThat(outcomes.get(2).reason()).contains("item 0 source", "5001 characters");
            assertThat(store.transfer(id(2))).isEmpty();
            assertThat(store.transfer(id(1)).orElseThrow().items()).isEmpty();
        }
    }

    @Test
    void aRecordTheDatabaseRefusesIsRolledBackAloneToItsSavepoint() throws Exception {
        try (JdbcLogStore store = open()) {
            // Narrow a column behind the store's back: the value passes the store's own checks and the
            // database itself refuses it, half-way through the record.
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.execute("ALTER TABLE transfer ALTER COLUMN job_name SET DATA TYPE VARCHAR(5)");
            }
            List<StoreOutcome> outcomes = store.storeAll(List.of(
                    record(malformed(id(1), T0)),
                    record(started(id(2), "SRC", "DST", T0)),
                    record(malformed(id(3), T0))));
            assertThat(statuses(outcomes)).containsExactly(Status.STORED, Status.REJECTED, Status.STORED);
            assertThat(outcomes.get(1).reason()).startsWith("the database refused it (SQL state 22001)");
            assertThat(store.transfer(id(2))).isEmpty();
            assertThat(store.transfer(id(3))).isPresent();
        }
        assertThat(count("SELECT COUNT(*) FROM log_record")).isEqualTo(2);
    }

    @Test
    void queriesFilterByAgentAndStateNewestFirst() throws Exception {
        try (JdbcLogStore store = open()) {
            store.storeAll(List.of(
                    record(started(id(1), "A", "B", T0)),
                    record(started(id(2), "B", "C", T0.plusSeconds(10))),
                    record(started(id(3), "C", "A", T0.plusSeconds(20))),
                    record(started(id(4), "A", "C", T0.plusSeconds(30))),
                    record(completed(id(1), "A", "B", T0.plusSeconds(40), 0)),
                    record(completed(id(3), "C", "A", T0.plusSeconds(40), 40))));

            assertThat(store.transfers(TransferQuery.latest(10))).extracting(StoredTransfer::id)
                    .containsExactly(id(4), id(3), id(2), id(1));
            assertThat(store.transfers(TransferQuery.latest(2))).extracting(StoredTransfer::id)
                    .containsExactly(id(4), id(3));
            assertThat(store.transfers(TransferQuery.latest(10).withAgent("a"))).extracting(StoredTransfer::id)
                    .containsExactly(id(4), id(3), id(1));
            assertThat(store.transfers(TransferQuery.latest(10).withAgent("A").withState(TransferState.FAILED)))
                    .extracting(StoredTransfer::id).containsExactly(id(3));
            assertThat(store.transfers(TransferQuery.latest(10).withState(TransferState.STARTED)))
                    .extracting(StoredTransfer::id).containsExactly(id(4), id(2));
            assertThat(store.transfers(TransferQuery.latest(10).withAgent("NOBODY"))).isEmpty();
            assertThat(store.transfers(TransferQuery.latest(10))).allSatisfy(t -> assertThat(t.items()).isEmpty());
        }
    }

    @Test
    void migrationRunsOnAnEmptyDatabaseAndIsANoOpOnAMigratedOne() throws Exception {
        assertThat(JdbcLogStore.migrate(url(), user(), password(), schema())).isEqualTo(6);
        assertThat(JdbcLogStore.migrate(url(), user(), password(), schema())).isZero();
        try (JdbcLogStore store = open()) {
            store.storeAll(List.of(record(started(id(1), "A", "B", T0))));
        }
        assertThat(JdbcLogStore.migrate(url(), user(), password(), schema())).isZero();
        assertThat(count("SELECT COUNT(*) FROM transfer")).isEqualTo(1);
    }

    @Test
    void theStoresColumnWidthsAreTheDatabases() throws Exception {
        JdbcLogStore.migrate(url(), user(), password(), schema());
        try (Connection c = connect()) {
            DatabaseMetaData meta = c.getMetaData();
            for (Map.Entry<String, Integer> e : JdbcLogStore.COLUMN_WIDTHS.entrySet()) {
                String[] tableColumn = e.getKey().split("\\.");
                int width = -1;
                for (String table : List.of(tableColumn[0], tableColumn[0].toUpperCase(Locale.ROOT))) {
                    for (String column : List.of(tableColumn[1], tableColumn[1].toUpperCase(Locale.ROOT))) {
                        try (ResultSet rs = meta.getColumns(null, schema(), table, column)) {
                            if (rs.next()) {
                                width = rs.getInt("COLUMN_SIZE");
                            }
                        }
                    }
                }
                assertThat(width).as(e.getKey()).isEqualTo(e.getValue());
            }
        }
    }

    @Test
    void aLostConnectionFailsTheBatchWholeAndTheNextBatchReconnects() throws Exception {
        try (JdbcLogStore store = open()) {
            store.storeAll(List.of(record(started(id(1), "A", "B", T0))));
            cutConnections();
            LogRecord next = record(completed(id(1), "A", "B", T0.plusSeconds(1), 0));
            assertThatThrownBy(() -> store.storeAll(List.of(record(started(id(2), "A", "B", T0)), next)))
                    .isInstanceOf(LogStoreException.class).hasMessageContaining("is unavailable");
            assertThat(count("SELECT COUNT(*) FROM log_record")).isEqualTo(1);

            assertThat(statuses(store.storeAll(List.of(next)))).containsExactly(Status.STORED);
            assertThat(store.transfer(id(1)).orElseThrow().state()).isEqualTo(TransferState.SUCCESSFUL);
        }
    }

    @Test
    void aClosedStoreRefusesWorkAndClosingTwiceIsHarmless() throws Exception {
        JdbcLogStore store = open();
        store.close();
        store.close();
        assertThatThrownBy(() -> store.storeAll(List.of(record(started(id(1), "A", "B", T0)))))
                .isInstanceOf(IllegalStateException.class);
        assertThat(store.storeAll(List.of())).isEmpty();
    }
}
