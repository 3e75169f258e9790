package org.openmft.agent.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

class BoundedJoinTest {
    private final CountDownLatch release = new CountDownLatch(1);
    private final AgentThreads threads = AgentThreads.forProcess("test");

    @AfterEach
    void releaseStuckThreads() {
        release.countDown();
    }

    private Thread stuck(String role) {
        Thread t = threads.newDaemonThread(role, () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        return t;
    }

    private Thread quick(String role) {
        Thread t = threads.newDaemonThread(role, () -> { });
        t.start();
        return t;
    }

    @Test
    void threadsThatEndInTimeAreNotReported() {
        try (CapturedLog captured = new CapturedLog(BoundedJoin.class)) {
            assertThat(BoundedJoin.joinOrWarn("Test", List.of(quick("a"), quick("b")), Duration.ofSeconds(10))).isEmpty();
            assertThat(captured.events()).isEmpty();
        }
    }

    @Test
    void theThreadsStillRunningAreReturnedAndNamedWithTheTimeWaited() {
        Thread a = quick("a");
        Thread b = stuck("b");
        Thread c = stuck("c");
        try (CapturedLog captured = new CapturedLog(BoundedJoin.class)) {
            long start = System.nanoTime();
            List<Thread> alive = BoundedJoin.joinOrWarn("Host of queue manager QM1", List.of(a, b, c),
                    Duration.ofMillis(200));
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(alive).containsExactly(b, c);
            // One bound for all the threads, not one per thread.
            assertThat(waitedMillis).isBetween(200L, 5_000L);
            ILoggingEvent warning = captured.events().get(0);
            assertThat(warning.getLevel()).isEqualTo(Level.WARN);
            assertThat(warning.getFormattedMessage())
                    .startsWith("Host of queue manager QM1: 2 thread(s) did not stop within ")
                    .contains(" ms: openmft-test-b, openmft-test-c");
        }
    }

    @Test
    void anUnstartedThreadCountsAsEnded() {
        assertThat(BoundedJoin.join(List.of(threads.newThread("never", () -> { })), Duration.ofMillis(10))).isEmpty();
    }

    @Test
    void anInterruptStopsTheWaitAndIsKept() {
        Thread b = stuck("b");
        Thread.currentThread().interrupt();
        try {
            long start = System.nanoTime();
            assertThat(BoundedJoin.join(List.of(b), Duration.ofSeconds(30))).containsExactly(b);
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000L);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
