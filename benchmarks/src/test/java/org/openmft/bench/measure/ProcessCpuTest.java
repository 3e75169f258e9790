package org.openmft.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun;

/** The CPU of agent-hosting processes, read from /proc: the agents' threads told apart by their names. */
class ProcessCpuTest {
    private static final long SPIN_NANOS = 100_000_000L;
    /** The kernel's clock tick, in which /proc counts thread CPU (100 Hz). */
    private static final long TICK_NANOS = 10_000_000L;

    @Test
    void anAgentsThreadsCountOnItsSideAndOutsideTheQueueManagersShare() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc here");
        long pid = ProcessHandle.current().pid();
        ProcessCpu measured = ProcessCpu.start(pid, "SRC", pid, "DST");
        AtomicBoolean stop = new AtomicBoolean();
        Thread spinner = new Thread(() -> {
            long x = 0;
            while (!stop.get()) {
                x += System.nanoTime() % 7;
            }
            assertThat(x).isNotNegative();
        }, "openmft-SRC-spin");
        spinner.start();
        try {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (CpuClock.threadsCpuNanos(pid, "openmft-SRC-") < SPIN_NANOS && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        } finally {
            stop.set(true);
            spinner.join();
        }
        FileShapeRun.Cpu cpu = measured.stop();
        // Both sides are this one process here: each side is its whole CPU.
        assertThat(cpu.source()).isGreaterThanOrEqualTo(SPIN_NANOS).isEqualTo(cpu.destination());
        assertThat(cpu.total()).isEqualTo(cpu.source() + cpu.destination());
        // The spinning agent thread ended before stop(): its CPU is in the queue managers' share, as documented.
        assertThat(cpu.queueManager()).isLessThanOrEqualTo(cpu.total());
    }

    @Test
    void aLiveAgentThreadIsTakenOutOfTheQueueManagersShare() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc here");
        long pid = ProcessHandle.current().pid();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean counting = new AtomicBoolean();
        CountDownLatch spun = new CountDownLatch(1);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Thread spinner = new Thread(() -> {
            long from = -1;
            while (!stop.get()) {
                Thread.onSpinWait();
                if (from < 0 && counting.get()) {
                    from = threads.getCurrentThreadCpuTime();
                } else if (from >= 0 && threads.getCurrentThreadCpuTime() - from >= SPIN_NANOS + TICK_NANOS) {
                    // A tick more than asked for: /proc counts in clock ticks and truncates.
                    spun.countDown();
                }
            }
        }, "openmft-SRC-spin");
        spinner.start();
        try {
            ProcessCpu measured = ProcessCpu.start(pid, "SRC", pid, "NOBODY");
            counting.set(true);
            assertThat(spun.await(60, TimeUnit.SECONDS)).as("the agent thread spun %d ms", SPIN_NANOS / 1_000_000)
                    .isTrue();
            FileShapeRun.Cpu cpu = measured.stop();
            assertThat(cpu.queueManager()).isLessThanOrEqualTo(cpu.total() - SPIN_NANOS);
        } finally {
            stop.set(true);
            spinner.join();
        }
    }
}
