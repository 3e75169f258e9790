package org.openmft.bench.scenarios.transfer;

import org.openmft.bench.Scale;
import org.openmft.bench.measure.ThreadCpuSampler;

/**
 * One measured run of one scenario.
 *
 * @param scenario   what ran
 * @param repetition from 1
 * @param bytes      payload bytes moved (file bytes; for raw JMS the message bodies)
 * @param files      files moved (0 for raw JMS)
 * @param wallNanos  elapsed time, from the request (or first put, or exec) to the final answer
 * @param cpuNanos   CPU time of this JVM over the same interval (queue manager and both agents),
 *                   or -1 when it is not measured (cp runs in another process)
 * @param extraNanos a second duration where the scenario has one (cp: the fsync after the copy), else 0
 * @param resends    chunk resends the agents reported during the run (0 when healthy)
 * @param failure    why the run does not count, or null when it succeeded and every file verified
 * @param threadCpu  CPU nanoseconds by thread group over the run (see {@link ThreadCpuSampler}); empty
 *                   when not measured
 */
public record Sample(Scenario scenario, int repetition, long bytes, int files, long wallNanos, long cpuNanos,
        long extraNanos, int resends, String failure, java.util.Map<String, Long> threadCpu) {

    public Sample {
        threadCpu = threadCpu == null ? java.util.Map.of() : java.util.Map.copyOf(threadCpu);
    }

    public static Sample failed(Scenario scenario, int repetition, long bytes, int files, String failure) {
        return new Sample(scenario, repetition, bytes, files, -1, -1, 0, 0, failure, null);
    }

    public boolean ok() {
        return failure == null;
    }

    public Sample withFailure(String why) {
        return new Sample(scenario, repetition, bytes, files, wallNanos, cpuNanos, extraNanos, resends, why, threadCpu);
    }

    public double seconds() {
        return wallNanos / 1e9;
    }

    /** Decimal megabytes (10^6 bytes) per second. */
    public double mbPerSecond() {
        return bytes / 1e6 / seconds();
    }

    /** CPU seconds of this JVM per GiB moved, or NaN when not measured. */
    public double cpuSecondsPerGib() {
        return cpuNanos < 0 ? Double.NaN : (cpuNanos / 1e9) / ((double) bytes / Scale.GIB);
    }

    /** Average number of busy cores during the run, or NaN when not measured. */
    public double coresBusy() {
        return cpuNanos < 0 ? Double.NaN : (double) cpuNanos / wallNanos;
    }
}
