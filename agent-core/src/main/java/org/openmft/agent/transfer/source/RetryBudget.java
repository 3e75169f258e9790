package org.openmft.agent.transfer.source;

import java.time.Clock;
import java.time.Duration;

import org.openmft.agent.lifecycle.Backoff;

/**
 * How long a source keeps trying, without JMS: {@code transferAckTimeoutRetries} retries of an
 * unanswered message, then the transfer is <em>recovering</em> until an answer comes or its
 * recovery timeout ({@code recoveryTimeout} of the request, else the agent's
 * {@code transferRecoveryTimeout}; -1 for ever) runs out; and the waits between asking a busy
 * destination again, which end with result 45 once the recovery timeout has passed.
 *
 * <p>Time comes from the injected clock. Not thread-safe: owned by the source transfer's thread.
 */
public final class RetryBudget {
    /** The waits before asking a busy destination again: 0.5 s doubling to 5 s, jittered. */
    public static final Backoff BUSY = new Backoff(Duration.ofMillis(500), Duration.ofSeconds(5), 2,
            Backoff.EQUAL_JITTER);

    /** What an unanswered wait means. */
    public enum Verdict {
        /** Retry (ask again). */
        RETRY,
        /** The retries are used up: the transfer is recovering from now on. */
        RECOVERING,
        /** Still recovering, within the recovery timeout. */
        STILL_RECOVERING,
        /** The recovery timeout has passed: the transfer ends with 69. */
        TIMED_OUT
    }

    private final int retriesAllowed;
    private final long recoveryTimeoutMillis;
    private final Clock clock;
    private int retries;
    private long recoveringSince = -1;
    private boolean enteredRecovery;
    private final Backoff.Retries busyWaits;
    private long busySince = -1;

    /**
     * @param retriesAllowed        {@code transferAckTimeoutRetries}
     * @param recoveryTimeoutMillis how long to recover, -1 for ever, 0 not at all
     */
    public RetryBudget(int retriesAllowed, long recoveryTimeoutMillis, Clock clock) {
        this(retriesAllowed, recoveryTimeoutMillis, clock, BUSY);
    }

    /** @param busy the waits before asking a busy destination again */
    public RetryBudget(int retriesAllowed, long recoveryTimeoutMillis, Clock clock, Backoff busy) {
        this.retriesAllowed = retriesAllowed;
        this.recoveryTimeoutMillis = recoveryTimeoutMillis;
        this.clock = clock;
        this.busyWaits = busy.retries();
    }

    /**
     * How long a transfer may recover: the request's {@code recoveryTimeout}, else the agent's
     * {@code transferRecoveryTimeout}.
     *
     * @param requestSeconds the request's value in seconds (-1 for ever, 0 not at all), or null
     * @param agentDefault the agent's value; empty for ever
     * @return milliseconds, or -1 for ever; a number of seconds too large to count in milliseconds
     *         (the schema allows any long) is for ever too, rather than wrapping round to a short time
     */
    public static long recoveryTimeoutMillis(Long requestSeconds, java.util.Optional<java.time.Duration> agentDefault) {
        long seconds = requestSeconds != null ? requestSeconds
                : agentDefault.map(java.time.Duration::toSeconds).orElse(-1L);
        if (seconds < 0 || seconds > Long.MAX_VALUE / 1000) {
            return -1;
        }
        return seconds * 1000;
    }

    /** The recovery timeout in milliseconds, -1 for ever. */
    public long recoveryTimeoutMillis() {
        return recoveryTimeoutMillis;
    }

    /** No answer came within the acknowledgement timeout. */
    public Verdict noAnswer() {
        retries++;
        enteredRecovery = false;
        if (retries <= retriesAllowed) {
            return Verdict.RETRY;
        }
        enteredRecovery = recoveringSince < 0;
        if (enteredRecovery) {
            recoveringSince = clock.millis();
        }
        return timedOut() ? Verdict.TIMED_OUT : enteredRecovery ? Verdict.RECOVERING : Verdict.STILL_RECOVERING;
    }

    /** Whether the last {@link #noAnswer()} started the recovery (also when it timed out at once). */
    public boolean enteredRecovery() {
        return enteredRecovery;
    }

    /** The number of the retry {@link #noAnswer()} just allowed. */
    public int retries() {
        return retries;
    }

    /** The transfer resumes after a restart: it recovers until its destination answers. */
    public void startRecovering() {
        if (recoveringSince < 0) {
            recoveringSince = clock.millis();
        }
    }

    /** Whether the transfer is recovering. */
    public boolean recovering() {
        return recoveringSince >= 0;
    }

    /**
     * An answer came: the retries start again from none.
     *
     * @return whether the transfer was recovering (and so has recovered now)
     */
    public boolean answered() {
        retries = 0;
        busySince = -1;
        busyWaits.reset();
        boolean was = recoveringSince >= 0;
        recoveringSince = -1;
        return was;
    }

    /**
     * The destination is busy (at {@code maxDestinationTransfers}).
     *
     * @return how long to wait before asking again ({@link #BUSY}: doubling from 0.5 s to 5 s,
     *         jittered, so that sources refused together do not ask again together); -1 when the
     *         transfer has waited longer than its recovery timeout and ends with 45
     */
    public long busy() {
        long now = clock.millis();
        if (busySince < 0) {
            busySince = now;
        }
        if (recoveryTimeoutMillis >= 0 && now - busySince >= recoveryTimeoutMillis && now > busySince) {
            return -1;
        }
        return busyWaits.next().toMillis();
    }

    private boolean timedOut() {
        return recoveryTimeoutMillis >= 0 && clock.millis() - recoveringSince >= recoveryTimeoutMillis;
    }
}
