package org.openmft.agent.transfer.source;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;

import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.calls.CallRefusedException;
import org.openmft.agent.calls.CallResult;
import org.openmft.agent.calls.CallRunner;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.state.SourceRecord;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.agent.transfer.state.TransferStateStore;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ManagedCallRequest;
import org.openmft.xml.Reply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The agent's managed calls ({@code <managedCall>}): a program run at a requester's asking, with no
 * data moved. As IBM's agents do, each running call holds one of the {@code maxSourceTransfers}
 * slots (lent by the {@link SourceScheduler}; a call waits, ordered by priority then arrival, while
 * none is free or a transfer queued before it waits), runs through the {@link CallRunner} (the
 * {@code commandPath}, retries, success codes, bounded output and time) and cannot be cancelled.
 * Its log is {@code callStarted} then {@code callCompleted} (the listener's
 * {@code managedCallStarted}/{@code managedCallEnded}); a request with a {@code <reply>} gets a
 * final reply with the result: 0 when the call succeeded, 40 when not.
 *
 * <p>Refused before they are accepted, with a reply: a call for another agent (4), on an agent
 * with {@code maxSourceTransfers=0} (51), while the agent stops (1), beyond
 * {@code maxQueuedTransfers} waiting (44), and a program the agent would not run (outside its
 * {@code commandPath}, or an Ant script or JCL: 40, with the refusal, nothing run).
 *
 * <p>Journaled as a source transfer is ({@link TransferStateStore}): when a call is accepted, before
 * its acknowledgement is committed, its request document and a source record (no items, the
 * requester's reply queue and user); a line when its program starts and one when it ends (outcome,
 * retries, return code, error; not the output); the record and files go once its log and reply
 * are sent. So after the agent's end, stopped or killed ({@link #recovered}): a call that had not
 * started runs in its turn; one that ended is not run again, its {@code callCompleted} and reply
 * sent (again) from the journal; one cut in the middle (started, not ended: the agent killed, or
 * stopped and its program ended) is not run again either: its outcome is an error "not known", its
 * reply 40. A call is run at most once, and its outcome is never lost.
 *
 * <p>Thread-safety: {@link #submit} on the command thread; the rest from any.
 */
public final class ManagedCalls {
    private static final Logger log = LoggerFactory.getLogger(ManagedCalls.class);

    /** The journal's phase name of a managed call's lines. */
    private static final String PHASE = "managedCall";

    private final SourceSettings settings;
    private final TransferStateStore state;
    private final CallRunner runner;
    private final SourceScheduler scheduler;
    private final RequesterReplies replies;
    private final AgentListener listener;
    private final AtomicLong arrival;
    private final IntSupplier transfersWaiting;
    private final Runnable activity;
    private final ExecutorService executor;

    private final Object lock = new Object();
    private final PriorityQueue<Waiting> waiting = new PriorityQueue<>(Comparator
            .comparingInt((Waiting w) -> -w.request().priority()).thenComparingLong(Waiting::arrival));
    private int running;
    private boolean closed;

    /** An accepted call and where its final reply goes. */
    private record Waiting(String id, ManagedCallRequest request, long arrival, Destination replyDestination,
            String replyQueue) {
    }

    /**
     * @param arrival          numbers requests in their order of arrival, shared with transfers
     * @param transfersWaiting transfers waiting at this agent (queued and being planned), which
     *                         count with waiting calls against {@code maxQueuedTransfers}
     * @param threads          names the calls' threads
     * @param activity         told whenever the number of calls may have changed
     */
    public ManagedCalls(SourceSettings settings, TransferStateStore state, CallRunner runner, SourceScheduler scheduler,
            RequesterReplies replies, AgentListener listener, AtomicLong arrival, IntSupplier transfersWaiting,
            ThreadFactory threads, Runnable activity) {
        this.settings = settings;
        this.state = state;
        this.runner = runner;
        this.scheduler = scheduler;
        this.replies = replies;
        this.listener = listener;
        this.arrival = arrival;
        this.transfersWaiting = transfersWaiting;
        this.activity = activity;
        // At most maxSourceTransfers calls run (each holds a slot), so the threads are bounded.
        this.executor = Executors.newCachedThreadPool(threads);
        scheduler.onSlotFreed(this::startWhatMay);
    }

    /**
     * Accepts a managed call, or refuses it.
     *
     * @return the acknowledgement (0 with the request id) or the refusal; the call is queued once
     *         the acknowledgement is committed
     */
    public CommandHandler.Outcome submit(ManagedCallRequest request, CommandHandler.RequestContext context) {
        String agentName = settings.agentName();
        String id = TransferIds.forRequest(context.messageId(), settings.agentQMgr());
        RequestAdmission.Refusal refused = RequestAdmission.refusal(settings, scheduler, request.agent().agent(),
                "managed call request", "agent", "runs no managed calls: each needs a source transfer slot");
        if (refused != null) {
            return refuse(id, request, refused.code(), refused.reason());
        }
        int queued = transfersWaiting.getAsInt() + waitingCount();
        if (queued >= settings.maxQueuedTransfers()) {
            return refuse(id, request, ResultCode.SOURCE_CAPACITY, "BFGCH0042E: Agent " + agentName + " already has "
                    + queued + " transfers and managed calls queued, the limit set by maxQueuedTransfers.");
        }
        try {
            runner.check(request.call());
        } catch (CallRefusedException e) {
            return refuse(id, request, ResultCode.FAILED, e.getMessage());
        }
        Waiting w = new Waiting(id, request, arrival.incrementAndGet(), context.replyTo(),
                queueName(context.replyTo()));
        try {
            // Durable before the acknowledgement is committed: a call acknowledged is never lost.
            byte[] xml = (context.requestText() != null ? context.requestText() : new DocumentWriter().write(request))
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8);
            state.saveRequest(id, xml, new StateFiles.Plan(List.of(), List.of()));
            state.saveSource(new SourceRecord(id, agentName, 0, 0, 0, w.replyQueue(), context.requesterUser()));
        } catch (StateException e) {
            forget(id);
            return refuse(id, request, ResultCode.FAILED, "BFGTR0095E: The managed call could not be recorded: "
                    + e.getMessage());
        }
        log.info("Managed call {} accepted: '{}', priority {}, requested by {}", id, request.call().name(),
                request.priority(), context.requesterUser() == null ? "a user the queue manager did not name"
                        : "user " + context.requesterUser());
        Reply accepted = new Reply(DocumentWriter.VERSION, id, 0,
                List.of("BFGCL0035I: Managed call request issued. The request ID is: " + id), List.of());
        return new CommandHandler.Outcome(accepted, request.reply(), false, () -> enqueue(w));
    }

    private static String queueName(Destination d) {
        try {
            return d instanceof Queue q ? q.getQueueName() : null;
        } catch (JMSException e) {
            return null;
        }
    }

    private CommandHandler.Outcome refuse(String id, ManagedCallRequest request, ResultCode code, String reason) {
        log.warn("Managed call request {} refused (result {}): {}", id, code.code(), reason);
        return new CommandHandler.Outcome(new Reply(DocumentWriter.VERSION, id, code.code(), List.of(reason),
                List.of()), request.reply(), true);
    }

    private void enqueue(Waiting w) {
        synchronized (lock) {
            if (closed) {
                log.info("Managed call {}: not started before the agent stopped; it runs after the next start", w.id());
                return;
            }
            waiting.add(w);
        }
        startWhatMay();
        activity.run();
    }

    /** Starts waiting calls while the scheduler lends slots. */
    private void startWhatMay() {
        while (true) {
            Waiting next;
            synchronized (lock) {
                next = waiting.peek();
                if (closed || next == null || !scheduler.lendSlot(next.request().priority(), next.arrival())) {
                    return;
                }
                waiting.poll();
                running++;
            }
            try {
                executor.execute(() -> run(next));
            } catch (RejectedExecutionException e) {
                synchronized (lock) {
                    running--;
                }
                scheduler.returnSlot();
                return;
            }
        }
    }

    private void run(Waiting w) {
        Thread me = Thread.currentThread();
        String name = me.getName();
        me.setName("openmft-" + settings.agentName() + "-call-" + w.id().substring(40));
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, settings.agentName());
        try {
            CallResult r;
            try {
                state.appendSourceCall(w.id(), StateFiles.CallRecord.started(PHASE));
            } catch (StateException e) {
                report(w, CallResult.error("The call was not run: its start could not be recorded ("
                        + e.getMessage() + ")"));
                return;
            }
            listener.managedCallStarted(settings.agentName(), w.id(), w.request());
            try {
                // Managed calls cannot be cancelled (IBM): only the agent's end stops one.
                r = runner.run(w.request().call(), () -> false);
            } catch (InterruptedException e) {
                // The agent stops: its program was ended. As after a kill, no end is journaled: the
                // next start reports the call as cut ("not known") and does not run it again.
                Thread.currentThread().interrupt();
                log.warn("Managed call {}: cut by the agent's end; reported when the agent starts again", w.id());
                return;
            } catch (RuntimeException e) {
                log.error("Managed call {} failed unexpectedly", w.id(), e);
                r = CallResult.error(e.toString());
            }
            try {
                state.appendSourceCall(w.id(), new StateFiles.CallRecord(PHASE, true, r.outcome().xml(), r.retries(),
                        r.returnCode(), r.error()));
            } catch (StateException e) {
                log.warn("Managed call {}: its end could not be journaled: {}", w.id(), e.getMessage());
            }
            report(w, r);
        } finally {
            synchronized (lock) {
                running--;
            }
            MDC.remove(org.openmft.agent.Agent.MDC_AGENT);
            me.setName(name);
            scheduler.returnSlot();
            activity.run();
        }
    }

    /** The call's {@code callCompleted} and final reply (0 or 40), then its state goes. */
    private void report(Waiting w, CallResult r) {
        ResultCode code = r.succeeded() ? ResultCode.SUCCESS : ResultCode.FAILED;
        String supplement = "The managed call '" + w.request().call().name() + "' ended with outcome "
                + r.summary() + ".";
        log.info("Managed call {} ended with result {}: {}", w.id(), code.code(), supplement);
        listener.managedCallEnded(settings.agentName(), w.id(), w.request(), r, code.code(), supplement);
        if (w.request().reply() != null) {
            replies.send(w.request().reply(), w.replyDestination(), w.replyQueue(),
                    new Reply(DocumentWriter.VERSION, w.id(), code.code(), List.of(supplement), List.of()));
        }
        forget(w.id());
    }

    private void forget(String id) {
        try {
            state.removeSource(id);
        } catch (StateException e) {
            log.warn("Managed call {}: its state could not be removed ({}); the next start reports it again", id,
                    e.getMessage());
        }
    }

    /**
     * A call an earlier run of the agent accepted ({@link org.openmft.agent.transfer.recovery.SourceRecovery}):
     * queued again when it had not started; else reported from the journal, never run again.
     *
     * @param journaled its journal's last line, or null when its program never started
     */
    public void recovered(String id, ManagedCallRequest request, StateFiles.CallRecord journaled, String replyQueue) {
        Waiting w = new Waiting(id, request, arrival.incrementAndGet(), null, replyQueue);
        if (journaled == null) {
            log.info("Managed call {}: accepted before the agent's restart and not run then; queued now", id);
            enqueue(w);
            return;
        }
        executor.execute(() -> {
            CallResult r;
            if (journaled.ended()) {
                r = new CallResult(CallResult.Outcome.fromXml(journaled.outcome()), journaled.retries(),
                        journaled.returnCode(), List.of(), List.of(), journaled.error());
                log.info("Managed call {} ended before the agent's restart ({}); reported, not run again", id,
                        r.summary());
            } else {
                r = CallResult.error(SourceCalls.notKnown(request.call()));
                log.warn("Managed call {}: {}", id, r.error());
                try {
                    state.appendSourceCall(id, new StateFiles.CallRecord(PHASE, true, r.outcome().xml(), 0, null,
                            r.error()));
                } catch (StateException e) {
                    log.warn("Managed call {}: its end could not be journaled: {}", id, e.getMessage());
                }
            }
            report(w, r);
        });
    }

    /** The journal's phase of managed calls' lines. */
    public static String journalPhase() {
        return PHASE;
    }

    /** Calls waiting for a slot. */
    public int waitingCount() {
        synchronized (lock) {
            return waiting.size();
        }
    }

    /** Calls running and waiting. */
    public int activeCount() {
        synchronized (lock) {
            return running + waiting.size();
        }
    }

    /**
     * Ends everything: waiting calls keep their state and run after the next start; running ones
     * are interrupted (their programs ended; the next start reports them as cut) and waited for at
     * most {@code wait}.
     */
    public void close(Duration wait) {
        List<Waiting> dropped;
        synchronized (lock) {
            closed = true;
            dropped = List.copyOf(waiting);
            waiting.clear();
        }
        for (Waiting w : dropped) {
            log.info("Managed call {}: not started before the agent stopped; it runs after the next start", w.id());
        }
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Agent {}: managed calls did not stop within {} ms", settings.agentName(), wait.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
