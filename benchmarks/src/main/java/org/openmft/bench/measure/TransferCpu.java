package org.openmft.bench.measure;

import org.openmft.bench.scenarios.fileshapes.FileShapeRun;

import java.util.Map;

/**
 * The CPU of one agent transfer in this JVM, split between the source agent's threads, the
 * destination agent's threads and the rest (the queue manager, the transport, GC and the JIT), so
 * that a cost can be placed on the side that pays it. Started just before the request is put and
 * stopped once the final reply is in; the agents' threads are told apart by their names,
 * {@code openmft-<agent>-<role>}.
 */
public final class TransferCpu implements CpuSplit {
    private final String sourcePrefix;
    private final String destinationPrefix;
    private final ThreadCpuSampler threads;
    private final long cpu0;

    private TransferCpu(String sourceAgent, String destinationAgent) {
        this.sourcePrefix = "openmft-" + sourceAgent + "-";
        this.destinationPrefix = "openmft-" + destinationAgent + "-";
        this.threads = ThreadCpuSampler.startIfSupported();
        this.cpu0 = CpuClock.processCpuNanos();
    }

    /** Starts measuring a transfer from {@code sourceAgent} to {@code destinationAgent}. */
    public static TransferCpu start(String sourceAgent, String destinationAgent) {
        return new TransferCpu(sourceAgent, destinationAgent);
    }

    /**
     * Stops measuring: the process's CPU since {@link #start}, less the sampler's own, split by side;
     * only a total where this JVM does not measure thread CPU time, nothing where it cannot tell.
     */
    @Override
    public FileShapeRun.Cpu stop() {
        long cpu1 = CpuClock.processCpuNanos();
        if (threads == null) {
            return cpu0 < 0 ? FileShapeRun.Cpu.UNKNOWN : FileShapeRun.Cpu.total(cpu1 - cpu0);
        }
        threads.close();
        long total = cpu0 < 0 ? -1 : cpu1 - cpu0 - threads.ownCpuNanos();
        Map<String, Long> split = threads.byGroup((id, name) -> name == null ? "rest"
                : name.startsWith(sourcePrefix) ? "source" : name.startsWith(destinationPrefix) ? "destination"
                        : "rest");
        long s = split.getOrDefault("source", 0L);
        long d = split.getOrDefault("destination", 0L);
        return new FileShapeRun.Cpu(total, s, d, total < 0 ? -1 : total - s - d);
    }
}
