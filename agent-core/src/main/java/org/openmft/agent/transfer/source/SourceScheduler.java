package org.openmft.agent.transfer.source;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.transfer.protocol.Control;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.TransferStateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Where accepted transfers wait and run at their source: ordered by priority (9 first) then
 * arrival, at most {@code maxSourceTransfers} running, each on a thread of the scheduler's
 * executor. When one ends its outcome (with the items that failed at planning) is published,
 * the requester answered, and its state removed; when it is suspended, its state stays.
 *
 * <p>Thread-safety: safe for the command thread, the REPLY dispatcher and the transfers' threads.
 */
public final class SourceScheduler {
    private static final Logger log = LoggerFactory.getLogger(SourceScheduler.class);

    private final String agentName;
    private final int maxRunning;
    private final AgentListener listener;
    private final TransferStateStore state;
    private final RequesterReplies replies;
    private final Function<QueuedTransfer, SourceTransfer> transfers;
    private final Runnable activity;
    private final ExecutorService executor;

    private final Object lock = new Object();
    private final PriorityQueue<QueuedTransfer> queued = new PriorityQueue<>(Comparator
            .comparingInt((QueuedTransfer q) -> -q.request().transferSet().priority())
            .thenComparingLong(QueuedTransfer::arrival));
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private boolean accepting = true;
    private boolean closed;
    /** Slots lent to managed calls ({@link #lendSlot}), which IBM counts against maxSourceTransfers. */
    private int lent;
    /** Told when a slot may have come free, after queued transfers had their turn. */
    private volatile Runnable slotFreed = () -> { };

    private record Running(SourceTransfer transfer, QueuedTransfer queued) {
    }

    /**
     * @param transfers makes the running transfer of a queued one
     * @param threads   names the transfers' threads and handles what escapes them
     * @param activity  told whenever the number of transfers may have changed
     */
    public SourceScheduler(String agentName, int maxRunning, AgentListener listener, TransferStateStore state,
            RequesterReplies replies, Function<QueuedTransfer, SourceTransfer> transfers, ThreadFactory threads,
            Runnable activity) {
        this.agentName = agentName;
        this.maxRunning = maxRunning;
        this.listener = listener;
        this.state = state;
        this.replies = replies;
        this.transfers = transfers;
        this.activity = activity;
        this.executor = Executors.newCachedThreadPool(threads);
    }

    /**
     * Lends a running slot to work that is not a transfer (a managed call holds one as IBM's do),
     * if one is free and no queued transfer comes before it (a higher priority, or the same and an
     * earlier arrival).
     *
     * @return whether a slot was lent: give it back with {@link #returnSlot}
     */
    public boolean lendSlot(int priority, long arrival) {
        synchronized (lock) {
            if (closed || running.size() + lent >= maxRunning) {
                return false;
            }
            QueuedTransfer head = queued.peek();
            if (head != null && (head.request().transferSet().priority() > priority
                    || head.request().transferSet().priority() == priority && head.arrival() < arrival)) {
                return false;
            }
            lent++;
            return true;
        }
    }

    /** Gives back a slot of {@link #lendSlot}; queued transfers may start in it. */
    public void returnSlot() {
        synchronized (lock) {
            lent--;
        }
        scheduleNext();
        slotFreed.run();
    }

    /** Whom to tell when a slot may have come free (after queued transfers had their turn). */
    public void onSlotFreed(Runnable listener) {
        this.slotFreed = listener;
    }

    /** Whether new requests are taken (false once the agent stops). */
    public boolean accepting() {
        synchronized (lock) {
            return accepting;
        }
    }

    /** Refuses new requests from now on; running and queued ones go on. */
    public void stopAccepting() {
        synchronized (lock) {
            accepting = false;
        }
    }

    /** Transfers waiting. */
    public int queuedCount() {
        synchronized (lock) {
            return queued.size();
        }
    }

    /** Transfers running and waiting. */
    public int activeCount() {
        synchronized (lock) {
            return running.size() + queued.size();
        }
    }

    /**
     * Items planned across waiting and running transfers (files and items that failed at
     * planning): what {@code openmft.maxPlannedItems} bounds.
     */
    public long plannedItems() {
        synchronized (lock) {
            long n = 0;
            for (QueuedTransfer q : queued) {
                n += q.items().size() + q.preFailed().size();
            }
            for (Running r : running.values()) {
                n += r.queued().items().size() + r.queued().preFailed().size();
            }
            return n;
        }
    }

    /** Whether a transfer of this id waits or runs here. */
    public boolean known(String id) {
        synchronized (lock) {
            return running.containsKey(id) || queued.stream().anyMatch(q -> q.id().equals(id));
        }
    }

    /** Queues a transfer (once: a second one of the same id is ignored) and starts what may start. */
    public void enqueue(QueuedTransfer q) {
        int waiting;
        synchronized (lock) {
            if (closed || known(q.id())) {
                return;
            }
            queued.add(q);
            waiting = queued.size();
        }
        if (q.resume() == null) {
            listener.transferQueued(agentName, q.info(), waiting);
        }
        scheduleNext();
        activity.run();
    }

    /**
     * Ends a transfer that never started (it failed or was cancelled while it was planned): its
     * log, its final reply, its state removed.
     *
     * @param q          the transfer, with what was planned (possibly nothing)
     * @param code       its result
     * @param supplement why
     */
    public void endUnstarted(QueuedTransfer q, ResultCode code, String supplement) {
        Instant now = Instant.now();
        ended(q, new TransferOutcome(q.id(), code.code(), supplement, failAll(q, supplement), now, now));
        activity.run();
    }

    /** Cancels a transfer still waiting: it ends with 41. @return whether one was waiting */
    public boolean cancelQueued(String id) {
        QueuedTransfer dropped = null;
        synchronized (lock) {
            for (QueuedTransfer q : queued) {
                if (q.id().equals(id)) {
                    dropped = q;
                }
            }
            if (dropped == null) {
                return false;
            }
            queued.remove(dropped);
        }
        Instant now = Instant.now();
        ended(dropped, new TransferOutcome(id, ResultCode.CANCELLED.code(), "BFGTR0079I: The transfer was cancelled"
                + " before it started.", failAll(dropped, "cancelled"), now, now));
        activity.run();
        return true;
    }

    /** Asks a running transfer to cancel. @return whether one was running */
    public boolean cancelRunning(String id, String reason) {
        Running r = running.get(id);
        if (r == null) {
            return false;
        }
        r.transfer().cancel(reason);
        return true;
    }

    /** Hands a destination's answer to the running transfer it is for (others are dropped). */
    public void deliver(String id, Control c) {
        Running r = running.get(id);
        if (r != null) {
            r.transfer().deliver(c);
        }
    }

    private void scheduleNext() {
        synchronized (lock) {
            while (!closed && running.size() + lent < maxRunning && !queued.isEmpty()) {
                QueuedTransfer q = queued.poll();
                if (q.items().isEmpty()) {
                    // Nothing to move (every source failed at planning, or nothing matched).
                    Instant now = Instant.now();
                    ended(q, new TransferOutcome(q.id(), q.preFailed().isEmpty() ? 0 : 40, q.preFailed().isEmpty()
                            ? "BFGTR0011W: No files matched the transfer request." : "BFGRP0033E: The file transfer"
                                    + " request has failed: no file was transferred.", q.preFailed(), now, now));
                    continue;
                }
                SourceTransfer t = transfers.apply(q);
                running.put(q.id(), new Running(t, q));
                executor.execute(() -> run(t, q));
            }
        }
    }

    private void run(SourceTransfer t, QueuedTransfer q) {
        Thread me = Thread.currentThread();
        String name = me.getName();
        me.setName("openmft-" + agentName + "-transfer-" + q.id().substring(40));
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, agentName);
        TransferOutcome outcome = null;
        boolean returned = false;
        try {
            outcome = t.run();
            returned = true;
        } finally {
            running.remove(q.id());
            if (returned) {
                finished(q, outcome);
            }
            MDC.remove(org.openmft.agent.Agent.MDC_AGENT);
            me.setName(name);
            scheduleNext();
            slotFreed.run();
            activity.run();
        }
    }

    /**
     * A transfer's run ends: with its outcome, or with null when the agent stopped or lost its
     * queue manager in the middle (the transfer keeps its record and resumes on the next start).
     */
    private void finished(QueuedTransfer q, TransferOutcome outcome) {
        if (outcome == null) {
            log.info("Transfer {}: suspended; it resumes when the agent next starts", q.id());
            return;
        }
        List<ItemOutcome> all = new ArrayList<>(outcome.items());
        all.addAll(q.preFailed());
        int code = outcome.resultCode();
        String supplement = outcome.supplement();
        if (!q.preFailed().isEmpty() && (code == 0 || code == 20)) {
            // Items refused at planning count too, in the result and in what it says.
            ResultCode c = ResultCode.fromItems(all);
            code = c.code();
            supplement = TransferResults.summary(c, all);
        }
        ended(q, new TransferOutcome(outcome.transferId(), code, supplement, all, outcome.started(),
                outcome.ended()));
    }

    /** Publishes the outcome, answers the requester and removes the transfer's state. */
    private void ended(QueuedTransfer q, TransferOutcome outcome) {
        log.info("Transfer {} ended with result {}: {}", outcome.transferId(), outcome.resultCode(),
                outcome.supplement());
        listener.transferEnded(agentName, Role.SOURCE, outcome);
        replies.finalReply(q, outcome);
        forget(q.id());
    }

    /** Removes a transfer's record and files; one that stays is taken back, and ended, after a restart. */
    public void forget(String id) {
        try {
            state.removeSource(id);
        } catch (StateException e) {
            log.error("Transfer {}: its state could not be removed ({}); after a restart the agent finds it ended and"
                    + " removes it then", id, e.getMessage());
        }
    }

    private static List<ItemOutcome> failAll(QueuedTransfer q, String why) {
        List<ItemOutcome> out = new ArrayList<>();
        for (PlannedItem p : q.items()) {
            out.add(new ItemOutcome(p.index(), p.file().source().toString(), p.item().destination().path(), 0,
                    ItemOutcome.FAILED, why, null));
        }
        out.addAll(q.preFailed());
        return out;
    }

    /**
     * The first half of {@link #close}, for an immediate stop asked from any thread: no transfer
     * starts any more, and the running ones are interrupted now (they suspend, keeping their
     * records), without waiting for them. {@link #close} still follows and waits.
     */
    public void stopNow() {
        synchronized (lock) {
            closed = true;
            accepting = false;
        }
        executor.shutdownNow();
    }

    /**
     * Ends everything now: running transfers are interrupted and suspended (they keep their
     * records and resume on the next start); queued ones stay recorded.
     *
     * @return the names of transfer threads still running after {@code wait}
     */
    public List<String> close(Duration wait) {
        List<String> ids;
        synchronized (lock) {
            closed = true;
            accepting = false;
            ids = new ArrayList<>(running.keySet());
        }
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                List<String> left = new ArrayList<>(running.keySet());
                log.warn("Agent {}: {} source transfer(s) did not stop within {} ms: {}", agentName, left.size(),
                        wait.toMillis(), left);
                return left;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!ids.isEmpty()) {
            log.debug("Agent {}: suspended source transfers {}", agentName, ids);
        }
        return List.of();
    }
}
