package org.openmft.agent.transfer.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.openmft.agent.compression.CompressionPolicy;

class InFlightBudgetTest {
    static SourceSettings settings(int chunkSize, int window, int frame, boolean adaptive) {
        return new SourceSettings("SRC", "QM", chunkSize, window, frame, 10, Duration.ofSeconds(60), 5,
                Optional.empty(), null, 5, 1000, 5000, false, 100_000, false, CompressionPolicy.NONE, false, adaptive,
                0);
    }

    @Test
    void anAgentLendsOneTransfersWindowBeyondTheWindowEachHasOfItsOwn() {
        // IBM's defaults: 10 chunks a window, 5 windows in flight.
        InFlightBudget fixed = InFlightBudget.of(settings(262144, 10, 5, false));
        assertThat(fixed.capacity()).isEqualTo(40);
        // The adaptive window may grow to 32 MiB of chunks: 128 of 256 KiB.
        assertThat(InFlightBudget.of(settings(262144, 10, 5, true)).capacity()).isEqualTo(118);
        // One window in flight: nothing to lend, every transfer has all of its window.
        assertThat(InFlightBudget.of(settings(262144, 10, 1, false)).capacity()).isZero();
    }

    @Test
    void oneTransferAloneHasItsWholeWindow() {
        InFlightBudget budget = new InFlightBudget(10, 40);
        InFlightBudget.Share share = budget.share();
        for (int unacked = 1; unacked <= 10; unacked++) {
            assertThat(share.covers(unacked)).isTrue();
        }
        assertThat(share.held()).as("its own window borrows nothing").isZero();
        assertThat(share.covers(11)).isTrue();
        assertThat(share.held()).as("borrowed a window at a time").isEqualTo(10);
        assertThat(share.covers(50)).isTrue();
        assertThat(share.held()).isEqualTo(40);
        assertThat(budget.available()).isZero();
    }

    @Test
    void whatOneTransferHoldsAnotherWaitsForAndGetsOnceAcknowledgementsGiveItBack() {
        InFlightBudget budget = new InFlightBudget(10, 40);
        InFlightBudget.Share first = budget.share();
        InFlightBudget.Share second = budget.share();
        assertThat(first.covers(50)).isTrue();

        assertThat(second.covers(10)).as("its own window needs nothing lent").isTrue();
        assertThat(second.covers(11)).as("nothing left to lend").isFalse();
        assertThat(second.held()).as("a refusal borrows nothing").isZero();

        // The first transfer's acknowledgements leave 25 chunks unacknowledged: 2 windows beyond its own.
        first.trim(25);
        assertThat(first.held()).isEqualTo(20);
        assertThat(second.covers(11)).isTrue();
        assertThat(second.covers(30)).isTrue();
        assertThat(second.held()).isEqualTo(20);
        assertThat(first.covers(31)).as("the budget is spent").isFalse();

        first.release();
        second.release();
        assertThat(budget.available()).as("everything given back").isEqualTo(40);
    }

    @Test
    void trimmingNeverBorrowsAndReleasingTwiceGivesBackOnce() {
        InFlightBudget budget = new InFlightBudget(10, 40);
        InFlightBudget.Share share = budget.share();
        share.trim(50);
        assertThat(share.held()).isZero();
        assertThat(share.covers(21)).isTrue();
        assertThat(share.held()).isEqualTo(20);
        share.trim(-3);
        assertThat(share.held()).as("nothing in flight after a resynchronisation").isZero();
        share.release();
        share.release();
        assertThat(budget.available()).isEqualTo(40);
    }

    @Test
    void aBudgetThatIsNotAWholeNumberOfWindowsLendsWhatItHas() {
        InFlightBudget budget = new InFlightBudget(10, 15);
        InFlightBudget.Share share = budget.share();
        assertThat(share.covers(25)).isTrue();
        assertThat(share.held()).isEqualTo(15);
    }

    @Test
    void absurdSizesAreRefused() {
        assertThatThrownBy(() -> new InFlightBudget(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new InFlightBudget(10, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
