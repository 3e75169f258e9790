package org.openmft.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.coordination.CoordinationHarness.await;
import static org.openmft.coordination.CoordinationHarness.file;
import static org.openmft.coordination.CoordinationHarness.item;
import static org.openmft.agent.metrics.PrometheusScrapes.value;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.metrics.ProcessMetrics;
import org.openmft.agent.metrics.PrometheusScrapes;
import org.openmft.agent.metrics.PrometheusScrapes.Sample;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.coordination.logger.EmbeddedDatabase;
import org.openmft.coordination.logger.ForwardingLogStore;
import org.openmft.coordination.logger.JdbcLogStore;
import org.openmft.coordination.logger.LogRecord;
import org.openmft.coordination.logger.LogStore;
import org.openmft.coordination.logger.LogStoreException;
import org.openmft.coordination.logger.LogSubscriber;
import org.openmft.coordination.logger.LoggerMeters;
import org.openmft.coordination.logger.StoreOutcome;
import org.openmft.coordination.logger.StoredTransfer;
import org.openmft.coordination.logger.TransferQuery;
import org.openmft.coordination.logger.TransferState;
import org.openmft.xml.AgentRef;
import org.openmft.xml.CallType;
import org.openmft.xml.Originator;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.Reply;
import org.openmft.xml.SuccessCodes;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferTrigger;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.LogCall;
import org.openmft.xml.log.MonitorLog;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.PublicationWriter;
import org.openmft.xml.log.ScheduleList;
import org.openmft.xml.log.ScheduleLog;
import org.openmft.xml.log.SchedulePublications;
import org.openmft.xml.log.TransferLog;

/**
 * The database logger against real queue managers and a real (embedded H2) database: every
 * record stored once across restarts of the logger and of the coordination queue manager and
 * across a crash between the database commit and the queue commit; records the database refuses
 * go to the reject queue with the reason.
 */
class LoggerIT {
    @TempDir
    Path dir;
    CoordinationHarness h;
    LoggerConfig config;
    final List<LogStore> stores = new ArrayList<>();
    final List<LogSubscriber> subscribers = new ArrayList<>();
    /** What killed a logger thread: the test fails on it. */
    final List<Throwable> loggerThreadFailures = new java.util.concurrent.CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        Files.createDirectories(dir.resolve("out"));
        h = new CoordinationHarness(dir);
        // The logger logs in as a user of its own with the logger role, as a logger on another host would.
        Path credentials = dir.resolve("logger-credentials.xml");
        var users = h.coordQm.users();
        users.writeCredentials(credentials, users.add("LOG1", java.util.Set.of("logger"), true), true);
        config = LoggerConfig.from(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "QMC",
                "wmqfte.queue.manager.host", "127.0.0.1", "wmqfte.queue.manager.port", String.valueOf(h.coordPort),
                "wmqfte.max.transaction.messages", "5", "wmqfte.max.consecutive.reject", "3",
                "loggerQMgrAuthenticationCredentialsFile", credentials.toString()), "LOG1", Map.of());
        new ArtemisQueueAdmin(connector()).createQueues(List.of(QueueNames.loggerCommand("LOG1"),
                QueueNames.loggerReject("LOG1")));
        h.agent("SRC");
        h.agent("DST");
    }

    @AfterEach
    void stop() throws Exception {
        for (LogSubscriber s : subscribers) {
            s.stop();
            s.awaitStopped(Duration.ofSeconds(10));
        }
        for (LogStore s : stores) {
            s.close();
        }
        h.close();
        assertThat(loggerThreadFailures).as("exceptions that ended a logger thread").isEmpty();
    }

    private QueueManagerConnector connector() throws Exception {
        return QueueManagerConnector.forAgent(config.endpoint(), null);
    }

    private LogStore openStore() throws Exception {
        LogStore s = JdbcLogStore.openH2(dir.resolve("db"));
        stores.add(s);
        return s;
    }

    private LogSubscriber startLogger(LogStore store) throws Exception {
        return startLogger(store, config);
    }

    private LogSubscriber startLogger(LogStore store, LoggerConfig config) throws Exception {
        LogSubscriber s = new LogSubscriber(config, connector(), store);
        subscribers.add(s);
        Thread t = new Thread(s, "logger");
        t.setUncaughtExceptionHandler((thread, e) -> loggerThreadFailures.add(e));
        t.start();
        await("the logger subscribed", 20, s::connected);
        return s;
    }

    private void stopLogger(LogSubscriber s) throws Exception {
        s.stop();
        assertThat(s.awaitStopped(Duration.ofSeconds(20))).isTrue();
        subscribers.remove(s);
    }

    private String transfer(int n) throws Exception {
        Path src = file(dir.resolve("in/f" + n), 1000 + n);
        Reply r = h.transfer("SRC", "DST", "JOB" + n, item(src, dir.resolve("out/f" + n)));
        assertThat(r.resultCode()).isZero();
        return r.requestId();
    }

    private static Optional<StoredTransfer> find(LogStore store, String id) {
        try {
            return store.transfer(id);
        } catch (LogStoreException e) {
            throw new AssertionError(e);
        }
    }

    private static void awaitSuccessful(LogStore store, String id) throws InterruptedException {
        await("transfer " + id + " stored as successful", 60,
                () -> find(store, id).map(t -> t.state() == TransferState.SUCCESSFUL).orElse(false));
    }

    /** Rows in the log record table per transfer, straight from the database. */
    private int rows(String id) throws Exception {
        return count("select count(*) from FTELOG.LOG_RECORD where TRANSFER_ID = ?", id);
    }

    /** A count with one parameter, straight from the database, after closing the stores that own it. */
    private int count(String sql, String parameter) throws Exception {
        for (LogStore s : stores) {
            s.close();
        }
        stores.clear();
        try (var c = EmbeddedDatabase.connect(dir.resolve("db")); var st = c.prepareStatement(sql)) {
            st.setString(1, parameter);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @Test
    void everyRecordIsStoredOnceAcrossALoggerRestart() throws Exception {
        LogStore store = openStore();
        LogSubscriber logger = startLogger(store);
        String first = transfer(1);
        awaitSuccessful(store, first);
        StoredTransfer t = find(store, first).orElseThrow();
        assertThat(t.sourceAgent()).isEqualTo("SRC");
        assertThat(t.destinationAgent()).isEqualTo("DST");
        assertThat(t.jobName()).isEqualTo("JOB1");
        assertThat(t.items()).hasSize(1);
        assertThat(t.items().get(0).resultCode()).isZero();
        assertThat(t.items().get(0).checksum()).isEqualTo(TestFiles.md5(dir.resolve("in/f1")));

        stopLogger(logger);
        String second = transfer(2);
        String third = transfer(3);
        startLogger(store);
        awaitSuccessful(store, second);
        awaitSuccessful(store, third);
        assertThat(store.transfers(TransferQuery.latest(10))).extracting(StoredTransfer::id)
                .containsExactly(third, second, first);
        assertThat(rows(first)).isEqualTo(3);
        assertThat(rows(second)).isEqualTo(3);
        assertThat(rows(third)).isEqualTo(3);
    }

    /** Commits to the database, then fails as a process killed before the queue commit would. */
    private static final class CrashAfterCommit extends ForwardingLogStore {
        final AtomicBoolean crashNext = new AtomicBoolean(true);

        CrashAfterCommit(LogStore delegate) {
            super(delegate);
        }

        @Override
        public List<StoreOutcome> storeAll(List<LogRecord> records) throws LogStoreException {
            List<StoreOutcome> out = delegate.storeAll(records);
            if (crashNext.getAndSet(false)) {
                throw new LogStoreException("simulated crash after the database commit");
            }
            return out;
        }
    }

    @Test
    void aCrashBetweenTheDatabaseAndTheQueueCommitStoresNothingTwice() throws Exception {
        LogStore store = openStore();
        CrashAfterCommit crashing = new CrashAfterCommit(store);
        LogSubscriber logger = startLogger(crashing);
        String id = transfer(1);
        awaitSuccessful(store, id);
        await("the redelivered records recognised", 30, () -> logger.duplicates() > 0);
        assertThat(crashing.crashNext).isFalse();
        stopLogger(logger);
        assertThat(rows(id)).isEqualTo(3);
    }

    @Test
    void aCoordinationQueueManagerRestartLosesNothing() throws Exception {
        LogStore store = openStore();
        startLogger(store);
        String before = transfer(1);
        awaitSuccessful(store, before);
        h.stopCoordination();
        String during = transfer(2);
        h.startCoordination();
        String after = transfer(3);
        awaitSuccessful(store, during);
        awaitSuccessful(store, after);
        assertThat(rows(during)).isEqualTo(3);
        assertThat(rows(after)).isEqualTo(3);
    }

    @Test
    void aRecordTheDatabaseRefusesGoesToTheRejectQueueWithTheReason() throws Exception {
        LogStore store = openStore();
        LogSubscriber logger = startLogger(store);
        String orphan = "414d5120514d4320202020202020202000000000000000ff";
        String progress = """
                <?xml version="1.0" encoding="UTF-8"?>
                <transaction version="6.00" ID="%s" agentRole="sourceAgent"
                    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="TransferLog.xsd">
                  <action time="2026-11-22T10:00:00.000Z">progress</action>
                  <sourceAgent agent="SRC" QMgr="QMA"/><destinationAgent agent="DST" QMgr="QMA"/>
                  <transferSet index="0" size="1" startTime="2026-11-22T09:59:59.000Z" total="1" bytesSent="1">
                    <item mode="binary"><source disposition="leave" type="file"><file size="1">/a</file></source>
                      <destination exist="error" type="file"><file size="1">/b</file></destination>
                      <status resultCode="0"/></item>
                  </transferSet>
                </transaction>
                """.formatted(orphan);
        try (Connection c = h.coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createTopic(Publications.TOPIC))) {
                TextMessage m = s.createTextMessage(progress);
                m.setStringProperty(Publications.TOPIC_STRING_PROPERTY, Publications.log("SRC", orphan));
                p.send(m);
                TextMessage junk = s.createTextMessage("<transaction>not a log");
                junk.setStringProperty(Publications.TOPIC_STRING_PROPERTY, Publications.log("SRC", "junk"));
                p.send(junk);
            }
            c.start();
            MessageConsumer rejects = s.createConsumer(s.createQueue(QueueNames.loggerReject("LOG1")));
            List<Message> got = new ArrayList<>();
            for (Message m = rejects.receive(30_000); m != null && got.size() < 2; m = rejects.receive(5_000)) {
                got.add(m);
            }
            assertThat(got).hasSize(2);
            assertThat(got).extracting(m -> {
                try {
                    return m.getStringProperty(LogSubscriber.REASON_PROPERTY);
                } catch (jakarta.jms.JMSException e) {
                    throw new AssertionError(e);
                }
            }).anySatisfy(r -> assertThat(r).contains(orphan))
                    .anySatisfy(r -> assertThat(r).containsIgnoringCase("not a valid transfer log"));
            assertThat(((TextMessage) got.get(0)).getText()).isNotBlank();
        }
        assertThat(logger.rejected()).isEqualTo(2);
        // The logger goes on storing good records.
        String id = transfer(1);
        awaitSuccessful(store, id);
    }

    /**
     * Also the logger's metrics ({@code openmft.metrics.port} in logger.properties), scraped and read
     * by a real Prometheus parser: the refusal stored once and once a duplicate, the unreadable one
     * rejected, and the lag from the refusal's own time to its storage, on a clock 5 s later.
     */
    @Test
    void anAuthorityRefusalIsStoredOnceInAuthEventAndAnUnreadableOneIsRejected() throws Exception {
        PrometheusScrapes parser = PrometheusScrapes.in(dir);
        LoggerConfig withMetrics = LoggerConfig.from(Map.of("wmqfte.logger.type", "DATABASE",
                "wmqfte.queue.manager", "QMC", "openmft.metrics.port", "0"), "LOG1", Map.of());
        LogSubscriber logger;
        try (ProcessMetrics metrics = ProcessMetrics.start(withMetrics.metrics().orElseThrow(), "logger", "LOG1",
                "logger LOG1")) {
            LoggerMeters store = new LoggerMeters(openStore(), metrics.registry(),
                    java.time.Clock.fixed(Instant.parse("2026-11-22T10:00:05Z"), java.time.ZoneOffset.UTC));
            logger = startLogger(store);
            store.watch(logger);
            refusalsArePublished(logger);
            List<Sample> samples = parser.await(metrics.port(), "the refusal stored",
                    x -> value(x, "openmft_logger_publications_total", "logger=LOG1,status=duplicate,type=not_authorized")
                            == 1.0);
            assertThat(value(samples, "openmft_logger_publications_total",
                    "logger=LOG1,status=stored,type=not_authorized")).isEqualTo(1.0);
            assertThat(value(samples, "openmft_logger_publications_total", "logger=LOG1,status=stored,type=transfer"))
                    .isZero();
            assertThat(value(samples, "openmft_logger_rejected_total", "logger=LOG1")).isEqualTo(1.0);
            assertThat(value(samples, "openmft_logger_publication_lag_seconds_count", "logger=LOG1")).isEqualTo(1.0);
            assertThat(value(samples, "openmft_logger_publication_lag_seconds_sum", "logger=LOG1")).isEqualTo(5.0);
            assertThat(value(samples, "openmft_logger_store_seconds_count", "logger=LOG1")).isPositive();
            assertThat(value(samples, "openmft_logger_store_seconds_sum", "logger=LOG1")).isPositive();
            assertThat(value(samples, "openmft_logger_store_failures_total", "logger=LOG1")).isZero();
            assertThat(value(samples, "openmft_logger_reject_limit_reached_total", "logger=LOG1")).isZero();
            assertThat(value(samples, "openmft_logger_connected", "logger=LOG1")).isEqualTo(1.0);
        }
        assertThat(logger.stored()).isEqualTo(1);
        assertThat(logger.notAuthorized()).isEqualTo(3);
        assertThat(logger.rejected()).as("only the unreadable refusal").isEqualTo(1);
        assertThat(count("select count(*) from FTELOG.AUTH_EVENT where COMMAND_ID = ? and ACTION = 'not_authorized'"
                + " and AUTHORITY = 'transfer' and ORIGINATOR_MQ_USER = 'mallory' and RESULTCODE = 53"
                + " and AGENT = 'SRC' and ORIGINAL_XML_REQUEST = '<request version=\"6.00\"/>'", REFUSED_REQUEST))
                .isEqualTo(1);
    }

    private static final String REFUSED_REQUEST = "ID:414d5120514d4320202020202020202000000000000000aa";

    /** Publishes a refusal twice and an unreadable one between, and waits until all are handled. */
    private void refusalsArePublished(LogSubscriber logger) throws Exception {
        String requestId = REFUSED_REQUEST;
        // What an agent with authorityChecking=true publishes (AgentPublisher.notAuthorized), delivered twice.
        String refusal = new PublicationWriter().write(new NotAuthorizedLog("6.00", requestId, "sourceAgent",
                java.time.Instant.parse("2026-11-22T10:00:00Z"), new AgentRef("SRC", "QMA"), "mallory", "transfer",
                53, List.of("BFGCH0083E: User mallory does not have the authority (TRANSFER) required to start a"
                        + " transfer on agent SRC.", "<request version=\"6.00\"/>")));
        String unreadable = "<notAuthorized version=\"6.00\" ID=\"x\" agentRole=\"sourceAgent\">cut short";
        try (Connection c = h.coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createTopic(Publications.TOPIC))) {
                for (String body : List.of(refusal, unreadable, refusal)) {
                    TextMessage m = s.createTextMessage(body);
                    m.setStringProperty(Publications.TOPIC_STRING_PROPERTY, Publications.notAuthorized("SRC"));
                    p.send(m);
                }
            }
            c.start();
            Message rejected = s.createConsumer(s.createQueue(QueueNames.loggerReject("LOG1"))).receive(30_000);
            assertThat(rejected).as("the unreadable refusal on the reject queue").isNotNull();
            assertThat(((TextMessage) rejected).getText()).isEqualTo(unreadable);
            assertThat(rejected.getStringProperty(LogSubscriber.REASON_PROPERTY))
                    .contains("not a valid NotAuthorized log message");
        }
        await("both deliveries of the refusal handled", 60, () -> logger.stored() + logger.duplicates() == 2);
    }

    @Test
    void callResultsScheduleLogsAndMonitorLogsAreStoredOnceInIbmsTablesAndABadOneIsRejected() throws Exception {
        LogStore store = openStore();
        LogSubscriber logger = startLogger(store);
        String id = "414d5120514d4320202020202020202000000000000000c1";
        String monitorId = "414d5120514d4320202020202020202000000000000000c2";
        Instant t = Instant.parse("2026-11-22T10:00:00Z");
        AgentRef src = new AgentRef("SRC", "QMA");
        AgentRef dst = new AgentRef("DST", "QMB");
        Originator alice = new Originator("host1", "alice", "alice");
        // As the agent writes them (AgentPublisher: PublicationWriter and SchedulePublications), on their topics.
        PublicationWriter writer = new PublicationWriter();
        // Started by -tr file=exist,/in/a.ctl: the started message carries the trigger (AgentPublisher).
        String started = writer.write(new TransferLog("6.00", id, TransferLog.SOURCE_AGENT, LogAction.STARTED, t, src,
                dst, alice, "JOBC", t, 1, -1, -1, List.of(), null, List.of(), null, Map.of()), new TransferTrigger(true,
                List.of(new TransferTrigger.FileExist("=", "exist", "/in/a.ctl"))), null);
        String completed = writer.write(new TransferLog("6.00", id, TransferLog.SOURCE_AGENT, LogAction.COMPLETED,
                t.plusSeconds(2), src, dst, alice, "JOBC", t, 1, 10, -1, List.of(), 0, List.of(), null, Map.of(),
                List.of(new LogCall("postSourceCall", new ProgramCall(CallType.EXECUTABLE, "archive.sh",
                        List.of("/in/a.txt"), 2, 1, SuccessCodes.of("0")), "success", 2, 0, List.of("archived"),
                        List.of("slow disk"), null))));
        String submit = SchedulePublications.write(new ScheduleLog(7, "submit", t, alice, new TransferSchedule("UTC",
                null, LocalDateTime.of(2026, 11, 23, 6, 0), "days", 1, 0, null), src, dst, 0, List.of(), 0,
                List.of(new ScheduleList.Item("/in/a.txt", "/out/a.txt", "binary")), "JOBC"));
        String create = writer.write(new MonitorLog("6.00", "MONC", monitorId, alice, "create", t, src, 0, List.of()));
        // One poll with three files and batch size 1: a log per submitted task (MonitorService), each
        // with its file's metadata and its transfer's id.
        List<String> fired = new ArrayList<>();
        for (String file : List.of("a.txt", "b.txt", "c.txt")) {
            fired.add(writer.write(new MonitorLog("6.00", "MONC", monitorId, alice, "triggerSatisfied",
                    t.plusSeconds(60), src, 0, List.of("/in/" + file), Map.of("FILENAME", file), Map.of(),
                    "414d5120514d43202020202020202020000000000000d0" + file.charAt(0) + "0")));
        }
        // A managed call, as AgentPublisher writes it: callStarted, then callCompleted (sent twice).
        String callId = "414d5120514d4320202020202020202000000000000000c3";
        ProgramCall rotate = new ProgramCall(CallType.EXECUTABLE, "rotate.sh", List.of("/var/log/app"), 1, 30,
                SuccessCodes.of("0|4"));
        String callStarted = writer.write(new TransferLog("6.00", callId, TransferLog.SOURCE_AGENT,
                LogAction.CALL_STARTED, t, src, null, alice, "ROTATE", null, -1, -1, -1, List.of(), null, List.of(),
                null, Map.of(), List.of(LogCall.started("call", rotate))));
        String callCompleted = writer.write(new TransferLog("6.00", callId, TransferLog.SOURCE_AGENT,
                LogAction.CALL_COMPLETED, t.plusSeconds(1), src, null, alice, "ROTATE", null, -1, -1, -1, List.of(), 0,
                List.of("The managed call 'rotate.sh' ended with outcome success (return code 4)."), null, Map.of(),
                List.of(new LogCall("call", rotate, "success", 0, 4, List.of("rotated"), List.of(), null))));
        String hostile = create.replace(">create<", ">explode<");
        String monitorTopic = Publications.monitorLog("SRC", "MONC", monitorId);
        try (Connection c = h.coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createTopic(Publications.TOPIC))) {
                String[][] publications = {{Publications.log("SRC", id), started}, {Publications.log("SRC", id),
                        completed}, {Publications.log("SRC", id), completed}, {Publications.log("SRC", "7"), submit},
                        {Publications.log("SRC", "7"), submit}, {monitorTopic, create}, {monitorTopic, fired.get(0)},
                        {monitorTopic, fired.get(1)}, {monitorTopic, fired.get(2)}, {monitorTopic, hostile}, {Publications.log("SRC", callId), callStarted},
                        {Publications.log("SRC", callId), callCompleted}, {Publications.log("SRC", callId),
                        callCompleted}};
                for (String[] publication : publications) {
                    TextMessage m = s.createTextMessage(publication[1]);
                    m.setStringProperty(Publications.TOPIC_STRING_PROPERTY, publication[0]);
                    p.send(m);
                }
            }
            c.start();
            Message rejected = s.createConsumer(s.createQueue(QueueNames.loggerReject("LOG1"))).receive(30_000);
            assertThat(rejected).as("the hostile monitor log on the reject queue").isNotNull();
            assertThat(((TextMessage) rejected).getText()).isEqualTo(hostile);
            assertThat(rejected.getStringProperty(LogSubscriber.REASON_PROPERTY))
                    .contains("not a valid monitor log message", "unknown action \"explode\"");
        }
        await("every publication handled", 60, () -> logger.stored() + logger.duplicates() == 12);
        assertThat(logger.stored()).isEqualTo(9);
        assertThat(logger.rejected()).isEqualTo(1);
        assertThat(logger.scheduleLogs()).isEqualTo(2);
        assertThat(logger.monitorLogs()).isEqualTo(5);
        assertThat(count("select count(*) from FTELOG.TRANSFER_CALLS t join FTELOG.CALL c on c.ID = t.POST_SOURCE_CALL"
                + " join FTELOG.CALL_RESULT r on r.CALL_ID = c.ID join FTELOG.CALL_ARGUMENT a on a.CALL_ID = c.ID"
                + " where t.TRANSFER_ID = ? and c.COMMAND = 'archive.sh' and c.OUTCOME = 'success' and r.SEQUENCE = 3"
                + " and r.RETURN_CODE = 0 and r.STDOUT = 'archived' and r.STDERR = 'slow disk'"
                + " and a.ARGUMENT_VALUE = '/in/a.txt'", id)).isEqualTo(1);
        assertThat(count("select count(*) from FTELOG.SCHEDULE s join FTELOG.SCHEDULE_ACTION a on a.SCHEDULE_ID = s.ID"
                + " join FTELOG.SCHEDULE_ITEM i on i.SCHEDULE_SPEC_ID = a.SPEC_AFTER_ID where s.AGENT = ?"
                + " and s.ID_ON_AGENT = 7 and a.ACTION = 'submit' and i.SOURCE_FILENAME = '/in/a.txt'", "SRC"))
                .isEqualTo(1);
        assertThat(count("select count(*) from FTELOG.MONITOR m join FTELOG.MONITOR_ACTION a on a.MONITOR_ID = m.ID"
                + " where m.REFERENCE_ID = ? and m.NAME = 'MONC' and a.ACTION in ('create', 'triggerSatisfied')",
                monitorId)).isEqualTo(4);
        for (String file : List.of("a.txt", "b.txt", "c.txt")) {
            assertThat(count("select count(*) from FTELOG.MONITOR_METADATA d join FTELOG.MONITOR_ACTION a on a.ID ="
                    + " d.ACTION_ID where a.ACTION = 'triggerSatisfied' and d.PHASE = 'original' and d.\"KEY\" ="
                    + " 'FILENAME' and d.\"VALUE\" = ? and a.RESULT_TEXT = '/in/" + file + "' and a.TASK_REQUEST_ID ="
                    + " '414d5120514d43202020202020202020000000000000d0" + file.charAt(0) + "0'", file))
                    .as("the metadata and transfer of the trigger of %s, on its own action", file).isEqualTo(1);
        }
        assertThat(count("select count(*) from FTELOG.TRIGGER_CONDITION where TRANSFER_ID = ? and CONDITION_TYPE ="
                + " 'fileExist' and COMPARISON = '=' and \"VALUE\" = 'exist' and FILENAME = '/in/a.ctl'", id))
                .isEqualTo(1);
        // The managed call: a CALL_REQUEST row per log message, stored once; the completed one names its call.
        assertThat(count("select count(*) from FTELOG.CALL_REQUEST q where q.REQUEST_ID = ? and q.AGENT = 'SRC'"
                + " and q.AGENT_QM = 'QMA' and q.JOB_NAME = 'ROTATE' and q.ORIGINATOR_USER = 'alice'", callId))
                .isEqualTo(2);
        assertThat(count("select count(*) from FTELOG.CALL_REQUEST q where q.REQUEST_ID = ? and q.ACTION ="
                + " 'callStarted' and q.CALL_ID is null and q.RESULTCODE is null", callId)).isEqualTo(1);
        assertThat(count("select count(*) from FTELOG.CALL_REQUEST q join FTELOG.CALL c on c.ID = q.CALL_ID"
                + " join FTELOG.CALL_RESULT r on r.CALL_ID = c.ID join FTELOG.CALL_ARGUMENT a on a.CALL_ID = c.ID"
                + " where q.REQUEST_ID = ? and q.ACTION = 'callCompleted' and q.RESULTCODE = 0"
                + " and c.COMMAND = 'rotate.sh' and c.SUCCESS_RC = '0|4' and r.RETURN_CODE = 4 and r.STDOUT = 'rotated'"
                + " and a.ARGUMENT_VALUE = '/var/log/app'", callId)).isEqualTo(1);
    }

    /** Publishes {@code n} log publications no logger can read, each with its own body. */
    private List<String> publishUnreadable(String tag, int n) throws Exception {
        List<String> bodies = new ArrayList<>();
        try (Connection c = h.coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createTopic(Publications.TOPIC))) {
                for (int i = 0; i < n; i++) {
                    String body = "<transaction>not a log " + tag + " " + i;
                    TextMessage m = s.createTextMessage(body);
                    m.setStringProperty(Publications.TOPIC_STRING_PROPERTY, Publications.log("SRC", tag + i));
                    p.send(m);
                    bodies.add(body);
                }
            }
        }
        return bodies;
    }

    /** Takes {@code n} messages off the reject queue (each within 30 s) and returns their bodies. */
    private List<String> takeRejects(int n) throws Exception {
        List<String> bodies = new ArrayList<>();
        try (Connection c = h.coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer rejects = s.createConsumer(s.createQueue(QueueNames.loggerReject("LOG1")));
            c.start();
            for (int i = 0; i < n; i++) {
                Message m = rejects.receive(30_000);
                assertThat(m).as("reject %d of %d", i + 1, n).isNotNull();
                bodies.add(((TextMessage) m).getText());
            }
        }
        return bodies;
    }

    private LoggerConfig withMaxConsecutiveReject(int max) throws Exception {
        return LoggerConfig.from(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager", "QMC",
                "wmqfte.queue.manager.host", "127.0.0.1", "wmqfte.queue.manager.port", String.valueOf(h.coordPort),
                "wmqfte.max.transaction.messages", "5", "wmqfte.max.consecutive.reject", String.valueOf(max),
                "loggerQMgrAuthenticationCredentialsFile", dir.resolve("logger-credentials.xml").toString()),
                "LOG1", Map.of());
    }

    @Test
    void asManyRejectsInARowAsTheLimitAllowsGoToTheRejectQueue() throws Exception {
        assertThat(config.maxConsecutiveReject()).isEqualTo(3);
        LogStore store = openStore();
        LogSubscriber logger = startLogger(store);
        List<String> bad = publishUnreadable("atlimit", 3);
        await("three records rejected", 60, () -> logger.rejected() == 3);
        assertThat(takeRejects(3)).containsExactlyInAnyOrderElementsOf(bad);
        // A good record after them is stored: the run of rejects ends, and the limit was not reached.
        String id = transfer(1);
        awaitSuccessful(store, id);
        assertThat(logger.rejectLimitReached()).isZero();
        assertThat(logger.rejected()).isEqualTo(3);
    }

    @Test
    void oneRejectPastTheLimitRollsBackAndTheRecordsWaitOnTheSubscription() throws Exception {
        LogStore store = openStore();
        // The durable subscription exists from the first start; the records arrive while it is stopped.
        stopLogger(startLogger(store));
        List<String> bad = publishUnreadable("past", 4);
        LogSubscriber strict = startLogger(store);
        await("the reject limit reached", 60, () -> strict.rejectLimitReached() > 0);
        // Whatever the batches were, the fourth reject in a row was rolled back with its transaction.
        assertThat(strict.rejected()).as("records put on the reject queue by the logger that hit its limit")
                .isLessThan(4);
        stopLogger(strict);

        // Nothing was lost: a logger allowed more rejects in a row takes the rest off the subscription.
        LogSubscriber lenient = startLogger(store, withMaxConsecutiveReject(10));
        long before = strict.rejected();
        await("every record rejected once", 60, () -> before + lenient.rejected() == 4);
        assertThat(takeRejects(4)).containsExactlyInAnyOrderElementsOf(bad);
        assertThat(lenient.rejectLimitReached()).isZero();
        String id = transfer(1);
        awaitSuccessful(store, id);
        assertThat(before + lenient.rejected()).as("rejected, all loggers together").isEqualTo(4);
    }
}
