package org.openmft.agent.transfer.destination;

/**
 * The destination's view of a transfer's numbering, without JMS or files: which incarnation of
 * the source it follows, which message it expects next, whether one is a duplicate or leaves a
 * gap (asked for again once per gap, not once per message), whether one of a transfer spread over
 * several channels is merely ahead (held in a {@link ReorderBuffer}), and when a window or
 * checkpoint span ends.
 *
 * <p>Not thread-safe: owned by the DATA dispatcher thread.
 */
public final class Sequencer {
    /** What to do with a sequenced message. */
    public enum Verdict {
        /** Of another incarnation, or the transfer has ended: drop it, silently. */
        STALE,
        /** Already handled: answer again what the source may have missed. */
        DUPLICATE,
        /** A gap before it: ask the source to resend from {@link #expected()} (once per gap). */
        GAP_NACK,
        /** A gap already asked about: drop it. */
        GAP,
        /** The one expected: handle it ({@link #expected()} has moved past it). */
        NEXT,
        /**
         * Spread over several channels, ahead of the expected one but within the checkpoint span:
         * another channel is slower; hold it ({@link ReorderBuffer}) until its turn.
         */
        AHEAD,
        /**
         * As {@link #AHEAD}, and the expected message is lost: it went over the same channel, which
         * keeps its order, yet this later one came first. Hold it and ask the source to resend from
         * {@link #expected()} (once per gap).
         */
        AHEAD_NACK
    }

    /** What to answer an ACK_REQUEST. */
    public enum Answer {
        /** Of another incarnation, or ended: nothing. */
        NONE,
        /** Everything the source sent is here: acknowledge it all again. */
        ACK_ALL,
        /** Something is missing: NACK from {@link #expected()}. */
        NACK
    }

    private final int window;
    private final int checkpointChunks;
    private int incarnation;
    private long expected;
    private long nackedFor = -1;

    /**
     * @param window           chunks between acknowledgements (at least 1)
     * @param checkpointChunks chunks between checkpoints (at least the window)
     */
    public Sequencer(int window, int checkpointChunks, int incarnation) {
        this.window = Math.max(1, window);
        this.checkpointChunks = Math.max(this.window, checkpointChunks);
        this.incarnation = incarnation;
    }

    /** Chunks between acknowledgements. */
    public int window() {
        return window;
    }

    /** Chunks between checkpoints. */
    public int checkpointChunks() {
        return checkpointChunks;
    }

    /** The incarnation followed. */
    public int incarnation() {
        return incarnation;
    }

    /** The next number expected: everything below it is handled. */
    public long expected() {
        return expected;
    }

    /** After a restart: continue from a checkpoint. */
    public void resumeAt(long next) {
        expected = next;
    }

    /**
     * A (re)start from the source.
     *
     * @return false for a start of an older incarnation than the one followed (a late message:
     *         ignore it)
     */
    public boolean restart(int newIncarnation) {
        if (newIncarnation < incarnation) {
            return false;
        }
        incarnation = newIncarnation;
        nackedFor = -1;
        return true;
    }

    /** Judges message {@code seq} of {@code messageIncarnation}. */
    public Verdict accept(int messageIncarnation, long seq, boolean ended) {
        if (messageIncarnation != incarnation || ended) {
            return Verdict.STALE;
        }
        if (seq < expected) {
            return Verdict.DUPLICATE;
        }
        if (seq > expected) {
            if (nackedFor != expected) {
                nackedFor = expected;
                return Verdict.GAP_NACK;
            }
            return Verdict.GAP;
        }
        expected = seq + 1;
        nackedFor = -1;
        return Verdict.NEXT;
    }

    /**
     * Judges message {@code seq} of a transfer whose sequenced messages are spread over
     * {@code channels} channels, message {@code seq} over channel {@code seq % channels}, each in
     * order: one ahead of the expected is held rather than taken for a gap, unless it is a checkpoint
     * span or more ahead (the source's window is at most that span, so it cannot be one of the
     * current window: a gap as without channels). With one channel, as {@link #accept(int, long, boolean)}.
     */
    public Verdict accept(int messageIncarnation, long seq, boolean ended, int channels) {
        if (channels < 2 || seq <= expected || messageIncarnation != incarnation || ended) {
            return accept(messageIncarnation, seq, ended);
        }
        long ahead = seq - expected;
        if (ahead >= checkpointChunks) {
            return accept(messageIncarnation, seq, ended);
        }
        return ahead % channels == 0 && lost() ? Verdict.AHEAD_NACK : Verdict.AHEAD;
    }

    /**
     * The expected message is known to be lost (a later one of its channel came first): whether to
     * ask the source for it now, which is once per gap.
     */
    public boolean lost() {
        if (nackedFor == expected) {
            return false;
        }
        nackedFor = expected;
        return true;
    }

    /**
     * The source gave up, at {@code seq} below what we expect, the item we are writing (its file
     * shrank since it was sent): what follows is numbered from the abort on, and a NACK from there
     * is due.
     */
    public void voidFrom(long seq) {
        expected = seq + 1;
        nackedFor = expected;
    }

    /** The source asks where we are; its next number is {@code sourceNext}. */
    public Answer ackRequest(int requestIncarnation, long sourceNext, boolean ended) {
        if (requestIncarnation != incarnation || ended) {
            return Answer.NONE;
        }
        if (expected >= sourceNext) {
            return Answer.ACK_ALL;
        }
        nackedFor = expected;
        return Answer.NACK;
    }

    /** Whether message {@code seq} ends a checkpoint span. */
    public boolean checkpointDue(long seq) {
        return (seq + 1) % checkpointChunks == 0;
    }

    /** Whether message {@code seq} ends a window. */
    public boolean windowEnds(long seq) {
        return (seq + 1) % window == 0;
    }
}
