package org.openmft.client.internal;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.config.CommandConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.lifecycle.Backoff;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.client.MftClientException;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.RequestParser;

/**
 * A command's connection to its command queue manager ({@code command.properties}), as IBM MFT's
 * commands have: requests go to an agent's COMMAND queue, replies come back on a reply queue of
 * the command's own (IBM's {@code WMQFTE.*} dynamic queue). Requests carry a time-to-live equal to
 * the wait, so a request to an agent that is not running does not act later when it starts.
 *
 * <p>Two kinds of channel:
 * <ul>
 *   <li>{@link #open}: a temporary reply queue, for commands that wait seconds (ping, stop). A lost
 *       connection ends the wait with {@code BFGCL0257E} and exit code 75: the temporary queue, and
 *       any reply on its way to it, went with the connection.</li>
 *   <li>{@link #openForWait}: for the commands that wait for a transfer ({@code -w}). On Artemis
 *       the reply queue is a durable queue named {@code WMQFTE.<32 random hex digits>}, created by
 *       the command and deleted when it ends, and the replies to it are persistent (the agents send
 *       them so, see {@code TransferEngine.finished}). It survives a lost connection, a queue manager
 *       restart and a {@code kill -9} of the queue manager, with every reply that reached it: an
 *       agent whose final reply falls into the window while the command is disconnected leaves it
 *       there, and an agent that restarted sends it there too (it looks up the queue recorded with
 *       the transfer). The channel notices the loss, says so once through {@code notices}, and
 *       reconnects with a jittered back-off ({@link #RECONNECT}) within the caller's deadline.
 *       On IBM MQ a JMS client cannot create a permanent queue, so the reply queue stays a temporary
 *       one and a lost connection ends the wait as with {@link #open}.</li>
 * </ul>
 *
 * <p>What is left behind: nothing when the command ends by itself, by a failure or by Ctrl-C / a
 * {@code kill} (TERM), which run a shutdown hook that deletes the queue; after {@code kill -9}, or
 * when the queue manager is unreachable at the end, the durable reply queue stays on the queue
 * manager, holding at most the replies about the command's own request (the final reply of its
 * transfer once that ends). It is an ordinary queue named {@code WMQFTE.*} and can be deleted by
 * hand; nothing reads it.
 *
 * <p>Internal to OpenMFT (the command line and {@link org.openmft.client.MftClient} use it); not
 * part of the public API.
 *
 * <p>Not thread-safe, except {@link #close}, which may be called from a shutdown hook while the
 * command's thread waits.
 */
public final class CommandChannel implements AutoCloseable {
    /** The prefix of the durable reply queues, as IBM's commands name their dynamic queues. */
    public static final String REPLY_QUEUE_PREFIX = "WMQFTE.";
    /** The longest a receive blocks before the connection's state is looked at again. */
    private static final long RECEIVE_SLICE_MILLIS = 5_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final QueueManagerConnector connector;
    private final String qmgrName;
    private final Routing routing;
    /** The queue manager of the agents requests go to, or null for this one. */
    private volatile String targetQMgr;
    /** The durable reply queue's name, or null when the reply queue is temporary. */
    private final String durableQueue;
    private final Consumer<String> notices;
    /**
     * The pauses between a waiting command's attempts to reconnect: 0.5 s (a queue manager
     * restarted by {@code mft qmgr stop/start} is back in seconds) doubling to 10 s (a command
     * notices within that a queue manager that came back), jittered so that the commands that lost
     * the same queue manager do not all knock on it at the same moment. The caller's deadline
     * bounds the whole.
     */
    public static final Backoff RECONNECT = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(10), 2,
            Backoff.EQUAL_JITTER);

    private final Backoff.Retries backoff = RECONNECT.retries();
    private final DocumentWriter writer = new DocumentWriter();
    private final RequestParser parser = new RequestParser();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The provider's report that the current connection failed, set by its thread; one per connection. */
    private volatile AtomicReference<JMSException> failure = new AtomicReference<>();
    private Thread cleanup;

    private Connection connection;
    private Session session;
    private Queue replies;
    /** Set while the connection is lost: since when, and why (for the time-out message). */
    private Instant lostAt;
    private String lostReason;

    private CommandChannel(QueueManagerConnector connector, String qmgrName, String durableQueue,
            Consumer<String> notices, org.openmft.agent.config.MessagingProvider provider) {
        this.connector = connector;
        this.qmgrName = qmgrName;
        this.routing = new Routing(provider, qmgrName);
        this.durableQueue = durableQueue;
        this.notices = notices;
    }

    /** Connects to the command queue manager of the configuration options {@code coordination}. */
    public static CommandChannel open(DataDirectory dd, String coordination) throws Exception {
        return open(config(dd, coordination).endpoint(), dd.qmgrsDir());
    }

    /**
     * Connects to the command queue manager {@code endpoint}, with a temporary reply queue.
     *
     * @param qmgrsDirectory the data directory's queue managers (a local bindings queue manager is
     *     reached through what is recorded there), or null
     */
    public static CommandChannel open(QueueManagerEndpoint endpoint, java.nio.file.Path qmgrsDirectory)
            throws Exception {
        QueueManagerConnector connector = QueueManagerConnector.forCommand(endpoint, qmgrsDirectory, null);
        CommandChannel channel = new CommandChannel(connector, endpoint.qmgrName(), null, text -> { },
                endpoint.provider());
        channel.connectFirst();
        return channel;
    }

    /**
     * Connects to the command queue manager for a command that waits for a transfer, with a reply
     * queue that outlives a lost connection where the provider allows (see the class comment).
     *
     * @param notices told, one line each, when the connection is lost and when it is back
     */
    public static CommandChannel openForWait(DataDirectory dd, String coordination, Consumer<String> notices)
            throws Exception {
        return openForWait(config(dd, coordination).endpoint(), dd.qmgrsDir(), notices);
    }

    /** As {@link #openForWait(DataDirectory, String, Consumer)}, for a configuration read already. */
    public static CommandChannel openForWait(QueueManagerEndpoint endpoint, java.nio.file.Path qmgrsDirectory,
            Consumer<String> notices) throws Exception {
        QueueManagerConnector connector = QueueManagerConnector.forCommand(endpoint, qmgrsDirectory, null);
        String queue = null;
        if (connector.artemisUrl() != null) {
            queue = createReplyQueue(connector);
        }
        CommandChannel channel = new CommandChannel(connector, endpoint.qmgrName(), queue, notices,
                endpoint.provider());
        if (queue != null) {
            // Ctrl-C and kill (TERM) end the JVM without the caller's finally blocks: delete the queue then too.
            channel.cleanup = new Thread(channel::close, "openmft-reply-queue-cleanup");
            Runtime.getRuntime().addShutdownHook(channel.cleanup);
        }
        try {
            channel.connectFirst();
        } catch (Exception | Error e) {
            channel.close();
            throw e;
        }
        return channel;
    }

    /**
     * The command configuration ({@code command.properties}) of configuration options {@code coordination}.
     *
     * @throws MftClientException (code 78) when the file does not exist, saying how to make it
     */
    public static CommandConfig config(DataDirectory dd, String coordination) throws Exception {
        java.nio.file.Path file = dd.commandProperties(coordination);
        if (!java.nio.file.Files.exists(file)) {
            throw new MftClientException(MftClientException.CONFIGURATION, "no command configuration " + file
                    + ": run 'mft setup commands -connectionQMgr <QMGR>' first");
        }
        return CommandConfig.load(file, System.getenv());
    }

    /**
     * Creates a durable reply queue whose name nobody else uses: 128 random bits, and a queue that
     * exists already (it never should) is not taken.
     */
    private static String createReplyQueue(QueueManagerConnector connector) throws QueueManagerException {
        ArtemisQueueAdmin admin = new ArtemisQueueAdmin(connector);
        while (true) {
            byte[] unique = new byte[16];
            RANDOM.nextBytes(unique);
            String name = REPLY_QUEUE_PREFIX + HexFormat.of().withUpperCase().formatHex(unique);
            if (admin.createPrivateQueue(name)) {
                return name;
            }
        }
    }

    private void connectFirst() throws Exception {
        try {
            connect();
        } catch (JMSException e) {
            throw new MftClientException(MftClientException.QMGR_UNAVAILABLE, "cannot use " + connector.description() + ": "
                    + ProviderErrors.describe(e), e);
        }
    }

    /** Opens the connection, the session and the reply queue; throws when any of that fails. */
    private void connect() throws QueueManagerException, JMSException {
        if (durableQueue != null) {
            // It survives restarts; should the queue manager have lost it, it is made again.
            new ArtemisQueueAdmin(connector).createPrivateQueue(durableQueue);
        }
        Connection c = connector.connect();
        try {
            AtomicReference<JMSException> failed = new AtomicReference<>();
            c.setExceptionListener(e -> failed.compareAndSet(null, e));
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = durableQueue != null ? s.createQueue(durableQueue) : s.createTemporaryQueue();
            c.start();
            synchronized (this) {
                if (closed.get()) {
                    throw new JMSException("the command is ending");
                }
                connection = c;
                session = s;
                replies = q;
                failure = failed;
            }
        } catch (JMSException | RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    /** The command queue manager's name. */
    public String qmgrName() {
        return qmgrName;
    }

    /**
     * Sends the requests from now on to agents on {@code qmgr} (IBM's {@code -m}, {@code -sm}): through
     * the command queue manager's channel there when it is another queue manager; the replies come
     * back through the agent's queue manager's channel to this one.
     *
     * @param qmgr the agent's queue manager, or null for the command queue manager
     * @return this channel
     * @throws MftClientException when the name cannot be a queue manager's
     */
    public CommandChannel toQueueManager(String qmgr) throws MftClientException {
        if (qmgr != null && !qmgr.isBlank()) {
            try {
                Routing.validateQMgr(qmgr.trim());
            } catch (IllegalArgumentException e) {
                throw new MftClientException(MftClientException.FAILED, e.getMessage());
            }
        }
        this.targetQMgr = qmgr == null || qmgr.isBlank() ? null : qmgr.trim();
        return this;
    }

    /** The name of the reply queue, for a document's {@code <reply>} element. */
    public String replyQueueName() throws JMSException {
        return durableQueue != null ? durableQueue : replies.getQueueName();
    }

    /** Whether a lost connection is waited through (a durable reply queue). */
    public boolean resumable() {
        return durableQueue != null;
    }

    /**
     * When the connection is lost at the moment (a wait ended while reconnecting): since when and
     * why, for the time-out message; empty while connected.
     */
    public Optional<String> lostConnection() {
        if (lostAt == null) {
            return Optional.empty();
        }
        return Optional.of("the connection to queue manager " + qmgrName + " was lost at "
                + LocalTime.ofInstant(lostAt, ZoneId.systemDefault()).truncatedTo(ChronoUnit.SECONDS) + " ("
                + lostReason + ") and was not restored in that time");
    }

    /**
     * Puts a request on {@code queue} and waits for the first reply correlated to it. The request
     * is put once: when the connection fails while it is put, it may or may not have arrived, and
     * the command fails (a transfer request sent twice would be two transfers). A lost connection
     * afterwards is waited through on a {@linkplain #resumable resumable} channel.
     *
     * @return the reply, or empty when none arrived within {@code wait}
     */
    public Optional<Reply> request(String queue, CommandDocument document, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        checkQueue(queue);
        String requestId;
        try {
            requestId = send(queue, document, wait);
        } catch (JMSException e) {
            throw lost(e);
        }
        return receiveReply(requestId, deadline);
    }

    /**
     * As {@link #request}, for a request that may safely arrive twice (a cancel): on a resumable
     * channel a failure while it is put is waited through and the request put again.
     */
    public Optional<Reply> requestIdempotent(String queue, CommandDocument document, Duration wait) throws Exception {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            String requestId;
            try {
                checkQueue(queue);
                requestId = send(queue, document, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (JMSException | QueueManagerException e) {
                JMSException cause = e instanceof JMSException j ? j : new JMSException(e.getMessage());
                if (!reconnect(cause, deadline)) {
                    return Optional.empty();
                }
                continue;
            }
            return receiveReply(requestId, deadline);
        }
    }

    /**
     * Fails with BFGCL0014E when {@code queue} does not exist.
     *
     * @throws QueueManagerException when the queue manager cannot be asked
     */
    private void checkQueue(String queue) throws MftClientException, JMSException, QueueManagerException {
        String local = routing.localQueueFor(queue, targetQMgr);
        if (local == null) {
            return; // IBM MQ resolves QUEUE@QMGR itself, and reports what it cannot.
        }
        boolean exists;
        try {
            exists = connector.queueExists(session, local);
        } catch (jakarta.jms.InvalidDestinationException e) {
            exists = false;
        } catch (JMSException e) {
            if (e.getCause() instanceof QueueManagerException q) {
                throw q;
            }
            throw e;
        }
        if (!exists && !local.equals(queue)) {
            throw new MftClientException(MftClientException.FAILED, "BFGCL0014E: queue manager " + qmgrName + " has no channel to"
                    + " queue manager " + targetQMgr + " (its transmission queue " + local + " does not exist):"
                    + " create one with 'mft qmgr channel create', or name the agent's queue manager right");
        }
        if (!exists) {
            throw new MftClientException(MftClientException.FAILED, "BFGCL0014E: queue " + queue + " does not exist on queue"
                    + " manager " + qmgrName + ": is the agent name right, and was the agent created there?");
        }
    }

    /** Puts the request; returns its message id, which the reply carries as its correlation id. */
    private String send(String queue, CommandDocument document, Duration wait) throws JMSException {
        JMSException failed = failure.get();
        if (failed != null) {
            throw failed;
        }
        TextMessage m = session.createTextMessage(writer.write(document));
        m.setJMSReplyTo(replies);
        if (routing.isRemote(targetQMgr)) {
            routing.address(m, queue, targetQMgr);
            m.setStringProperty(Routing.REPLY_TO_QMGR, qmgrName);
        }
        try (MessageProducer producer = session.createProducer(routing.destination(session, queue, targetQMgr))) {
            producer.setTimeToLive(Math.max(1000, wait.toMillis()));
            producer.send(m);
        }
        return m.getJMSMessageID();
    }

    private Optional<Reply> receiveReply(String requestId, long deadline) throws Exception {
        Optional<Message> r = next(deadline, msg -> requestId == null || requestId.equals(msg.getJMSCorrelationID()));
        if (r.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(parser.parseReply(text(r.get())));
        } catch (MalformedRequestException e) {
            throw new MftClientException(MftClientException.FAILED, "the agent's reply could not be read: " + e.getMessage());
        }
    }

    /** Decides whether a received message is the one waited for. */
    @FunctionalInterface
    private interface Wanted {
        boolean test(Message m) throws JMSException;
    }

    /**
     * The first reply before {@code deadline} (a {@link System#nanoTime} value) that {@code wanted}
     * takes; others are skipped (they are consumed: the reply queue is this command's alone). On a
     * resumable channel a lost connection is waited through: messages delivered to this consumer
     * and not yet received go back to the durable queue with the connection, and are received
     * again after the reconnect.
     */
    private Optional<Message> next(long deadline, Wanted wanted) throws Exception {
        MessageConsumer consumer = null;
        try {
            while (true) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    return Optional.empty();
                }
                try {
                    if (consumer == null) {
                        consumer = session.createConsumer(replies);
                    }
                    Message r = consumer.receive(Math.min(left, RECEIVE_SLICE_MILLIS));
                    if (r != null) {
                        if (wanted.test(r)) {
                            return Optional.of(r);
                        }
                        continue;
                    }
                    // A receive cut short by a failed connection returns nothing, as a quiet queue does.
                    JMSException failed = failure.get();
                    if (failed != null) {
                        throw failed;
                    }
                } catch (JMSException e) {
                    closeQuietly(consumer);
                    consumer = null;
                    if (!reconnect(e, deadline)) {
                        return Optional.empty();
                    }
                }
            }
        } finally {
            closeQuietly(consumer);
        }
    }

    /**
     * After {@code cause}: says so once, then reconnects with back-off until {@code deadline}.
     *
     * @return true when connected again, false when the deadline passed first
     * @throws MftClientException when the channel cannot wait through a lost connection, or is closing
     */
    private boolean reconnect(JMSException cause, long deadline) throws MftClientException, InterruptedException {
        if (durableQueue == null || closed.get()) {
            throw lost(cause);
        }
        if (lostAt == null) {
            // Said once per outage, however many attempts and waits it spans, with the provider's
            // reason for the connection's failure rather than its consequence (a closed consumer).
            JMSException reported = failure.get();
            lostAt = Instant.now();
            lostReason = ProviderErrors.describe(reported != null ? reported : cause);
            notices.accept("BFGCL0255W: Lost the connection to queue manager " + qmgrName + " (" + lostReason
                    + "); reconnecting. Replies wait on queue " + durableQueue + " meanwhile.");
        }
        closeConnection();
        backoff.reset();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            Thread.sleep(Math.max(1, Math.min(backoff.next().toMillis(), left / 1_000_000)));
            if (closed.get()) {
                throw lost(cause);
            }
            try {
                connect();
            } catch (QueueManagerException | JMSException | RuntimeException e) {
                lostReason = ProviderErrors.describe(e);
                continue;
            }
            notices.accept("BFGCL0256I: Reconnected to queue manager " + qmgrName + " after "
                    + Duration.between(lostAt, Instant.now()).toSeconds() + " seconds; still waiting.");
            lostAt = null;
            lostReason = null;
            return true;
        }
    }

    private MftClientException lost(JMSException e) {
        return new MftClientException(MftClientException.QMGR_UNAVAILABLE, "BFGCL0257E: Lost the connection to queue manager "
                + qmgrName + " while waiting for the reply (" + ProviderErrors.describe(e) + ")"
                + (durableQueue == null ? "; the reply queue was a temporary queue and went with it" : "")
                + ". A request already issued may still be acted on.", e);
    }

    private static String text(Message m) throws JMSException {
        String text = m instanceof TextMessage t ? t.getText() : null;
        return text == null ? "" : text;
    }

    /**
     * Waits for a later reply about {@code requestId} (a transfer's outcome), skipping others. On a
     * resumable channel a lost connection is waited through within {@code wait}.
     *
     * @return the reply, or empty when none arrived within {@code wait}
     */
    public Optional<Reply> awaitReply(String requestId, Duration wait) throws Exception {
        Reply[] found = new Reply[1];
        next(System.nanoTime() + wait.toNanos(), msg -> {
            try {
                Reply reply = parser.parseReply(text(msg));
                if (requestId.equals(reply.requestId())) {
                    found[0] = reply;
                    return true;
                }
            } catch (MalformedRequestException e) {
                // Not a reply document: keep waiting for ours.
            }
            return false;
        });
        return Optional.ofNullable(found[0]);
    }

    /** The originator block IBM's commands fill in: this host and the OS user. */
    public static Originator originator() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        return new Originator(host, System.getProperty("user.name"), null);
    }

    private synchronized void closeConnection() {
        closeQuietly(connection);
        connection = null;
    }

    /**
     * Closes the connection and deletes the durable reply queue with whatever it holds. When the
     * queue manager cannot be reached the queue stays (see the class comment) and
     * {@code notices} is told its name.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closeConnection();
        if (durableQueue == null) {
            return;
        }
        try {
            new ArtemisQueueAdmin(connector).deleteQueues(List.of(durableQueue));
        } catch (QueueManagerException e) {
            notices.accept("BFGCL0258W: The reply queue " + durableQueue + " could not be deleted: "
                    + e.getMessage() + "; it stays on queue manager " + qmgrName + " and can be deleted by hand.");
        }
        if (cleanup != null && Thread.currentThread() != cleanup) {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // The JVM is shutting down already: the hook finds the channel closed.
            }
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // The connection is gone or the command is ending; nothing to do.
        }
    }
}
