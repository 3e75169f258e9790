package org.openmft.agent.transfer.destination;

import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds what a crash can cost a destination transfer: the checkpoint handed to the checkpointer and
 * not yet durable, and the acknowledgement that waits for it. An acknowledgement a window or more
 * past that checkpoint is held, not sent; the DATA thread goes on writing what the source has
 * already sent, and the checkpointer sends the held acknowledgement once the checkpoint is durable.
 * Only the next checkpoint waits for the one before, so one checkpoint at a time is not yet durable.
 * The source never has more than {@code agentWindowSize × agentFrameSize} chunks unacknowledged, so
 * what it sent beyond the last durable checkpoint, and sends again after a crash, stays within one
 * checkpoint span plus that.
 *
 * <p>Thread-safety: {@link #done} is called by the checkpointer; everything else by the DATA
 * dispatcher thread. What both see is guarded by this object's monitor.
 */
final class DurabilityGate {
    private static final Logger log = LoggerFactory.getLogger(DurabilityGate.class);
    /** How long the DATA thread waits for a checkpoint before it goes on, with a warning. */
    static final long WAIT_MILLIS = 60_000;

    private final String transferId;
    private final int window;
    /** The last checkpoint handed to the checkpointer and not yet seen durable, or -1 (DATA thread only). */
    private long pending = -1;
    /** The last checkpoint the checkpointer has handled. */
    private long durableThrough = -1;
    /** A plain acknowledgement waiting until checkpoint {@link #heldFor} is durable, or -1. */
    private long heldAck = -1;
    private long heldFor;

    /**
     * @param window the transfer's acknowledgement window, in chunks
     */
    DurabilityGate(String transferId, int window) {
        this.transferId = transferId;
        this.window = window;
    }

    /** Checkpoint {@code seq} is handed to the checkpointer (after {@link #await}). */
    void submitted(long seq) {
        pending = seq;
    }

    /**
     * Holds the acknowledgement of {@code seq} when it is a window or more past the pending
     * checkpoint, not yet durable; a later acknowledgement held replaces it.
     *
     * @return true if held (the checkpointer sends it), false if it is to be sent now
     */
    boolean hold(long seq) {
        if (!windowPastPending(seq)) {
            return false;
        }
        synchronized (this) {
            if (durableThrough < pending) {
                heldAck = seq;
                heldFor = pending;
                return true;
            }
        }
        pending = -1;
        return false;
    }

    /** Waits for the pending checkpoint when {@code seq} is a window or more past it. */
    void awaitPast(long seq) {
        if (windowPastPending(seq)) {
            await();
        }
    }

    /** Whether {@code seq} is a window or more past a pending checkpoint. */
    private boolean windowPastPending(long seq) {
        return pending >= 0 && seq >= pending + window;
    }

    /**
     * Waits until the pending checkpoint, if any, is durable. The checkpointer usually finishes
     * within a span's time, so this rarely waits; after {@value #WAIT_MILLIS} ms it goes on, with
     * a warning.
     */
    void await() {
        if (pending < 0) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        synchronized (this) {
            while (durableThrough < pending) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    log.warn("Transfer {}: checkpoint {} not durable after {} s; going on", transferId, pending,
                            WAIT_MILLIS / 1000);
                    break;
                }
                try {
                    wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        pending = -1;
    }

    /**
     * Called by the checkpointer once the checkpoint at {@code seq} is handled (durable or not).
     *
     * @return the acknowledgement that waited for it, for the checkpointer to send, or -1
     */
    synchronized long done(long seq) {
        durableThrough = Math.max(durableThrough, seq);
        notifyAll();
        if (heldAck < 0 || durableThrough < heldFor) {
            return -1;
        }
        long held = heldAck;
        heldAck = -1;
        return held;
    }
}
