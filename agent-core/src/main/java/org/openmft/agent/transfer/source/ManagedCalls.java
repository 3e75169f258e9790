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

import javax.jms.Destination;
import javax.jms.JMSException;
import javax.jms.Queue;

import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.calls.CallRefusedException;
import org.openmft.agent.calls.CallResult;
import org.openmft.agent.calls.CallRunner;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.transfer.protocol.TransferIds;
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
 * <p>Not durable: a call accepted and not finished when the agent ends is not run again after a
 * restart (at most once); its log then has a {@code callStarted} and no {@code callCompleted}.
 *
 * <p>Thread-safety: {@link #submit} on the command thread; the rest from any.
 */
public final class ManagedCalls {
    private static final Logger log = LoggerFactory.getLogger(ManagedCalls.class);

    private final SourceSettings settings;
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
    public ManagedCalls(SourceSettings settings, CallRunner runner, SourceScheduler scheduler,
            RequesterReplies replies, AgentListener listener, AtomicLong arrival, IntSupplier transfersWaiting,
            ThreadFactory threads, Runnable activity) {
        this.settings = settings;
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
                log.warn("Managed call {}: not run, the agent stopped before it could start", w.id());
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
            listener.managedCallStarted(settings.agentName(), w.id(), w.request());
            CallResult r;
            try {
                // Managed calls cannot be cancelled (IBM): only the agent's end stops one.
                r = runner.run(w.request().call(), () -> false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                r = CallResult.error("the agent stopped while the call ran; its program was ended");
            } catch (RuntimeException e) {
                log.error("Managed call {} failed unexpectedly", w.id(), e);
                r = CallResult.error(e.toString());
            }
            ResultCode code = r.succeeded() ? ResultCode.SUCCESS : ResultCode.FAILED;
            String supplement = "The managed call '" + w.request().call().name() + "' ended with outcome "
                    + r.summary() + ".";
            log.info("Managed call {} ended with result {}: {}", w.id(), code.code(), supplement);
            listener.managedCallEnded(settings.agentName(), w.id(), w.request(), r, code.code(), supplement);
            if (w.request().reply() != null) {
                replies.send(w.request().reply(), w.replyDestination(), w.replyQueue(),
                        new Reply(DocumentWriter.VERSION, w.id(), code.code(), List.of(supplement), List.of()));
            }
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
     * Ends everything: waiting calls are dropped (not run: at most once; a requester that asked for
     * a reply is told, result 1), running ones interrupted (their programs ended, their outcome an
     * error) and waited for at most {@code wait}.
     */
    public void close(Duration wait) {
        List<Waiting> dropped;
        synchronized (lock) {
            closed = true;
            dropped = List.copyOf(waiting);
            waiting.clear();
        }
        for (Waiting w : dropped) {
            String why = "The managed call '" + w.request().call().name() + "' was not run: agent "
                    + settings.agentName() + " stopped while it waited for a slot.";
            log.warn("Managed call {}: {}", w.id(), why);
            if (w.request().reply() != null) {
                replies.send(w.request().reply(), w.replyDestination(), w.replyQueue(), new Reply(
                        DocumentWriter.VERSION, w.id(), ResultCode.COMMAND_UNSUCCESSFUL.code(), List.of(why), List.of()));
            }
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
