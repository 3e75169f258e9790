package org.openmft.cli;

import java.time.Duration;
import java.util.Random;

/**
 * The pauses between a waiting command's attempts to reconnect to its queue manager: they double
 * from {@link #FIRST} up to {@link #MAX}, each drawn at random between half and the whole of the
 * current step ("equal jitter"), so that the commands that lost the same queue manager do not all
 * knock on it at the same moment when it comes back. The caller bounds the whole by its wait's
 * deadline; this class only says how long the next pause is.
 *
 * <p>Not thread-safe: one instance per reconnect loop.
 */
final class ReconnectBackoff {
    /** The first step: a queue manager restarted by {@code mft qmgr stop/start} is back in seconds. */
    static final Duration FIRST = Duration.ofMillis(500);
    /** The largest step: a command notices a queue manager that came back within this. */
    static final Duration MAX = Duration.ofSeconds(10);

    private final Random random;
    private long stepMillis = FIRST.toMillis();

    ReconnectBackoff(Random random) {
        this.random = random;
    }

    /** The pause before the next attempt, between half the current step and the step; then the step doubles. */
    Duration next() {
        long step = stepMillis;
        stepMillis = Math.min(stepMillis * 2, MAX.toMillis());
        long half = step / 2;
        return Duration.ofMillis(half + (long) (random.nextDouble() * (step - half + 1)));
    }

    /** Starts again from {@link #FIRST}, after a connection was made. */
    void reset() {
        stepMillis = FIRST.toMillis();
    }
}
