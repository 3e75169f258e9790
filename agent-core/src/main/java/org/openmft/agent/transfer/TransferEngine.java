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
            Destination replyDestination, long arrival, TransferInfo info) {
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
        connection = connector.connect();
        try {
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
            MessageConsumer replies = replySession.createConsumer(replySession.createQueue(QueueNames.reply(agentName)));
            MessageConsumer data = dataSession.createConsumer(dataSession.createQueue(QueueNames.data(agentName)));
            connection.start();
            replyThread = new Thread(() -> serveReplies(replies), "openmft-" + agentName + "-replies");
            dataThread = new Thread(() -> serveData(data), "openmft-" + agentName + "-data");
            replyThread.start();
            dataThread.start();
        } catch (JMSException | IOException e) {
            closeConnection();
            throw new QueueManagerException("agent " + agentName + " cannot serve its transfer queues: "
                    + (e instanceof JMSException j ? ProviderErrors.describe(j) : e.getMessage()),
                    QueueManagerException.UNAVAILABLE, e);
        }
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
        Queued q = new Queued(id, request, items, preFailed, context.replyTo(), arrival.incrementAndGet(),
                info(id, request, items, preFailed.size()));
        log.info("Transfer {} accepted: {} file(s) from {} to {}, priority {}", id, items.size() + preFailed.size(),
                agentName, request.destinationAgent().agent(), request.transferSet().priority());
        // Queued only once the acknowledgement is committed: no later reply about this transfer
        // can reach the requester before it. Requests are handled one at a time, so the capacity
        // checked above still holds then.
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, id, 0,
                List.of("BFGCL0035I: Transfer request issued. The request ID is: " + id), List.of()),
                request.reply(), false, () -> enqueue(q));
    }

    private void enqueue(Queued q) {
        int waiting;
        synchronized (schedule) {
            queued.add(q);
            waiting = queued.size();
        }
        listener.transferQueued(agentName, q.info, waiting);
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
                    continue;
                }
                SourceTransfer t = new SourceTransfer(this, q.info, q.request, q.items);
                Thread thread = new Thread(t, "openmft-" + agentName + "-transfer-" + q.id.substring(40));
                running.put(q.id, new Running(t, thread, q));
                writeSourceState(q);
                thread.start();
            }
        }
    }

    private void writeSourceState(Queued q) {
        try {
            Path request = stateDirectory.resolve(q.id + ".request.xml");
            Files.write(request, writer.writeBytes(q.request));
            Map<String, Object> state = new LinkedHashMap<>();
            state.put(Wire.DESTINATION_AGENT, q.request.destinationAgent().agent());
            state.put(Wire.ITEM_COUNT, q.items.size());
            state.put(Wire.NEXT_SEQ, 0L);
            state.put("mftRequestFile", request.toString());
            synchronized (sourceState) {
                sourceState.replace(q.id, "S", state);
            }
        } catch (IOException | JMSException e) {
            log.warn("Transfer {}: could not record its state: {}", q.id, e.getMessage());
        }
    }

    void sourceCheckpoint(SourceTransfer t, long nextSeq) {
        Running r = running.get(t.id());
        if (r == null) {
            return;
        }
        Map<String, Object> state = new LinkedHashMap<>();
        state.put(Wire.DESTINATION_AGENT, r.queued.request.destinationAgent().agent());
        state.put(Wire.ITEM_COUNT, r.queued.items.size());
        state.put(Wire.NEXT_SEQ, nextSeq);
        state.put("mftRequestFile", stateDirectory.resolve(t.id() + ".request.xml").toString());
        try {
            synchronized (sourceState) {
                sourceState.replace(t.id(), "S", state);
            }
        } catch (JMSException e) {
            log.warn("Transfer {}: could not record its checkpoint: {}", t.id(), ProviderErrors.describe(e));
        }
    }

    void sourceFinished(SourceTransfer t, TransferOutcome outcome) {
        Running r = running.remove(t.id());
        if (r != null) {
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
            try {
                synchronized (sourceState) {
                    sourceState.remove(t.id(), "S");
                }
                Files.deleteIfExists(stateDirectory.resolve(t.id() + ".request.xml"));
            } catch (JMSException | IOException e) {
                log.warn("Transfer {}: could not remove its state: {}", t.id(), e.getMessage());
            }
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
                Destination to = q.replyDestination != null ? q.replyDestination
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
            existing.restart(m.getIntProperty(Wire.INCARNATION));
            return;
        }
        DestinationTransfer t = new DestinationTransfer(this, m);
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
        synchronized (incoming) {
            incoming.put(id, t);
        }
        listener.transferStarted(agentName, Role.DESTINATION, t.info());
        activityChanged();
        t.restart(t.incarnation);
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
            checkpointer.submit(new Checkpointer.Job(t.id, t.sourceAgent, t.incarnation, -1, null, Map.of(), true));
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

    /** Ends everything now: running transfers are interrupted, partial files of incoming ones removed. */
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
            incoming.values().forEach(DestinationTransfer::close);
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
