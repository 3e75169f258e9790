package org.openmft.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

/** The failed-login limit, on a clock the test moves. */
class LoginThrottleTest {
    /** The time, moved by the test. */
    Instant now = Instant.parse("2026-11-26T10:00:00Z");
    final LoginThrottle throttle = new LoginThrottle(3, Duration.ofSeconds(60), Duration.ofSeconds(300),
            () -> now);

    @Test
    void theNthFailureWithinTheWindowLocksTheAddressOutForTheLockout() {
        assertThat(throttle.failed("10.0.0.1")).isFalse();
        assertThat(throttle.failed("10.0.0.1")).isFalse();
        assertThat(throttle.lockedOut("10.0.0.1")).isEmpty();
        assertThat(throttle.failed("10.0.0.1")).isTrue();
        assertThat(throttle.lockedOut("10.0.0.1")).hasValue(Duration.ofSeconds(300));
        assertThat(throttle.lockedOut("10.0.0.2")).as("another address").isEmpty();
        now = now.plusSeconds(299);
        assertThat(throttle.lockedOut("10.0.0.1")).hasValue(Duration.ofSeconds(1));
        now = now.plusSeconds(1);
        assertThat(throttle.lockedOut("10.0.0.1")).isEmpty();
        assertThat(throttle.failed("10.0.0.1")).as("counting starts again").isFalse();
    }

    @Test
    void failuresOlderThanTheWindowAndFailuresBeforeASuccessDoNotCount() {
        throttle.failed("10.0.0.1");
        throttle.failed("10.0.0.1");
        now = now.plusSeconds(60);
        assertThat(throttle.failed("10.0.0.1")).isFalse();
        assertThat(throttle.failed("10.0.0.1")).isFalse();
        throttle.succeeded("10.0.0.1");
        assertThat(throttle.failed("10.0.0.1")).isFalse();
        assertThat(throttle.failed("10.0.0.1")).isFalse();
        assertThat(throttle.lockedOut("10.0.0.1")).isEmpty();
    }

    @Test
    void atMostSoManyAddressesAreRemembered() {
        for (int i = 0; i < LoginThrottle.MAX_ADDRESSES + 500; i++) {
            throttle.failed("address-" + i);
        }
        assertThat(throttle.size()).isEqualTo(LoginThrottle.MAX_ADDRESSES);
    }
}
