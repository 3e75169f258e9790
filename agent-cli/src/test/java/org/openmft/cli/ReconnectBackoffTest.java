package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;

class ReconnectBackoffTest {
    @Test
    void pausesDoubleWithJitterUpToTheMaximumAndStartAgainAfterAReset() {
        ReconnectBackoff backoff = new ReconnectBackoff(new Random(42));
        long step = ReconnectBackoff.FIRST.toMillis();
        for (int attempt = 0; attempt < 12; attempt++) {
            Duration pause = backoff.next();
            assertThat(pause.toMillis()).as("attempt %d", attempt).isBetween(step / 2, step);
            step = Math.min(step * 2, ReconnectBackoff.MAX.toMillis());
        }
        assertThat(step).isEqualTo(ReconnectBackoff.MAX.toMillis());
        backoff.reset();
        assertThat(backoff.next().toMillis()).isBetween(ReconnectBackoff.FIRST.toMillis() / 2,
                ReconnectBackoff.FIRST.toMillis());
    }

    @Test
    void pausesAreSpreadNotAllTheSame() {
        ReconnectBackoff a = new ReconnectBackoff(new Random(1));
        ReconnectBackoff b = new ReconnectBackoff(new Random(2));
        boolean differ = false;
        for (int i = 0; i < 5; i++) {
            differ |= !a.next().equals(b.next());
        }
        assertThat(differ).as("two commands' pauses differ").isTrue();
    }
}
