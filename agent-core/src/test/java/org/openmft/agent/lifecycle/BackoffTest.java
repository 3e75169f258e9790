package org.openmft.agent.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

class BackoffTest {
    /** nextDouble() == 0: nothing is taken off, the delay is the ceiling. */
    private static final RandomGenerator NOTHING_OFF = () -> 0L;
    /** nextDouble() just below 1: the most the jitter allows is taken off. */
    private static final RandomGenerator MOST_OFF = () -> -1L;

    @Test
    void withoutJitterTheDelaysDoubleFromOneSecondToTheCap() {
        Backoff.Retries r = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 2, Backoff.NO_JITTER).retries();
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            millis.add(r.next().toMillis());
        }
        assertThat(millis).containsExactly(1000L, 2000L, 4000L, 8000L, 16000L, 30000L, 30000L, 30000L);
        assertThat(r.failures()).isEqualTo(8);
    }

    @Test
    void theReconnectPolicyIsOneSecondDoublingToThirtyWithEqualJitter() {
        Backoff b = Backoff.RECONNECT;
        assertThat(b.initial()).isEqualTo(Duration.ofSeconds(1));
        assertThat(b.max()).isEqualTo(Duration.ofSeconds(30));
        assertThat(b.multiplier()).isEqualTo(2.0);
        assertThat(b.jitter()).isEqualTo(Backoff.EQUAL_JITTER);
        assertThat(b.withRandom(NOTHING_OFF).retries().next()).isEqualTo(Duration.ofSeconds(1));
        Backoff.Retries most = b.withRandom(MOST_OFF).retries();
        // Equal jitter: never less than half the un-jittered delay.
        assertThat(most.next().toMillis()).isEqualTo(501);
        assertThat(most.next().toMillis()).isEqualTo(1001);
    }

    @Test
    void resetStartsAgainFromTheInitialDelay() {
        Backoff.Retries r = Backoff.RECONNECT.withRandom(NOTHING_OFF).retries();
        r.next();
        r.next();
        assertThat(r.next()).isEqualTo(Duration.ofSeconds(4));
        r.reset();
        assertThat(r.failures()).isZero();
        assertThat(r.next()).isEqualTo(Duration.ofSeconds(1));
        assertThat(r.failures()).isEqualTo(1);
    }

    @Test
    void everyDelayLiesWithinItsJitterWindowAndUnderTheCap() {
        for (double jitter : new double[] {Backoff.NO_JITTER, 0.2, Backoff.EQUAL_JITTER, Backoff.FULL_JITTER}) {
            Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5), 3, jitter)
                    .withRandom(new Random(7));
            Backoff.Retries r = b.retries();
            for (int failures = 1; failures <= 40; failures++) {
                long ceiling = b.ceiling(failures).toMillis();
                long d = r.next().toMillis();
                assertThat(d).as("jitter %s, failure %d", jitter, failures)
                        .isLessThanOrEqualTo(ceiling).isLessThanOrEqualTo(5000)
                        .isGreaterThanOrEqualTo(Math.max(1, (long) Math.floor(ceiling * (1 - jitter))));
            }
        }
    }

    @Test
    void manyLoopsFailingTogetherSpreadTheirRetriesOverTheWindow() {
        // 500 agents at the cap after a queue manager restart: equal jitter spreads them over (15 s, 30 s].
        Backoff b = Backoff.RECONNECT.withRandom(new Random(42));
        long[] buckets = new long[3];
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int agent = 0; agent < 500; agent++) {
            Backoff.Retries r = b.retries();
            long d = 0;
            for (int i = 0; i < 10; i++) {
                d = r.next().toMillis();
            }
            min = Math.min(min, d);
            max = Math.max(max, d);
            buckets[(int) ((d - 15_001) / 5_000)]++;
        }
        assertThat(min).isGreaterThan(15_000);
        assertThat(max).isLessThanOrEqualTo(30_000);
        // Roughly uniform: each third of the window gets about a third of the agents.
        for (long n : buckets) {
            assertThat(n).isBetween(120L, 215L);
        }
    }

    @Test
    void theSameSeedGivesTheSameDelays() {
        List<Duration> first = draw(Backoff.RECONNECT.withRandom(new Random(3)).retries());
        List<Duration> second = draw(Backoff.RECONNECT.withRandom(new Random(3)).retries());
        assertThat(first).isEqualTo(second);
        assertThat(first).isNotEqualTo(draw(Backoff.RECONNECT.withRandom(new Random(4)).retries()));
    }

    @Test
    void fullJitterNeverGivesZero() {
        Backoff.Retries r = new Backoff(Duration.ofMillis(1), Duration.ofMillis(1), 1, Backoff.FULL_JITTER)
                .withRandom(MOST_OFF).retries();
        assertThat(r.next()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void aLongRunOfFailuresStaysAtTheCap() {
        Backoff b = new Backoff(Duration.ofMillis(1), Duration.ofHours(1), 10, Backoff.NO_JITTER);
        assertThat(b.ceiling(Integer.MAX_VALUE)).isEqualTo(Duration.ofHours(1));
        Backoff.Retries r = b.retries();
        for (int i = 0; i < 1000; i++) {
            r.next();
        }
        assertThat(r.next()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void valuesOutOfRangeAreRefusedWithTheValue() {
        assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1), 2, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 ms");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 2, 0))
                .hasMessageContaining("1000 ms").hasMessageContaining("2000 ms");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), 0.5, 0))
                .hasMessageContaining("0.5");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), Double.NaN, 0))
                .hasMessageContaining("NaN");
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), 2, 1.5))
                .hasMessageContaining("1.5");
        assertThatThrownBy(() -> Backoff.RECONNECT.ceiling(0)).hasMessageContaining("0");
    }

    private static List<Duration> draw(Backoff.Retries r) {
        List<Duration> delays = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            delays.add(r.next());
        }
        return delays;
    }
}
