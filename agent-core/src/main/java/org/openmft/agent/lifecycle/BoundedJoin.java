package org.openmft.agent.lifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits a bounded time for threads to end, and says which did not: a shutdown that hangs on one
 * stuck thread, or that goes on without a word while threads still run, is hard to diagnose.
 *
 * <p>The bound is for all the threads together, not for each: joining ten threads within 5 s
 * takes at most about 5 s.
 */
public final class BoundedJoin {
    private static final Logger log = LoggerFactory.getLogger(BoundedJoin.class);

    private BoundedJoin() {
    }

    /**
     * Waits at most {@code bound} for all of {@code threads} to end (threads never started count as
     * ended). When interrupted it stops waiting and restores the interrupt flag.
     *
     * @return the threads still alive, in the given order; empty when all ended in time
     */
    public static List<Thread> join(Collection<Thread> threads, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        try {
            for (Thread t : threads) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                TimeUnit.NANOSECONDS.timedJoin(t, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Thread> alive = new ArrayList<>();
        for (Thread t : threads) {
            if (t.isAlive()) {
                alive.add(t);
            }
        }
        return alive;
    }

    /**
     * As {@link #join}, and logs a warning naming the threads still alive and how long was waited.
     *
     * @param what who is waiting, for the warning, e.g. "Host of queue manager QM1"
     * @return the threads still alive
     */
    public static List<Thread> joinOrWarn(String what, Collection<Thread> threads, Duration bound) {
        long start = System.nanoTime();
        List<Thread> alive = join(threads, bound);
        if (!alive.isEmpty()) {
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            log.warn("{}: {} thread(s) did not stop within {} ms{}: {}", what, alive.size(), waitedMillis,
                    Thread.currentThread().isInterrupted() ? " (the wait was interrupted)" : "", names(alive));
        }
        return alive;
    }

    /** The threads' names, comma-separated. */
    public static String names(Collection<Thread> threads) {
        return threads.stream().map(Thread::getName).collect(Collectors.joining(", "));
    }
}
