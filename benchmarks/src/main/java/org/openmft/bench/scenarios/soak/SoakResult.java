package org.openmft.bench.scenarios.soak;

import org.openmft.bench.harness.ConnectionCutter;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one soak run saw: the transfers, the faults and what the agents' logs say about recovery.
 * Filled in by the one thread that runs the scenario, so that a run that fails part-way still
 * reports how far it got.
 */
public final class SoakResult {
    /** One injected fault. */
    static final class Fault {
        final int number;
        final SoakScenario.FaultKind kind;
        /** Seconds since the load started. */
        final double atSeconds;
        /** Transfers without an outcome when it was injected (their numbers). */
        final List<Integer> inFlight;
        /** What was done: the pid killed, the connections cut. */
        String detail = "";
        /** From the fault until the process was back and every agent answered a ping; NaN if never. */
        double recoverySeconds = Double.NaN;
        /** Why it was not recovered from, or null. */
        String problem;
        /** Set at the end: recovered, and every transfer in flight ended intact. */
        boolean survived;

        Fault(int number, SoakScenario.FaultKind kind, double atSeconds, List<Integer> inFlight) {
            this.number = number;
            this.kind = kind;
            this.atSeconds = atSeconds;
            this.inFlight = List.copyOf(inFlight);
        }

        boolean recovered() {
            return problem == null && !Double.isNaN(recoverySeconds);
        }
    }

    /** A transfer that did not end intact. */
    record FailedTransfer(int number, String transferId, String reason) {
    }

    final SoakScenario.Settings settings;
    Instant started;
    /** Why the run stopped early or gives no verdict, or null. */
    String failure;
    final List<String> notes = new ArrayList<>();
    public Map<String, String> machine = Map.of();
    public String revision;
    String agentSettings = "";

    double setupSeconds = Double.NaN;
    double loadSeconds = Double.NaN;
    double drainSeconds = Double.NaN;
    public double wallSeconds = Double.NaN;

    int sourceFiles;
    long sourceBytes;
    public int submitted;
    public int completed;
    long filesMoved;
    long bytesMoved;
    double[] transferSeconds = new double[0];
    final List<FailedTransfer> failed = new ArrayList<>();
    public long bytesLost;
    /** Transfers whose files were written again after they had ended and been checked. */
    final List<String> filesWrittenAgain = new ArrayList<>();
    int duplicateFinalReplies;
    final List<String> strayReplies = new ArrayList<>();

    public final List<Fault> faults = new ArrayList<>();
    /** Every transfer requested, for the CSV. */
    public List<SoakTraffic.Submission> transfers = List.of();
    AgentLogTotals logs;
    long relayedBytes;
    int relayedConnections;
    /** Times a relay stopped listening while the queue manager was down (see {@link ConnectionCutter}). */
    int relayRefusals;
    /** Records left on the agents' STATE queues at the end, by agent (-1: could not be read). */
    final Map<String, Integer> stateRecordsLeft = new java.util.LinkedHashMap<>();
    /** Files left in the agents' state directories at the end, by agent. */
    final Map<String, Integer> stateFilesLeft = new java.util.LinkedHashMap<>();
    /**
     * Transfers (ids) an agent still held at the end although every transfer had ended: shown as
     * recovering in its status for ever, and a controlled stop waits for them. Not data lost, so
     * not a failure of the run, but an agent bug, named in the verdict.
     */
    final java.util.Set<String> transfersLeft = new java.util.TreeSet<>();

    public boolean leftovers() {
        return !transfersLeft.isEmpty() || stateRecordsLeft.values().stream().anyMatch(n -> n > 0);
    }

    public SoakResult(SoakScenario.Settings settings) {
        this.settings = settings;
    }

    /** Faults injected, by kind, in the enum's order. */
    Map<SoakScenario.FaultKind, int[]> faultCounts() {
        Map<SoakScenario.FaultKind, int[]> m = new EnumMap<>(SoakScenario.FaultKind.class);
        for (SoakScenario.FaultKind k : SoakScenario.FaultKind.values()) {
            m.put(k, new int[2]);
        }
        for (Fault f : faults) {
            m.get(f.kind)[0]++;
            if (f.survived) {
                m.get(f.kind)[1]++;
            }
        }
        return m;
    }

    public int faultsSurvived() {
        return (int) faults.stream().filter(f -> f.survived).count();
    }

    /**
     * The run passes when it ran to the end, every transfer ended intact (result 0, every MD5
     * equal), nothing was lost, and every fault was survived.
     */
    public boolean ok() {
        return failure == null && failed.isEmpty() && bytesLost == 0 && completed == submitted && submitted > 0
                && filesWrittenAgain.isEmpty() && faults.stream().allMatch(f -> f.survived);
    }

    /** One line on why the run did not pass, or null when it passed and nothing was left over. */
    public String verdict() {
        if (ok()) {
            return leftovers() ? "passed, but the agents still hold " + transfersLeft.size()
                    + " ended transfers (see the notes)" : null;
        }
        List<String> why = new ArrayList<>();
        if (failure != null) {
            why.add(failure);
        }
        if (!failed.isEmpty()) {
            why.add(failed.size() + " of " + submitted + " transfers did not end intact");
        }
        if (bytesLost > 0) {
            why.add(bytesLost + " bytes lost");
        }
        if (!filesWrittenAgain.isEmpty()) {
            why.add(filesWrittenAgain.size() + " transfers had their files written again after they ended");
        }
        long notSurvived = faults.stream().filter(f -> !f.survived).count();
        if (notSurvived > 0) {
            why.add(notSurvived + " of " + faults.size() + " faults not survived");
        }
        if (submitted == 0) {
            why.add("no transfer was requested");
        }
        if (leftovers()) {
            why.add("the agents still hold " + transfersLeft.size() + " ended transfers");
        }
        return String.join("; ", why);
    }
}
