package org.openmft.coordination.logger;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.lifecycle.Backoff;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.log.MalformedPublicationException;
import org.openmft.xml.log.NotAuthorizedLog;
import org.openmft.xml.log.PublicationReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A logger's work: a durable subscription to {@code SYSTEM.FTE/Log/#} on the coordination queue
 * manager, read in transactions of at most {@code wmqfte.max.transaction.messages} messages or
 * {@code wmqfte.max.transaction.time}, each stored in the {@link LogStore} before the messages are
 * acknowledged: transfer log messages (with their program calls' results), schedule logs
 * ({@code <schedulelog>}), monitor logs ({@code <monitorLog>}) and, on
 * {@code SYSTEM.FTE/Log/<agent>/NotAuthorized}, authority refusals. So nothing is lost across a
 * restart of the logger or of the queue manager; a record delivered again after a crash between
 * the two commits is recognised by its key and stored once.
 *
 * <p>A record the store can never take (unparseable, a progress for a transfer with no
 * {@code started}, a value too long for its column) is put, in the same transaction, on the reject
 * queue {@code SYSTEM.FTE.LOG.RJCT.<logger>} with the reason in {@value #REASON_PROPERTY}, and
 * logged. More than {@code wmqfte.max.consecutive.reject} rejects in a row mean a configuration
 * problem rather than bad records (IBM's rule): the transaction is rolled back and retried after a
 * pause of 30 s, so records are not emptied onto the reject queue. When the store is unavailable
 * the transaction is rolled back and retried, and a lost connection re-made, with the jittered
 * back-off {@link Backoff#RECONNECT} (1 s doubling to 30 s).
 *
 * <p>A text message {@value #STOP_COMMAND} on {@code SYSTEM.FTE.LOG.CMD.<logger>} stops it.
 */
public final class LogSubscriber implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(LogSubscriber.class);

    /** The property naming why a message was rejected (IBM's usr.WMQFTE_ReasonForRejection). */
    public static final String REASON_PROPERTY = "WMQFTE_ReasonForRejection";
    /** The command that stops a logger. */
    public static final String STOP_COMMAND = "stop";
    /** How the topic of IBM's authority refusals ends: {@code SYSTEM.FTE/Log/<agent>/NotAuthorized}. */
    private static final String NOT_AUTHORIZED_TOPIC_SUFFIX = "/NotAuthorized";
    /** The pause after too many consecutive rejects, before the transaction is tried again. */
    private static final long REJECTS_PAUSE_MILLIS = 30_000;

    private final LoggerConfig config;
    private final QueueManagerConnector coordination;
    private final LogStore store;
    private final PublicationReader reader = new PublicationReader();
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicLong stored = new AtomicLong();
    private final AtomicLong duplicates = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong notAuthorized = new AtomicLong();
    private final AtomicLong scheduleLogs = new AtomicLong();
    private final AtomicLong monitorLogs = new AtomicLong();
    private final AtomicLong rejectLimitReached = new AtomicLong();
    private volatile boolean connected;
    private int consecutiveRejects;

    public LogSubscriber(LoggerConfig config, QueueManagerConnector coordination, LogStore store) {
        this.config = config;
        this.coordination = coordination;
        this.store = store;
    }

    /** The JMS client id of the logger's connection; a second logger of the same name is refused. */
    public static String clientId(String logger) {
        return "SYSTEM.FTE.LOGGER." + logger;
    }

    /** The durable subscription's name, as IBM's automatic one. */
    public static String subscriptionName(LoggerConfig config) {
        return "SYSTEM.FTE." + config.loggerType().name() + "Logger.AUTO";
    }

    @Override
    public void run() {
        Backoff.Retries reconnects = Backoff.RECONNECT.retries();
        try {
            while (stopping.getCount() > 0) {
                try (Connection c = coordination.connect()) {
                    c.setClientID(clientId(config.loggerName()));
                    serve(c);
                    reconnects.reset();
                } catch (QueueManagerException | JMSException e) {
                    connected = false;
                    if (stopping.getCount() == 0) {
                        break;
                    }
                    long delayMillis = reconnects.next().toMillis();
                    log.warn("Logger {}: {}; retrying in {} ms", config.loggerName(), describe(e), delayMillis);
                    stopping.await(delayMillis, TimeUnit.MILLISECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            connected = false;
            stopped.countDown();
        }
    }

    private void serve(Connection c) throws JMSException, InterruptedException {
        Session session = c.createSession(true, Session.SESSION_TRANSACTED);
        Session commands = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        MessageConsumer consumer = Publications.subscribeDurably(session, coordination.endpoint().provider(),
                subscriptionName(config), "SYSTEM.FTE/Log/#");
        MessageProducer rejects = session.createProducer(session.createQueue(config.rejectQueueName()));
        MessageConsumer control = commands.createConsumer(commands.createQueue(config.commandQueueName()));
        c.start();
        connected = true;
        log.info("Logger {} subscribed to SYSTEM.FTE/Log/# on {} as {}", config.loggerName(),
                coordination.description(), subscriptionName(config));
        Backoff.Retries storeRetries = Backoff.RECONNECT.retries();
        while (stopping.getCount() > 0) {
            Message command = control.receiveNoWait();
            if (command instanceof TextMessage t && STOP_COMMAND.equalsIgnoreCase(t.getText().trim())) {
                log.info("Logger {}: stop requested", config.loggerName());
                stopping.countDown();
                break;
            }
            List<Message> batch = receiveBatch(consumer);
            if (batch.isEmpty()) {
                continue;
            }
            try {
                process(session, rejects, batch);
                storeRetries.reset();
            } catch (LogStoreException e) {
                session.rollback();
                long delayMillis = storeRetries.next().toMillis();
                log.warn("Logger {}: the database is unavailable ({}); {} record(s) stay on the subscription,"
                        + " retrying in {} ms", config.loggerName(), e.getMessage(), batch.size(), delayMillis);
                stopping.await(delayMillis, TimeUnit.MILLISECONDS);
            } catch (TooManyRejects e) {
                session.rollback();
                rejectLimitReached.incrementAndGet();
                log.error("Logger {}: more than {} consecutive records rejected (last: {}); this looks like a"
                        + " configuration problem, not bad records: nothing was rejected, retrying in 30 s",
                        config.loggerName(), config.maxConsecutiveReject(), e.getMessage());
                consecutiveRejects = 0;
                stopping.await(REJECTS_PAUSE_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
    }

    private List<Message> receiveBatch(MessageConsumer consumer) throws JMSException {
        List<Message> batch = new ArrayList<>();
        long end = System.nanoTime() + config.maxTransactionTime().toNanos();
        while (batch.size() < config.maxTransactionMessages()) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (left <= 0) {
                break;
            }
            Message m = consumer.receive(batch.isEmpty() ? Math.min(left, 200) : Math.min(left, 50));
            if (m == null) {
                if (batch.isEmpty()) {
                    return batch;
                }
                // Quiet: store what we have rather than wait out the transaction time.
                break;
            }
            batch.add(m);
        }
        return batch;
    }

    /** Thrown when rejects pile up; the transaction is rolled back. */
    private static final class TooManyRejects extends Exception {
        private static final long serialVersionUID = 1L;

        TooManyRejects(String last) {
            super(last, null, false, false);
        }
    }

    private void process(Session session, MessageProducer rejects, List<Message> batch)
            throws JMSException, LogStoreException, TooManyRejects {
        List<LogRecord> records = new ArrayList<>();
        List<String[]> refused = new ArrayList<>();
        Instant now = Instant.now();
        for (Message m : batch) {
            String body = body(m);
            String topic = m.getStringProperty(Publications.TOPIC_STRING_PROPERTY);
            if (body == null) {
                refused.add(new String[] {"", "not a text message (" + m.getClass().getSimpleName() + ")"});
                continue;
            }
            if (topic != null && topic.endsWith(NOT_AUTHORIZED_TOPIC_SUFFIX)) {
                // IBM's authority refusals share Log/#: stored as IBM's loggers do (AUTH_EVENT, [AUTH]).
                notAuthorized.incrementAndGet();
                try {
                    NotAuthorizedLog refusal = reader.readNotAuthorized(body);
                    records.add(new LogRecord(LogRecord.keyOf(body), topic, body, refusal, now));
                } catch (MalformedPublicationException | IllegalArgumentException e) {
                    refused.add(new String[] {body, "not a valid NotAuthorized log message: " + e.getMessage()});
                }
                continue;
            }
            String onTopic = topic == null ? "" : topic;
            String root = rootElement(body);
            try {
                // The kind is the root element's: schedule and monitor logs share Log/<agent>/# with transfers.
                // Managed calls' callStarted/callCompleted are <transaction>s too: the stores tell them by action.
                switch (root) {
                    case "schedulelog" -> {
                        scheduleLogs.incrementAndGet();
                        records.add(new LogRecord(LogRecord.keyOf(body), onTopic, body, reader.readScheduleLog(body),
                                now));
                    }
                    case "monitorLog" -> {
                        monitorLogs.incrementAndGet();
                        records.add(new LogRecord(LogRecord.keyOf(body), onTopic, body, reader.readMonitorLog(body),
                                now));
                    }
                    default -> records.add(new LogRecord(LogRecord.keyOf(body), onTopic, body, reader.readLog(body),
                            now));
                }
            } catch (MalformedPublicationException | IllegalArgumentException e) {
                String kind = switch (root) {
                    case "schedulelog" -> "schedule log";
                    case "monitorLog" -> "monitor log";
                    default -> "transfer log";
                };
                refused.add(new String[] {body, "not a valid " + kind + " message: " + e.getMessage()});
            }
        }
        List<StoreOutcome> outcomes = records.isEmpty() ? List.of() : store.storeAll(records);
        for (int i = 0; i < outcomes.size(); i++) {
            StoreOutcome o = outcomes.get(i);
            switch (o.status()) {
                case STORED -> {
                    stored.incrementAndGet();
                    consecutiveRejects = 0;
                }
                case DUPLICATE -> {
                    duplicates.incrementAndGet();
                    consecutiveRejects = 0;
                }
                case REJECTED -> refused.add(new String[] {records.get(i).xml(), o.reason()});
                default -> throw new IllegalStateException("unknown outcome " + o.status());
            }
        }
        for (String[] r : refused) {
            consecutiveRejects++;
            if (consecutiveRejects > config.maxConsecutiveReject()) {
                throw new TooManyRejects(r[1]);
            }
        }
        for (String[] r : refused) {
            TextMessage m = session.createTextMessage(r[0]);
            m.setStringProperty(REASON_PROPERTY, r[1]);
            rejects.send(m);
            rejected.incrementAndGet();
            log.warn("Logger {}: BFGDB0001E: a record was rejected and put on {}: {}", config.loggerName(),
                    config.rejectQueueName(), r[1]);
        }
        session.commit();
    }

    /**
     * The name of the document's root element, found without parsing (the reader parses it, hardened,
     * afterwards): the first tag after the declaration, comments, processing instructions and DOCTYPE;
     * empty when there is none.
     */
    static String rootElement(String body) {
        int i = 0;
        int n = body.length();
        while (true) {
            i = body.indexOf('<', i);
            if (i < 0 || i + 1 >= n) {
                return "";
            }
            char next = body.charAt(i + 1);
            if (next == '?' || next == '!') {
                String end = body.startsWith("<!--", i) ? "-->" : next == '?' ? "?>" : ">";
                int close = body.indexOf(end, i + 2);
                if (close < 0) {
                    return "";
                }
                i = close + end.length();
                continue;
            }
            int start = i + 1;
            int stop = start;
            while (stop < n && !Character.isWhitespace(body.charAt(stop)) && "/>".indexOf(body.charAt(stop)) < 0) {
                stop++;
            }
            return body.substring(start, stop);
        }
    }

    private static String body(Message m) throws JMSException {
        if (m instanceof TextMessage t) {
            return t.getText();
        }
        if (m instanceof BytesMessage b) {
            byte[] bytes = new byte[(int) Math.min(b.getBodyLength(), 16 << 20)];
            b.readBytes(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return null;
    }

    /** Asks the logger to stop after the transaction in progress. */
    public void stop() {
        stopping.countDown();
    }

    public boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the subscription is open. */
    public boolean connected() {
        return connected;
    }

    /** Records stored since start. */
    public long stored() {
        return stored.get();
    }

    /** Records recognised as already stored. */
    public long duplicates() {
        return duplicates.get();
    }

    /** Records put on the reject queue. */
    public long rejected() {
        return rejected.get();
    }

    /**
     * Authority refusals received on Log/#, whatever became of them (each is also counted as stored,
     * duplicate or rejected).
     */
    public long notAuthorized() {
        return notAuthorized.get();
    }

    /**
     * Schedule logs received on Log/#, whatever became of them (each is also counted as stored,
     * duplicate or rejected).
     */
    public long scheduleLogs() {
        return scheduleLogs.get();
    }

    /**
     * Monitor logs received on Log/#, whatever became of them (each is also counted as stored,
     * duplicate or rejected).
     */
    public long monitorLogs() {
        return monitorLogs.get();
    }

    /**
     * Transactions rolled back because more than {@code wmqfte.max.consecutive.reject} records in a
     * row were refused (none of them went to the reject queue; they are read again after a pause).
     */
    public long rejectLimitReached() {
        return rejectLimitReached.get();
    }

    private static String describe(Exception e) {
        return ProviderErrors.describe(e);
    }
}
