package org.openmft.agent.transfer.destination;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.openmft.agent.transfer.destination.ReorderBuffer.Held;
import org.openmft.agent.transfer.destination.ReorderBuffer.Outcome;
import org.openmft.agent.transfer.destination.Sequencer.Verdict;
import org.openmft.agent.transfer.protocol.Sequenced;

class ReorderBufferTest {
    private static Sequenced chunk(long seq, int channels) {
        return new Sequenced(false, 1, seq, 0, seq * 4, seq == 0, false, null, -1, null, null, channels);
    }

    private static byte[] body(long seq) {
        byte[] b = new byte[4];
        Arrays.fill(b, (byte) seq);
        return b;
    }

    @Test
    void heldMessagesComeBackByNumberWithTheirOwnCopyOfTheBody() {
        ReorderBuffer r = new ReorderBuffer();
        byte[] shared = body(2);
        assertThat(r.hold(chunk(2, 2), shared, 4)).isEqualTo(Outcome.HELD);
        Arrays.fill(shared, (byte) 99); // the dispatcher's buffer, reused for the next message
        assertThat(r.hold(chunk(2, 2), body(2), 4)).isEqualTo(Outcome.ALREADY_HELD);
        assertThat(r.take(1)).isNull();
        Held h = r.take(2);
        assertThat(h.message().seq()).isEqualTo(2);
        assertThat(Arrays.copyOf(h.body(), h.length())).isEqualTo(body(2));
        r.release(h);
        assertThat(r.size()).isZero();
        assertThat(r.heldBytes()).isZero();
    }

    @Test
    void itHoldsNoMoreThanItsBytesAndDropsWhatASupersedingCopyMadeUseless() {
        ReorderBuffer r = new ReorderBuffer(8);
        assertThat(r.hold(chunk(3, 2), body(3), 4)).isEqualTo(Outcome.HELD);
        assertThat(r.hold(chunk(4, 2), body(4), 4)).isEqualTo(Outcome.HELD);
        assertThat(r.hold(chunk(5, 2), body(5), 4)).isEqualTo(Outcome.FULL);
        assertThat(r.heldBytes()).isEqualTo(8);
        // 3 came again in its turn and was handled: the held copy is dropped on the way to 4.
        Held four = r.take(4);
        assertThat(four.message().seq()).isEqualTo(4);
        r.release(four);
        assertThat(r.size()).isZero();
        assertThat(r.heldBytes()).isZero();
    }

    @Test
    void aHeldMessageOfTheExpectedOnesChannelSaysTheExpectedOneIsLost() {
        ReorderBuffer r = new ReorderBuffer();
        r.hold(chunk(5, 3), body(5), 4);
        assertThat(r.holdsLaterOnChannelOf(3, 3)).isFalse();
        assertThat(r.holdsLaterOnChannelOf(2, 3)).isTrue();
        assertThat(r.holdsLaterOnChannelOf(2, 1)).as("not spread").isFalse();
        r.clear();
        assertThat(r.holdsLaterOnChannelOf(2, 3)).isFalse();
    }

    /**
     * Channels that keep their own order but run at different speeds: whatever the interleaving,
     * the sequencer and the buffer, driven as DestinationTransfer drives them, write every chunk
     * once, in order, never holding a checkpoint span or more.
     */
    @Test
    void chunksOfChannelsInterleavedAtRandomAreWrittenInOrder() {
        for (int channels = 2; channels <= 4; channels++) {
            for (long trial = 0; trial < 50; trial++) {
                Random random = new Random(trial * 31 + channels);
                int count = 40 + random.nextInt(60);
                int span = 20;
                List<List<Long>> lanes = new ArrayList<>();
                for (int c = 0; c < channels; c++) {
                    lanes.add(new ArrayList<>());
                }
                // The source's window: nothing beyond span - 1 past the first unwritten chunk is sent.
                Sequencer s = new Sequencer(4, span, 1);
                ReorderBuffer r = new ReorderBuffer();
                ByteArrayOutputStream written = new ByteArrayOutputStream();
                long sent = 0;
                while (s.expected() < count) {
                    while (sent < count && sent - s.expected() < span - 1) {
                        lanes.get((int) (sent % channels)).add(sent);
                        sent++;
                    }
                    List<List<Long>> busy = lanes.stream().filter(l -> !l.isEmpty()).toList();
                    List<Long> lane = busy.get(random.nextInt(busy.size()));
                    long seq = lane.remove(0);
                    Verdict v = s.accept(1, seq, false, channels);
                    assertThat(v).as("nothing is lost, so no gap").isIn(Verdict.NEXT, Verdict.AHEAD);
                    if (v == Verdict.AHEAD) {
                        assertThat(r.hold(chunk(seq, channels), body(seq), 4)).isEqualTo(Outcome.HELD);
                        continue;
                    }
                    written.writeBytes(body(seq));
                    Held h;
                    while ((h = r.take(s.expected())) != null) {
                        assertThat(s.accept(1, h.message().seq(), false)).isEqualTo(Verdict.NEXT);
                        written.write(h.body(), 0, h.length());
                        r.release(h);
                    }
                    assertThat(r.size()).isLessThan(span);
                }
                byte[] expected = new byte[count * 4];
                for (int i = 0; i < count; i++) {
                    Arrays.fill(expected, i * 4, i * 4 + 4, (byte) i);
                }
                assertThat(written.toByteArray()).as("%d channels, trial %d", channels, trial).isEqualTo(expected);
            }
        }
    }
}
