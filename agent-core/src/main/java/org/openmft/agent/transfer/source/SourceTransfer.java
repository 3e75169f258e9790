package org.openmft.agent.transfer.source;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.jms.DeliveryMode;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.Checksum;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.calls.CallPhase;
import org.openmft.agent.calls.CallResult;
import org.openmft.agent.compression.CompressionMethod;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.protection.ProtectionException;
import org.openmft.agent.protection.ProtectionLevel;
import org.openmft.agent.transfer.failure.FailurePolicy;
import org.openmft.agent.transfer.failure.TransferFailure;
import org.openmft.agent.transfer.protocol.CallAnswer;
import org.openmft.agent.transfer.protocol.Control;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.Start;
import org.openmft.agent.transfer.source.SourceSignals.Rewind;
import org.openmft.agent.transfer.source.SourceSignals.SkipItem;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.SandboxViolationException;
import org.openmft.agent.transfer.files.SelectedFile;
import org.openmft.agent.transfer.queue.QueueReader;
import org.openmft.agent.transfer.state.SourceRecord;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.xml.CallSpecs;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.TransferRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One transfer, run by the source agent on a thread of its own: negotiates with the destination,
 * reads the files in chunks and sends them ({@link ChunkSender}) within the flow-control window
 * ({@link FlowControl}), resends from the last acknowledged chunk when acknowledgements stop or
 * the destination reports a gap (retries and recovery counted by {@link RetryBudget}), applies
 * source dispositions once the destination confirmed each item, and returns the outcome.
 *
 * <p>Its record on the STATE queue is rewritten before each (re)start and at each checkpoint the
 * destination confirms; item results are journaled as they arrive. A failure to do either ends
 * the transfer's work like any other failure: {@link FailurePolicy} suspends it (the agent lost
 * its queue manager) or fails it with the store's reason.
 *
 * <p>Memory: two chunk buffers (binary) or one chunk buffer plus the converter's buffers (text),
 * whatever the file sizes. Rewinds restart the affected item from its beginning but send nothing
 * the destination already has: chunks below the resume point are read (to rebuild the checksum)
 * and not sent.
 *
 * <p>Why this file stays whole (about 930 lines, program calls and inline data included: their order and conditions
 * are {@link SourceCalls}, only the wait for the destination's answer on the inbox is here; message to
 * file included: the reading is {@link QueueReader}, only when it runs and when messages go is here): what is
 * left here is the one state machine of a
 * running transfer (start, window, resend, completion, dispositions), whose steps share the
 * transfer's fields; sending chunks, reading items, flow control, retry counting and failure
 * decisions are already rooms of their own ({@link ChunkSender}, {@link FlowControl},
 * {@link AdaptiveWindow}, {@link InFlightBudget}, {@link RetryBudget}, {@link FailurePolicy},
 * {@link DataRoutes}), and
 * splitting the rest would pass that state around.
 */
public final class SourceTransfer {
    private static final Logger log = LoggerFactory.getLogger(SourceTransfer.class);
    private static final int INBOX_CAPACITY = 4096;

    private final SourceContext context;
    private final SourceSettings settings;
    private final TransferInfo info;
    private final String id;
    private final TransferRequest request;
    private final List<PlannedItem> items;
    /** What is read for each item: the planned file, or for a source queue its spool once read. */
    private final PlannedItem[] toSend;
    /** The source queues read into spools (message to file), by item. */
    private final Map<Integer, QueueReader.Spooled> spooled = new java.util.HashMap<>();
    private final String destinationAgent;
    /** The destination agent's queue manager, or null when the request names none (this agent's). */
    private final String destinationQMgr;
    /** The protection of this transfer's messages: this agent's level for the destination. */
    private final ProtectionLevel protection;
    private final String replyQueue;
    private final String requesterUser;
    private final BlockingQueue<Control> inbox = new ArrayBlockingQueue<>(INBOX_CAPACITY);
    /** The user of the destination's first answer (the REPLY dispatcher's thread only). */
    private String destinationUser;
    private final ItemOutcome[] results;
    private final FlowControl flow;
    /** What this transfer's window borrowed beyond its own first window from the agent's budget. */
    private final InFlightBudget.Share inFlight;
    /** The window sized from the link ({@code openmft.adaptiveWindow}), or null for the fixed one. */
    private final AdaptiveWindow adaptive;
    /** The window last told to the listener, and the largest it reached. */
    private int windowReported;
    private int windowPeak;
    private final RetryBudget budget;
    private final long ackTimeoutMillis;
    private final ChunkSender chunks;
    private final DataRoutes routes = new DataRoutes();
    private final Resume resume;
    private final SourceCalls calls;
    /**
     * An inline transfer ({@code maxInlineFileSize}): one small file, not resumed, without a
     * pre-destination call (which must run before any data): its chunk goes right behind the START.
     */
    private final boolean inline;
    /** The length of the chunk sent behind the START now being answered, or -1. */
    private int inlineSent = -1;
    /** Whether the destination's START_OK said it runs program calls. */
    private boolean destinationRunsCalls;

    private volatile boolean cancelRequested;
    private volatile String cancelReason;
    private Session session;
    private MessageProducer producer;
    private ProtocolCodec codec;
    private int incarnation = 1;
    /** Whether the destination ever accepted the transfer (and so has something to clean up). */
    private boolean negotiated;
    private boolean resumeLogged;
    private Instant started;

    /**
     * What an earlier run of the agent left of a started transfer: the incarnation it last used
     * and the item results it journaled.
     */
    public record Resume(int incarnation, Map<Integer, StateFiles.Result> results) {
    }

    /**
     * @param replyQueue    the queue of the request's JMSReplyTo, kept in the transfer's record, or null
     * @param requesterUser the user the queue manager validated for the request, or null: files are
     *                      read with its sandbox, and the destination is told it
     * @param resume        what an earlier run left, or null for a transfer starting now
     */
    public SourceTransfer(SourceContext context, TransferInfo info, TransferRequest request, List<PlannedItem> items,
            String replyQueue, String requesterUser, Resume resume) {
        this.context = context;
        this.settings = context.settings();
        this.info = info;
        this.id = info.transferId();
        this.request = request;
        this.items = items;
        this.replyQueue = replyQueue;
        this.requesterUser = requesterUser;
        this.destinationAgent = request.destinationAgent().agent().toUpperCase(Locale.ROOT);
        String qmgr = request.destinationAgent().qmgr();
        this.destinationQMgr = qmgr == null || qmgr.isBlank() ? null : qmgr.trim();
        this.protection = context.protection().levelFor(destinationAgent);
        this.results = new ItemOutcome[items.size()];
        this.toSend = items.toArray(new PlannedItem[0]);
        this.flow = new FlowControl(items.size(), settings.maxUnacked());
        this.inFlight = context.inFlight().share();
        if (settings.adaptiveWindow()) {
            int fixed = settings.maxUnacked();
            this.adaptive = new AdaptiveWindow(fixed, AdaptiveWindow.ceilingChunks(AdaptiveWindow.MAX_BYTES,
                    settings.chunkSize(), fixed), settings.chunkSize());
            flow.adapt(adaptive, this::nanos);
        } else {
            this.adaptive = null;
        }
        this.windowReported = settings.maxUnacked();
        this.windowPeak = windowReported;
        this.resume = resume;
        if (resume != null) {
            // A new incarnation, higher than any the destination saw: whatever is still on the
            // queues from before the restart is recognised and dropped.
            this.incarnation = resume.incarnation() + 1;
            for (StateFiles.Result r : resume.results().values()) {
                int i = r.outcome().index();
                if (i >= 0 && i < results.length) {
                    results[i] = r.outcome();
                    flow.itemJournaled(i, r.firstSeq(), r.lastSeq());
                }
            }
        }
        this.ackTimeoutMillis = settings.ackTimeout().toMillis();
        this.budget = new RetryBudget(settings.ackRetries(), RetryBudget.recoveryTimeoutMillis(
                request.transferSet().recoveryTimeoutSeconds(), settings.recoveryTimeout()), context.clock());
        // Chunks expire after twice the time the source waits before resynchronising: a chunk nobody
        // read by then has been or will be resent, so resends to a stopped destination never pile up.
        long chunkTimeToLiveMillis = 2L * ackTimeoutMillis * (settings.ackRetries() + 1);
        this.chunks = new ChunkSender(id, context, requesterUser, flow, this::awaitWindow, () -> incarnation,
                chunkTimeToLiveMillis);
        this.calls = new SourceCalls(context, info, request.transferSet().calls(), () -> cancelRequested,
                resume != null);
        this.inline = resume == null && toSend.length == 1 && request.transferSet().calls().preDestination() == null
                && ChunkSender.inlineCandidate(toSend[0], settings.maxInlineFileSize(), settings.chunkSize());
    }

    /** The transfer id. */
    public String id() {
        return id;
    }

    /**
     * Called by the REPLY dispatcher (its thread only). Acknowledgements are cumulative, so a full
     * inbox loses nothing. The destination's answers must all come from the user the queue manager
     * validated for its first one (the destination agent's), as well as carry the transfer's tag.
     */
    public void deliver(Control c) {
        if (c.sender() != null) {
            if (destinationUser == null) {
                destinationUser = c.sender();
            } else if (!destinationUser.equals(c.sender())) {
                String why = "the transfer's destination answered as user " + destinationUser + " before";
                log.warn("Transfer {}: dropped a {} message from user {}: {}", id, c.type(), c.sender(), why);
                context.listener().protocolMessageRejected(settings.agentName(), QueueNames.reply(settings.agentName()),
                        c.type(), id, c.sender(), why);
                return;
            }
        }
        if (!inbox.offer(c)) {
            log.warn("Transfer {}: control inbox full ({} messages); dropped a {} message", id, INBOX_CAPACITY,
                    c.type());
        }
    }

    /** Asks the transfer to cancel; it answers 41 once the destination confirmed or timed out. */
    public void cancel(String reason) {
        cancelReason = reason;
        cancelRequested = true;
    }

    /**
     * Runs the transfer on the calling thread.
     *
     * @return the outcome, or null when the transfer is suspended (the agent stopped or lost its
     *         queue manager): it keeps its record and resumes on the next start
     */
    public TransferOutcome run() {
        started = context.clock().instant();
        TransferOutcome outcome;
        try {
            session = context.sessions().open();
            String dataQueue = dataQueue();
            Routing routing = context.routing();
            codec = new ProtocolCodec(session, context.keys().at(protection),
                    m -> routing.address(m, dataQueue, destinationQMgr));
            producer = session.createProducer(routing.destination(session, dataQueue, destinationQMgr));
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            producer.setPriority(Math.min(9, Math.max(0, request.transferSet().priority())));
            producer.setDisableMessageTimestamp(true);
            routes.bind(producer);
            chunks.bind(codec, routes);
            if (resume == null) {
                context.listener().transferStarted(settings.agentName(), Role.SOURCE, info);
            } else {
                context.listener().transferResumed(settings.agentName(), Role.SOURCE, info,
                        "resynchronising with destination agent " + destinationAgent + " after a restart");
                budget.startRecovering();
            }
            outcome = transfer();
        } catch (TransferFailure | JMSException | StateException | InterruptedException | RuntimeException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            FailurePolicy.Decision decision = FailurePolicy.decide(e, context.status(), destinationAgent);
            if (decision instanceof FailurePolicy.Fail f) {
                if (e instanceof RuntimeException) {
                    log.error("Transfer {} failed unexpectedly", id, e);
                }
                cancelAtDestination(f);
                outcome = finish(f.resultCode(), f.supplement());
            } else {
                // The provider reports an interrupted call its own way (Artemis: an unchecked
                // ActiveMQInterruptedException); while stopping, that suspends the transfer.
                log.debug("Transfer {} suspended ({}): {}", id, ((FailurePolicy.Suspend) decision).why(),
                        e.toString());
                outcome = null;
            }
        } finally {
            inFlight.release();
            try {
                if (session != null) {
                    session.close();
                }
            } catch (JMSException e) {
                log.debug("Closing the session of transfer {}: {}", id, e.getMessage());
            }
        }
        if (outcome != null) {
            calls.ended(outcome.resultCode(), outcome.supplement());
            if (context.queues() != null && items.stream().anyMatch(PlannedItem::fromQueue)) {
                // Ended: its spools go (a suspended transfer keeps them, to send the same bytes again).
                context.queues().discard(id);
            }
        }
        if (adaptive != null && windowPeak > adaptive.floorChunks()) {
            log.info("Transfer {}: the window grew to {} chunks ({} KiB; fixed: {} chunks) for a round trip of {} ms"
                    + " at {} KB/s", id, windowPeak, (long) windowPeak * settings.chunkSize() / 1024,
                    adaptive.floorChunks(), adaptive.minRttNanos() / 1_000_000, adaptive.rateBytesPerSecond() / 1000);
        }
        if (flow.bytesResent() > 0 && outcome != null) {
            log.info("Transfer {}: {} bytes were sent more than once (resends after lost acknowledgements, gaps or"
                    + " restarts)", id, flow.bytesResent());
        }
        return outcome;
    }

    /** The destination's DATA queue, which must exist: else the agent is unknown (49). */
    private String dataQueue() throws JMSException, TransferFailure {
        String dataQueue;
        try {
            dataQueue = QueueNames.data(destinationAgent);
        } catch (IllegalArgumentException e) {
            // No queue can have this name, so no agent of it can exist: the same as an unknown agent.
            throw new TransferFailure(ResultCode.DESTINATION_UNREACHABLE, "BFGTR0072E: The destination agent "
                    + destinationAgent + " cannot be reached: " + e.getMessage());
        }
        // Sends of non-persistent messages do not report a missing queue: check first, so an
        // unknown agent fails at once with 49. For an agent on another queue manager, the local end
        // of the channel there is checked (on IBM MQ the queue manager resolves the route itself).
        String local = context.routing().localQueueFor(dataQueue, destinationQMgr);
        if (local != null && !local.equals(dataQueue) && !context.sessions().queueExists(session, local)) {
            throw new TransferFailure(ResultCode.DESTINATION_UNREACHABLE, "BFGTR0072E: The destination agent "
                    + destinationAgent + " cannot be reached: queue manager " + settings.agentQMgr() + " has no"
                    + " channel to queue manager " + destinationQMgr + " (its transmission queue " + local
                    + " does not exist; create one with 'mft qmgr channel create')");
        }
        if (local != null && local.equals(dataQueue) && !context.sessions().queueExists(session, dataQueue)) {
            throw new TransferFailure(ResultCode.DESTINATION_UNREACHABLE, "BFGTR0072E: The destination agent "
                    + destinationAgent + " cannot be reached: its queue " + dataQueue + " does not exist ("
                    + ProviderErrors.describe(new InvalidDestinationException("queue " + dataQueue
                            + " does not exist on queue manager " + settings.agentQMgr())) + ")");
        }
        return dataQueue;
    }

    private TransferOutcome transfer() throws JMSException, InterruptedException, TransferFailure, StateException {
        if (resume != null && allItemsDone()) {
            // Every item's outcome was journaled before the restart: the transfer had ended and
            // only the removal of its state was lost. A destination that saw the COMPLETE_ACK has
            // forgotten it and would take a resynchronisation for a new transfer, writing every
            // file again; one that did not gets the COMPLETE_ACK now.
            // Its post calls ran, or did not run yet, or ran when the agent ended: the journal says
            // which (SourceCalls); one still to run at the destination needs it resynchronised first.
            String callSupplement = null;
            if (calls.postLeftAfterRestart()) {
                if (calls.postNeedsDestination(results)) {
                    negotiate();
                } else {
                    endRecovery();
                }
                callSupplement = calls.post(results, this::callAtDestination);
            } else {
                endRecovery();
            }
            sendControl(Wire.COMPLETE_ACK, null);
            return SourceCalls.withSupplement(finish(null, null), callSupplement);
        }
        try {
            if (resume == null) {
                calls.start();
            } else {
                calls.resumed();
            }
            readQueues();
            negotiate();
            calls.preDestination(this::callAtDestination);
            // Items are numbered from the first one on; what the destination has (a resumed
            // transfer) is read again to rebuild the numbering and checksums, but not sent, and
            // items journaled as finished are skipped without reading.
            flow.restartNumbering();
            int index = 0;
            while (true) {
                try {
                    // Items are always sent in order; after a rewind every item from the rewind
                    // point on is sent again (the destination discards data of items it has
                    // finished and answers their last chunk with the item's result again).
                    for (; index < items.size(); index++) {
                        if (flow.skipJournaled(index, results[index] != null)) {
                            continue;
                        }
                        try {
                            chunks.sendItem(toSend[index]);
                        } catch (SkipItem s) {
                            // The destination failed this item already: go on with the next.
                        }
                    }
                    while (!allItemsDone()) {
                        try {
                            awaitProgress();
                        } catch (SkipItem s) {
                            // Everything is sent already: nothing to skip.
                        }
                    }
                    break;
                } catch (Rewind r) {
                    index = flow.rewindTo(r.seq);
                }
            }
        } catch (TransferFailure f) {
            if (f.resultCode() == ResultCode.CANCELLED) {
                return cancelNow();
            }
            throw f;
        }
        String callSupplement = calls.any() ? calls.post(results, this::callAtDestination) : null;
        sendControl(Wire.COMPLETE_ACK, null);
        return SourceCalls.withSupplement(finish(null, null), callSupplement);
    }

    /**
     * Message to file: reads each source queue into its spool ({@link QueueReader}) before the
     * destination is asked to take the transfer, so that a wait for messages ({@code -sqwt})
     * keeps no destination waiting. Nothing is taken off the queue here.
     */
    private void readQueues() throws TransferFailure, InterruptedException {
        for (PlannedItem p : items) {
            if (!p.fromQueue() || results[p.index()] != null) {
                continue;
            }
            QueueReader reader = context.queues();
            if (reader == null) {
                throw new TransferFailure(ResultCode.NO_MESSAGE_TO_FILE, "BFGTR0071E: The source agent "
                        + settings.agentName() + " does not read messages from queues.");
            }
            Charset charset = p.sourceCharset() != null ? p.sourceCharset() : StandardCharsets.UTF_8;
            try {
                // With userSandboxes the requester's <read> must include the queue (type="queue").
                context.paths().forRequester(requesterUser).sandbox().checkQueue(p.item().source().queue().spec(),
                        Access.READ);
                QueueReader.Spooled s = reader.read(id, p.index(), p.item().source().queue(), charset,
                        () -> cancelRequested);
                spooled.put(p.index(), s);
                long modified = Files.getLastModifiedTime(s.file()).toMillis();
                toSend[p.index()] = new PlannedItem(p.index(), new SelectedFile(p.file().source(),
                        p.file().relativePath(), s.bytes(), modified), p.item(), p.sourceCharset(), p.destCharset(),
                        s.file());
            } catch (QueueReader.QueueFailure e) {
                throw new TransferFailure(e.resultCode(), e.getMessage());
            } catch (SandboxViolationException e) {
                throw new TransferFailure(ResultCode.FAILED, e.supplement());
            } catch (IOException e) {
                throw new TransferFailure(ResultCode.FAILED, "BFGTR0072E: The transfer failed: the spool of "
                        + p.file().source() + " could not be read: " + e.getMessage());
            }
        }
    }

    /**
     * Message to file: the destination has the file, so its messages are taken off the queue now;
     * when that fails the item is a warning (the file is there, the messages too).
     */
    private ItemOutcome removeMessages(PlannedItem p, ItemOutcome delivered) {
        QueueReader.Spooled s = spooled.get(p.index());
        String queue = p.item().source().queue().queue();
        try {
            int removed = s == null ? 0 : context.queues().remove(queue, s);
            log.info("Transfer {}: {} messages removed from {} now that destination agent {} has the file", id,
                    removed, queue, destinationAgent);
            return delivered;
        } catch (QueueReader.QueueFailure e) {
            log.warn("Transfer {}: {}", id, e.getMessage());
            return new ItemOutcome(delivered.index(), delivered.source(), delivered.destination(), delivered.bytes(),
                    ItemOutcome.WARNING, e.getMessage(), delivered.checksum());
        }
    }

    /**
     * Asks the destination to run its call and waits for the answer: at most the time the call
     * may take by this agent's {@code openmft.callTimeout} (each attempt, and the waits between),
     * plus one acknowledgement timeout. No answer in time, or a destination that does not run
     * calls, is an error outcome; a cancel ends the wait.
     */
    private CallResult callAtDestination(CallPhase phase, ProgramCall call) throws JMSException, InterruptedException,
            TransferFailure {
        if (!destinationRunsCalls) {
            return CallResult.error("destination agent " + destinationAgent + " does not run program calls");
        }
        producer.send(codec.call(id, incarnation, phase.element(), CallSpecs.format(call)));
        long attempts = call.retryCount() + 1L;
        long deadline = now() + attempts * context.calls().timeout().toMillis()
                + call.retryCount() * 1000L * call.retryWaitSeconds() + ackTimeoutMillis;
        while (now() < deadline) {
            if (cancelRequested) {
                throw cancelled();
            }
            Control c = inbox.poll(250, TimeUnit.MILLISECONDS);
            if (c != null && Wire.CALL_RESULT.equals(c.type()) && c.call() != null
                    && phase.element().equals(c.call().phase())) {
                CallAnswer a = c.call();
                return new CallResult(CallResult.Outcome.fromXml(a.outcome()), a.retries(), a.returnCode(),
                        a.stdout(), a.stderr(), a.error());
            }
            if (c != null && Wire.ABORT.equals(c.type())) {
                throw destinationAborted(c);
            }
        }
        return CallResult.error("destination agent " + destinationAgent + " did not answer its " + phase.element()
                + " in time");
    }

    /**
     * Best effort, when the transfer fails: a destination that holds part of it (or comes back
     * later) removes its partial files and frees its slot. One that does not know the transfer
     * drops the message.
     */
    private void cancelAtDestination(FailurePolicy.Fail f) {
        if (codec == null || f.resultCode() == ResultCode.DESTINATION_UNREACHABLE) {
            return;
        }
        try {
            sendControl(Wire.CANCEL, f.supplement());
        } catch (JMSException | RuntimeException e) {
            log.debug("Transfer {}: the cancel for the destination could not be sent: {}", id, e.toString());
        }
    }

    private boolean allItemsDone() {
        for (ItemOutcome r : results) {
            if (r == null) {
                return false;
            }
        }
        return true;
    }

    // ----------------------------------------------------------------------------------------
    // Negotiation

    private void negotiate() throws JMSException, InterruptedException, TransferFailure, StateException {
        while (true) {
            // Recorded before the START is sent: a restart continues with a higher incarnation.
            context.state().saveSource(new SourceRecord(id, request.destinationAgent().agent(), items.size(),
                    incarnation, flow.lastAcked() + 1, replyQueue, requesterUser));
            sendStart();
            // Inline only before the first START_OK: a resynchronisation is told where to go on.
            inlineSent = inline && !negotiated ? chunks.sendInline(toSend[0], producer) : -1;
            long deadline = now() + ackTimeoutMillis;
            boolean busy = false;
            while (!busy) {
                if (cancelRequested) {
                    throw cancelled();
                }
                long left = deadline - now();
                if (left <= 0) {
                    break;
                }
                Control c = inbox.poll(Math.min(left, 250), TimeUnit.MILLISECONDS);
                if (c == null || c.incarnation() != incarnation) {
                    continue;
                }
                if (Wire.START_OK.equals(c.type())) {
                    negotiated = true;
                    destinationRunsCalls = c.runsCalls();
                    compressAsAgreed(c.decompresses());
                    spreadOverChannels();
                    endRecovery();
                    flow.negotiated(c.nextSeq());
                    if (inlineSent >= 0 && c.nextSeq() == 0) {
                        flow.sentAhead(inlineSent);
                    }
                    if (resume != null && !resumeLogged) {
                        resumeLogged = true;
                        log.info("BFGTR0093I: Transfer {}: resumed as source; destination agent {} has chunks 0 to {},"
                                + " sending from chunk {} on", id, destinationAgent, flow.nextSeq() - 1,
                                flow.nextSeq());
                    }
                    return;
                }
                if (Wire.START_REFUSED.equals(c.type())) {
                    if (!c.retry()) {
                        throw new TransferFailure(c.resultCode() == 0 ? ResultCode.FAILED
                                : ResultCode.of(c.resultCode()), c.supplement());
                    }
                    long wait = budget.busy();
                    if (wait < 0) {
                        throw new TransferFailure(ResultCode.DESTINATION_CAPACITY, c.supplement()
                                + " BFGTR0081E: The transfer waited longer than its recovery timeout ("
                                + budget.recoveryTimeoutMillis() / 1000 + " seconds) for destination agent "
                                + destinationAgent + " to take it.");
                    }
                    log.info("Transfer {}: destination agent {} is busy; trying again in {} ms", id, destinationAgent,
                            wait);
                    if (waitForCancel(wait)) {
                        throw cancelled();
                    }
                    busy = true;
                }
                if (Wire.ABORT.equals(c.type())) {
                    throw destinationAborted(c);
                }
            }
            if (!busy) {
                noAnswer("the destination agent " + destinationAgent + " did not answer the start of the transfer");
            }
            incarnation++;
        }
    }

    private boolean waitForCancel(long millis) throws InterruptedException {
        long end = now() + millis;
        while (now() < end) {
            if (cancelRequested) {
                return true;
            }
            TimeUnit.MILLISECONDS.sleep(Math.min(50, millis));
        }
        return cancelRequested;
    }

    /** The lowest item index without a result (the item count when every item has one). */
    private int firstOpenItem() {
        int firstOpen = 0;
        while (firstOpen < results.length && results[firstOpen] != null) {
            firstOpen++;
        }
        return firstOpen;
    }

    private void sendStart() throws JMSException, TransferFailure {
        int firstOpen = incarnation > 1 ? firstOpenItem() : -1;
        String originator = request.originator() == null ? null : request.originator().userId();
        Message m;
        try {
            m = codec.start(new Start(id, incarnation, settings.agentName(), settings.agentQMgr(), destinationAgent,
                    items.size(), settings.windowSize(), settings.maxUnacked() * settings.checkpointInterval(),
                    originator, requesterUser, request.jobName(), firstOpen, settings.authorityChecking()), protection,
                    context.protection().keys());
        } catch (ProtectionException e) {
            throw new TransferFailure(ResultCode.MESSAGE_PROTECTION, "BFGTR0097E: The transfer to destination agent "
                    + destinationAgent + " needs message protection '" + protection.word() + "', but " + e.getMessage()
                    + ".");
        }
        // A start that nobody takes must not act later: it expires with the acknowledgement timeout.
        producer.send(m, DeliveryMode.NON_PERSISTENT, producer.getPriority(), ackTimeoutMillis);
    }

    /** No answer in time: retry, then recover until the recovery timeout (result 69). */
    private void noAnswer(String what) throws TransferFailure {
        RetryBudget.Verdict v = budget.noAnswer();
        if (v == RetryBudget.Verdict.RETRY) {
            log.warn("Transfer {}: {} within {} ms; retry {} of {}", id, what, ackTimeoutMillis, budget.retries(),
                    settings.ackRetries());
            return;
        }
        if (budget.enteredRecovery()) {
            log.warn("Transfer {}: {} after {} retries; the transfer is recovering", id, what, settings.ackRetries());
            context.listener().recovering(settings.agentName(), id, what);
        }
        if (v == RetryBudget.Verdict.TIMED_OUT) {
            throw new TransferFailure(ResultCode.RECOVERY_TIMED_OUT, "BFGTR0080E: The transfer recovery timed out"
                    + " after " + budget.recoveryTimeoutMillis() / 1000 + " seconds: " + what);
        }
    }

    /**
     * Compresses the chunks from now on with this agent's method for the destination, when the
     * destination's START_OK lists it among those it can decompress; else sends them as read.
     */
    private void compressAsAgreed(String decompressible) {
        CompressionMethod wanted = settings.compression().methodFor(destinationAgent);
        CompressionMethod agreed = CompressionMethod.agreed(wanted, decompressible);
        if (agreed != wanted) {
            log.info("Transfer {}: destination agent {} cannot decompress {} (it can: {}); chunks go uncompressed", id,
                    destinationAgent, wanted.word(), decompressible == null ? "none, an agent from before compression"
                            : decompressible.isEmpty() ? "none" : decompressible);
        }
        codec.compressWith(agreed);
    }

    /**
     * With {@code agentMultipleChannelsEnabled}, looks for the destination queue manager's aliases
     * again (at each (re)start, so a channel added or removed counts from then on) and tells the
     * codec how many channels the DATA goes over ({@link DataRoutes}).
     */
    private void spreadOverChannels() throws JMSException {
        if (settings.multipleChannels() && context.routing().isRemote(destinationQMgr)) {
            int n = routes.discover(session, context.sessions(), context.routing(), QueueNames.data(destinationAgent),
                    destinationQMgr, producer.getPriority(), id);
            codec.spreadOver(n);
        }
    }

    private void endRecovery() {
        if (budget.answered()) {
            context.listener().recovered(settings.agentName(), id);
        }
    }

    // ----------------------------------------------------------------------------------------
    // Data

    /**
     * Waits until chunk {@code seq} fits in the window, its own and what it may borrow of the
     * agent's budget of chunks in flight, handling answers meanwhile.
     */
    private void awaitWindow(long seq) throws InterruptedException, Rewind, SkipItem, TransferFailure, JMSException,
            StateException {
        drainInbox();
        while (!flow.windowOpen(seq) || !inFlight.covers(seq - flow.lastAcked())) {
            awaitProgress();
        }
    }

    /** Cumulative acknowledgement up to {@code seq}: what the window no longer holds goes back to the budget. */
    private boolean acknowledged(long seq) {
        if (!flow.acknowledged(seq)) {
            return false;
        }
        inFlight.trim(flow.nextSeq() - 1 - flow.lastAcked());
        return true;
    }

    /** Handles the answers already there, without waiting. */
    private void drainInbox() throws Rewind, SkipItem, TransferFailure, JMSException, StateException {
        Control c;
        while ((c = inbox.poll()) != null) {
            handle(c);
        }
        if (cancelRequested) {
            throw cancelled();
        }
    }

    /** Waits up to the acknowledgement timeout for an answer; on timeout resends or recovers. */
    private void awaitProgress() throws InterruptedException, Rewind, SkipItem, TransferFailure, JMSException,
            StateException {
        long deadline = now() + ackTimeoutMillis;
        long before = flow.lastAcked();
        while (now() < deadline) {
            if (cancelRequested) {
                throw cancelled();
            }
            Control c = inbox.poll(100, TimeUnit.MILLISECONDS);
            if (c != null) {
                handle(c);
                if (flow.lastAcked() != before || c.type().equals(Wire.ITEM_DONE)) {
                    endRecovery();
                    return;
                }
            }
        }
        // A destination that does not answer holds nothing of the agent's budget meanwhile: the
        // other transfers borrow it; this one borrows again once its window moves.
        inFlight.release();
        noAnswer("no acknowledgement arrived");
        if (!budget.recovering()) {
            // A retry: ask the destination where it is rather than resending the window blindly
            // (to a destination that is down, that would only pile up chunks nobody reads), and for
            // the results we lack: an ITEM_DONE lost on the way is sent again, not waited for.
            producer.send(codec.ackRequest(id, incarnation, flow.nextSeq(), firstOpenItem()), DeliveryMode.NON_PERSISTENT,
                    producer.getPriority(), ackTimeoutMillis);
            return;
        }
        // In recovery: resynchronise, the destination says where to continue.
        incarnation++;
        negotiate();
        context.listener().resending(settings.agentName(), id, flow.lastAcked() + 1, "resynchronised after a timeout");
        throw new Rewind(flow.lastAcked() + 1);
    }

    private void handle(Control c) throws Rewind, SkipItem, TransferFailure, StateException {
        // Answers of an older incarnation are late (or replayed): an item's result is sent again for
        // the current one when the destination sees the item's last chunk again.
        if (c.incarnation() != incarnation) {
            return;
        }
        switch (c.type()) {
            case Wire.ACK -> {
                if (acknowledged(c.seq())) {
                    context.listener().progress(settings.agentName(), id, chunks.sendingItem(), chunks.sendingItemBytes(),
                            flow.bytesSent());
                    windowMaybeResized();
                }
                // A checkpoint's acknowledgement needs nothing recorded here: a resumed transfer
                // continues where the destination's record says, whatever the source noted.
            }
            case Wire.NACK -> {
                if (flow.gap(c.nextSeq())) {
                    context.listener().resending(settings.agentName(), id, c.nextSeq(),
                            "the destination reported a gap");
                    throw new Rewind(c.nextSeq());
                }
            }
            case Wire.ITEM_DONE -> itemDone(c);
            case Wire.CANCELLED, Wire.CANCEL_REQUEST -> {
                cancelReason = c.supplement();
                cancelRequested = true;
                throw cancelled();
            }
            case Wire.ABORT -> throw destinationAborted(c);
            default -> log.debug("Transfer {}: ignored {} message", id, c.type());
        }
    }

    /**
     * Tells the listener of the adaptive window's size when it moved by a quarter or more since
     * last told, or came back to the fixed window: a few events per transfer, not one per ack.
     */
    private void windowMaybeResized() {
        if (adaptive == null) {
            return;
        }
        int now = flow.window();
        windowPeak = Math.max(windowPeak, now);
        boolean back = now == adaptive.floorChunks() && windowReported != now;
        if (back || Math.abs(now - windowReported) * 4 >= windowReported) {
            windowReported = now;
            log.debug("Transfer {}: window {} chunks (round trip {} us, {} B/s)", id, now,
                    adaptive.minRttNanos() / 1000, adaptive.rateBytesPerSecond());
            context.listener().windowResized(settings.agentName(), id, now, adaptive.minRttNanos() / 1000,
                    adaptive.rateBytesPerSecond());
        }
    }

    /** Now, in nanoseconds from the context's clock (so tests can drive it). */
    private long nanos() {
        Instant t = context.clock().instant();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private TransferFailure destinationAborted(Control c) {
        log.warn("Transfer {}: destination agent {} gave the transfer up: {}", id, destinationAgent, c.supplement());
        return new TransferFailure(c.resultCode() == 0 ? ResultCode.FAILED : ResultCode.of(c.resultCode()),
                c.supplement());
    }

    private void itemDone(Control c) throws SkipItem, StateException {
        int index = c.item();
        if (index < 0 || index >= results.length || results[index] != null) {
            return;
        }
        if (acknowledged(c.seq())) {
            windowMaybeResized();
        }
        PlannedItem p = items.get(index);
        ItemOutcome outcome = TransferResults.applyDisposition(id, p, new ItemOutcome(index,
                p.file().source().toString(), c.destFile() != null ? c.destFile() : p.item().destination().path(),
                c.bytes(), c.resultCode(), c.supplement(), Checksum.of(p.item().checksumMethod(), c.checksum())),
                context.paths().forRequester(requesterUser).sandbox());
        if (p.fromQueue() && outcome.resultCode() == ItemOutcome.SUCCESS) {
            outcome = removeMessages(p, outcome);
        }
        QueueReader.Spooled read = p.fromQueue() ? spooled.get(index) : null;
        if (read != null) {
            outcome = outcome.withQueueRead(new ItemOutcome.QueueRead(read.bytes(), read.messageIds().size(),
                    read.groupId()));
        }
        int code = outcome.resultCode();
        results[index] = outcome;
        flow.itemDone(index, c.seq());
        context.state().appendSourceResult(id, new StateFiles.Result(outcome, flow.itemFirstSeq(index), c.seq()));
        context.listener().itemCompleted(settings.agentName(), Role.SOURCE, id, outcome);
        boolean sending = flow.itemFirstSeq(index) >= 0 && index == flow.currentItem();
        if (code == ItemOutcome.FAILED && sending) {
            throw new SkipItem();
        }
    }

    // ----------------------------------------------------------------------------------------
    // Ending

    private TransferOutcome cancelNow() throws JMSException, InterruptedException {
        sendControl(Wire.CANCEL, cancelReason);
        // Wait a bounded time for the destination to confirm it removed its partial files; one that
        // never accepted the transfer has none.
        long deadline = now() + Math.min(ackTimeoutMillis, 30_000);
        while (negotiated && now() < deadline) {
            Control c = inbox.poll(100, TimeUnit.MILLISECONDS);
            if (c != null && Wire.CANCELLED.equals(c.type())) {
                break;
            }
            if (c != null && Wire.ITEM_DONE.equals(c.type())) {
                try {
                    itemDone(c);
                } catch (SkipItem ignored) {
                    // Cancelling anyway.
                } catch (StateException e) {
                    // The transfer ends now with 41 and its record goes: nothing resumes it.
                    log.warn("Transfer {}: {}", id, e.getMessage());
                }
            }
        }
        return finish(ResultCode.CANCELLED, cancelMessage());
    }

    private TransferFailure cancelled() {
        return new TransferFailure(ResultCode.CANCELLED, cancelMessage());
    }

    private String cancelMessage() {
        return "BFGTR0079I: The transfer was cancelled" + (cancelReason == null ? "." : ": " + cancelReason);
    }

    private void sendControl(String type, String supplement) throws JMSException {
        producer.send(codec.control(type, id, incarnation, supplement));
    }

    /**
     * The outcome: {@code resultCode} when the transfer ends early (items without a result are
     * failed with {@code supplement}); with null, computed from the item results.
     */
    private TransferOutcome finish(ResultCode resultCode, String supplement) {
        Instant now = context.clock().instant();
        return TransferResults.outcome(id, items, results, resultCode, supplement, started == null ? now : started,
                now);
    }

    private long now() {
        return context.clock().millis();
    }
}
