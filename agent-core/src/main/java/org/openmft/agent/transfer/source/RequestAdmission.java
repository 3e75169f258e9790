package org.openmft.agent.transfer.source;

import java.io.IOException;
import java.nio.charset.Charset;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;

import org.openmft.agent.ItemOutcome;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.transfer.files.PathRefusedException;
import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.agent.transfer.files.SandboxViolationException;
import org.openmft.agent.transfer.files.SelectedFile;
import org.openmft.agent.transfer.files.SourceSelection;
import org.openmft.agent.transfer.files.SourceSelectionException;
import org.openmft.agent.transfer.files.SourceSelector;
import org.openmft.agent.transfer.files.TooManyFilesException;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.state.SourceRecord;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.agent.transfer.state.TransferStateStore;
import org.openmft.agent.transfer.text.Encodings;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.Mode;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a transfer request is admitted at its source agent. On the command thread it is checked
 * (it must name this agent: else 4; {@code maxSourceTransfers=0}: 51; the agent stopping: 1;
 * {@code maxQueuedTransfers} waiting or being planned already, or {@code openmft.maxPlannedItems}
 * held already: 44), recorded as accepted and not planned, and acknowledged; once the
 * acknowledgement is committed, the {@link SourcePlanner}'s thread plans it ({@link #planAndQueue}:
 * wildcards, recursion, {@code transferRoot}, the sandbox; {@code maxFilesForTransfer}: the transfer
 * fails with 46; more than {@code openmft.maxPlannedItems} held across the transfers queued and
 * running with it: 44; a missing or refused source fails its item, not the transfer, unless
 * {@code additionalWildcardSandboxChecking} is on and a wildcard reaches outside the sandbox: then
 * every item fails, BFGSS0077E and BFGSS0078E), records the plan and hands it to the
 * {@link SourceScheduler}. Paths are judged by the sandbox of the user the queue manager validated
 * for the request.
 *
 * <p>{@link #submit} is called by the agent's command thread only, {@link #planAndQueue} by the
 * planner's thread only.
 */
public final class RequestAdmission {
    private static final Logger log = LoggerFactory.getLogger(RequestAdmission.class);

    private final SourceSettings settings;
    private final PathResolver paths;
    private final TransferStateStore state;
    private final SourceScheduler scheduler;
    private final Clock clock;
    private final AtomicLong arrival;
    private final SourcePlanner planner;
    private final org.openmft.agent.AgentListener listener;
    private final DocumentWriter writer = new DocumentWriter();

    /**
     * @param arrival numbers transfers in their order of arrival (shared with recovery)
     * @param threads makes the planner's thread
     * @param activity told whenever the number of requests waiting to be planned changed
     */
    public RequestAdmission(SourceSettings settings, PathResolver paths, TransferStateStore state,
            SourceScheduler scheduler, Clock clock, AtomicLong arrival, java.util.concurrent.ThreadFactory threads,
            Runnable activity, org.openmft.agent.AgentListener listener) {
        this.listener = listener;
        this.settings = settings;
        this.paths = paths;
        this.state = state;
        this.scheduler = scheduler;
        this.clock = clock;
        this.arrival = arrival;
        this.planner = new SourcePlanner(threads, this::planAndQueue, activity);
    }

    /** The planner that plans this admission's requests. */
    public SourcePlanner planner() {
        return planner;
    }

    /**
     * Transfers waiting to start, as {@code maxQueuedTransfers} counts them: queued, or accepted and
     * not planned yet ({@link #unplannedCount}).
     */
    public int waitingCount() {
        return scheduler.queuedCount() + unplannedCount();
    }

    /**
     * Requests accepted and not handed to the scheduler yet. One the planner has just handed over
     * (which may have started already) counts with the scheduler only, not twice.
     */
    public int unplannedCount() {
        int unplanned = 0;
        for (String id : planner.pendingIds()) {
            if (!scheduler.known(id)) {
                unplanned++;
            }
        }
        return unplanned;
    }

    /**
     * Checks and records a transfer request, on the command thread; the planner plans it once the
     * acknowledgement is committed ({@link #planAndQueue}).
     *
     * @return the acknowledgement to send the requester (result 0 with the transfer id), or the
     *         rejection
     */
    public CommandHandler.Outcome submit(TransferRequest request, CommandHandler.RequestContext context) {
        request = withValidatedUser(request, context.requesterUser());
        String agentName = settings.agentName();
        String id = TransferIds.forRequest(context.messageId(), settings.agentQMgr());
        Refusal refused = refusal(settings, scheduler, request.sourceAgent().agent(), "transfer request",
                "source agent", "does not accept transfers as source");
        if (refused != null) {
            return reject(id, request, refused.code(), refused.reason());
        }
        int waiting = waitingCount();
        if (waiting >= settings.maxQueuedTransfers()) {
            return reject(id, request, ResultCode.SOURCE_CAPACITY, "BFGCH0042E: Agent " + agentName + " already has "
                    + waiting + " transfers queued, the limit set by maxQueuedTransfers.");
        }
        long held = scheduler.plannedItems();
        if (held >= settings.maxPlannedItems()) {
            return reject(id, request, ResultCode.SOURCE_CAPACITY, plannedItemsRefusal(agentName, held, 1));
        }
        Reply accepted = new Reply(DocumentWriter.VERSION, id, 0,
                List.of("BFGCL0035I: Transfer request issued. The request ID is: " + id), List.of());
        if (scheduler.known(id) || planner.known(id)) {
            // The same request again (its acknowledgement was not committed before a failure).
            return new CommandHandler.Outcome(accepted, request.reply(), false);
        }
        SourcePlanner.Pending pending = new SourcePlanner.Pending(id, request, context.replyTo(),
                queueName(context.replyTo()), context.requesterUser());
        // Recorded, not yet planned, before the acknowledgement is committed: an accepted transfer
        // survives a crash, and is planned again at the next start.
        try {
            state.saveRequest(id, writer.writeBytes(request), new StateFiles.Plan(List.of(), List.of()));
            state.saveSource(new SourceRecord(id, request.destinationAgent().agent(), SourceRecord.UNPLANNED, 0, 0,
                    pending.replyQueue(), pending.requesterUser()));
        } catch (StateException e) {
            return reject(id, request, ResultCode.FAILED, "BFGTR0095E: The transfer request could not be accepted"
                    + " because its state could not be recorded: " + e.getMessage());
        }
        log.info("Transfer {} accepted from {} to {}, priority {}, requested by {}; planning its files", id, agentName,
                request.destinationAgent().agent(), request.transferSet().priority(),
                context.requesterUser() == null ? "a user the queue manager did not name"
                        : "user " + context.requesterUser());
        // Planned only once the acknowledgement is committed: no later reply about this transfer
        // can reach the requester before it.
        return new CommandHandler.Outcome(accepted, request.reply(), false, () -> planner.submit(pending));
    }

    /**
     * Plans an accepted request, on the planner's thread: wildcards and directories expanded
     * within the limits, the plan recorded, and the transfer queued; or, past a limit or cancelled
     * meanwhile, the transfer ended with its result (46 for {@code maxFilesForTransfer}, 44 for
     * {@code openmft.maxPlannedItems}, 41 cancelled), its final reply sent and its log published.
     * Planning stops at whichever limit comes first: {@code maxFilesForTransfer}, or what
     * {@code openmft.maxPlannedItems} leaves of the items of the transfers queued and running.
     */
    public void planAndQueue(SourcePlanner.Pending p, java.util.function.BooleanSupplier cancelled) {
        String agentName = settings.agentName();
        TransferRequest request = p.request();
        listener.transferPlanning(agentName, p.id());
        if (Thread.currentThread().isInterrupted()) {
            // The agent is stopping: the request stays recorded as not planned, for the next start.
            return;
        }
        long held = scheduler.plannedItems();
        long room = settings.maxPlannedItems() - held;
        List<PlannedItem> items = new ArrayList<>();
        List<ItemOutcome> preFailed = new ArrayList<>();
        ResultCode failed = null;
        String why = null;
        TriggerCheck.Verdict trigger = request.trigger() == null ? null
                : TriggerCheck.evaluate(request.trigger(), paths.forRequester(p.requesterUser()));
        if (trigger != null && !trigger.met()) {
            failed = trigger.code();
            why = trigger.why();
        } else if (room <= 0) {
            failed = ResultCode.SOURCE_CAPACITY;
            why = plannedItemsRefusal(agentName, held, 1);
        } else {
            int limit = (int) Math.min(settings.maxFilesForTransfer(), room);
            try {
                plan(request, paths.forRequester(p.requesterUser()), limit, items, preFailed);
            } catch (TooManyFilesException e) {
                items.clear();
                preFailed.clear();
                if (limit < settings.maxFilesForTransfer()) {
                    failed = ResultCode.SOURCE_CAPACITY;
                    why = plannedItemsRefusal(agentName, held, e.count());
                } else {
                    failed = ResultCode.SOURCE_MAX_FILES;
                    why = "BFGSS0033E: The transfer request has " + e.count() + " or more files, more than"
                            + " maxFilesForTransfer (" + e.limit() + ") allows.";
                }
            }
        }
        if (failed == null && cancelled.getAsBoolean()) {
            items.clear();
            preFailed.clear();
            failed = ResultCode.CANCELLED;
            why = "BFGTR0079I: The transfer was cancelled before it started.";
        }
        QueuedTransfer q = new QueuedTransfer(p.id(), request, items, preFailed, p.replyDestination(),
                arrival.incrementAndGet(), info(p.id(), request, items, preFailed.size(), clock), null,
                p.replyQueue(), p.requesterUser());
        if (failed != null && trigger != null && !trigger.met() && request.trigger().log()) {
            // Known to the publisher, so that its end is logged (42 with log="no": nothing published).
            listener.transferQueued(agentName, q.info(), 0);
        }
        if (failed != null) {
            log.warn("Transfer {} failed before it started (result {}): {}", p.id(), failed.code(), why);
            scheduler.endUnstarted(q, failed, why);
            return;
        }
        try {
            record(q);
        } catch (StateException e) {
            scheduler.endUnstarted(q, ResultCode.FAILED, "BFGTR0095E: The planned files of the transfer could not be"
                    + " recorded: " + e.getMessage());
            return;
        }
        log.info("Transfer {} planned: {} file(s) ({} failed at planning)", p.id(), items.size(), preFailed.size());
        scheduler.enqueue(q);
        if (planner.settle(p.id()) && !scheduler.cancelQueued(p.id())) {
            // Cancelled between the look above and the queueing: it may have started already.
            scheduler.cancelRunning(p.id(), "cancelled while it was planned");
        }
    }

    /** Writes an accepted transfer's request, planned files and record (incarnation 0: not started). */
    private void record(QueuedTransfer q) throws StateException {
        List<StateFiles.Planned> files = new ArrayList<>();
        List<TransferItem> requestItems = q.request().transferSet().items();
        // Each item's place in the request, the first of equal ones as List.indexOf gives it, looked
        // up once: indexOf per planned file was quadratic (2000 files: 2 million record comparisons).
        Map<TransferItem, Integer> places = new HashMap<>();
        for (int i = requestItems.size() - 1; i >= 0; i--) {
            places.put(requestItems.get(i), i);
        }
        for (PlannedItem p : q.items()) {
            files.add(new StateFiles.Planned(places.getOrDefault(p.item(), -1), p.file()));
        }
        List<StateFiles.PreFailed> failed = new ArrayList<>();
        for (ItemOutcome o : q.preFailed()) {
            failed.add(new StateFiles.PreFailed(o.source(), o.destination(), o.supplement()));
        }
        state.saveRequest(q.id(), writer.writeBytes(q.request()), new StateFiles.Plan(files, failed));
        state.saveSource(new SourceRecord(q.id(), q.request().destinationAgent().agent(), q.items().size(), 0, 0,
                q.replyQueue(), q.requesterUser()));
    }

    private static String queueName(Destination d) {
        try {
            return d instanceof jakarta.jms.Queue q ? q.getQueueName() : null;
        } catch (JMSException e) {
            return null;
        }
    }

    /**
     * The request with the queue manager's word for who sent it as its originator's
     * {@code <mqmdUserID>}, where IBM's transfer log shows it, replacing whatever the document said
     * there; the document's {@code <userID>} is kept, as written, for display only.
     *
     * @param request       the request as parsed
     * @param validatedUser the request message's JMSXUserID, or null
     * @return the request to admit, record and log
     */
    public static TransferRequest withValidatedUser(TransferRequest request, String validatedUser) {
        Originator o = request.originator();
        if (java.util.Objects.equals(o.mqmdUserId(), validatedUser)) {
            return request;
        }
        return new TransferRequest(request.version(), new Originator(o.hostName(), o.userId(), validatedUser),
                request.sourceAgent(), request.destinationAgent(), request.reply(), request.transferSet(),
                request.jobName(), request.schedule(), request.trigger(), request.scheduleLogId());
    }

    /** What the transfer log says of a transfer: its request and the files planned. */
    public static TransferInfo info(String id, TransferRequest request, List<PlannedItem> items, int preFailed,
            Clock clock) {
        List<TransferInfo.Item> planned = new ArrayList<>(items.size());
        for (PlannedItem p : items) {
            TransferItem i = p.item();
            planned.add(new TransferInfo.Item(p.index(), p.file().source().toString(), p.file().size(),
                    i.destination().path(), i.mode().xmlValue(), i.source().disposition().xmlValue(),
                    i.destination().exist().xmlValue(), i.checksumMethod().xmlValue(), p.fromQueue()));
        }
        return new TransferInfo(id, request.sourceAgent(), request.destinationAgent(), request.originator(),
                request.jobName(), request.transferSet().priority(), request.transferSet().metadata(), clock.instant(),
                planned, items.size() + preFailed, request.trigger(), request.scheduleLogId());
    }

    /** Why a request for work at this agent as source is refused. */
    record Refusal(ResultCode code, String reason) {
    }

    /**
     * The refusals every request for work in a source slot (a transfer, a managed call) may get
     * before anything else: another agent named (4), {@code maxSourceTransfers=0} (51), the agent
     * stopping (1).
     *
     * @param named   the agent the request names
     * @param what    the request, in words ("transfer request")
     * @param role    how the request names the agent ("source agent")
     * @param noSlots what {@code maxSourceTransfers=0} means for such a request
     * @return the refusal, or null
     */
    static Refusal refusal(SourceSettings settings, SourceScheduler scheduler, String named, String what, String role,
            String noSlots) {
        String agentName = settings.agentName();
        if (!named.equalsIgnoreCase(agentName)) {
            return new Refusal(ResultCode.WRONG_AGENT, "BFGCH0014E: The " + what + " names " + role + " " + named
                    + " but was received by agent " + agentName + ".");
        }
        if (settings.maxSourceTransfers() == 0) {
            return new Refusal(ResultCode.NO_SOURCE_TRANSFERS, "BFGCH0040E: Agent " + agentName + " " + noSlots
                    + " (maxSourceTransfers=0).");
        }
        if (!scheduler.accepting()) {
            return new Refusal(ResultCode.COMMAND_UNSUCCESSFUL, "BFGCH0041E: Agent " + agentName + " is stopping.");
        }
        return null;
    }

    private CommandHandler.Outcome reject(String id, TransferRequest request, ResultCode code, String reason) {
        log.warn("Transfer request {} rejected (result {}): {}", id, code.code(), reason);
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, id, code.code(), List.of(reason),
                List.of()), request.reply(), true);
    }

    private String plannedItemsRefusal(String agentName, long held, long count) {
        return "BFGCH0042E: Agent " + agentName + " holds " + held + " planned items in its queued and running"
                + " transfers; this request's " + count + " or more would exceed openmft.maxPlannedItems ("
                + settings.maxPlannedItems() + ").";
    }

    /**
     * @param paths the resolver of the request's requester
     * @param limit items (planned and failed) beyond which planning stops
     */
    private void plan(TransferRequest request, PathResolver paths, int limit, List<PlannedItem> items,
            List<ItemOutcome> preFailed) throws TooManyFilesException {
        boolean checkWildcards = settings.wildcardSandboxChecking() && paths.sandbox().isRestricted();
        TransferItem reachedOutside = null;
        String outsideWhy = null;
        for (TransferItem item : request.transferSet().items()) {
            String source = item.source().path();
            boolean wildcard = checkWildcards && SourceSelector.isWildcard(source);
            Charset from = null;
            Charset to = null;
            try {
                if (item.mode() == Mode.TEXT) {
                    from = Encodings.forName(item.source().encoding());
                    to = Encodings.forName(item.destination().encoding());
                }
                if (item.source().queue() != null) {
                    // Message to file: the queue is read when the transfer starts (it may wait for
                    // messages, -sqwt); planned here as one item named after the queue.
                    String name = java.nio.file.Path.of(item.destination().path()).getFileName().toString();
                    items.add(new PlannedItem(items.size(), new SelectedFile(java.nio.file.Path.of(source), name, 0,
                            0), item, from, to));
                } else {
                    SourceSelection selection = new SourceSelector(paths,
                            Math.max(1, limit - items.size() - preFailed.size()))
                            .select(source, item.source().recursive());
                    for (SelectedFile f : selection.files()) {
                        items.add(new PlannedItem(items.size(), f, item, from, to));
                    }
                    for (var skipped : selection.skipped()) {
                        preFailed.add(new ItemOutcome(-1, skipped.path().toString(), item.destination().path(), 0,
                                ItemOutcome.FAILED, skipped.supplement(), null));
                        if (wildcard && skipped.refusal() != null && reachedOutside == null) {
                            reachedOutside = item;
                            outsideWhy = skipped.refusal().supplement();
                        }
                    }
                }
            } catch (TooManyFilesException e) {
                throw new TooManyFilesException(items.size() + preFailed.size() + e.count(), limit);
            } catch (PathRefusedException | SourceSelectionException | IOException | IllegalArgumentException e) {
                preFailed.add(new ItemOutcome(-1, source, item.destination().path(), 0, ItemOutcome.FAILED,
                        e instanceof PathRefusedException refused ? refused.supplement() : e.getMessage(), null));
                if (wildcard && e instanceof SandboxViolationException refused && reachedOutside == null) {
                    reachedOutside = item;
                    outsideWhy = refused.supplement();
                }
            }
            if (items.size() + preFailed.size() > limit) {
                throw new TooManyFilesException(items.size() + preFailed.size(), limit);
            }
        }
        if (reachedOutside != null) {
            failWholeRequest(request, reachedOutside, outsideWhy, items, preFailed);
        }
    }

    /**
     * {@code additionalWildcardSandboxChecking}: a wildcard reached outside the sandbox, so nothing
     * of the request is transferred (IBM since 8.0.0.6, APAR IT11742): that item fails with
     * BFGSS0077E, every other with BFGSS0078E.
     */
    private static void failWholeRequest(TransferRequest request, TransferItem culprit, String why,
            List<PlannedItem> items, List<ItemOutcome> preFailed) {
        items.clear();
        preFailed.clear();
        for (TransferItem item : request.transferSet().items()) {
            String source = item.source().path();
            String supplement = item == culprit
                    ? "BFGSS0077E: Attempt to read file path: " + source + " has been denied. The file path is located"
                            + " outside of the restricted transfer sandbox (" + why + ")"
                    : "BFGSS0078E: Attempt to read file path: " + source + " has been ignored as another transfer item"
                            + " in the managed transfer attempted to read outside of the restricted transfer sandbox.";
            preFailed.add(new ItemOutcome(-1, source, item.destination().path(), 0, ItemOutcome.FAILED, supplement,
                    null));
        }
        log.warn("Transfer request failed as a whole (additionalWildcardSandboxChecking): the wildcard {} reaches"
                + " outside the sandbox: {}", culprit.source().path(), why);
    }
}
