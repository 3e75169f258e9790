package org.openmft.bench.scenarios.channels;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.harness.AgentKeys;
import org.openmft.bench.harness.TestFiles;
import org.openmft.bench.harness.TwoQueueManagers;
import org.openmft.bench.measure.CpuClock;
import org.openmft.bench.report.Report;
import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rate against round-trip time ({@code --scenario latency}): one binary file from an agent on QMA to
 * one on QMB, the channels both ways through {@link org.openmft.agent.net.DelayRelay}s that add half
 * the round trip to each direction, at {@link #RTTS_MILLIS}; once with IBM's fixed window
 * ({@code openmft.adaptiveWindow=false}: agentWindowSize chunks in flight whatever the link) and once
 * with OpenMFT's window sized from the measured bandwidth-delay product ({@code true}). Each window
 * has its own pair of agents on the same two queue managers, so both cross the same relays.
 */
public final class LatencySuite implements Section {
    static final String NAME = "latency";
    static final String KEY = "openmft.adaptiveWindow";
    static final List<Integer> RTTS_MILLIS = List.of(0, 5, 25, 50, 100);
    static final String FIXED = "IBM's fixed window";
    static final String ADAPTIVE = "adaptive window";

    /**
     * How big a run is.
     *
     * @param fileBytes   the one file
     * @param repetitions measured repetitions unless --repetitions says otherwise
     */
    record RunScale(String name, long fileBytes, int repetitions) {
        static final RunScale FULL = new RunScale("full", Scale.GIB, 3);
        static final RunScale QUICK = new RunScale("quick", 64 * Scale.MIB, 1);
    }

    /** The pair of agents of each window, and the value of {@value #KEY} they run with. */
    static final Map<String, TwoQueueManagers.Pair> PAIRS = Map.of(FIXED, new TwoQueueManagers.Pair("SRCF", "DSTF"),
            ADAPTIVE, new TwoQueueManagers.Pair("SRCW", "DSTW"));

    @Override
    public String name() {
        return NAME;
    }

    /** "RTT 25 ms". */
    static String cell(int rttMillis) {
        return "RTT " + rttMillis + " ms";
    }

    @Override
    public Outcome run(Context context) throws Exception {
        RunScale scale = context.quick() ? RunScale.QUICK : RunScale.FULL;
        int reps = context.repetitions() != null ? context.repetitions() : scale.repetitions();
        Map<String, String> base = FileShapeMatrix.agentProperties(context.agentProperties(), BenchmarkRunner.CHUNK_SIZE);
        Map<String, Map<String, String>> byAgent = new HashMap<>();
        for (Map.Entry<String, TwoQueueManagers.Pair> e : PAIRS.entrySet()) {
            Map<String, String> p = new HashMap<>(base);
            p.put(KEY, String.valueOf(e.getKey().equals(ADAPTIVE)));
            byAgent.put(e.getValue().source(), p);
            byAgent.put(e.getValue().destination(), p);
        }
        double loadAtStart = CpuClock.loadAverage();
        Instant started = Instant.now();
        String describe = "**" + scale.name() + "**: one file of " + Report.size(scale.fileBytes()) + ", binary, no checksum,"
                + " at round trips of " + RTTS_MILLIS + " ms; " + reps + (reps == 1 ? " repetition" : " repetitions");
        context.log("%s: %s; %s is %s", NAME, describe.replace("**", ""), KEY, AgentKeys.status(KEY));
        Path source = context.work().resolve("files").resolve("latency.bin");
        Path destinationDir = context.work().resolve("files").resolve("destination");
        Files.createDirectories(destinationDir);
        String md5 = TestFiles.write(source, scale.fileBytes(), 20260525L);
        List<ChannelRun> runs = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        List<TwoQueueManagers.Pair> pairs = List.of(PAIRS.get(FIXED), PAIRS.get(ADAPTIVE));
        try (TwoQueueManagers two = TwoQueueManagers.start(context.work().resolve("two"), context.work(), pairs,
                byAgent::get, TwoQueueManagers.Link.relayed(Duration.ZERO, 0))) {
            context.log("QMA and QMB joined by channels through delaying relays: running");
            for (String window : List.of(FIXED, ADAPTIVE)) {
                ChannelRun w = ChannelRun.oneFile(two, PAIRS.get(window), "warm-up", window, 0, source, md5,
                        destinationDir);
                context.log("  warm-up %s", w.logLine());
                if (!w.ok()) {
                    failures.add("warm-up of " + window + ": " + w.failure());
                }
            }
            for (int rep = 1; rep <= reps && failures.isEmpty(); rep++) {
                List<String> order = rep % 2 == 1 ? List.of(FIXED, ADAPTIVE) : List.of(ADAPTIVE, FIXED);
                for (int rtt : RTTS_MILLIS) {
                    two.setDelay(Duration.ofNanos(rtt * 1_000_000L / 2));
                    for (String window : order) {
                        ChannelRun r = ChannelRun.oneFile(two, PAIRS.get(window), cell(rtt), window, rep, source, md5,
                                destinationDir);
                        ChannelReports.record(context, runs, r);
                    }
                }
            }
        } finally {
            ChannelReports.deleteUnlessKept(context, context.work().resolve("files"));
        }
        Instant ended = Instant.now();
        ChannelReports.finish(context, NAME, runs, failures);
        LatencyReport report = new LatencyReport(runs, AgentKeys.status(KEY));
        String md = report.markdown(context.runTable(started, ended, describe) + "| agents | "
                + ChannelReports.properties(base) + "; `" + KEY + "=false` on the pair of IBM's window, `true` on the"
                + " other |\n", ChannelReports.busyNote(loadAtStart, CpuClock.loadAverage(), context.machine()),
                report.chart(context.images(), context.imagesLink()), failures);
        return new Outcome(md, failures);
    }
}
