package org.openmft.coordination.publish;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

/** The shared publisher thread survives what one agent's pass throws. */
class PublisherThreadTest {

    /** A pass that counts its steps and throws {@code thrown} on the step numbered {@code failAt}. */
    private static final class CountingPass implements PublisherThread.Pass {
        final AtomicInteger steps = new AtomicInteger();
        private final int failAt;
        private final RuntimeException runtime;
        private final Error error;

        CountingPass(int failAt, RuntimeException runtime, Error error) {
            this.failAt = failAt;
            this.runtime = runtime;
            this.error = error;
        }

        @Override
        public String agent() {
            return "TEST" + failAt;
        }

        @Override
        public long step() {
            int n = steps.incrementAndGet();
            if (n == failAt && runtime != null) {
                throw runtime;
            }
            if (n == failAt && error != null) {
                throw error;
            }
            return 10;
        }
    }

    @Test
    void aRuntimeExceptionOfOnePassNeitherStopsTheThreadNorTheOthers() throws Exception {
        PublisherThread thread = new PublisherThread();
        CountingPass failing = new CountingPass(1, new IllegalStateException("test: a failed pass"), null);
        CountingPass other = new CountingPass(0, null, null);
        thread.add(failing);
        thread.add(other);
        try {
            await(() -> failing.steps.get() >= 3 && other.steps.get() >= 3, "both passes to run again");
            assertTrue(thread.running());
        } finally {
            thread.remove(failing);
            thread.remove(other);
        }
    }

    @Test
    void anErrorEndsTheThreadAndTheNextPublicationStartsItAgain() throws Exception {
        PublisherThread thread = new PublisherThread();
        CountingPass failing = new CountingPass(2, null, new StackOverflowError("test: an error in a pass"));
        CountingPass other = new CountingPass(0, null, null);
        thread.add(other);
        thread.add(failing);
        try {
            await(() -> !thread.running(), "the error to end the thread");
            int before = other.steps.get();
            assertFalse(thread.running());

            thread.wake(); // what a buffer does when it receives a publication
            await(() -> other.steps.get() > before + 2 && failing.steps.get() > 3, "both passes to run again");
            assertTrue(thread.running());
        } finally {
            thread.remove(failing);
            thread.remove(other);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }
}
