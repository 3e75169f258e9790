package org.openmft.agent.transfer.source;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import jakarta.jms.Destination;

import org.openmft.xml.TransferRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans accepted transfer requests off the command thread, one at a time in order of acceptance:
 * expanding wildcards and walking directories can take long on a big or slow file system, and the
 * command thread must go on answering pings, cancels and stops meanwhile. A request is recorded
 * (not yet planned) and acknowledged before it comes here, so it survives a crash or a lost
 * connection and is planned again when the agent next starts ({@code SourceRecovery}).
 *
 * <p>Thread-safety: all methods may be called from any thread; planning runs on the planner's own
 * thread.
 */
public final class SourcePlanner {
    private static final Logger log = LoggerFactory.getLogger(SourcePlanner.class);

    /**
     * An accepted request waiting to be planned.
     *
     * @param id               the transfer id
     * @param request          the request as accepted
     * @param replyDestination the request's JMSReplyTo, or null (after a restart)
     * @param replyQueue       the name of that queue, or null
     * @param requesterUser    the user the queue manager validated for the request, or null
     */
    public record Pending(String id, TransferRequest request, Destination replyDestination, String replyQueue,
            String requesterUser) {
    }

    /** Plans one request, on the planner's thread. */
    @FunctionalInterface
    public interface Planning {
        /**
         * @param pending   the request
         * @param cancelled whether it was cancelled meanwhile (asked again after planning)
         */
        void plan(Pending pending, java.util.function.BooleanSupplier cancelled);
    }

    private final Object lock = new Object();
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private final Set<String> cancelled = new HashSet<>();
    private final ExecutorService executor;
    private final Planning planning;
    private final Runnable activity;

    /**
     * @param threads  makes the planner's thread
     * @param planning what planning a request is (plan, record, queue or fail it)
     * @param activity told whenever the number of requests waiting here changed
     */
    public SourcePlanner(ThreadFactory threads, Planning planning, Runnable activity) {
        this.executor = Executors.newSingleThreadExecutor(threads);
        this.planning = planning;
        this.activity = activity;
    }

    /** The ids of the requests accepted and not planned yet, as they are now. */
    public List<String> pendingIds() {
        synchronized (lock) {
            return List.copyOf(pending.keySet());
        }
    }

    /** Requests accepted and not planned yet. */
    public int pendingCount() {
        synchronized (lock) {
            return pending.size();
        }
    }

    /** Whether a request of this id waits to be planned. */
    public boolean known(String id) {
        synchronized (lock) {
            return pending.containsKey(id);
        }
    }

    /** Takes a request to plan (once: a second one of the same id is ignored). */
    public void submit(Pending p) {
        synchronized (lock) {
            if (pending.containsKey(p.id())) {
                return;
            }
            pending.put(p.id(), p);
        }
        activity.run();
        try {
            executor.execute(() -> run(p));
        } catch (RejectedExecutionException e) {
            // Closed: the request stays recorded and is planned when the agent next starts.
            log.info("Transfer {}: not planned now (the agent is stopping); it is planned when the agent next starts",
                    p.id());
        }
    }

    /**
     * Cancels a request that waits to be planned or is being planned: it ends as cancelled instead
     * of being queued.
     *
     * @return whether there was one
     */
    public boolean cancel(String id) {
        synchronized (lock) {
            if (!pending.containsKey(id)) {
                return false;
            }
            cancelled.add(id);
            return true;
        }
    }

    /**
     * Marks a request as planned (queued or ended), atomically with {@link #cancel}: a cancel that
     * came before is returned here, one that comes after finds the transfer with the scheduler.
     *
     * @return whether it was cancelled while it was planned
     */
    public boolean settle(String id) {
        synchronized (lock) {
            pending.remove(id);
            return cancelled.remove(id);
        }
    }

    private void run(Pending p) {
        try {
            planning.plan(p, () -> {
                synchronized (lock) {
                    return cancelled.contains(p.id());
                }
            });
        } catch (RuntimeException e) {
            log.error("Transfer {}: planning failed unexpectedly; it is planned again when the agent next starts",
                    p.id(), e);
        } finally {
            synchronized (lock) {
                pending.remove(p.id());
                cancelled.remove(p.id());
            }
            activity.run();
        }
    }

    /**
     * Stops planning: requests not planned yet stay recorded and are planned when the agent next
     * starts. A walk of a file system in progress cannot be interrupted; it ends on its own and its
     * transfer is then not queued (the scheduler is closed).
     *
     * @return whether the planner's thread ended within {@code wait}
     */
    public boolean close(Duration wait) {
        executor.shutdownNow();
        try {
            return executor.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
