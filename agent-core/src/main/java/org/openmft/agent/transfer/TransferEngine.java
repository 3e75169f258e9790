package org.openmft.agent.transfer;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;

import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ResultCode;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.authority.AuthorityCheck;
import org.openmft.agent.calls.CallRunner;
import org.openmft.agent.calls.CommandPath;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.exits.TransferExits;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.LostConnections;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.protection.MessageProtection;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.transfer.destination.Checkpointer;
import org.openmft.agent.transfer.destination.DataDispatcher;
import org.openmft.agent.transfer.destination.DestinationContext;
import org.openmft.agent.transfer.destination.DestinationSettings;
import org.openmft.agent.transfer.destination.DestinationTransfer;
import org.openmft.agent.transfer.failure.EngineStatus;
import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.agent.transfer.files.SandboxPolicy;
import org.openmft.agent.transfer.queue.QueueReader;
import org.openmft.agent.transfer.queue.QueueWriter;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.agent.transfer.recovery.DestinationRecovery;
import org.openmft.agent.transfer.recovery.SourceRecovery;
import org.openmft.agent.transfer.source.ManagedCalls;
import org.openmft.agent.transfer.source.QueuedTransfer;
import org.openmft.agent.transfer.source.ReplyDispatcher;
import org.openmft.agent.transfer.source.RequestAdmission;
import org.openmft.agent.transfer.source.RequesterReplies;
import org.openmft.agent.transfer.source.Sessions;
import org.openmft.agent.transfer.source.SourceContext;
import org.openmft.agent.transfer.source.SourcePlanner;
import org.openmft.agent.transfer.source.SourceScheduler;
import org.openmft.agent.transfer.source.SourceSettings;
import org.openmft.agent.transfer.source.SourceTransfer;
import org.openmft.agent.transfer.state.QueueStateStore;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateTag;
import org.openmft.agent.transfer.state.TransferStateStore;
import org.openmft.xml.CancelRequest;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ManagedCallRequest;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * An agent's transfers, in both roles: wires the rooms of the transfer core together on one
 * connection to the agent's queue manager.
 * <ul>
 *   <li>{@code source}: requests admitted ({@link RequestAdmission}), queued and run
 *       ({@link SourceScheduler}, {@link SourceTransfer}), answers routed ({@link ReplyDispatcher}),
 *       requesters answered ({@link RequesterReplies});</li>
 *   <li>{@code destination}: the DATA queue served ({@link DataDispatcher}), checkpoints made durable
 *       ({@link Checkpointer});</li>
 *   <li>{@code state}: the state port ({@link TransferStateStore}) on the STATE queue and the state
 *       directory;</li>
 *   <li>{@code recovery}: transfers taken back at start ({@link SourceRecovery},
 *       {@link DestinationRecovery});</li>
 *   <li>{@code protocol} and {@code failure}: the messages between agents, and the one error model.</li>
 * </ul>
 * A lost connection makes the agent replace its engine: this one suspends its transfers
 * ({@link #close()}), the next takes them back from their records.
 *
 * <p>Thread-safety: {@link #submit} and {@link #cancel} are called by the command thread; the
 * rest by the engine's own threads; the queries from any.
 */
public final class TransferEngine implements AutoCloseable, EngineStatus {
    private static final Logger log = LoggerFactory.getLogger(TransferEngine.class);
    /** How long {@link #close()} waits for each part to stop before saying it did not. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final AgentConfig config;
    private final QueueManagerConnector connector;
    private final AgentListener listener;
    private final String agentName;
    /** What a transfer key is derived under, beside the state tags of the same key. */
    private static final String TRANSFER_KEY_LABEL = "transfer key 1";
    private final Path stateDirectory;
    /** Where queue items are spooled; made at the first use. */
    private Path spoolDirectory;
    /** The source side's transfer keys, derived at start. */
    private ProtocolCodec.Keys keys;
    private final PathResolver pathResolver;
    private final Clock clock;
    private final ThreadFactory threads;
    private final AtomicLong arrival = new AtomicLong();
    private final Set<String> knownQueues = ConcurrentHashMap.newKeySet();
    private volatile IntConsumer activity = n -> { };
    private volatile boolean closing;
    private volatile boolean connectionLost;
    /** What the provider said when the connection failed, once it did; null if it said nothing. */
    private volatile JMSException connectionFailure;
    private volatile Runnable lost = () -> { };

    private Connection connection;
    /** Whether the connection went to {@link LostConnections} to be closed ({@link #closeLost}). */
    private boolean connectionHandedOver;
    private TransferStateStore state;
    private RequesterReplies replies;
    private volatile SourceScheduler scheduler;
    private volatile RequestAdmission admission;
    /** Managed calls, which hold source transfer slots of the scheduler. */
    private volatile ManagedCalls managedCalls;
    private ReplyDispatcher replyDispatcher;
    /** Read by the checkpointer's thread for the keys of its acknowledgements. */
    private volatile DataDispatcher dataDispatcher;
    private Checkpointer checkpointer;
    private final AuthorityCheck authorityCheck;
    private final MessageProtection protection;
    /** How messages reach agents on other queue managers. */
    private final Routing routing;
    /** Runs program calls within {@code commandPath}, {@code maxCommandOutputSize} and {@code openmft.callTimeout}. */
    private final CallRunner callRunner;
    /** The agent's user exits, loaded once by the agent. */
    private final TransferExits exits;

    /**
     * @param stateDirectory where transfer state that grows with the number of files is spilled
     *                       (the request documents of running transfers)
     * @param sandboxes the agent's sandboxes (see {@code sandbox.AgentSandboxes}), which outlive the
     *                  engine
     * @param authorityCheck what the queue manager says the senders of START and START_OK messages may do
     *                  ({@code authorityChecking=true}), which the agent owns and closes
     * @param clock   the time every deadline and time stamp of the transfer core comes from
     * @param threads makes the engine's threads (dispatchers, checkpointer, transfers); it should
     *                name them and handle what escapes them
     */
    public TransferEngine(AgentConfig config, QueueManagerConnector connector, AgentListener listener,
            Path stateDirectory, SandboxPolicy sandboxes, AuthorityCheck authorityCheck, MessageProtection protection,
            Clock clock, ThreadFactory threads, TransferExits exits) {
        this.exits = exits;
        this.protection = protection;
        this.config = config;
        this.connector = connector;
        this.listener = listener == null ? AgentListener.NONE : listener;
        this.agentName = config.agentName();
        this.stateDirectory = stateDirectory;
        this.authorityCheck = authorityCheck;
        this.clock = clock;
        this.threads = threads;
        this.pathResolver = new PathResolver(config.transferRoot(), sandboxes);
        this.routing = new Routing(config.provider(), config.agentQMgr());
        this.callRunner = new CallRunner(CommandPath.of(config.commandPath()), config.maxCommandOutputSize(),
                config.callTimeout());
    }

    /**
     * Receives the number of transfers in progress (running or queued, either role) whenever it
     * may have changed; the agent reports ACTIVE or READY from it.
     */
    public void onActivity(IntConsumer listener) {
        this.activity = listener;
    }

    /**
     * Told once when the engine learns that its connection is gone (the provider's exception
     * listener, or a failed probe), on whichever thread learned it; must not block. The agent's
     * command loop, which waits long for commands, is woken by it to reconnect.
     */
    public void onConnectionLost(Runnable listener) {
        this.lost = listener;
    }

    private void lost() {
        try {
            lost.run();
        } catch (RuntimeException e) {
            log.warn("Connection loss listener failed: {}", e.toString());
        }
    }

    private void activityChanged() {
        try {
            activity.accept(activeTransfers());
        } catch (RuntimeException e) {
            log.warn("Activity listener failed: {}", e.toString());
        }
    }

    /**
     * The keys of the transfers this agent is the source of: each is derived from the transfer id
     * with the agent's state key ({@link StateTag}: 32 random bytes in its private state directory),
     * under a label of its own so that no transfer key is also a state tag. The source never stores
     * one and finds it again after a restart. An agent without a state directory (tests) derives
     * from a secret kept in memory.
     */
    private ProtocolCodec.Keys transferKeys() throws QueueManagerException {
        StateTag secret;
        if (stateDirectory == null) {
            byte[] fresh = new byte[32];
            new SecureRandom().nextBytes(fresh);
            secret = StateTag.of(fresh);
        } else {
            try {
                secret = StateTag.open(stateDirectory);
            } catch (StateException e) {
                throw new QueueManagerException("agent " + agentName + " cannot derive its transfer keys: "
                        + e.getMessage(), QueueManagerException.CONFIGURATION, e);
            }
        }
        return id -> HexFormat.of().parseHex(secret.tag(TRANSFER_KEY_LABEL, id));
    }

    /** Connects, takes back the transfers of an earlier run, and starts serving the DATA and REPLY queues. */
    public void start() throws QueueManagerException {
        // What resuming transfers logs belongs in the agent's own log, whichever thread starts it.
        String previous = MDC.get(org.openmft.agent.Agent.MDC_AGENT);
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, agentName);
        try {
            keys = transferKeys();
            connectAndServe();
        } finally {
            if (previous == null) {
                MDC.remove(org.openmft.agent.Agent.MDC_AGENT);
            } else {
                MDC.put(org.openmft.agent.Agent.MDC_AGENT, previous);
            }
        }
    }

    private void connectAndServe() throws QueueManagerException {
        connection = connector.connect();
        try {
            connection.setExceptionListener(e -> {
                if (!connectionLost) {
                    connectionFailure = e;
                    connectionLost = true;
                    log.warn("Agent {}: the transfer connection to queue manager {} failed: {}", agentName,
                            config.agentQMgr(), ProviderErrors.describe(e));
                    lost();
                }
            });
            state = new QueueStateStore(connection, agentName, stateDirectory);
            replies = new RequesterReplies(connection.createSession(false, Session.AUTO_ACKNOWLEDGE),
                    config.provider(), connector::queueExists, routing);
            SourceContext sourceContext = new SourceContext(SourceSettings.of(config), new EngineSessions(),
                    listener, pathResolver, state, clock, this, keys, protection, routing, callRunner, exits,
                    queueReader());
            scheduler = new SourceScheduler(agentName, config.maxSourceTransfers(), listener, state, replies,
                    q -> new SourceTransfer(sourceContext, q.info(), q.request(), q.items(), q.replyQueue(),
                            q.requesterUser(), q.resume()),
                    threads, this::activityChanged);
            admission = new RequestAdmission(sourceContext.settings(), pathResolver, state, scheduler, clock, arrival,
                    threads, this::activityChanged, listener);
            RequestAdmission a = admission;
            managedCalls = new ManagedCalls(sourceContext.settings(), state, callRunner, scheduler, replies, listener,
                    arrival,
                    a::waitingCount, threads, this::activityChanged);
            checkpointer = new Checkpointer(agentName, connection, state, listener, threads, id -> {
                DataDispatcher d = dataDispatcher;
                return d == null ? null : d.keyOf(id);
            }, routing);
            dataDispatcher = new DataDispatcher(agentName, connection.createSession(false,
                    Session.DUPS_OK_ACKNOWLEDGE), authorityCheck, protection, routing, this::activityChanged, threads,
                    listener);
            dataDispatcher.runCallsWith(callRunner);
            DestinationContext destinationContext = new DestinationContext(DestinationSettings.of(config), listener,
                    pathResolver, state, clock, checkpointer, dataDispatcher, this, exits, queueWriter());
            dataDispatcher.context(destinationContext);
            for (DestinationTransfer t : DestinationRecovery.recover(destinationContext)) {
                dataDispatcher.adopt(t);
                listener.transferResumed(agentName, Role.DESTINATION, t.info(),
                        "waiting for source agent " + t.sourceAgent() + " after a restart");
            }
            SourceRecovery.Recovered recovered = SourceRecovery.recover(state, clock, arrival);
            replyDispatcher = new ReplyDispatcher(agentName, connection.createSession(false,
                    Session.AUTO_ACKNOWLEDGE), scheduler, threads, config.authorityChecking(), authorityCheck, keys,
                    listener);
            connection.start();
            replyDispatcher.start();
            dataDispatcher.start();
            for (QueuedTransfer q : recovered.queued()) {
                scheduler.enqueue(q);
            }
            for (SourcePlanner.Pending p : recovered.unplanned()) {
                admission.planner().submit(p);
            }
            for (SourceRecovery.Call c : recovered.calls()) {
                managedCalls.recovered(c.id(), c.request(), c.journaled(), c.replyQueue());
            }
        } catch (JMSException | StateException e) {
            // A failed start (the queue manager went again) leaves no thread behind.
            stopParts();
            closeConnection();
            throw new QueueManagerException("agent " + agentName + " cannot serve its transfer queues: "
                    + ProviderErrors.describe(e),
                    QueueManagerException.UNAVAILABLE, e);
        }
    }

    /** Where queue items wait (file to message, message to file): in the state directory. */
    private Path spoolDirectory() throws StateException {
        if (spoolDirectory == null) {
            try {
                spoolDirectory = stateDirectory != null ? stateDirectory.resolve("spool")
                        : java.nio.file.Files.createTempDirectory("openmft-spool-" + agentName);
            } catch (java.io.IOException e) {
                throw new StateException("no spool directory for queue items: " + e.getMessage(), e);
            }
        }
        return spoolDirectory;
    }

    /** Where source queues become files (message to file): browsed into spools, removed once delivered. */
    private QueueReader queueReader() throws StateException {
        return new QueueReader(config.enableQueueInputOutput(), config.maxInputOutputMessageLength(),
                QueueReader.MAX_MESSAGES, QueueReader.MAX_BYTES, spoolDirectory(),
                transacted -> connection.createSession(transacted, transacted ? Session.SESSION_TRANSACTED
                        : Session.AUTO_ACKNOWLEDGE), connector::queueExists, routing, clock);
    }

    /** Where received files become messages: spooled in the state directory, put in transactions. */
    private QueueWriter queueWriter() throws StateException {
        return new QueueWriter(config.enableQueueInputOutput(), config.maxInputOutputMessageLength(),
                config.maxDelimiterMatchLength(), spoolDirectory(),
                () -> connection.createSession(true, Session.SESSION_TRANSACTED), connector::queueExists, routing,
                config.provider() != org.openmft.agent.config.MessagingProvider.IBMMQ);
    }

    /** The transfers' sessions, on the engine's connection. */
    private final class EngineSessions implements Sessions {
        @Override
        public Session open() throws JMSException {
            return connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        }

        /**
         * Positive answers are remembered (agents' queues are not deleted), except for transmission
         * queues, which go with their channel or queue manager alias: a route removed is then
         * refused at once (49), as a route never made.
         */
        @Override
        public boolean queueExists(Session session, String queue) throws JMSException {
            if (knownQueues.contains(queue)) {
                return true;
            }
            boolean exists = connector.queueExists(session, queue);
            if (exists && !Routing.isTransmissionQueue(queue)) {
                knownQueues.add(queue);
            }
            return exists;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Commands

    /**
     * Admits a transfer request (see {@link RequestAdmission}).
     *
     * @return the acknowledgement to send the requester (result 0 with the transfer id), or the
     *         rejection (4 wrong agent, 44 too many queued, 46 too many files, 51 no source
     *         transfers allowed)
     */
    public CommandHandler.Outcome submit(TransferRequest request, CommandHandler.RequestContext context) {
        return admission.submit(request, context);
    }

    /**
     * Accepts a managed call (see {@link ManagedCalls}).
     *
     * @return the acknowledgement, or the refusal
     */
    public CommandHandler.Outcome submit(ManagedCallRequest request, CommandHandler.RequestContext context) {
        return managedCalls.submit(request, context);
    }

    /**
     * Cancels a queued or running transfer of this agent, as source or destination.
     *
     * @return the reply: 0 when the cancel was started, 26 when the id is unknown here
     */
    public CommandHandler.Outcome cancel(CancelRequest request, CommandHandler.RequestContext context) {
        String id = request.transferId();
        String requestId = TransferIds.forRequest(context.messageId(), config.agentQMgr());
        String user = context.requesterUser() != null ? context.requesterUser()
                : request.originator() == null ? "unknown" : request.originator().userId() + " (as written)";
        String supplement;
        ResultCode code = ResultCode.SUCCESS;
        // The planner first: a transfer it queues from now on finds the cancel there (settle).
        if (admission.planner().cancel(id) || scheduler.cancelQueued(id)) {
            supplement = "BFGCL0037I: Transfer " + id + " was cancelled before it started.";
        } else if (scheduler.cancelRunning(id, "cancelled by " + user)) {
            supplement = "BFGCL0038I: Cancelling transfer " + id + ".";
        } else if (cancelAtDestination(id, user)) {
            supplement = "BFGCL0038I: Cancelling transfer " + id + " (destination).";
        } else {
            code = ResultCode.CANCEL_ID_NOT_FOUND;
            supplement = "BFGCL0039E: Transfer " + id + " is not known to agent " + agentName + ".";
        }
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, requestId, code.code(),
                List.of(supplement), List.of()), request.reply(), code != ResultCode.SUCCESS);
    }

    /** A cancel at the destination asks the source to cancel: it stops sending and then cancels this side too. */
    private boolean cancelAtDestination(String id, String user) {
        DestinationTransfer t = dataDispatcher.find(id);
        if (t == null) {
            return false;
        }
        try {
            Session s = replies.session();
            synchronized (s) {
                Message m = new ProtocolCodec(s, dataDispatcher::keyOf).control(Wire.CANCEL_REQUEST, id, t.incarnation(),
                        "cancelled at the destination by " + user);
                String queue = QueueNames.reply(t.sourceAgent());
                routing.address(m, queue, t.sourceQMgr());
                replies.producer().send(routing.destination(s, queue, t.sourceQMgr()), m);
            }
            return true;
        } catch (JMSException e) {
            log.warn("Transfer {}: could not pass the cancel to the source: {}", id, ProviderErrors.describe(e));
            return false;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Status

    @Override
    public boolean stopping() {
        return closing;
    }

    /** Whether the engine knows its connection lost (no probe). */
    public boolean connectionLostFlag() {
        return connectionLost;
    }

    /**
     * The provider's exception for the lost connection, when the engine heard of it first (the
     * agent's command connection may report the same loss a moment later); null if none.
     */
    public JMSException connectionFailure() {
        return connectionFailure;
    }

    /**
     * Whether the engine's connection to its queue manager is gone: then the agent replaces the
     * engine, and the transfers it ran resume in the new one. A messaging failure may be seen by a
     * transfer before the provider reports the connection lost, so a failure to open a session
     * counts too.
     */
    @Override
    public boolean connectionLost() {
        if (connectionLost) {
            return true;
        }
        try {
            connection.createSession(false, Session.AUTO_ACKNOWLEDGE).close();
            return false;
        } catch (JMSException | RuntimeException e) {
            if (e instanceof JMSException j) {
                connectionFailure = j;
            }
            connectionLost = true;
            lost();
            return true;
        }
    }

    /** Transfers and managed calls running and waiting at this agent as source, and transfers running as destination. */
    public int activeTransfers() {
        return (scheduler == null ? 0 : scheduler.activeCount())
                + (managedCalls == null ? 0 : managedCalls.activeCount())
                + (admission == null ? 0 : admission.unplannedCount())
                + (dataDispatcher == null ? 0 : dataDispatcher.activeCount());
    }

    /** Refuses new transfer requests from now on (result 1, "agent stopping"); running ones go on. */
    public void stopAccepting() {
        if (scheduler != null) {
            scheduler.stopAccepting();
        }
    }

    /**
     * Ends everything now: running transfers are interrupted and suspended, keeping their records
     * and partial files so that they resume when the agent next starts; queued ones stay queued.
     * What does not stop within a bounded wait is said in the log.
     */
    @Override
    public void close() {
        closing = true;
        stopParts();
        closeConnection();
    }

    /**
     * As {@link #close}, after the agent found its connection lost: the parts stop as usual, and
     * the transfer connection is closed beside the reconnect ({@link LostConnections}), not on
     * the caller's thread, where a provider that has not yet heard of the loss could hold it for
     * its whole call timeout.
     */
    public void closeLost() {
        closing = true;
        stopParts();
        if (!connectionHandedOver) {
            connectionHandedOver = true;
            LostConnections.close(connection);
        }
    }

    /**
     * An immediate stop, from any thread: source transfers are interrupted at once and suspend
     * (they resume from their records at the next start) rather than at the agent's next look at
     * its command queue. {@link #close} follows as usual.
     */
    public void stopNow() {
        closing = true;
        SourceScheduler s = scheduler;
        if (s != null) {
            s.stopNow();
        }
        RequestAdmission a = admission;
        if (a != null) {
            a.planner().close(Duration.ZERO);
        }
        ManagedCalls calls = managedCalls;
        if (calls != null) {
            calls.close(Duration.ZERO);
        }
    }

    private void stopParts() {
        closing = true;
        if (admission != null) {
            admission.planner().close(STOP_WAIT);
        }
        if (managedCalls != null) {
            managedCalls.close(STOP_WAIT);
        }
        if (scheduler != null) {
            scheduler.close(STOP_WAIT);
        }
        if (dataDispatcher != null) {
            dataDispatcher.close(STOP_WAIT);
        }
        if (replyDispatcher != null) {
            replyDispatcher.close(STOP_WAIT);
        }
        if (checkpointer != null) {
            checkpointer.close(Duration.ofSeconds(10));
        }
        long dropped = (dataDispatcher == null ? 0 : dataDispatcher.rejected())
                + (replyDispatcher == null ? 0 : replyDispatcher.rejected());
        if (dropped > 0) {
            // The total, which the rate-limited lines of the dispatchers may not all have shown.
            log.warn("Agent {}: {} agent-to-agent message(s) were dropped unread since the transfer engine started"
                    + " (forged, damaged or with an invalid transfer id)", agentName, dropped);
        }
    }

    private void closeConnection() {
        if (connection != null && !connectionHandedOver) {
            try {
                connection.close();
            } catch (JMSException e) {
                log.debug("Closing the transfer connection: {}", e.getMessage());
            }
        }
    }
}
