package org.openmft.agent.transfer.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.function.LongToDoubleFunction;

import org.junit.jupiter.api.Test;

/**
 * The adaptive window against a simulated link (a one-way delay each way and a bottleneck of a
 * given rate with an unbounded queue before it, as a slow destination or a full queue would be),
 * with a simulated clock: no real time passes.
 */
class AdaptiveWindowTest {
    static final int CHUNK = 64 * 1024;
    static final int FLOOR = 50;
    static final int ACK_EVERY = 10;
    static final long MS = 1_000_000L;

    /** What a simulated transfer saw. */
    record Run(int peakWindow, int finalWindow, double bytesPerNanoLastHalf, long chunksResent) {
    }

    /**
     * Sends {@code chunks} chunks through a window over a link of {@code oneWayNanos} each way whose
     * bottleneck carries {@code rate.applyAsDouble(now)} bytes per nanosecond; the destination
     * acknowledges every {@value #ACK_EVERY} chunks (and the last), as agents do.
     */
    static Run simulate(AdaptiveWindow w, FlowControl flow, long chunks, long oneWayNanos,
            LongToDoubleFunction rate) {
        long[] now = {0};
        flow.adapt(w, () -> now[0]);
        ArrayDeque<long[]> acks = new ArrayDeque<>(); // {arrival at the source, seq}
        long bottleneckFree = 0;
        int peak = flow.window();
        long halfwayTime = -1;
        long seq = 0;
        while (flow.lastAcked() < chunks - 1) {
            while (!acks.isEmpty() && acks.peek()[0] <= now[0]) {
                flow.acknowledged(acks.poll()[1]);
                peak = Math.max(peak, flow.window());
            }
            if (seq < chunks && flow.windowOpen(seq)) {
                flow.sent(seq, CHUNK);
                long atBottleneck = now[0] + oneWayNanos;
                long chunkTime = (long) Math.ceil(CHUNK / rate.applyAsDouble(now[0]));
                bottleneckFree = Math.max(bottleneckFree, atBottleneck) + chunkTime;
                if ((seq + 1) % ACK_EVERY == 0 || seq == chunks - 1) {
                    acks.add(new long[] {bottleneckFree + oneWayNanos, seq});
                }
                if (seq == chunks / 2) {
                    halfwayTime = now[0];
                }
                seq++;
                flow.advance();
                // The source's own cost per chunk: 0.1 ms (650 MB/s), so a short link is not infinitely fast.
                now[0] += 100_000;
            } else {
                if (acks.isEmpty() && flow.lastAcked() == chunks - 1) {
                    break;
                }
                if (acks.isEmpty()) {
                    throw new AssertionError("stuck: seq " + seq + " lastAcked " + flow.lastAcked() + " window "
                            + flow.window() + " next " + flow.nextSeq());
                }
                now[0] = Math.max(now[0], acks.peek()[0]);
            }
        }
        double lastHalf = (double) (chunks - chunks / 2) * CHUNK / (now[0] - halfwayTime);
        return new Run(peak, flow.window(), lastHalf, flow.bytesResent() / CHUNK);
    }

    static AdaptiveWindow window() {
        return new AdaptiveWindow(FLOOR, AdaptiveWindow.ceilingChunks(AdaptiveWindow.MAX_BYTES, CHUNK, FLOOR), CHUNK);
    }

    static double mbPerSecond(double bytesPerNano) {
        return bytesPerNano * 1000;
    }

    @Test
    void overAShortLinkTheWindowStaysTheFixedOne() {
        AdaptiveWindow w = window();
        // 250 MB/s, 1 ms round trip: a bandwidth-delay product of 250 KB, four chunks.
        Run r = simulate(w, new FlowControl(1, FLOOR), 4000, MS / 2, t -> 0.25);
        assertThat(r.peakWindow()).isEqualTo(FLOOR);
        assertThat(w.minRttNanos()).isGreaterThanOrEqualTo(MS).isLessThan(10 * MS);
    }

    @Test
    void overALongLinkItGrowsToAboutTwiceTheBandwidthDelayProductAndFillsTheLink() {
        AdaptiveWindow w = window();
        // 100 MB/s, 100 ms: 10 MB in flight, 153 chunks of 64 KiB; the fixed window (50) carries 33 MB/s.
        double bdpChunks = 0.1 * 100 * MS / CHUNK;
        Run r = simulate(w, new FlowControl(1, FLOOR), 6000, 50 * MS, t -> 0.1);
        assertThat(r.finalWindow()).as("2 x BDP, BDP %s chunks", bdpChunks)
                .isBetween((int) (1.5 * bdpChunks), (int) (2.5 * bdpChunks));
        assertThat(mbPerSecond(r.bytesPerNanoLastHalf())).as("MB/s over the second half").isGreaterThan(90);
        assertThat(w.minRttNanos()).as("the path's delay, not the queue the window makes")
                .isBetween(100 * MS, 105 * MS);
        assertThat(w.rateBytesPerSecond()).isBetween(90_000_000L, 105_000_000L);
    }

    @Test
    void theFixedWindowAloneIsWhatItWouldCarry() {
        // The same link with the fixed window: the comparison the test above improves on.
        FlowControl fixed = new FlowControl(1, FLOOR);
        AdaptiveWindow never = new AdaptiveWindow(FLOOR, FLOOR, CHUNK);
        Run r = simulate(never, fixed, 3000, 50 * MS, t -> 0.1);
        assertThat(r.peakWindow()).isEqualTo(FLOOR);
        assertThat(mbPerSecond(r.bytesPerNanoLastHalf())).isLessThan(35);
    }

    @Test
    void itNeverGoesAboveItsBound() {
        AdaptiveWindow w = window();
        // 1 GB/s over 100 ms would want 200 MB in flight; the bound is 32 MiB (512 chunks of 64 KiB).
        Run r = simulate(w, new FlowControl(1, FLOOR), 8000, 50 * MS, t -> 1.0);
        assertThat(w.ceilingChunks()).isEqualTo(512);
        assertThat(r.peakWindow()).isEqualTo(512);
    }

    @Test
    void itShrinksWhenTheLinkSlows() {
        AdaptiveWindow w = window();
        // 100 MB/s for 3 s, then 25 MB/s: the product falls from 153 to 38 chunks, below the floor.
        Run r = simulate(w, new FlowControl(1, FLOOR), 8000, 50 * MS, t -> t < 3000 * MS ? 0.1 : 0.025);
        assertThat(r.peakWindow()).isGreaterThan(250);
        assertThat(r.finalWindow()).as("2 x 38 chunks").isBetween(FLOOR, 110);
    }

    @Test
    void aResentChunkGivesNoRoundTrip() {
        AdaptiveWindow w = new AdaptiveWindow(4, 16, CHUNK);
        w.sent(0, 0);
        w.acknowledged(0, 10 * MS);
        assertThat(w.lastRttNanos()).isEqualTo(10 * MS);
        w.sent(1, 20 * MS);
        w.restarted(0);
        w.sent(1, 500 * MS); // sent again after a gap: its acknowledgement could answer either send
        w.acknowledged(1, 501 * MS);
        assertThat(w.lastRttNanos()).as("unchanged").isEqualTo(10 * MS);
        w.sent(2, 600 * MS);
        w.acknowledged(2, 612 * MS);
        assertThat(w.lastRttNanos()).isEqualTo(12 * MS);
        assertThat(w.minRttNanos()).isEqualTo(10 * MS);
    }

    @Test
    void theDelayOfALongerRouteIsTakenUpWithinTwoPeriods() {
        AdaptiveWindow w = new AdaptiveWindow(4, 16, CHUNK);
        long t = 0;
        long seq = 0;
        for (; t < 5_000 * MS; t += 100 * MS, seq++) {
            w.sent(seq, t);
            w.acknowledged(seq, t + 10 * MS);
        }
        assertThat(w.minRttNanos()).isEqualTo(10 * MS);
        for (; t < 30_000 * MS; t += 100 * MS, seq++) {
            w.sent(seq, t);
            w.acknowledged(seq, t + 40 * MS);
        }
        assertThat(w.minRttNanos()).isEqualTo(40 * MS);
    }

    @Test
    void theBoundIsNeverBelowTheFixedWindow() {
        assertThat(AdaptiveWindow.ceilingChunks(32L << 20, 4 << 20, 50)).as("4 MiB chunks: 8 fit, 50 fixed")
                .isEqualTo(50);
        AdaptiveWindow w = new AdaptiveWindow(50, 8, 4 << 20);
        assertThat(w.ceilingChunks()).isEqualTo(50);
        assertThat(w.chunks()).isEqualTo(50);
    }

    @Test
    void aFlowControlWithoutAnAdaptiveWindowKeepsItsFixedOne() {
        FlowControl f = new FlowControl(1, 7);
        assertThat(f.window()).isEqualTo(7);
        f.acknowledged(100);
        assertThat(f.window()).isEqualTo(7);
    }
}
