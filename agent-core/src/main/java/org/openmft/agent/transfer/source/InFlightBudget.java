package org.openmft.agent.transfer.source;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The chunks an agent's source transfers may have unacknowledged together. Each transfer always
 * has one window ({@code agentWindowSize} chunks) of its own; the rest of its window (the other
 * {@code agentFrameSize - 1} windows, or what the adaptive window adds) it borrows from this
 * agent-wide budget a window at a time, and gives back as acknowledgements come. The budget holds
 * what one transfer's whole window holds beyond its own window, so one transfer alone runs as it
 * always did, and ten running together have what one has plus a window each in flight, not ten
 * times one's window.
 *
 * <p>Why: chunks in flight wait on the destination's DATA queue, in the queue manager's memory
 * until they are read. The destination reads one chunk at a time whatever the number of
 * transfers, so more chunks queued do not move the set faster; they only cost the queue manager
 * (and, on an embedded one, the agent's own garbage collector, which copies every live chunk) in
 * proportion to their number. Measured on 2000 x 1 MiB in ten transfers, agentChunkSize 524288:
 * see docs/profiling.md, "Change 7".
 *
 * <p>No transfer waits on another for ever: with one window of its own in flight a transfer
 * always reaches the end of a window, which the destination acknowledges, so its window moves on
 * without any borrowed chunk (any {@code agentWindowSize} consecutive chunks hold one end of a
 * window, wherever a resend made the window start).
 *
 * <p>A transfer whose destination does not answer within {@code transferAckTimeout} gives back
 * what it borrowed ({@code SourceTransfer}), so a stopped destination does not slow the others.
 *
 * <p>Thread-safe: shared by the agent's source transfers; each {@link Share} is owned by one
 * transfer's thread.
 */
public final class InFlightBudget {
    private final int ownChunks;
    private final int capacity;
    private final AtomicInteger available;

    /**
     * @param ownChunks chunks each transfer has without borrowing: {@code agentWindowSize}
     * @param capacity  chunks to lend in all
     */
    public InFlightBudget(int ownChunks, int capacity) {
        if (ownChunks < 1 || capacity < 0) {
            throw new IllegalArgumentException("own " + ownChunks + " chunks, capacity " + capacity);
        }
        this.ownChunks = ownChunks;
        this.capacity = capacity;
        this.available = new AtomicInteger(capacity);
    }

    /**
     * The budget of an agent: one transfer's largest window ({@code agentWindowSize} ×
     * {@code agentFrameSize}, or the adaptive window's bound when {@code openmft.adaptiveWindow} is
     * on) less the window each transfer has of its own.
     */
    public static InFlightBudget of(SourceSettings s) {
        int largest = s.adaptiveWindow()
                ? AdaptiveWindow.ceilingChunks(AdaptiveWindow.MAX_BYTES, s.chunkSize(), s.maxUnacked())
                : s.maxUnacked();
        int own = Math.max(1, s.windowSize());
        return new InFlightBudget(own, Math.max(0, largest - own));
    }

    /** Chunks not lent now. */
    public int available() {
        return available.get();
    }

    /** Chunks lent in all when nothing is borrowed. */
    public int capacity() {
        return capacity;
    }

    /** A transfer's share: nothing borrowed yet. */
    public Share share() {
        return new Share();
    }

    private boolean take(int chunks) {
        while (true) {
            int now = available.get();
            if (now < chunks) {
                return false;
            }
            if (available.compareAndSet(now, now - chunks)) {
                return true;
            }
        }
    }

    /** What a transfer with {@code unacked} chunks unacknowledged must borrow: whole windows beyond its own. */
    private int needed(long unacked) {
        long beyond = unacked - ownChunks;
        if (beyond <= 0) {
            return 0;
        }
        long windows = (beyond + ownChunks - 1) / ownChunks;
        return (int) Math.min(capacity, windows * ownChunks);
    }

    /** What one transfer borrowed. */
    public final class Share {
        private int held;

        private Share() {
        }

        /**
         * Whether the transfer may have {@code unacked} chunks unacknowledged (the next one
         * included), borrowing what that takes beyond what it holds; false when the budget has
         * not that much now (nothing is borrowed then).
         */
        public boolean covers(long unacked) {
            int need = needed(unacked);
            if (need <= held) {
                return true;
            }
            if (!take(need - held)) {
                return false;
            }
            held = need;
            return true;
        }

        /** Gives back what {@code unacked} chunks unacknowledged no longer need. */
        public void trim(long unacked) {
            int need = needed(Math.max(0, unacked));
            if (need < held) {
                available.addAndGet(held - need);
                held = need;
            }
        }

        /** Gives back everything: the transfer ended or stopped sending. */
        public void release() {
            if (held > 0) {
                available.addAndGet(held);
                held = 0;
            }
        }

        /** Chunks borrowed now. */
        public int held() {
            return held;
        }
    }
}
