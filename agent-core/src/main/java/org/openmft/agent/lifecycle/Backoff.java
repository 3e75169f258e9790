package org.openmft.agent.lifecycle;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * How long a loop waits before it tries again after consecutive failures: the delay starts at
 * {@link #initial()}, grows by {@link #multiplier()} per failure up to {@link #max()}, and is then
 * jittered: a random part of it, at most {@link #jitter()} of it, is taken off.
 *
 * <p><b>Why jitter.</b> When a queue manager restarts, every agent, publisher and logger connected
 * to it fails at the same moment. Without jitter 500 of them retry at the same instants (1 s, 3 s,
 * 7 s, ...), and each retry is a burst of connection attempts on a broker that is still recovering.
 * Jitter spreads each round of retries over a window.
 *
 * <p><b>Why "equal" jitter by default ({@value #EQUAL_JITTER}).</b> A delay lies in
 * {@code (d/2, d]} for the un-jittered delay {@code d}. "Full" jitter ({@value #FULL_JITTER},
 * delays in {@code (0, d]}) spreads further, but can retry almost at once, again and again, against
 * a queue manager that is down, and makes the logged "next attempt in" meaningless; with equal
 * jitter a loop never retries sooner than half its back-off, and 500 agents at the 30 s cap are still
 * spread over 15 s. The un-jittered delays do not depend on earlier random draws ("decorrelated"
 * jitter would), so the growth and the cap are exactly as configured and easy to reason about.
 *
 * <p>Immutable and thread-safe; the per-loop state is a {@link Retries}, which is not. The random
 * source is {@link ThreadLocalRandom} unless {@link #withRandom one is given} (tests pass a seeded
 * one; a given one is shared by all the {@link Retries} of this policy and must then be
 * thread-safe if they run on several threads).
 */
public final class Backoff {
    /** Jitter fraction that takes up to all of the delay off: delays in {@code (0, d]}. */
    public static final double FULL_JITTER = 1.0;
    /** Jitter fraction that takes up to half of the delay off: delays in {@code (d/2, d]}. */
    public static final double EQUAL_JITTER = 0.5;
    /** No jitter: the delays are exactly {@code initial × multiplier^n}, capped. */
    public static final double NO_JITTER = 0;

    /**
     * The reconnect policy of agents, publishers and loggers: 1 s doubling to 30 s, equal jitter.
     */
    public static final Backoff RECONNECT = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 2,
            EQUAL_JITTER);

    private final long initialMillis;
    private final long maxMillis;
    private final double multiplier;
    private final double jitter;
    /** Null means {@link ThreadLocalRandom#current()} of the calling thread. */
    private final RandomGenerator random;

    /**
     * @param initial    the delay after the first failure, before jitter; at least 1 ms
     * @param max        the cap of the delay before jitter; at least {@code initial}
     * @param multiplier the growth per consecutive failure; at least 1
     * @param jitter     the largest fraction of a delay taken off at random, 0 to 1
     *                   ({@link #EQUAL_JITTER}, {@link #FULL_JITTER}, {@link #NO_JITTER})
     * @throws IllegalArgumentException when a value is out of its range
     */
    public Backoff(Duration initial, Duration max, double multiplier, double jitter) {
        this(initial.toMillis(), max.toMillis(), multiplier, jitter, null);
    }

    private Backoff(long initialMillis, long maxMillis, double multiplier, double jitter, RandomGenerator random) {
        if (initialMillis < 1) {
            throw new IllegalArgumentException("the initial back-off must be at least 1 ms, not " + initialMillis
                    + " ms");
        }
        if (maxMillis < initialMillis) {
            throw new IllegalArgumentException("the maximum back-off (" + maxMillis
                    + " ms) must be at least the initial one (" + initialMillis + " ms)");
        }
        if (!(multiplier >= 1) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("the back-off multiplier must be a number of at least 1, not "
                    + multiplier);
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("the back-off jitter must be between 0 and 1, not " + jitter);
        }
        this.initialMillis = initialMillis;
        this.maxMillis = maxMillis;
        this.multiplier = multiplier;
        this.jitter = jitter;
        this.random = random;
    }

    /** The same policy drawing its jitter from {@code random} (a seeded one makes tests deterministic). */
    public Backoff withRandom(RandomGenerator random) {
        if (random == null) {
            throw new IllegalArgumentException("random must not be null");
        }
        return new Backoff(initialMillis, maxMillis, multiplier, jitter, random);
    }

    /** The delay after the first failure, before jitter. */
    public Duration initial() {
        return Duration.ofMillis(initialMillis);
    }

    /** The cap of the delay, before jitter: no delay is longer. */
    public Duration max() {
        return Duration.ofMillis(maxMillis);
    }

    /** The growth of the delay per consecutive failure. */
    public double multiplier() {
        return multiplier;
    }

    /** The largest fraction of a delay taken off at random. */
    public double jitter() {
        return jitter;
    }

    /**
     * The delay after {@code failures} consecutive failures before jitter:
     * {@code min(max, initial × multiplier^(failures-1))}.
     *
     * @param failures at least 1
     */
    public Duration ceiling(int failures) {
        return Duration.ofMillis(ceilingMillis(failures));
    }

    private long ceilingMillis(int failures) {
        if (failures < 1) {
            throw new IllegalArgumentException("failures must be at least 1, not " + failures);
        }
        // pow overflows to infinity for long runs of failures; min() then gives the cap.
        double d = initialMillis * Math.pow(multiplier, failures - 1);
        return d >= maxMillis ? maxMillis : (long) d;
    }

    /** A fresh back-off state for one loop: its first {@link Retries#next()} is about {@link #initial()}. */
    public Retries retries() {
        return new Retries(this);
    }

    @Override
    public String toString() {
        return "Backoff[" + initialMillis + " ms x" + multiplier + " to " + maxMillis + " ms, jitter " + jitter + "]";
    }

    /**
     * The back-off state of one loop: how many failures in a row it has seen. Call {@link #next()}
     * after each failure for the time to wait, {@link #reset()} after a success.
     *
     * <p>Not thread-safe: owned by the loop's thread.
     */
    public static final class Retries {
        private final Backoff policy;
        private int failures;

        private Retries(Backoff policy) {
            this.policy = policy;
        }

        /**
         * Counts a failure and returns how long to wait before the next attempt: the policy's
         * delay for this many failures in a row, jittered; between {@code 1 ms} and
         * {@link Backoff#max()}.
         */
        public Duration next() {
            if (failures < Integer.MAX_VALUE) {
                failures++;
            }
            long ceiling = policy.ceilingMillis(failures);
            RandomGenerator r = policy.random != null ? policy.random : ThreadLocalRandom.current();
            // nextDouble() < 1, so less than all of the delay is taken off: never 0 ms.
            long off = (long) (r.nextDouble() * policy.jitter * ceiling);
            return Duration.ofMillis(Math.max(1, ceiling - off));
        }

        /** Starts again from {@link Backoff#initial()}: the thing retried has succeeded. */
        public void reset() {
            failures = 0;
        }

        /** The failures counted since the last {@link #reset()}. */
        public int failures() {
            return failures;
        }
    }
}
