package org.openmft.bench;

import java.lang.management.ManagementFactory;

/**
 * CPU time of this whole JVM: the queue manager, both agents and the benchmark's own threads. The
 * benchmark's threads only wait while a transfer runs, so the delta over a transfer is the cost of
 * the queue manager and the agents together.
 */
final class CpuClock {
    private static final com.sun.management.OperatingSystemMXBean OS = osBean();

    private CpuClock() {
    }

    private static com.sun.management.OperatingSystemMXBean osBean() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean b) {
            return b;
        }
        return null;
    }

    /** Process CPU time in nanoseconds, or -1 when this JVM cannot tell. */
    static long processCpuNanos() {
        return OS == null ? -1 : OS.getProcessCpuTime();
    }

    /** Physical memory of the machine in bytes, or -1. */
    static long totalMemoryBytes() {
        return OS == null ? -1 : OS.getTotalMemorySize();
    }
}
