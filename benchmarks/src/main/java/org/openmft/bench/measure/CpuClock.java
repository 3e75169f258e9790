package org.openmft.bench.measure;

import java.lang.management.ManagementFactory;

/**
 * CPU time of this whole JVM: the queue manager, both agents and the benchmark's own threads. The
 * benchmark's threads only wait while a transfer runs, so the delta over a transfer is the cost of
 * the queue manager and the agents together.
 */
public final class CpuClock {
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
    public static long processCpuNanos() {
        return OS == null ? -1 : OS.getProcessCpuTime();
    }

    /**
     * CPU time (user + system) of this JVM's children that have ended and been waited for, from
     * {@code /proc/self/stat} (cutime + cstime): the processes a peer such as {@code cp} or
     * {@code rsync} ran, read before and after. Grandchildren count once their parent waited for
     * them. -1 where there is no /proc.
     */
    public static long childrenCpuNanos() {
        long[] f = stat("self");
        return f == null ? -1 : (f[2] + f[3]) * NANOS_PER_TICK;
    }

    /**
     * CPU time (user + system) of process {@code pid} and of its children that ended and were
     * waited for (an sshd with the sessions it served), from {@code /proc/<pid>/stat}; -1 when the
     * process is gone or there is no /proc.
     */
    public static long processTreeCpuNanos(long pid) {
        long[] f = stat(Long.toString(pid));
        return f == null ? -1 : (f[0] + f[1] + f[2] + f[3]) * NANOS_PER_TICK;
    }

    /** CPU time (user + system) of process {@code pid}, all its threads; -1 when it is gone or there is no /proc. */
    public static long processCpuNanos(long pid) {
        long[] f = stat(Long.toString(pid));
        return f == null ? -1 : (f[0] + f[1]) * NANOS_PER_TICK;
    }

    /**
     * CPU time (user + system) of the threads of process {@code pid} whose names (Linux's, the first
     * 15 characters of Java's) start with {@code prefix}, as long as they run: a thread that ended
     * took its CPU out of this sum (into the process's). 0 when none or there is no /proc.
     */
    public static long threadsCpuNanos(long pid, String prefix) {
        String name = prefix.length() > 15 ? prefix.substring(0, 15) : prefix;
        long ticks = 0;
        try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc", Long.toString(pid), "task"))) {
            for (java.nio.file.Path task : (Iterable<java.nio.file.Path>) tasks::iterator) {
                String stat = pid + "/task/" + task.getFileName();
                if (comm(stat).startsWith(name)) {
                    long[] f = stat(stat);
                    ticks += f == null ? 0 : f[0] + f[1];
                }
            }
        } catch (java.io.IOException | RuntimeException e) {
            // Gone, or no /proc: none.
        }
        return ticks * NANOS_PER_TICK;
    }

    private static String comm(String pid) {
        try {
            String s = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", pid, "stat"));
            return s.substring(s.indexOf('(') + 1, s.lastIndexOf(')'));
        } catch (java.io.IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * CPU time the whole machine spent busy, all cores together, from the first line of
     * {@code /proc/stat} (user, nice, system, irq and softirq; not idle, iowait or steal): read
     * before and after a run, less this JVM's own CPU, it is what the machine's other processes took
     * meanwhile. -1 where there is no /proc.
     */
    public static long machineBusyNanos() {
        try {
            String first = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0);
            String[] f = first.trim().split("\\s+");
            if (!"cpu".equals(f[0])) {
                return -1;
            }
            // cpu user nice system idle iowait irq softirq steal ...
            long ticks = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                    + Long.parseLong(f[7]);
            return ticks * NANOS_PER_TICK;
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The machine's 1-minute load average, or NaN where the OS does not tell. */
    public static double loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? Double.NaN : load;
    }

    /** Clock ticks are 1/100 s on every Linux this runs on (USER_HZ). */
    private static final long NANOS_PER_TICK = 10_000_000L;

    /** utime, stime, cutime, cstime of {@code /proc/<pid>/stat}, in ticks, or null. */
    private static long[] stat(String pid) {
        try {
            String s = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", pid, "stat"));
            // The command name (field 2) is in parentheses and may hold spaces: count from after it.
            String[] f = s.substring(s.lastIndexOf(')') + 2).trim().split(" ");
            // f[0] is field 3 (state); utime is field 14, so f[11] .. f[14].
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]),
                    Long.parseLong(f[14])};
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** Physical memory of the machine in bytes, or -1. */
    static long totalMemoryBytes() {
        return OS == null ? -1 : OS.getTotalMemorySize();
    }
}
