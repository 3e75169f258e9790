package org.openmft.agent.transfer.destination;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

import org.openmft.agent.transfer.protocol.Sequenced;

/**
 * The sequenced messages of a transfer spread over several channels that arrived before the one
 * expected ({@link Sequencer.Verdict#AHEAD}): held, copied, until the gap before them fills, then
 * handed back in order, so that items are still written, checksummed and checkpointed strictly in
 * sequence. Nothing held is durable: a checkpoint covers only what was written, and a restart asks
 * the source again for everything after it, held or not.
 *
 * <p>Bounded twice: the {@link Sequencer} holds nothing a checkpoint span or more ahead of the
 * expected message (the source never has more than its window, which is at most that span, in
 * flight), and this buffer holds at most {@link #MAX_HELD_BYTES} of chunk bodies; past that a chunk
 * is dropped ({@link #hold} says so) and comes again when the source resends. So a transfer holds
 * at most min(checkpoint span, 64 MiB) here: with IBM's defaults (chunks of 256 KiB, 10 × 5 in
 * flight, a checkpoint every frame) at most 49 chunks, about 12 MiB, and in practice about one
 * chunk per extra channel when the channels are alike. Transfers that are not spread hold nothing.
 * Buffers are reused, not made per chunk, once the buffer has grown.
 *
 * <p>Not thread-safe: owned by the DATA dispatcher thread.
 */
public final class ReorderBuffer {
    /** The most chunk bytes one transfer holds. */
    public static final long MAX_HELD_BYTES = 64L << 20;

    /** A held message: its header and its body (valid until {@link #release}). */
    public record Held(Sequenced message, byte[] body, int length) {
    }

    /** What {@link #hold} did. */
    public enum Outcome {
        /** Held until its turn. */
        HELD,
        /** A copy is held already: dropped. */
        ALREADY_HELD,
        /** Holding it would pass {@link ReorderBuffer#MAX_HELD_BYTES}: dropped. */
        FULL
    }

    /** Buffers kept for reuse: about as many as are held at once when the channels are alike. */
    private static final int SPARE_BUFFERS = 4;
    private final long maxBytes;
    private final TreeMap<Long, Held> held = new TreeMap<>();
    private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
    private long heldBytes;

    /** A buffer of {@link #MAX_HELD_BYTES}. */
    public ReorderBuffer() {
        this(MAX_HELD_BYTES);
    }

    /** @param maxBytes the most chunk bytes held */
    public ReorderBuffer(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Holds message {@code m} with a copy of its body.
     *
     * @param body its bytes, valid only during the call
     */
    public Outcome hold(Sequenced m, byte[] body, int length) {
        if (held.containsKey(m.seq())) {
            return Outcome.ALREADY_HELD;
        }
        if (heldBytes + length > maxBytes) {
            return Outcome.FULL;
        }
        byte[] copy = buffer(length);
        System.arraycopy(body, 0, copy, 0, length);
        held.put(m.seq(), new Held(m, copy, length));
        heldBytes += length;
        return Outcome.HELD;
    }

    /**
     * The held message numbered {@code expected}, taken out (give it back with {@link #release});
     * held ones below it (superseded by a copy that came in its turn) are dropped.
     *
     * @return it, or null when it is not held
     */
    public Held take(long expected) {
        Map.Entry<Long, Held> first;
        while ((first = held.firstEntry()) != null && first.getKey() < expected) {
            held.pollFirstEntry();
            heldBytes -= first.getValue().length();
            release(first.getValue());
        }
        Held h = held.remove(expected);
        if (h != null) {
            heldBytes -= h.length();
        }
        return h;
    }

    /** A message taken is handled: its buffer is reused. */
    public void release(Held h) {
        if (spare.size() < SPARE_BUFFERS) {
            spare.push(h.body());
        }
    }

    /**
     * Whether a message held came over the same channel as {@code expected} (their numbers differ by
     * a multiple of {@code channels}): since a channel keeps its order, {@code expected} is then lost
     * (dropped as damaged, or on the way).
     */
    public boolean holdsLaterOnChannelOf(long expected, int channels) {
        if (channels < 2) {
            return false;
        }
        for (long seq : held.keySet()) {
            if (seq > expected && (seq - expected) % channels == 0) {
                return true;
            }
        }
        return false;
    }

    /** Drops everything held (a new incarnation, or numbers that no longer mean the same). */
    public void clear() {
        held.clear();
        heldBytes = 0;
    }

    /** Messages held. */
    public int size() {
        return held.size();
    }

    /** Chunk bytes held. */
    public long heldBytes() {
        return heldBytes;
    }

    private byte[] buffer(int length) {
        while (!spare.isEmpty()) {
            byte[] b = spare.pop();
            if (b.length >= length) {
                return b;
            }
        }
        return new byte[Math.max(length, 1)];
    }
}
