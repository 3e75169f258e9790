package org.openmft.agent.transfer.source;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FlowControlTest {
    @Test
    void theWindowClosesAfterMaxUnackedChunksAndOpensWithAnAcknowledgement() {
        FlowControl f = new FlowControl(1, 4);
        // Nothing acknowledged yet (lastAcked -1): chunks 0..3 fit, chunk 4 does not.
        assertThat(f.windowOpen(3)).isTrue();
        assertThat(f.windowOpen(4)).isFalse();
        assertThat(f.acknowledged(1)).isTrue();
        assertThat(f.windowOpen(5)).isTrue();
        assertThat(f.windowOpen(6)).isFalse();
        assertThat(f.acknowledged(0)).as("an older acknowledgement is no progress").isFalse();
        assertThat(f.lastAcked()).isEqualTo(1);
    }

    @Test
    void aChunkSentAheadOfTheStartsAnswerIsNotSentAgainUnlessTheDestinationAsks() {
        FlowControl f = new FlowControl(1, 4);
        f.negotiated(0);
        f.sentAhead(700);
        assertThat(f.suppressed(0)).as("the inline chunk is not sent again").isTrue();
        assertThat(f.lastAcked()).as("nor counted as acknowledged").isEqualTo(-1);
        assertThat(f.bytesSent()).isEqualTo(700);
        f.advance(); // the item is read again for its checksum; message 0 is skipped
        assertThat(f.gap(0)).as("the destination never got it: sent again").isTrue();
        assertThat(f.rewindTo(0)).isZero();
        assertThat(f.suppressed(0)).isFalse();
    }

    @Test
    void aGapBelowWhatWasSentRewindsAndIsExactEvenBelowAnEarlierAcknowledgement() {
        FlowControl f = new FlowControl(1, 100);
        for (int i = 0; i < 10; i++) {
            f.advance();
        }
        f.acknowledged(8);
        assertThat(f.gap(10)).as("nothing missing: no rewind").isFalse();
        assertThat(f.gap(6)).as("the destination voided chunks 6..9").isTrue();
        assertThat(f.lastAcked()).isEqualTo(5);
    }

    @Test
    void aRewindGoesBackToTheStartOfTheItemHoldingTheChunkButSendsNothingBelowIt() {
        FlowControl f = new FlowControl(3, 100);
        f.itemStarted(0); // chunks 0..3
        for (int i = 0; i < 4; i++) {
            f.advance();
        }
        f.itemStarted(1); // chunks 4..9
        for (int i = 0; i < 6; i++) {
            f.advance();
        }
        f.itemStarted(2); // chunks 10..
        f.advance();
        int index = f.rewindTo(7);
        assertThat(index).isEqualTo(1);
        assertThat(f.nextSeq()).as("numbering restarts at item 1's first chunk").isEqualTo(4);
        assertThat(f.suppressed(6)).isTrue();
        assertThat(f.suppressed(7)).isFalse();
        assertThat(f.itemFirstSeq(2)).as("later items are started again").isEqualTo(-1);
        assertThat(f.currentItem()).isEqualTo(1);
    }

    @Test
    void aStartOkSetsWhereToContinueAndEverythingBelowIsSuppressed() {
        FlowControl f = new FlowControl(2, 8);
        f.negotiated(42);
        assertThat(f.nextSeq()).isEqualTo(42);
        assertThat(f.lastAcked()).isEqualTo(41);
        assertThat(f.suppressed(41)).isTrue();
        assertThat(f.suppressed(42)).isFalse();
        f.negotiated(-5);
        assertThat(f.nextSeq()).as("never below 0").isZero();
    }

    @Test
    void aJournaledItemWhollyAtTheDestinationIsSkippedWithoutReading() {
        FlowControl f = new FlowControl(2, 8);
        f.itemJournaled(0, 0, 5);
        f.negotiated(6);
        f.restartNumbering();
        assertThat(f.skipJournaled(0, true)).isTrue();
        assertThat(f.nextSeq()).isEqualTo(6);
        assertThat(f.skipJournaled(1, false)).isFalse();
    }

    @Test
    void aJournaledItemNotWhollyBelowTheResumePointIsReadAgain() {
        FlowControl f = new FlowControl(1, 8);
        f.itemJournaled(0, 0, 5);
        f.negotiated(3);
        f.restartNumbering();
        assertThat(f.skipJournaled(0, true)).isFalse();
        assertThat(f.nextSeq()).isZero();
    }

    @Test
    void resentBytesAreThoseOfNumbersSentBefore() {
        FlowControl f = new FlowControl(1, 8);
        assertThat(f.sent(0, 100)).as("a resend").isFalse();
        assertThat(f.sent(1, 100)).as("a resend").isFalse();
        assertThat(f.sent(1, 100)).as("a resend").isTrue();
        assertThat(f.sent(0, 50)).as("a resend").isTrue();
        assertThat(f.sent(2, 10)).as("a resend").isFalse();
        assertThat(f.bytesSent()).isEqualTo(360);
        assertThat(f.bytesResent()).isEqualTo(150);
    }
}
