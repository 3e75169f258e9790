package org.openmft.coordination.publish;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bounded hand-over between an agent's threads, which must never wait for the coordination
 * queue manager, and the one thread that sends publications. Its overflow policy (documented in
 * {@code docs/architecture.md}, "Coordination"):
 * <ul>
 *   <li>status publications are coalesced: a new one replaces the one still waiting, so at most one
 *       is ever held;</li>
 *   <li>progress publications are accepted only while the buffer is less than a tenth full, and
 *       otherwise dropped (they are superseded within a second anyway);</li>
 *   <li>log publications (and retained listings, which are as precious) are kept in order up to the capacity; beyond it a log publication is
 *       dropped and each drop is logged as an error naming the topic, with a running count. The
 *       buffer only fills when the agent's own queue manager is unreachable (log publications are
 *       moved from here to a persistent queue on it), and then no transfer can move data either.</li>
 * </ul>
 * Thread-safe.
 */
final class PublicationBuffer {
    private static final Logger log = LoggerFactory.getLogger(PublicationBuffer.class);

    private final int capacity;
    private final ArrayDeque<Publication> queue = new ArrayDeque<>();
    private Publication status;
    private long droppedLogs;
    private long droppedProgress;
    /** Set by {@link #release}: {@link #take} no longer waits. */
    private boolean released;
    /** Told of each publication added (the process's publisher thread); must not block. */
    private Runnable onAdd = () -> { };

    PublicationBuffer(int capacity) {
        if (capacity < 10) {
            throw new IllegalArgumentException("capacity " + capacity + " is below 10");
        }
        this.capacity = capacity;
    }

    /** Tells {@code listener} of each publication added from now on; it must not block. */
    synchronized void onAdd(Runnable listener) {
        this.onAdd = listener;
    }

    /** Ends the waits of {@link #take}, now and from now on: the sender is stopping. */
    synchronized void release() {
        released = true;
        notifyAll();
    }

    /** Adds a publication, applying the overflow policy; never blocks. */
    synchronized void add(Publication p) {
        switch (p.kind()) {
            case STATUS -> status = p;
            case PROGRESS -> {
                if (queue.size() >= capacity / 10) {
                    droppedProgress++;
                    return;
                }
                queue.add(p);
            }
            case LOG, LISTING -> {
                if (queue.size() >= capacity) {
                    // Room for a log record is made by dropping progress first.
                    if (!dropOneProgress()) {
                        droppedLogs++;
                        log.error("Publication buffer full ({} held): dropped the log publication on {}"
                                + " ({} log publications dropped so far)", capacity, p.topic(), droppedLogs);
                        return;
                    }
                }
                queue.add(p);
            }
            default -> throw new IllegalStateException("unknown kind " + p.kind());
        }
        notifyAll();
        onAdd.run();
    }

    private boolean dropOneProgress() {
        for (Iterator<Publication> it = queue.iterator(); it.hasNext();) {
            if (it.next().kind() == Publication.Kind.PROGRESS) {
                it.remove();
                droppedProgress++;
                return true;
            }
        }
        return false;
    }

    /**
     * Takes up to {@code max} publications in order, the waiting status first, waiting up to
     * {@code timeoutMillis} when there are none.
     */
    synchronized List<Publication> take(int max, long timeoutMillis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (status == null && queue.isEmpty() && !released) {
            long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
            if (left <= 0) {
                return List.of();
            }
            wait(left);
        }
        List<Publication> out = new ArrayList<>(Math.min(max, queue.size() + 1));
        if (status != null) {
            out.add(status);
            status = null;
        }
        while (out.size() < max && !queue.isEmpty()) {
            out.add(queue.poll());
        }
        return out;
    }

    /** Puts publications that could not be sent back at the head, in their order. */
    synchronized void putBack(List<Publication> unsent) {
        for (int i = unsent.size() - 1; i >= 0; i--) {
            Publication p = unsent.get(i);
            if (p.kind() == Publication.Kind.STATUS) {
                if (status == null) {
                    status = p;
                }
            } else if (p.kind() == Publication.Kind.LOG || p.kind() == Publication.Kind.LISTING
                    || queue.size() < capacity / 10) {
                queue.addFirst(p);
            } else {
                droppedProgress++;
            }
        }
        notifyAll();
    }

    /** How many publications are held. */
    synchronized int size() {
        return queue.size() + (status == null ? 0 : 1);
    }

    /** Log publications dropped because the buffer was full. */
    synchronized long droppedLogs() {
        return droppedLogs;
    }

    /** Progress publications dropped. */
    synchronized long droppedProgress() {
        return droppedProgress;
    }
}
