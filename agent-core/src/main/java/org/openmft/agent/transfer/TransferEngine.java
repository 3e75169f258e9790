package org.openmft.agent.transfer;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.Destination;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TextMessage;

import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.command.CommandIntake;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisTuning;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.transfer.files.PathRefusedException;
import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.agent.transfer.files.SandboxRules;
import org.openmft.agent.transfer.files.SelectedFile;
import org.openmft.agent.transfer.files.SourceSelection;
import org.openmft.agent.transfer.files.SourceSelectionException;
import org.openmft.agent.transfer.files.SourceSelector;
import org.openmft.agent.transfer.files.TooManyFilesException;
import org.openmft.agent.transfer.text.Encodings;
import org.openmft.xml.CancelRequest;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ItemResult;
import org.openmft.xml.Mode;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * An agent's transfers, in both roles. As source it validates and expands requests, queues them by
 * priority (at most {@code maxQueuedTransfers}), runs at most {@code maxSourceTransfers} at once,
 * each on a thread of its own ({@link SourceTransfer}), and routes the destinations' answers from
 * {@code SYSTEM.FTE.REPLY.<agent>} to them. As destination it serves
 * {@code SYSTEM.FTE.DATA.<agent>} on one dispatcher thread, running at most
 * {@code maxDestinationTransfers} ({@link DestinationTransfer}).
 *
 * <p>Thread-safety: {@link #submit} and {@link #cancel} are called by the command thread; the
 * rest by the engine's own threads.
 */
public final class TransferEngine implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TransferEngine.class);

    /** Per-item detail in a final reply stops at this many bytes (estimated, UTF-8 worst case). */
    static final long DETAILED_REPLY_MAX_BYTES = 1L << 20;

    private final AgentConfig config;
    private final QueueManagerConnector connector;
    private final AgentListener listener;
    private final String agentName;
    private final Path stateDirectory;
    private final PathResolver pathResolver;
    private final DocumentWriter writer = new DocumentWriter();
    private final AtomicLong arrival = new AtomicLong();
    private final CountDownLatch closing = new CountDownLatch(1);

    private final Object schedule = new Object();
    private final PriorityQueue<Queued> queued = new PriorityQueue<>(Comparator
            .comparingInt((Queued q) -> -q.request.transferSet().priority()).thenComparingLong(q -> q.arrival));
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private boolean accepting = true;

    private final Map<String, DestinationTransfer> incoming = new HashMap<>();
    private volatile java.util.function.IntConsumer activity = n -> { };

    private Connection connection;
    private Session replySession;
    /** Shared by threads that answer requesters, under its own lock. */
    private Session outSession;
    private MessageProducer outProducer;
    private Session dataSession;
    private MessageProducer dataProducer;
    private Checkpointer checkpointer;
    private StateStore sourceState;
    private Thread replyThread;
    private Thread dataThread;

    private record Queued(String id, TransferRequest request, List<PlannedItem> items, List<ItemOutcome> preFailed,
            Destination replyDestination, long arrival, TransferInfo info, SourceTransfer.Resume resume,
            String replyQueue) {
    }

    private record Running(SourceTransfer transfer, Thread thread, Queued queued) {
    }

    /**
     * @param stateDirectory where transfer state that grows with the number of files is spilled
     *                       (the request documents of running transfers)
     */
    public TransferEngine(AgentConfig config, QueueManagerConnector connector, AgentListener listener,
            Path stateDirectory) {
        this.config = config;
        this.connector = connector;
        this.listener = listener == null ? AgentListener.NONE : listener;
        this.agentName = config.agentName();
        this.stateDirectory = stateDirectory;
        this.pathResolver = new PathResolver(config.transferRoot(),
                config.sandboxRoot().map(SandboxRules::parse).orElse(SandboxRules.unrestricted()));
    }

    /**
     * Receives the number of transfers in progress (running or queued, either role) whenever it
     * may have changed; the agent reports ACTIVE or READY from it.
     */
    public void onActivity(java.util.function.IntConsumer listener) {
        this.activity = listener;
    }

    private void activityChanged() {
        try {
            activity.accept(activeTransfers());
        } catch (RuntimeException e) {
            log.warn("Activity listener failed: {}", e.toString());
        }
    }

    /** Connects and starts serving the agent's DATA and REPLY queues. */
    public void start() throws QueueManagerException {
        // What resuming transfers logs belongs in the agent's own log, whichever thread starts it.
        String previous = MDC.get(org.openmft.agent.Agent.MDC_AGENT);
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, agentName);
        try {
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
                }
            });
            Files.createDirectories(stateDirectory);
            replySession = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            outSession = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            outProducer = outSession.createProducer(null);
            Session sourceStateSession = connection.createSession(true, Session.SESSION_TRANSACTED);
            sourceState = new StateStore(sourceStateSession, QueueNames.state(agentName));
            dataSession = connection.createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
            dataProducer = dataSession.createProducer(null);
            dataProducer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            checkpointer = new Checkpointer(agentName, connection, listener);
            resumeDestinations();
            List<Queued> resumed = resumeSources();
            MessageConsumer replies = replySession.createConsumer(replySession.createQueue(QueueNames.reply(agentName)));
            MessageConsumer data = dataSession.createConsumer(dataSession.createQueue(QueueNames.data(agentName)));
            connection.start();
            replyThread = new Thread(() -> serveReplies(replies), "openmft-" + agentName + "-replies");
            dataThread = new Thread(() -> serveData(data), "openmft-" + agentName + "-data");
            replyThread.start();
            dataThread.start();
            for (Queued q : resumed) {
                enqueue(q);
            }
        } catch (JMSException | IOException e) {
            if (checkpointer != null) {
                // A failed start (the queue manager went again) leaves no thread behind.
                checkpointer.close();
            }
            closeConnection();
            throw new QueueManagerException("agent " + agentName + " cannot serve its transfer queues: "
                    + (e instanceof JMSException j ? ProviderErrors.describe(j) : e.getMessage()),
                    QueueManagerException.UNAVAILABLE, e);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Resuming after a restart

    /**
     * Takes back the destination transfers an earlier run left records of: each waits, as
     * recovering, for its source to resynchronise.
     */
    private void resumeDestinations() throws JMSException {
        for (Map<String, Object> record : checkpointer.load()) {
            String id = (String) record.get(Wire.TRANSFER_ID);
            try {
                DestinationTransfer t = DestinationTransfer.resume(this, record);
                t.awaitSource();
                synchronized (incoming) {
                    incoming.put(id, t);
                }
                listener.transferResumed(agentName, Role.DESTINATION, t.info(),
                        "waiting for source agent " + t.sourceAgent + " after a restart");
            } catch (IOException | RuntimeException e) {
                log.error("Transfer {}: cannot resume as destination: {}", id, e.toString());
            }
        }
    }

    /**
     * Takes back the source transfers an earlier run accepted: from their request, their planned
     * files and their results journal. Started ones resynchronise with their destination and
     * continue from where it is; the others are queued again.
     */
    private List<Queued> resumeSources() throws JMSException {
        List<Map<String, Object>> records;
        synchronized (sourceState) {
            records = sourceState.load("S");
        }
        List<Queued> out = new ArrayList<>();
        org.openmft.xml.RequestParser parser = new org.openmft.xml.RequestParser();
        for (Map<String, Object> record : records) {
            String id = (String) record.get(Wire.TRANSFER_ID);
            try {
                if (!(parser.parse(Files.readAllBytes(StateFiles.request(stateDirectory, id)))
                        instanceof TransferRequest request)) {
                    throw new IOException("the saved request is not a transfer request");
                }
                StateFiles.Plan plan = StateFiles.readPlan(StateFiles.items(stateDirectory, id));
                List<PlannedItem> items = new ArrayList<>();
                for (StateFiles.Planned p : plan.files()) {
                    TransferItem item = request.transferSet().items().get(p.requestItem());
                    Charset from = item.mode() == Mode.TEXT ? Encodings.forName(item.source().encoding()) : null;
                    Charset to = item.mode() == Mode.TEXT ? Encodings.forName(item.destination().encoding()) : null;
                    items.add(new PlannedItem(items.size(), p.file(), item, from, to));
                }
                List<ItemOutcome> preFailed = new ArrayList<>();
                for (StateFiles.PreFailed f : plan.preFailed()) {
                    preFailed.add(new ItemOutcome(-1, f.source(), f.destination(), 0, ItemOutcome.FAILED,
                            f.supplement(), null));
                }
                int incarnation = record.get(Wire.INCARNATION) instanceof Number n ? n.intValue() : 0;
                SourceTransfer.Resume resume = incarnation == 0 ? null
                        : new SourceTransfer.Resume(incarnation,
                                StateFiles.readJournal(StateFiles.sourceResults(stateDirectory, id)).results());
                Queued q = new Queued(id, request, items, preFailed, null, arrival.incrementAndGet(),
                        info(id, request, items, preFailed.size()), resume, (String) record.get(REPLY_QUEUE));
                log.info("Transfer {}: {} after a restart ({} files to {})", id,
                        resume == null ? "queued again" : "resuming", items.size(),
                        request.destinationAgent().agent());
                out.add(q);
            } catch (IOException | org.openmft.xml.MalformedRequestException | RuntimeException e) {
                log.error("BFGTR0092E: Transfer {} cannot be resumed: its saved state in {} is unusable ({}); it is"
                        + " abandoned", id, stateDirectory, e.toString());
                forgetSource(id);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------
    // Requests

    /**
     * Validates, expands and queues a transfer request.
     *
     * @return the acknowledgement to send the requester (result 0 with the transfer id), or the
     *         rejection (4 wrong agent, 44 too many queued, 46 too many files, 51 no source
     *         transfers allowed)
     */
    public CommandHandler.Outcome submit(TransferRequest request, CommandHandler.RequestContext context) {
        String id = TransferIds.forRequest(context.messageId(), config.agentQMgr());
        if (!request.sourceAgent().agent().equalsIgnoreCase(agentName)) {
            return reject(id, request, 4, "BFGCH0014E: The transfer request names source agent "
                    + request.sourceAgent().agent() + " but was received by agent " + agentName + ".");
        }
        if (config.maxSourceTransfers() == 0) {
            return reject(id, request, 51, "BFGCH0040E: Agent " + agentName
                    + " does not accept transfers as source (maxSourceTransfers=0).");
        }
        synchronized (schedule) {
            if (!accepting) {
                return reject(id, request, 1, "BFGCH0041E: Agent " + agentName + " is stopping.");
            }
            if (queued.size() >= config.maxQueuedTransfers()) {
                return reject(id, request, 44, "BFGCH0042E: Agent " + agentName + " already has "
                        + queued.size() + " transfers queued, the limit set by maxQueuedTransfers.");
            }
        }
        List<PlannedItem> items = new ArrayList<>();
        List<ItemOutcome> preFailed = new ArrayList<>();
        try {
            plan(request, items, preFailed);
        } catch (TooManyFilesException e) {
            return reject(id, request, 46, "BFGSS0033E: The transfer request has " + e.count()
                    + " or more files, more than maxFilesForTransfer (" + e.limit() + ") allows.");
        }
        if (known(id)) {
            // The same request again (its acknowledgement was not committed before a failure).
            return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, id, 0,
                    List.of("BFGCL0035I: Transfer request issued. The request ID is: " + id), List.of()),
                    request.reply(), false);
        }
        Queued q = new Queued(id, request, items, preFailed, context.replyTo(), arrival.incrementAndGet(),
                info(id, request, items, preFailed.size()), null, queueName(context.replyTo()));
        // Recorded before the acknowledgement is committed: an accepted transfer survives a crash.
        persist(q);
        log.info("Transfer {} accepted: {} file(s) from {} to {}, priority {}", id, items.size() + preFailed.size(),
                agentName, request.destinationAgent().agent(), request.transferSet().priority());
        // Queued only once the acknowledgement is committed: no later reply about this transfer
        // can reach the requester before it. Requests are handled one at a time, so the capacity
        // checked above still holds then.
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, id, 0,
                List.of("BFGCL0035I: Transfer request issued. The request ID is: " + id), List.of()),
                request.reply(), false, () -> enqueue(q));
    }

    /** Record property: the queue of the request's JMSReplyTo, where the final reply goes. */
    private static final String REPLY_QUEUE = "mftReplyQueue";

    private static String queueName(Destination d) {
        try {
            return d instanceof javax.jms.Queue q ? q.getQueueName() : null;
        } catch (JMSException e) {
            return null;
        }
    }

    private boolean known(String id) {
        synchronized (schedule) {
            return running.containsKey(id) || queued.stream().anyMatch(q -> q.id.equals(id));
        }
    }

    private void enqueue(Queued q) {
        int waiting;
        synchronized (schedule) {
            if (running.containsKey(q.id) || queued.stream().anyMatch(x -> x.id.equals(q.id))) {
                return;
            }
            queued.add(q);
            waiting = queued.size();
        }
        if (q.resume == null) {
            listener.transferQueued(agentName, q.info, waiting);
        }
        scheduleNext();
        activityChanged();
    }

    private static TransferInfo info(String id, TransferRequest request, List<PlannedItem> items, int preFailed) {
        List<TransferInfo.Item> planned = new ArrayList<>(items.size());
        for (PlannedItem p : items) {
            TransferItem i = p.item();
            planned.add(new TransferInfo.Item(p.index(), p.file().source().toString(), p.file().size(),
                    i.destination().path(), i.mode().xmlValue(), i.source().disposition().xmlValue(),
                    i.destination().exist().xmlValue(), i.checksumMethod().xmlValue()));
        }
        return new TransferInfo(id, request.sourceAgent(), request.destinationAgent(), request.originator(),
                request.jobName(), request.transferSet().priority(), request.transferSet().metadata(), Instant.now(),
                planned, items.size() + preFailed);
    }

    private CommandHandler.Outcome reject(String id, TransferRequest request, int code, String reason) {
        log.warn("Transfer request {} rejected (result {}): {}", id, code, reason);
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, id, code, List.of(reason), List.of()),
                request.reply(), true);
    }

    private void plan(TransferRequest request, List<PlannedItem> items, List<ItemOutcome> preFailed)
            throws TooManyFilesException {
        int limit = config.maxFilesForTransfer();
        for (TransferItem item : request.transferSet().items()) {
            String source = item.source().path();
            Charset from = null;
            Charset to = null;
            try {
                if (item.mode() == Mode.TEXT) {
                    from = Encodings.forName(item.source().encoding());
                    to = Encodings.forName(item.destination().encoding());
                }
                SourceSelection selection = new SourceSelector(pathResolver,
                        Math.max(1, limit - items.size() - preFailed.size())).select(source, item.source().recursive());
                for (SelectedFile f : selection.files()) {
                    items.add(new PlannedItem(items.size(), f, item, from, to));
                }
                for (var skipped : selection.skipped()) {
                    preFailed.add(new ItemOutcome(-1, skipped.path().toString(), item.destination().path(), 0,
                            ItemOutcome.FAILED, "BFGIO0003E: " + skipped.reason(), null));
                }
            } catch (TooManyFilesException e) {
                throw new TooManyFilesException(items.size() + preFailed.size() + e.count(), limit);
            } catch (PathRefusedException | SourceSelectionException | IOException | IllegalArgumentException e) {
                preFailed.add(new ItemOutcome(-1, source, item.destination().path(), 0, ItemOutcome.FAILED,
                        e instanceof PathRefusedException ? "BFGSS0021E: " + e.getMessage() : e.getMessage(), null));
            }
            if (items.size() + preFailed.size() > limit) {
                throw new TooManyFilesException(items.size() + preFailed.size(), limit);
            }
        }
    }

    /**
     * Cancels a queued or running transfer of this agent, as source or destination.
     *
     * @return the reply: 0 when the cancel was started, 26 when the id is unknown here
     */
    public CommandHandler.Outcome cancel(CancelRequest request, CommandHandler.RequestContext context) {
        String id = request.transferId();
        String requestId = TransferIds.forRequest(context.messageId(), config.agentQMgr());
        Queued dropped = null;
        synchronized (schedule) {
            for (Queued q : queued) {
                if (q.id.equals(id)) {
                    dropped = q;
                }
            }
            if (dropped != null) {
                queued.remove(dropped);
            }
        }
        String supplement;
        int code = 0;
        if (dropped != null) {
            TransferOutcome outcome = new TransferOutcome(id, 41, "BFGTR0079I: The transfer was cancelled before it"
                    + " started.", failAll(dropped, "cancelled"), Instant.now(), Instant.now());
            finished(dropped, outcome);
            forgetSource(id);
            supplement = "BFGCL0037I: Transfer " + id + " was cancelled before it started.";
        } else if (running.containsKey(id)) {
            running.get(id).transfer().cancel("cancelled by " + userOf(request));
            supplement = "BFGCL0038I: Cancelling transfer " + id + ".";
        } else if (cancelIncoming(id, userOf(request))) {
            supplement = "BFGCL0038I: Cancelling transfer " + id + " (destination).";
        } else {
            code = 26;
            supplement = "BFGCL0039E: Transfer " + id + " is not known to agent " + agentName + ".";
        }
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, requestId, code, List.of(supplement),
                List.of()), request.reply(), code != 0);
    }

    private static String userOf(CancelRequest request) {
        return request.originator() == null ? "unknown" : request.originator().userId();
    }

    private boolean cancelIncoming(String id, String user) {
        // Ask the source to cancel: it stops sending and then cancels this side too.
        synchronized (incoming) {
            DestinationTransfer t = incoming.get(id);
            if (t == null) {
                return false;
            }
            try {
                synchronized (outSession) {
                    Message m = outSession.createMessage();
                    stampReply(m, t, Wire.CANCEL_REQUEST);
                    m.setStringProperty(Wire.SUPPLEMENT, "cancelled at the destination by " + user);
                    outProducer.send(outSession.createQueue(QueueNames.reply(t.sourceAgent)), m);
                }
                return true;
            } catch (JMSException e) {
                log.warn("Transfer {}: could not pass the cancel to the source: {}", id, ProviderErrors.describe(e));
                return false;
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Source side

    private void scheduleNext() {
        synchronized (schedule) {
            while (running.size() < config.maxSourceTransfers() && !queued.isEmpty() && closing.getCount() > 0) {
                Queued q = queued.poll();
                if (q.items.isEmpty()) {
                    // Nothing to move (every source failed at planning, or nothing matched).
                    finished(q, new TransferOutcome(q.id, q.preFailed.isEmpty() ? 0 : 40, q.preFailed.isEmpty()
                            ? "BFGTR0011W: No files matched the transfer request." : "BFGRP0033E: The file transfer"
                                    + " request has failed: no file was transferred.", q.preFailed, Instant.now(),
                            Instant.now()));
                    forgetSource(q.id);
                    continue;
                }
                SourceTransfer t = new SourceTransfer(this, q.info, q.request, q.items, q.resume);
                Thread thread = new Thread(t, "openmft-" + agentName + "-transfer-" + q.id.substring(40));
                running.put(q.id, new Running(t, thread, q));
                thread.start();
            }
        }
    }

    /** Writes an accepted transfer's request, planned files and record (incarnation 0: not started). */
    private void persist(Queued q) {
        try {
            Files.write(StateFiles.request(stateDirectory, q.id), writer.writeBytes(q.request));
            List<StateFiles.Planned> files = new ArrayList<>();
            List<TransferItem> requestItems = q.request.transferSet().items();
            for (PlannedItem p : q.items) {
                files.add(new StateFiles.Planned(requestItems.indexOf(p.item()), p.file()));
            }
            List<StateFiles.PreFailed> failed = new ArrayList<>();
            for (ItemOutcome o : q.preFailed) {
                failed.add(new StateFiles.PreFailed(o.source(), o.destination(), o.supplement()));
            }
            StateFiles.writePlan(StateFiles.items(stateDirectory, q.id), new StateFiles.Plan(files, failed));
            recordSource(q.id, q.request, q.items.size(), 0, 0, q.replyQueue);
        } catch (IOException e) {
            log.warn("Transfer {}: could not record its state in {}: {}", q.id, stateDirectory, e.getMessage());
        }
    }

    /** Replaces a source transfer's record on the STATE queue. */
    private void recordSource(String id, TransferRequest request, int itemCount, int incarnation, long nextSeq,
            String replyQueue) {
        Map<String, Object> state = new LinkedHashMap<>();
        if (replyQueue != null) {
            state.put(REPLY_QUEUE, replyQueue);
        }
        state.put(Wire.DESTINATION_AGENT, request.destinationAgent().agent());
        state.put(Wire.ITEM_COUNT, itemCount);
        state.put(Wire.INCARNATION, incarnation);
        state.put(Wire.NEXT_SEQ, nextSeq);
        state.put("mftRequestFile", StateFiles.request(stateDirectory, id).toString());
        try {
            synchronized (sourceState) {
                sourceState.replace(id, "S", state);
            }
        } catch (JMSException e) {
            log.warn("Transfer {}: could not record its state: {}", id, ProviderErrors.describe(e));
        }
    }

    /** A source transfer (re)synchronises with a new incarnation: recorded before its START is sent. */
    void sourceIncarnation(SourceTransfer t, int incarnation, long nextSeq) {
        Running r = running.get(t.id());
        recordSource(t.id(), t.request(), t.itemCount(), incarnation, nextSeq, r == null ? null : r.queued.replyQueue);
    }

    void sourceCheckpoint(SourceTransfer t, long nextSeq) {
        Running r = running.get(t.id());
        if (r != null) {
            recordSource(t.id(), t.request(), t.itemCount(), t.incarnation(), nextSeq, r.queued.replyQueue);
        }
    }

    /** Where a source transfer journals its item results. */
    Path sourceResults(String id) {
        return StateFiles.sourceResults(stateDirectory, id);
    }

    /** Removes a source transfer's record and files. */
    private void forgetSource(String id) {
        try {
            synchronized (sourceState) {
                sourceState.remove(id, "S");
            }
            StateFiles.deleteSource(stateDirectory, id);
        } catch (JMSException | IOException e) {
            log.warn("Transfer {}: could not remove its state: {}", id, e.getMessage());
        }
    }

    /**
     * A source transfer's thread ends: with its outcome, or with null when the agent stopped or
     * lost its queue manager in the middle (the transfer keeps its record and resumes on the next
     * start).
     */
    void sourceFinished(SourceTransfer t, TransferOutcome outcome) {
        Running r = running.remove(t.id());
        if (r != null && outcome == null) {
            log.info("Transfer {}: suspended; it resumes when the agent next starts", t.id());
        } else if (r != null) {
            List<ItemOutcome> all = new ArrayList<>(outcome.items());
            all.addAll(r.queued.preFailed);
            int code = outcome.resultCode();
            String supplement = outcome.supplement();
            if (!r.queued.preFailed.isEmpty() && (code == 0 || code == 20)) {
                // Items refused at planning count too, in the result and in what it says.
                code = SourceTransfer.resultCode(all);
                supplement = SourceTransfer.summary(code, all);
            }
            finished(r.queued, new TransferOutcome(outcome.transferId(), code, supplement, all,
                    outcome.started(), outcome.ended()));
            forgetSource(t.id());
        }
        scheduleNext();
        synchronized (schedule) {
            schedule.notifyAll();
        }
        activityChanged();
    }

    private List<ItemOutcome> failAll(Queued q, String why) {
        List<ItemOutcome> out = new ArrayList<>();
        for (PlannedItem p : q.items) {
            out.add(new ItemOutcome(p.index(), p.file().source().toString(), p.item().destination().path(), 0,
                    ItemOutcome.FAILED, why, null));
        }
        out.addAll(q.preFailed);
        return out;
    }

    /** Publishes the outcome and sends the final reply. */
    private void finished(Queued q, TransferOutcome outcome) {
        log.info("Transfer {} ended with result {}: {}", outcome.transferId(), outcome.resultCode(),
                outcome.supplement());
        listener.transferEnded(agentName, Role.SOURCE, outcome);
        ReplyTo replyTo = q.request.reply();
        // As IBM MFT: the final reply goes only to requesters that asked for replies with a <reply>
        // element; its destination is the request's JMSReplyTo when it has one.
        if (replyTo == null) {
            return;
        }
        boolean detailed = replyTo != null && replyTo.detailed();
        List<ItemResult> items = new ArrayList<>();
        List<String> supplements = new ArrayList<>();
        if (outcome.supplement() != null) {
            supplements.add(outcome.supplement());
        }
        if (detailed) {
            // A reply must fit a queue's default MAXMSGL (4 MiB) whatever the number of files:
            // details stop at DETAILED_REPLY_MAX_BYTES and the rest is counted.
            long size = 0;
            for (ItemOutcome i : outcome.items()) {
                size += 128 + length(i.source()) + length(i.destination()) + length(i.supplement());
                if (size > DETAILED_REPLY_MAX_BYTES) {
                    supplements.add("BFGRP0036W: The results of " + (outcome.items().size() - items.size())
                            + " more files are not listed in this reply; the transfer log has them all.");
                    break;
                }
                items.add(new ItemResult(i.source(), i.destination(), i.resultCode(), i.supplement()));
            }
        }
        Reply reply = new Reply(DocumentWriter.VERSION, outcome.transferId(), outcome.resultCode(), supplements,
                items);
        try {
            synchronized (outSession) {
                // After a restart: the requester's queue by name (it may still be waiting on it),
                // else the <reply> element's queue.
                Destination to = q.replyDestination != null ? q.replyDestination
                        : q.replyQueue != null && connector.queueExists(outSession, q.replyQueue)
                                ? outSession.createQueue(q.replyQueue)
                                : CommandIntake.documentReplyDestination(outSession, config.provider(), replyTo);
                TextMessage m = outSession.createTextMessage(writer.write(reply));
                m.setJMSCorrelationID(outcome.transferId());
                outProducer.send(to, m);
            }
        } catch (JMSException | RuntimeException e) {
            log.warn("Transfer {}: the final reply could not be sent: {}", outcome.transferId(), e.toString());
        }
    }

    private void serveReplies(MessageConsumer consumer) {
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, agentName);
        while (closing.getCount() > 0) {
            try {
                Message m = consumer.receive(500);
                if (m == null) {
                    continue;
                }
                if (!versionOk(m)) {
                    continue;
                }
                Running r = running.get(m.getStringProperty(Wire.TRANSFER_ID));
                if (r != null) {
                    r.transfer().deliver(Control.of(m));
                }
            } catch (JMSException e) {
                if (closing.getCount() == 0) {
                    return;
                }
                log.warn("Agent {}: reading {} failed: {}", agentName, QueueNames.reply(agentName),
                        ProviderErrors.describe(e));
                sleepQuietly(1000);
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Destination side

    private void serveData(MessageConsumer consumer) {
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, agentName);
        byte[] buffer = new byte[256 * 1024];
        while (closing.getCount() > 0) {
            try {
                Message m = consumer.receive(500);
                if (m == null || !versionOk(m)) {
                    continue;
                }
                String type = m.getStringProperty(Wire.TYPE);
                String id = m.getStringProperty(Wire.TRANSFER_ID);
                if (Wire.START.equals(type)) {
                    onStart(m, id);
                    continue;
                }
                DestinationTransfer t;
                synchronized (incoming) {
                    t = incoming.get(id);
                }
                if (t == null) {
                    log.debug("Agent {}: {} message for unknown transfer {} dropped", agentName, type, id);
                    continue;
                }
                switch (type) {
                    case Wire.DATA -> {
                        BytesMessage b = (BytesMessage) m;
                        long length = b.getBodyLength();
                        if (length > ArtemisTuning.MAX_NORMAL_MESSAGE_BYTES) {
                            log.warn("Transfer {}: chunk of {} bytes exceeds the limit; dropped", id, length);
                            continue;
                        }
                        if (length > buffer.length) {
                            buffer = new byte[(int) length];
                        }
                        b.readBytes(buffer, (int) length);
                        t.onSequenced(m, buffer, (int) length);
                    }
                    case Wire.ITEM_ABORT -> t.onSequenced(m, buffer, 0);
                    case Wire.ACK_REQUEST -> t.onAckRequest(m.getIntProperty(Wire.INCARNATION),
                            m.getLongProperty(Wire.NEXT_SEQ));
                    case Wire.CANCEL -> {
                        t.cancel(m.getStringProperty(Wire.SUPPLEMENT));
                        forget(t);
                    }
                    case Wire.COMPLETE_ACK -> forget(t);
                    default -> log.debug("Transfer {}: ignored {} message", id, type);
                }
            } catch (JMSException | RuntimeException e) {
                if (closing.getCount() == 0) {
                    return;
                }
                log.warn("Agent {}: serving {} failed: {}", agentName, QueueNames.data(agentName),
                        e instanceof JMSException j ? ProviderErrors.describe(j) : e.toString(), e);
                if (e instanceof JMSException) {
                    sleepQuietly(1000);
                }
            }
        }
    }

    private void onStart(Message m, String id) throws JMSException {
        DestinationTransfer existing;
        synchronized (incoming) {
            existing = incoming.get(id);
        }
        if (existing != null) {
            existing.restart(m.getIntProperty(Wire.INCARNATION), Control.intOr(m, Wire.FIRST_OPEN_ITEM, -1));
            return;
        }
        DestinationTransfer t = DestinationTransfer.fromStart(this, m);
        String refusal = null;
        int code = 0;
        boolean retry = false;
        if (config.maxDestinationTransfers() == 0) {
            code = 52;
            refusal = "BFGCH0043E: Agent " + agentName + " does not accept transfers as destination"
                    + " (maxDestinationTransfers=0).";
        } else if (t.itemCount() > config.maxFilesForTransfer()) {
            code = 47;
            refusal = "BFGSS0033E: The transfer has " + t.itemCount() + " files, more than the destination agent's"
                    + " maxFilesForTransfer (" + config.maxFilesForTransfer() + ").";
        } else if (activeIncoming() >= config.maxDestinationTransfers()) {
            code = 45;
            retry = true;
            refusal = "BFGCH0044I: Agent " + agentName + " is running its maximum of "
                    + config.maxDestinationTransfers() + " destination transfers.";
        }
        if (refusal != null) {
            Message no = replyMessage(t, Wire.START_REFUSED);
            no.setIntProperty(Wire.RESULT_CODE, code);
            no.setStringProperty(Wire.SUPPLEMENT, refusal);
            no.setBooleanProperty(Wire.RETRY, retry);
            sendToSource(t, no);
            return;
        }
        try {
            t.adoptJournal();
        } catch (IOException e) {
            log.warn("Transfer {}: could not read the results journal left from before a restart: {}", id,
                    e.toString());
        }
        synchronized (incoming) {
            incoming.put(id, t);
        }
        listener.transferStarted(agentName, Role.DESTINATION, t.info());
        activityChanged();
        // Recorded at once, so a restart before the first checkpoint still knows the transfer and
        // its results journal.
        t.submitRecord(-1, null);
        t.restart(t.incarnation, -1);
        if (t.itemCount() == 0) {
            forget(t);
        }
    }

    private int activeIncoming() {
        synchronized (incoming) {
            return (int) incoming.values().stream().filter(t -> !t.ended()).count();
        }
    }

    private void forget(DestinationTransfer t) {
        t.close();
        synchronized (incoming) {
            incoming.remove(t.id);
        }
        activityChanged();
        try {
            checkpointer.submit(Checkpointer.Job.removal(t.id, t.journal()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    Message replyMessage(DestinationTransfer t, String type) throws JMSException {
        Message m = dataSession.createMessage();
        stampReply(m, t, type);
        return m;
    }

    private static void stampReply(Message m, DestinationTransfer t, String type) throws JMSException {
        m.setIntProperty(Wire.PROTOCOL, Wire.VERSION);
        m.setStringProperty(Wire.TYPE, type);
        m.setStringProperty(Wire.TRANSFER_ID, t.id);
        m.setIntProperty(Wire.INCARNATION, t.incarnation);
        m.setJMSCorrelationID(t.id);
    }

    void sendToSource(DestinationTransfer t, Message m) throws JMSException {
        dataProducer.send(dataSession.createQueue(QueueNames.reply(t.sourceAgent)), m);
    }

    private boolean versionOk(Message m) throws JMSException {
        if (!m.propertyExists(Wire.PROTOCOL) || m.getIntProperty(Wire.PROTOCOL) != Wire.VERSION) {
            log.warn("Agent {}: dropped a message with protocol version {} (this agent speaks {})", agentName,
                    m.getObjectProperty(Wire.PROTOCOL), Wire.VERSION);
            return false;
        }
        return true;
    }

    // ------------------------------------------------------------------------------------------
    // For the transfers

    private final java.util.Set<String> knownQueues = ConcurrentHashMap.newKeySet();

    /** Whether a queue exists; positive answers are remembered (agents' queues are not deleted). */
    boolean queueExists(Session session, String queue) throws JMSException {
        if (knownQueues.contains(queue)) {
            return true;
        }
        boolean exists = connector.queueExists(session, queue);
        if (exists) {
            knownQueues.add(queue);
        }
        return exists;
    }

    AgentConfig config() {
        return config;
    }

    Path stateDirectory() {
        return stateDirectory;
    }

    /** Whether the engine is shutting down (transfers interrupted now are suspended, not failed). */
    boolean closing() {
        return closing.getCount() == 0;
    }

    private volatile boolean connectionLost;
    /** What the provider said when the connection failed, once it did; null if it said nothing. */
    private volatile JMSException connectionFailure;

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
            return true;
        }
    }

    Connection connection() {
        return connection;
    }

    AgentListener listener() {
        return listener;
    }

    String agentName() {
        return agentName;
    }

    PathResolver pathResolver() {
        return pathResolver;
    }

    Checkpointer checkpointer() {
        return checkpointer;
    }

    /** Transfers running and waiting at this agent as source, and running as destination. */
    public int activeTransfers() {
        synchronized (schedule) {
            return running.size() + queued.size() + activeIncoming();
        }
    }

    /** Refuses new transfer requests from now on (result 1, "agent stopping"); running ones go on. */
    public void stopAccepting() {
        synchronized (schedule) {
            accepting = false;
        }
    }

    /**
     * Ends everything now: running transfers are interrupted and suspended, keeping their records
     * and partial files so that they resume when the agent next starts; queued ones stay queued.
     */
    @Override
    public void close() {
        synchronized (schedule) {
            accepting = false;
        }
        closing.countDown();
        for (Running r : running.values()) {
            r.thread().interrupt();
        }
        for (Running r : running.values()) {
            try {
                r.thread().join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        joinQuietly(dataThread);
        joinQuietly(replyThread);
        synchronized (incoming) {
            // Partial files and records stay: the transfers resume when the agent next starts.
            incoming.values().forEach(DestinationTransfer::suspend);
            incoming.clear();
        }
        if (checkpointer != null) {
            checkpointer.close();
        }
        closeConnection();
    }

    private static long length(String s) {
        return s == null ? 0 : 3L * s.length();
    }

    private static void joinQuietly(Thread t) {
        if (t == null) {
            return;
        }
        try {
            t.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (JMSException e) {
                log.debug("Closing the transfer connection: {}", e.getMessage());
            }
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
