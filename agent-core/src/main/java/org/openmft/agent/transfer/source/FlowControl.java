package org.openmft.agent.transfer.source;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The source's flow control, without JMS or files: the sequence numbers it sends, the window of
 * unacknowledged chunks ({@code agentWindowSize} × {@code agentFrameSize}, or sized from the link
 * by an {@link AdaptiveWindow} when one is attached), what the destination already has after a
 * (re)start, and where to rewind to after a gap.
 *
 * <p>Messages of a transfer are numbered from 0, contiguously, across its items; acknowledgements
 * are cumulative. After a (re)synchronisation the destination says the first number it lacks:
 * every item from the one holding it is read again (to rebuild its checksum), but nothing below
 * that number is sent ({@link #suppressed}).
 *
 * <p>Not thread-safe: owned by the source transfer's thread.
 */
public final class FlowControl {
    private int maxUnacked;
    private AdaptiveWindow adaptive;
    private LongSupplier nanoClock;
    private final long[] itemFirstSeq;
    private final long[] itemLastSeq;
    private long nextSeq;
    private long lastAcked = -1;
    private long suppressBelow;
    private long highestSent = -1;
    private long bytesSent;
    private long bytesResent;

    /**
     * @param itemCount  items in the transfer
     * @param maxUnacked chunks that may be sent beyond the last acknowledged one
     */
    public FlowControl(int itemCount, int maxUnacked) {
        this.maxUnacked = maxUnacked;
        this.itemFirstSeq = new long[itemCount];
        this.itemLastSeq = new long[itemCount];
        Arrays.fill(itemFirstSeq, -1);
        Arrays.fill(itemLastSeq, -1);
    }

    /**
     * Sizes the window from the link from now on: {@code adaptive} is told of every send and
     * acknowledgement, timed by {@code nanoClock} (nanoseconds, any origin).
     */
    public void adapt(AdaptiveWindow adaptive, LongSupplier nanoClock) {
        this.adaptive = adaptive;
        this.nanoClock = nanoClock;
        this.maxUnacked = adaptive.chunks();
    }

    /** Chunks that may be unacknowledged now. */
    public int window() {
        return maxUnacked;
    }

    /** The number the next message gets. */
    public long nextSeq() {
        return nextSeq;
    }

    /** The message numbered {@link #nextSeq()} is sent (or skipped as suppressed). */
    public void advance() {
        nextSeq++;
    }

    /** Starts numbering again from 0 (a (re)started transfer reads its items from the first). */
    public void restartNumbering() {
        nextSeq = 0;
    }

    /** The highest number the destination acknowledged, -1 before any. */
    public long lastAcked() {
        return lastAcked;
    }

    /** Whether chunk {@code seq} fits in the window now. */
    public boolean windowOpen(long seq) {
        return seq - lastAcked <= maxUnacked;
    }

    /** A cumulative acknowledgement up to {@code seq}. @return whether it acknowledged anything new */
    public boolean acknowledged(long seq) {
        if (seq > lastAcked) {
            lastAcked = seq;
            if (adaptive != null && adaptive.acknowledged(seq, nanoClock.getAsLong())) {
                maxUnacked = adaptive.chunks();
            }
            return true;
        }
        return false;
    }

    /**
     * The destination has everything below {@code next} and nothing from it on: exact, even below
     * an earlier acknowledgement (a destination that voided an item the source aborted late).
     *
     * @return whether the source must go back (it has sent from {@code next} on)
     */
    public boolean gap(long next) {
        lastAcked = next - 1;
        restartMeasuring();
        return next < nextSeq;
    }

    /** The destination accepted a (re)start: it continues from {@code next}. */
    public void negotiated(long next) {
        nextSeq = Math.max(0, next);
        lastAcked = nextSeq - 1;
        suppressBelow = nextSeq;
        restartMeasuring();
    }

    /**
     * Message 0 (an inline transfer's only chunk) went right behind the START the destination
     * accepted from 0: it is not sent again unless the destination asks for it (a {@code NACK}),
     * and it is not acknowledged yet.
     */
    public void sentAhead(int length) {
        suppressBelow = Math.max(suppressBelow, 1);
        bytesSent += length;
        highestSent = Math.max(highestSent, 0);
    }

    private void restartMeasuring() {
        if (adaptive != null) {
            adaptive.restarted(lastAcked);
        }
    }

    /** Whether message {@code seq} is already at the destination and must not be sent again. */
    public boolean suppressed(long seq) {
        return seq < suppressBelow;
    }

    /** Item {@code index} starts at {@link #nextSeq()}. */
    public void itemStarted(int index) {
        itemFirstSeq[index] = nextSeq;
    }

    /** The number of item {@code index}'s first message, -1 when it has not been sent. */
    public long itemFirstSeq(int index) {
        return itemFirstSeq[index];
    }

    /** Item {@code index}'s outcome arrived with its last message numbered {@code lastSeq}. */
    public void itemDone(int index, long lastSeq) {
        itemLastSeq[index] = lastSeq;
    }

    /** What a journal from before a restart says of item {@code index}. */
    public void itemJournaled(int index, long firstSeq, long lastSeq) {
        itemFirstSeq[index] = firstSeq;
        itemLastSeq[index] = lastSeq;
    }

    /**
     * Whether item {@code index}, finished before a restart and journaled, is wholly below what
     * the destination has: it is skipped without reading, numbering continuing after it.
     */
    public boolean skipJournaled(int index, boolean hasResult) {
        if (hasResult && itemFirstSeq[index] == nextSeq && itemLastSeq[index] >= nextSeq
                && itemLastSeq[index] < suppressBelow) {
            nextSeq = itemLastSeq[index] + 1;
            return true;
        }
        return false;
    }

    /** The item being sent: the last one started, or -1. */
    public int currentItem() {
        for (int i = itemFirstSeq.length - 1; i >= 0; i--) {
            if (itemFirstSeq[i] >= 0) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Goes back so that message {@code seq} is sent again: to the start of the item holding it
     * (its checksum is rebuilt from its first byte), sending nothing below {@code seq}.
     *
     * @return the index of the item to send from
     */
    public int rewindTo(long seq) {
        int index = 0;
        for (int i = 0; i < itemFirstSeq.length; i++) {
            if (itemFirstSeq[i] >= 0 && itemFirstSeq[i] <= seq) {
                index = i;
            }
        }
        for (int i = index + 1; i < itemFirstSeq.length; i++) {
            itemFirstSeq[i] = -1;
        }
        suppressBelow = seq;
        nextSeq = itemFirstSeq.length == 0 || itemFirstSeq[index] < 0 ? seq : itemFirstSeq[index];
        return index;
    }

    /**
     * Counts a chunk of {@code length} bytes handed to the queue manager as message {@code seq}.
     *
     * @return whether it was sent before in this run (a resend)
     */
    public boolean sent(long seq, int length) {
        if (adaptive != null) {
            adaptive.sent(seq, nanoClock.getAsLong());
        }
        bytesSent += length;
        boolean resent = seq <= highestSent;
        if (resent) {
            bytesResent += length;
        }
        highestSent = Math.max(highestSent, seq);
        return resent;
    }

    /** Bytes handed to the queue manager so far, resends included. */
    public long bytesSent() {
        return bytesSent;
    }

    /** Bytes sent more than once in this run (after lost acknowledgements, gaps or restarts). */
    public long bytesResent() {
        return bytesResent;
    }
}
