package org.openmft.agent.transfer.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.openmft.agent.lifecycle.Backoff;
import org.openmft.agent.transfer.source.RetryBudget.Verdict;

class RetryBudgetTest {
    final FakeClock clock = new FakeClock();

    @Test
    void retriesThenRecoversUntilTheRecoveryTimeoutPasses() {
        RetryBudget b = new RetryBudget(2, 60_000, clock);
        assertThat(b.noAnswer()).isEqualTo(Verdict.RETRY);
        assertThat(b.noAnswer()).isEqualTo(Verdict.RETRY);
        assertThat(b.noAnswer()).isEqualTo(Verdict.RECOVERING);
        assertThat(b.enteredRecovery()).isTrue();
        assertThat(b.recovering()).isTrue();
        clock.advance(Duration.ofSeconds(59));
        assertThat(b.noAnswer()).isEqualTo(Verdict.STILL_RECOVERING);
        assertThat(b.enteredRecovery()).isFalse();
        clock.advance(Duration.ofSeconds(1));
        assertThat(b.noAnswer()).isEqualTo(Verdict.TIMED_OUT);
    }

    @Test
    void anAnswerEndsTheRecoveryAndTheRetriesStartAgain() {
        RetryBudget b = new RetryBudget(1, -1, clock);
        b.noAnswer();
        assertThat(b.noAnswer()).isEqualTo(Verdict.RECOVERING);
        assertThat(b.answered()).as("it was recovering").isTrue();
        assertThat(b.answered()).as("and is no longer").isFalse();
        assertThat(b.noAnswer()).isEqualTo(Verdict.RETRY);
    }

    @Test
    void withoutARecoveryTimeoutItRecoversForEver() {
        RetryBudget b = new RetryBudget(0, -1, clock);
        assertThat(b.noAnswer()).isEqualTo(Verdict.RECOVERING);
        clock.advance(Duration.ofDays(365));
        assertThat(b.noAnswer()).isEqualTo(Verdict.STILL_RECOVERING);
    }

    @Test
    void aRecoveryTimeoutOfZeroEndsAtOnceOnceTheRetriesAreUsed() {
        RetryBudget b = new RetryBudget(0, 0, clock);
        assertThat(b.noAnswer()).isEqualTo(Verdict.TIMED_OUT);
        assertThat(b.enteredRecovery()).as("the recovery started, and timed out at once").isTrue();
    }

    @Test
    void aResumedTransferRecoversFromTheStart() {
        RetryBudget b = new RetryBudget(3, 10_000, clock);
        b.startRecovering();
        clock.advance(Duration.ofSeconds(10));
        // Retries come first even then, as for any unanswered message.
        for (int i = 0; i < 3; i++) {
            assertThat(b.noAnswer()).isEqualTo(Verdict.RETRY);
        }
        assertThat(b.noAnswer()).isEqualTo(Verdict.TIMED_OUT);
    }

    @Test
    void aBusyDestinationIsAskedAgainWithADoublingWaitUpToFiveSeconds() {
        RetryBudget b = new RetryBudget(3, -1, clock, new Backoff(Duration.ofMillis(500), Duration.ofSeconds(5), 2,
                Backoff.NO_JITTER));
        assertThat(b.busy()).isEqualTo(500);
        assertThat(b.busy()).isEqualTo(1000);
        assertThat(b.busy()).isEqualTo(2000);
        assertThat(b.busy()).isEqualTo(4000);
        assertThat(b.busy()).isEqualTo(5000);
        clock.advance(Duration.ofDays(1));
        assertThat(b.busy()).as("without a recovery timeout it waits for ever").isEqualTo(5000);
        b.answered();
        assertThat(b.busy()).as("an answer starts the waits again").isEqualTo(500);
    }

    @Test
    void theWaitsForABusyDestinationAreJitteredWithinHalfToAllOfTheDoublingDelay() {
        RetryBudget b = new RetryBudget(3, -1, clock, RetryBudget.BUSY.withRandom(new java.util.Random(7)));
        long[] ceilings = {500, 1000, 2000, 4000, 5000, 5000};
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (long ceiling : ceilings) {
            long wait = b.busy();
            assertThat(wait).isGreaterThan(ceiling / 2).isLessThanOrEqualTo(ceiling);
            seen.add(wait);
        }
        assertThat(seen).as("jittered, not a fixed sequence").hasSizeGreaterThan(1);
    }

    @Test
    void aDestinationBusyPastTheRecoveryTimeoutEndsTheTransferWith45() {
        RetryBudget b = new RetryBudget(3, 30_000, clock);
        assertThat(b.busy()).isPositive();
        clock.advance(Duration.ofSeconds(29));
        assertThat(b.busy()).isPositive();
        clock.advance(Duration.ofSeconds(1));
        assertThat(b.busy()).isEqualTo(-1);
    }

    @Test
    void aRecoveryTimeoutOfZeroAsksABusyDestinationOnceMore() {
        RetryBudget b = new RetryBudget(3, 0, clock);
        assertThat(b.busy()).isPositive();
        clock.advance(Duration.ofMillis(500));
        assertThat(b.busy()).isEqualTo(-1);
    }
}
