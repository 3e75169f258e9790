package org.openmft.agent;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** The tests' one way to wait for a condition: polled every 10 ms until it holds or the deadline passes. */
public final class Poll {
    private Poll() {
    }

    /** Waits until {@code condition} holds; past {@code timeout}, fails with "timed out waiting for {@code what}". */
    public static void until(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        until(() -> "timed out waiting for " + what, timeout, condition);
    }

    /** Waits until {@code condition} holds; past {@code timeout}, fails with {@code failure}'s message, made then. */
    public static void until(Supplier<String> failure, Duration timeout, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(failure.get());
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }
}
