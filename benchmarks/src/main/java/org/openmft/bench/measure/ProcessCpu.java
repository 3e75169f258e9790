package org.openmft.bench.measure;

import org.openmft.bench.scenarios.fileshapes.FileShapeRun;

/**
 * The CPU of one transfer between two agents each hosted, in bindings mode, by its queue manager's
 * own process, read from {@code /proc/<pid>/stat} before and after: the source side is the whole
 * CPU of the source agent's process (its queue manager, the channels it runs, the agent, GC, JIT),
 * the destination side the whole of the other process's, as IBM's Agent1-CPU and Agent2-CPU are
 * each the whole of one machine. The queue managers' share is what, in both processes, was not
 * spent by threads named for the agents ({@code openmft-<agent>-<role>}, Linux's 15 characters of
 * it), an upper bound: an agent thread that ended before the run did took its CPU into that share.
 */
public final class ProcessCpu implements CpuSplit {
    private final long sourcePid;
    private final long destinationPid;
    private final String sourcePrefix;
    private final String destinationPrefix;
    private final long source0;
    private final long destination0;
    private final long agents0;

    private ProcessCpu(long sourcePid, String sourceAgent, long destinationPid, String destinationAgent) {
        this.sourcePid = sourcePid;
        this.destinationPid = destinationPid;
        this.sourcePrefix = "openmft-" + sourceAgent + "-";
        this.destinationPrefix = "openmft-" + destinationAgent + "-";
        this.source0 = CpuClock.processCpuNanos(sourcePid);
        this.destination0 = sameProcess() ? source0 : CpuClock.processCpuNanos(destinationPid);
        this.agents0 = agentThreads();
    }

    /** Starts measuring the process {@code sourcePid} hosting {@code sourceAgent}, and the other one. */
    public static ProcessCpu start(long sourcePid, String sourceAgent, long destinationPid, String destinationAgent) {
        return new ProcessCpu(sourcePid, sourceAgent, destinationPid, destinationAgent);
    }

    /** Both agents in one process: its clock is read once, so both sides see the same instant. */
    private boolean sameProcess() {
        return sourcePid == destinationPid;
    }

    private long agentThreads() {
        return CpuClock.threadsCpuNanos(sourcePid, sourcePrefix)
                + CpuClock.threadsCpuNanos(destinationPid, destinationPrefix);
    }

    /** Both processes' CPU since {@link #start}; unknown where either process cannot be read. */
    @Override
    public FileShapeRun.Cpu stop() {
        long s1 = CpuClock.processCpuNanos(sourcePid);
        long d1 = sameProcess() ? s1 : CpuClock.processCpuNanos(destinationPid);
        long agents = agentThreads() - agents0;
        if (source0 < 0 || destination0 < 0 || s1 < 0 || d1 < 0) {
            return FileShapeRun.Cpu.UNKNOWN;
        }
        long s = s1 - source0;
        long d = d1 - destination0;
        return new FileShapeRun.Cpu(s + d, s, d, Math.max(0, s + d - agents));
    }
}
