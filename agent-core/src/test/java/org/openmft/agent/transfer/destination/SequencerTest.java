package org.openmft.agent.transfer.destination;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.openmft.agent.transfer.destination.Sequencer.Answer;
import org.openmft.agent.transfer.destination.Sequencer.Verdict;

class SequencerTest {
    @Test
    void messagesAreTakenInOrderAndDuplicatesRecognised() {
        Sequencer s = new Sequencer(2, 4, 1);
        assertThat(s.accept(1, 0, false)).isEqualTo(Verdict.NEXT);
        assertThat(s.accept(1, 1, false)).isEqualTo(Verdict.NEXT);
        assertThat(s.expected()).isEqualTo(2);
        assertThat(s.accept(1, 0, false)).isEqualTo(Verdict.DUPLICATE);
        assertThat(s.expected()).isEqualTo(2);
    }

    @Test
    void aGapIsAskedAboutOnceUntilTheExpectedMessageComes() {
        Sequencer s = new Sequencer(2, 4, 1);
        s.accept(1, 0, false);
        assertThat(s.accept(1, 3, false)).isEqualTo(Verdict.GAP_NACK);
        assertThat(s.accept(1, 4, false)).isEqualTo(Verdict.GAP);
        assertThat(s.accept(1, 1, false)).isEqualTo(Verdict.NEXT);
        assertThat(s.accept(1, 3, false)).as("a new gap: asked about again").isEqualTo(Verdict.GAP_NACK);
    }

    @Test
    void messagesOfAnotherIncarnationOrAfterTheEndAreStale() {
        Sequencer s = new Sequencer(2, 4, 2);
        assertThat(s.accept(1, 0, false)).isEqualTo(Verdict.STALE);
        assertThat(s.accept(3, 0, false)).isEqualTo(Verdict.STALE);
        assertThat(s.accept(2, 0, true)).isEqualTo(Verdict.STALE);
        assertThat(s.expected()).isZero();
    }

    @Test
    void aRestartOfAnOlderIncarnationIsIgnoredAndANewOneForgetsTheGapAskedAbout() {
        Sequencer s = new Sequencer(2, 4, 2);
        assertThat(s.restart(1)).isFalse();
        assertThat(s.incarnation()).isEqualTo(2);
        assertThat(s.accept(2, 5, false)).isEqualTo(Verdict.GAP_NACK);
        assertThat(s.restart(3)).isTrue();
        assertThat(s.accept(3, 5, false)).as("after a restart the gap is asked about again")
                .isEqualTo(Verdict.GAP_NACK);
    }

    @Test
    void anAckRequestGetsAnAckWhenEverythingIsHereElseANack() {
        Sequencer s = new Sequencer(2, 4, 1);
        s.accept(1, 0, false);
        s.accept(1, 1, false);
        assertThat(s.ackRequest(1, 2, false)).isEqualTo(Answer.ACK_ALL);
        assertThat(s.ackRequest(1, 5, false)).isEqualTo(Answer.NACK);
        assertThat(s.accept(1, 4, false)).as("the NACK covered this gap already").isEqualTo(Verdict.GAP);
        assertThat(s.ackRequest(2, 5, false)).isEqualTo(Answer.NONE);
        assertThat(s.ackRequest(1, 5, true)).isEqualTo(Answer.NONE);
    }

    @Test
    void aLateAbortVoidsWhatFollowedIt() {
        Sequencer s = new Sequencer(2, 4, 1);
        for (int i = 0; i < 6; i++) {
            s.accept(1, i, false);
        }
        s.voidFrom(3);
        assertThat(s.expected()).isEqualTo(4);
        assertThat(s.accept(1, 6, false)).as("the NACK from 4 is already on its way").isEqualTo(Verdict.GAP);
        assertThat(s.accept(1, 4, false)).isEqualTo(Verdict.NEXT);
    }

    @Test
    void windowsAndCheckpointSpansEndEveryWindowAndEveryCheckpointChunks() {
        Sequencer s = new Sequencer(4, 16, 1);
        assertThat(s.windowEnds(3)).isTrue();
        assertThat(s.windowEnds(4)).isFalse();
        assertThat(s.checkpointDue(15)).isTrue();
        assertThat(s.checkpointDue(3)).isFalse();
        Sequencer small = new Sequencer(0, 0, 1);
        assertThat(small.window()).as("at least one chunk").isEqualTo(1);
        assertThat(new Sequencer(8, 2, 1).checkpointChunks()).as("at least a window").isEqualTo(8);
    }

    @Test
    void spreadOverChannelsAMessageAheadIsHeldAndALaterOneOfTheExpectedsChannelMeansItIsLost() {
        Sequencer s = new Sequencer(2, 8, 1);
        assertThat(s.accept(1, 1, false, 2)).as("channel 1 is ahead of channel 0").isEqualTo(Verdict.AHEAD);
        assertThat(s.expected()).isZero();
        assertThat(s.accept(1, 0, false, 2)).isEqualTo(Verdict.NEXT);
        assertThat(s.accept(1, 1, false)).as("the held one, in its turn").isEqualTo(Verdict.NEXT);
        assertThat(s.accept(1, 3, false, 2)).isEqualTo(Verdict.AHEAD);
        // 4 went over 2's channel, after 2: 2 is lost, asked for once.
        assertThat(s.accept(1, 4, false, 2)).isEqualTo(Verdict.AHEAD_NACK);
        assertThat(s.accept(1, 6, false, 2)).as("the same gap").isEqualTo(Verdict.AHEAD);
        assertThat(s.lost()).as("asked about already").isFalse();
        assertThat(s.accept(1, 1, false, 2)).isEqualTo(Verdict.DUPLICATE);
    }

    @Test
    void spreadOverChannelsAMessageACheckpointSpanAheadIsAGapAsWithOneChannel() {
        Sequencer s = new Sequencer(2, 8, 1);
        assertThat(s.accept(1, 7, false, 2)).isEqualTo(Verdict.AHEAD);
        assertThat(s.accept(1, 8, false, 2)).isEqualTo(Verdict.GAP_NACK);
        assertThat(s.accept(1, 9, false, 2)).isEqualTo(Verdict.GAP);
        assertThat(s.accept(1, 1, false, 1)).as("one channel: out of order is a gap").isEqualTo(Verdict.GAP);
        assertThat(s.accept(2, 1, false, 2)).as("another incarnation").isEqualTo(Verdict.STALE);
    }
}
