package org.openmft.agent.transfer.source;

/**
 * The source's flow-control window sized from the link ({@code openmft.adaptiveWindow}), without
 * JMS or a clock of its own: it is told when each chunk is sent and when acknowledgements arrive,
 * with the time of each, and keeps the window of unacknowledged chunks at about twice the
 * bandwidth-delay product of the path between the agents.
 *
 * <ul>
 *   <li><b>Round trip</b>: from a chunk's send to the acknowledgement that covers it. Only chunks
 *       sent once count (a resent chunk's acknowledgement may answer either send). The delay of
 *       the path is the smallest round trip seen in the last two {@link #MIN_RTT_PERIOD_NANOS}
 *       periods: queueing the window itself causes (a slow destination, a full queue) lengthens
 *       the round trips but not that minimum, so the window does not feed on its own queue, and a
 *       longer route is taken up within two periods.</li>
 *   <li><b>Rate</b>: bytes acknowledged over a measuring period of at least one round trip (and
 *       at least {@link #MIN_SAMPLE_NANOS}), smoothed (each period weighs a quarter).</li>
 *   <li><b>Window</b>: {@link #BDP_FACTOR} × rate × delay, in chunks, after every measuring
 *       period; never below the fixed window ({@code agentWindowSize × agentFrameSize}, IBM's,
 *       so over a short link nothing changes) and never above the bound the caller gives. While
 *       the window is what holds the source back, the rate measured is window ÷ round trip, so
 *       the next window is up to twice the last: it grows in a few round trips to what the link
 *       carries, and shrinks as the smoothed rate falls when the link slows.</li>
 * </ul>
 *
 * <p>Memory: one {@code long} per chunk of the largest window. Not thread-safe: owned by the
 * source transfer's thread.
 */
public final class AdaptiveWindow {
    /**
     * The most bytes of chunks one transfer's window holds: 32 MiB. It is the memory an embedded
     * queue manager's transmission queue (and any address but the DATA queues) holds before it
     * pages to disk, so one transfer's window never pushes a channel's chunks onto the disk, and
     * eight transfers at the bound stay within a DATA queue's 256 MiB. It still carries 300 MB/s
     * over a 100 ms round trip: past that, the agents' chunk path, not the window, is the limit
     * on the machines we measured.
     */
    public static final long MAX_BYTES = 32L << 20;
    /** The window is this many bandwidth-delay products: one to fill the link, one for jitter and ack cadence. */
    static final int BDP_FACTOR = 2;
    /** How long a smallest round trip is remembered (two such periods at most): 10 s. */
    static final long MIN_RTT_PERIOD_NANOS = 10_000_000_000L;
    /** The shortest measuring period of the rate: 20 ms (acknowledgements come a window at a time). */
    static final long MIN_SAMPLE_NANOS = 20_000_000L;
    /** The weight of a new rate sample in the smoothed rate: 1/4. */
    private static final double RATE_GAIN = 0.25;

    private final int floorChunks;
    private final int ceilingChunks;
    private final int chunkBytes;
    /** When each chunk in the window was sent, by sequence number modulo the length; -1 when resent. */
    private final long[] sentAt;
    private int window;

    private long highestSent = -1;
    private long lastAcked = -1;
    private long minRttNanos = Long.MAX_VALUE;
    private long previousMinRttNanos = Long.MAX_VALUE;
    private long minRttPeriodStart = Long.MIN_VALUE;
    private long lastRttNanos = -1;

    private long sampleStart = Long.MIN_VALUE;
    private long sampleBytes;
    private double rateBytesPerNano = -1;

    /**
     * @param floorChunks   the fixed window, {@code agentWindowSize × agentFrameSize}: never less
     * @param ceilingChunks the most chunks ever unacknowledged (raised to the floor if below)
     * @param chunkBytes    {@code agentChunkSize}
     */
    public AdaptiveWindow(int floorChunks, int ceilingChunks, int chunkBytes) {
        if (floorChunks < 1 || chunkBytes < 1) {
            throw new IllegalArgumentException("floor " + floorChunks + " chunks of " + chunkBytes + " bytes");
        }
        this.floorChunks = floorChunks;
        this.ceilingChunks = Math.max(floorChunks, ceilingChunks);
        this.chunkBytes = chunkBytes;
        this.sentAt = new long[this.ceilingChunks + 1];
        this.window = floorChunks;
    }

    /**
     * The most chunks of {@code chunkBytes} the window may reach so that it holds at most
     * {@code maxBytes}, and at least {@code floorChunks}.
     */
    public static int ceilingChunks(long maxBytes, int chunkBytes, int floorChunks) {
        return (int) Math.max(floorChunks, Math.min(Integer.MAX_VALUE - 1, maxBytes / chunkBytes));
    }

    /** Chunks that may be unacknowledged now. */
    public int chunks() {
        return window;
    }

    /** The fixed window this one never goes below. */
    public int floorChunks() {
        return floorChunks;
    }

    /** The bound it never goes above. */
    public int ceilingChunks() {
        return ceilingChunks;
    }

    /** The path's delay as measured (the smallest recent round trip), or -1 before any. */
    public long minRttNanos() {
        long m = Math.min(minRttNanos, previousMinRttNanos);
        return m == Long.MAX_VALUE ? -1 : m;
    }

    /** The latest round trip measured, or -1 before any. */
    public long lastRttNanos() {
        return lastRttNanos;
    }

    /** The smoothed rate acknowledged, bytes per second, or -1 before a measuring period ended. */
    public long rateBytesPerSecond() {
        return rateBytesPerNano < 0 ? -1 : Math.round(rateBytesPerNano * 1e9);
    }

    /** Chunk {@code seq} was handed to the queue manager at {@code nowNanos}. */
    public void sent(long seq, long nowNanos) {
        int slot = slot(seq);
        if (seq <= highestSent) {
            // A resend: the acknowledgement that covers it says nothing of the path.
            sentAt[slot] = -1;
            return;
        }
        sentAt[slot] = nowNanos;
        highestSent = seq;
    }

    /**
     * Everything up to {@code seq} is acknowledged at {@code nowNanos}.
     *
     * @return whether the window changed
     */
    public boolean acknowledged(long seq, long nowNanos) {
        if (seq <= lastAcked) {
            return false;
        }
        long newly = seq - lastAcked;
        lastAcked = seq;
        if (seq <= highestSent && seq > highestSent - sentAt.length) {
            long at = sentAt[slot(seq)];
            if (at >= 0 && nowNanos >= at) {
                roundTrip(nowNanos - at, nowNanos);
            }
        }
        if (sampleStart == Long.MIN_VALUE) {
            // The first acknowledgement opens the first measuring period: what it covers was
            // sent before any clock of ours ran.
            sampleStart = nowNanos;
            return false;
        }
        sampleBytes += newly * chunkBytes;
        long elapsed = nowNanos - sampleStart;
        long rtt = minRttNanos();
        if (elapsed < Math.max(MIN_SAMPLE_NANOS, rtt)) {
            return false;
        }
        double sample = (double) sampleBytes / elapsed;
        rateBytesPerNano = rateBytesPerNano < 0 ? sample : rateBytesPerNano + RATE_GAIN * (sample - rateBytesPerNano);
        sampleStart = nowNanos;
        sampleBytes = 0;
        return resize(rtt);
    }

    /**
     * The source went back (a gap, a timeout, a resynchronisation): what it had in flight is void,
     * so the measuring period starts again at the next acknowledgement; the estimates stay.
     */
    public void restarted(long lastAckedSeq) {
        lastAcked = lastAckedSeq;
        sampleStart = Long.MIN_VALUE;
        sampleBytes = 0;
    }

    private void roundTrip(long rtt, long nowNanos) {
        lastRttNanos = rtt;
        if (minRttPeriodStart == Long.MIN_VALUE) {
            minRttPeriodStart = nowNanos;
        } else if (nowNanos - minRttPeriodStart >= MIN_RTT_PERIOD_NANOS) {
            previousMinRttNanos = minRttNanos;
            minRttNanos = Long.MAX_VALUE;
            minRttPeriodStart = nowNanos;
        }
        minRttNanos = Math.min(minRttNanos, rtt);
    }

    private boolean resize(long rtt) {
        if (rtt < 0) {
            return false;
        }
        double bdpChunks = rateBytesPerNano * rtt / chunkBytes;
        long wanted = (long) Math.ceil(BDP_FACTOR * bdpChunks);
        int next = (int) Math.max(floorChunks, Math.min(ceilingChunks, wanted));
        if (next == window) {
            return false;
        }
        window = next;
        return true;
    }

    private int slot(long seq) {
        return (int) (seq % sentAt.length);
    }
}
