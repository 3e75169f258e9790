package org.openmft.agent.transfer.source;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that moves only when told: time-dependent decisions tested without waiting. */
public final class FakeClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    /** Moves the clock on. */
    public void advance(Duration d) {
        now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
