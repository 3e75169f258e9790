package org.openmft.rest;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The limit on failed logins: after {@code maxFailures} refused Basic logins from one address
 * within {@code window}, every request from that address is refused for {@code lockout} (429,
 * without its password being looked at), so that passwords cannot be guessed at the speed of the
 * network. A login that succeeds forgets the address's failures; a request without credentials
 * (a browser's first one) is no failure.
 *
 * <p>Memory is bounded: at most {@value #MAX_ADDRESSES} addresses are remembered; when more fail
 * at once, the one whose record was touched longest ago is forgotten first (an attacker with that
 * many addresses can free one; it cannot make the server grow). Thread-safe.
 */
final class LoginThrottle {
    /** Addresses remembered at most. */
    static final int MAX_ADDRESSES = 10_000;

    private final int maxFailures;
    private final Duration window;
    private final Duration lockout;
    private final InstantSource clock;
    /** Per address: its failures in the current window and, once over the limit, the end of the lockout. */
    private final Map<String, Record> records = new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Record> eldest) {
            return size() > MAX_ADDRESSES;
        }
    };

    private static final class Record {
        Instant windowStart;
        int failures;
        Instant lockedUntil;
    }

    LoginThrottle(int maxFailures, Duration window, Duration lockout, InstantSource clock) {
        if (maxFailures < 1) {
            throw new IllegalArgumentException("maxFailures " + maxFailures + " is less than 1");
        }
        this.maxFailures = maxFailures;
        this.window = Objects.requireNonNull(window, "window");
        this.lockout = Objects.requireNonNull(lockout, "lockout");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The limit of {@code rest.properties}. */
    static LoginThrottle of(RestConfig config, InstantSource clock) {
        return new LoginThrottle(config.maxFailedLogins(), config.failedLoginWindow(), config.failedLoginLockout(),
                clock);
    }

    /**
     * Whether {@code address} is locked out now.
     *
     * @return how long it stays locked out, or empty when it may try to log in
     */
    synchronized Optional<Duration> lockedOut(String address) {
        Record r = records.get(address);
        if (r == null || r.lockedUntil == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        if (!now.isBefore(r.lockedUntil)) {
            records.remove(address);
            return Optional.empty();
        }
        return Optional.of(Duration.between(now, r.lockedUntil));
    }

    /**
     * Counts a refused login from {@code address}.
     *
     * @return true when this failure locked the address out
     */
    synchronized boolean failed(String address) {
        Instant now = clock.instant();
        Record r = records.computeIfAbsent(address, a -> new Record());
        if (r.windowStart == null || !now.isBefore(r.windowStart.plus(window))) {
            r.windowStart = now;
            r.failures = 0;
        }
        r.failures++;
        if (r.failures >= maxFailures && r.lockedUntil == null) {
            r.lockedUntil = now.plus(lockout);
            return true;
        }
        return false;
    }

    /** Forgets the failures of {@code address}, whose login succeeded. */
    synchronized void succeeded(String address) {
        records.remove(address);
    }

    int maxFailures() {
        return maxFailures;
    }

    Duration window() {
        return window;
    }

    Duration lockout() {
        return lockout;
    }

    /** @return the addresses remembered now */
    synchronized int size() {
        return records.size();
    }
}
