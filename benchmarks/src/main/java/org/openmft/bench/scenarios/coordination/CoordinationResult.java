package org.openmft.bench.scenarios.coordination;

import org.openmft.bench.measure.ThreadCpuSampler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one cell of the coordination scenario measured. Filled in as the cell goes, so that a cell
 * that fails part-way still reports how far it got and what it saw (threads, memory, descriptors
 * when agents could not all start). Written by the one thread that runs the cell.
 */
public final class CoordinationResult {
    final CoordinationScenario.Cell cell;
    /** Why the cell gives no figures, or null. */
    public String failure;
    /** Problems that do not void the figures but must be read with them. */
    public final List<String> notes = new ArrayList<>();

    // Footprint of the agents
    int agentsStarted;
    double startSeconds = Double.NaN;
    int threadsBefore;
    int threadsAfter;
    double heapBeforeMib = Double.NaN;
    double heapAfterMib = Double.NaN;
    int fdsBefore = -1;
    int fdsAfter = -1;
    double rssAfterMib = Double.NaN;
    /** Snapshots taken while agents start: agents started, threads, heap MiB after GC, fds. */
    final List<String> startProgress = new ArrayList<>();

    // Idle agents
    double idleSeconds = Double.NaN;
    final Map<String, Long> idleCpuNanos = new LinkedHashMap<>();
    long idleStatusPublications = -1;

    // The measured rounds: the figures below are the median round's
    double[] roundSeconds = new double[0];
    double[] roundAverageSeconds = new double[0];
    int medianRound;
    List<String> transferIds = List.of();
    public double wallSeconds = Double.NaN;
    double[] transferSeconds = new double[0];
    long bytes;
    int resends;
    int connectionLosses;
    public double cpuIntervalSeconds = Double.NaN;
    /** CPU the rest of the machine (other processes) used over the same interval. */
    double otherProcessesCpuSeconds = Double.NaN;
    public final Map<String, Long> cpuNanos = new LinkedHashMap<>();
    /** Thread groups as {@link ThreadCpuSampler#group} names them, for the console and the JSON. */
    public final Map<String, Long> rawCpuNanos = new LinkedHashMap<>();
    public long statusPublications = -1;
    public long progressPublications = -1;

    // The logger
    double drainSeconds = Double.NaN;
    public double[] lagToReceivedMillis = new double[0];
    double[] lagToCommitMillis = new double[0];
    public long recordsStored = -1;
    public long recordsDuplicate = -1;
    public long recordsRejected = -1;
    int minProgressRecords = -1;
    int maxProgressRecords = -1;
    /** Null when every transfer has exactly one started, at least one progress and one completed row. */
    public String rowsCheck = "not checked";
    int maxTransactionMessages;
    long maxTransactionMillis;

    // Back-pressure, sampled every second during the measured round
    public int maxHeldTotal = -1;
    public int maxHeldOneAgent = -1;
    public long maxOutboxTotal = -1;
    long maxOutboxOneAgent = -1;
    public long maxLoggerBacklog = -1;
    double maxHeapMib = Double.NaN;
    int maxThreads = -1;
    double peakRssMib = Double.NaN;

    public CoordinationResult(CoordinationScenario.Cell cell) {
        this.cell = cell;
    }

    /** Takes a round's figures (and its failure, if any). */
    void absorb(CoordinationResult round) {
        if (round.failure != null) {
            fail(round.failure);
        }
        notes.addAll(round.notes);
        transferIds = round.transferIds;
        wallSeconds = round.wallSeconds;
        transferSeconds = round.transferSeconds;
        bytes = round.bytes;
        resends = round.resends;
        connectionLosses = round.connectionLosses;
        cpuIntervalSeconds = round.cpuIntervalSeconds;
        otherProcessesCpuSeconds = round.otherProcessesCpuSeconds;
        cpuNanos.clear();
        cpuNanos.putAll(round.cpuNanos);
        rawCpuNanos.clear();
        rawCpuNanos.putAll(round.rawCpuNanos);
        statusPublications = round.statusPublications;
        progressPublications = round.progressPublications;
        drainSeconds = round.drainSeconds;
        lagToCommitMillis = round.lagToCommitMillis;
        recordsStored = round.recordsStored;
        recordsDuplicate = round.recordsDuplicate;
        recordsRejected = round.recordsRejected;
        maxHeldTotal = round.maxHeldTotal;
        maxHeldOneAgent = round.maxHeldOneAgent;
        maxOutboxTotal = round.maxOutboxTotal;
        maxOutboxOneAgent = round.maxOutboxOneAgent;
        maxLoggerBacklog = round.maxLoggerBacklog;
        maxHeapMib = round.maxHeapMib;
        maxThreads = round.maxThreads;
    }

    public boolean ok() {
        return failure == null;
    }

    void fail(String why) {
        if (failure == null) {
            failure = why;
        }
    }

    public double averageTransferSeconds() {
        return Stats.mean(transferSeconds);
    }

    /** CPU seconds of a group over the measured interval, or NaN when not measured. */
    double cpuSeconds(String group) {
        Long n = cpuNanos.get(group);
        return n == null ? (cpuNanos.isEmpty() ? Double.NaN : 0) : n / 1e9;
    }

    /** Average busy cores of a group over the measured interval. */
    double cores(String group) {
        return cpuSeconds(group) / cpuIntervalSeconds;
    }

    double totalCpuSeconds() {
        return cpuNanos.values().stream().mapToLong(Long::longValue).sum() / 1e9;
    }

    /** Small statistics over samples. */
    public static final class Stats {
        private Stats() {
        }

        static double mean(double[] v) {
            if (v.length == 0) {
                return Double.NaN;
            }
            double s = 0;
            for (double d : v) {
                s += d;
            }
            return s / v.length;
        }

        /** The nearest-rank percentile, {@code p} in [0, 100]. */
        public static double percentile(double[] v, double p) {
            if (v.length == 0) {
                return Double.NaN;
            }
            double[] sorted = v.clone();
            java.util.Arrays.sort(sorted);
            int rank = (int) Math.ceil(p / 100 * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
        }

        public static double max(double[] v) {
            return percentile(v, 100);
        }
    }
}
