package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import org.openmft.agent.transfer.source.RetryBudget;

/** A request's recoveryTimeout, absurd values included, against the agent's transferRecoveryTimeout. */
class RecoveryTimeoutTest {

    @Test
    void theRequestWinsOverTheAgent() {
        assertThat(RetryBudget.recoveryTimeoutMillis(30L, Optional.of(Duration.ofSeconds(5)))).isEqualTo(30_000);
        assertThat(RetryBudget.recoveryTimeoutMillis(0L, Optional.of(Duration.ofSeconds(5)))).isZero();
        assertThat(RetryBudget.recoveryTimeoutMillis(-1L, Optional.of(Duration.ofSeconds(5)))).isEqualTo(-1);
        assertThat(RetryBudget.recoveryTimeoutMillis(null, Optional.of(Duration.ofSeconds(5)))).isEqualTo(5_000);
        assertThat(RetryBudget.recoveryTimeoutMillis(null, Optional.empty())).isEqualTo(-1);
    }

    @Test
    void secondsTooManyToCountInMillisecondsMeanForEverRatherThanWrappingRound() {
        // 18446744073709552 s times 1000 is 2^64 + 448: multiplied blindly, it would be 448 ms.
        assertThat(RetryBudget.recoveryTimeoutMillis(18_446_744_073_709_552L, Optional.empty())).isEqualTo(-1);
        assertThat(RetryBudget.recoveryTimeoutMillis(Long.MAX_VALUE, Optional.empty())).isEqualTo(-1);
        assertThat(RetryBudget.recoveryTimeoutMillis(Long.MAX_VALUE / 1000, Optional.empty()))
                .isEqualTo(Long.MAX_VALUE / 1000 * 1000);
    }
}
