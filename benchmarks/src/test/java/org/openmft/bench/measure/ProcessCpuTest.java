package org.openmft.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun;

/** The CPU of agent-hosting processes, read from /proc: the agents' threads told apart by their names. */
class ProcessCpuTest {
    private static final long SPIN_NANOS = 100_000_000L;

    /**
     * Spins until the calling thread has used {@link #SPIN_NANOS} of CPU by its own clock, plus 20 ms,
     * so that /proc (which counts in clock ticks of 10 ms) shows at least {@link #SPIN_NANOS} too.
     */
    private static void spinForItsOwnCpu() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < SPIN_NANOS + 20_000_000L) {
            x += System.nanoTime() % 7;
        }
        assertThat(x).isNotNegative();
    }

    @Test
    void anAgentsThreadsCountOnItsSideAndOutsideTheQueueManagersShare() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc here");
        long pid = ProcessHandle.current().pid();
        ProcessCpu measured = ProcessCpu.start(pid, "SRC", pid, "DST");
        // The spinner ends itself once it has used SPIN_NANOS (and a clock tick more) of its own CPU.
        Thread spinner = new Thread(ProcessCpuTest::spinForItsOwnCpu, "openmft-SRC-spin");
        spinner.start();
        spinner.join(60_000);
        assertThat(spinner.isAlive()).as("the spinner used its CPU within a minute").isFalse();
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
        CountDownLatch spun = new CountDownLatch(1);
        Thread spinner = new Thread(() -> {
            spinForItsOwnCpu();
            spun.countDown();
            while (!stop.get()) {
                Thread.onSpinWait();
            }
        }, "openmft-SRC-spin");
        try {
            ProcessCpu measured = ProcessCpu.start(pid, "SRC", pid, "NOBODY");
            spinner.start();
            assertThat(spun.await(60, TimeUnit.SECONDS)).as("the spinner used its CPU within a minute").isTrue();
            FileShapeRun.Cpu cpu = measured.stop();
            assertThat(cpu.queueManager()).isLessThanOrEqualTo(cpu.total() - SPIN_NANOS);
        } finally {
            stop.set(true);
            spinner.join();
        }
    }
}
