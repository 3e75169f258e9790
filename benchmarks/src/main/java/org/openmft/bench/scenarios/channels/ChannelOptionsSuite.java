package org.openmft.bench.scenarios.channels;

import org.openmft.bench.BenchmarkRunner;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openmft.agent.compression.CompressionMethod;
import org.openmft.bench.micro.CompressionBenchmark.Data;

/**
 * What the options of a long link give between two queue managers ({@code --scenario channel-options}):
 * chunk compression ({@code openmft.compression} none, lz4, zstd) on text-like and on random data
 * across a link capped at {@value #CAP_MEGABITS} Mbit/s each way, and several channels
 * ({@code agentMultipleChannelsEnabled} false and true, over two parallel channels each way) across a
 * link of {@value #MULTI_RTT_MILLIS} ms round trip whose every connection is capped at
 * {@value #CAP_MEGABITS} Mbit/s, as a per-flow traffic shaper caps them: the case several channels are
 * for. Every setting has its own pair of
 * agents on the same two queue managers and relays; which goes first rotates from one repetition to
 * the next.
 */
public final class ChannelOptionsSuite implements Section {
    static final String NAME = "channel-options";
    static final int CAP_MEGABITS = 100;
    static final int MULTI_RTT_MILLIS = 25;
    static final String MULTI_KEY = "agentMultipleChannelsEnabled";
    static final List<CompressionMethod> METHODS = List.of(CompressionMethod.NONE, CompressionMethod.LZ4,
            CompressionMethod.ZSTD);
    static final List<Boolean> MULTI = List.of(false, true);

    record RunScale(String name, int fileBytes, int repetitions) {
        static final RunScale FULL = new RunScale("full", 256 << 20, 3);
        static final RunScale QUICK = new RunScale("quick", 8 << 20, 1);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The variant of a compression run: "openmft.compression=lz4". */
    static String compression(CompressionMethod m) {
        return "openmft.compression=" + m.word();
    }

    /** The variant of a multiple-channels run. */
    static String multi(boolean on) {
        return MULTI_KEY + "=" + on;
    }

    /** The cell of a compression run: "text, 100 Mbit/s". */
    static String compressionCell(Data data) {
        return data.name().toLowerCase(java.util.Locale.ROOT) + ", " + CAP_MEGABITS + " Mbit/s";
    }

    static final String MULTI_CELL = "random, " + CAP_MEGABITS + " Mbit/s per connection, RTT " + MULTI_RTT_MILLIS
            + " ms";

    /** Each setting's pair of agents. */
    static Map<String, TwoQueueManagers.Pair> pairs() {
        Map<String, TwoQueueManagers.Pair> pairs = new LinkedHashMap<>();
        for (CompressionMethod m : METHODS) {
            String w = m.word().toUpperCase(java.util.Locale.ROOT);
            pairs.put(compression(m), new TwoQueueManagers.Pair("SRC_" + w, "DST_" + w));
        }
        for (boolean on : MULTI) {
            pairs.put(multi(on), new TwoQueueManagers.Pair("SRC_MC" + (on ? 1 : 0), "DST_MC" + (on ? 1 : 0)));
        }
        return pairs;
    }

    /** The key of each setting, with its value, on both agents of its pair. */
    static Map<String, String> settingOf(String variant) {
        String[] kv = variant.split("=", 2);
        return Map.of(kv[0], kv[1]);
    }

    @Override
    public Outcome run(Context context) throws Exception {
        RunScale scale = context.quick() ? RunScale.QUICK : RunScale.FULL;
        int reps = context.repetitions() != null ? context.repetitions() : scale.repetitions();
        Map<String, String> base = FileShapeMatrix.agentProperties(context.agentProperties(), BenchmarkRunner.CHUNK_SIZE);
        Map<String, TwoQueueManagers.Pair> pairs = pairs();
        Map<String, Map<String, String>> byAgent = new HashMap<>();
        pairs.forEach((variant, pair) -> {
            Map<String, String> p = new HashMap<>(base);
            p.putAll(settingOf(variant));
            byAgent.put(pair.source(), p);
            byAgent.put(pair.destination(), p);
        });
        double loadAtStart = CpuClock.loadAverage();
        Instant started = Instant.now();
        String describe = "**" + scale.name() + "**: one file of " + Report.size(scale.fileBytes()) + " per run, binary,"
                + " no checksum; " + reps + (reps == 1 ? " repetition" : " repetitions");
        context.log("%s: %s; %s is %s", NAME, describe.replace("**", ""), MULTI_KEY, AgentKeys.status(MULTI_KEY));
        Path dir = context.work().resolve("files");
        Path destinationDir = dir.resolve("destination");
        Files.createDirectories(destinationDir);
        Map<Data, Path> sources = new LinkedHashMap<>();
        Map<Data, String> md5s = new HashMap<>();
        for (Data d : Data.values()) {
            Path p = dir.resolve(d.name().toLowerCase(java.util.Locale.ROOT) + ".dat");
            Files.write(p, d.bytes(scale.fileBytes(), 20261126L));
            sources.put(d, p);
            md5s.put(d, TestFiles.md5(p));
        }
        List<ChannelRun> runs = new ArrayList<>();
        Map<ChannelRun, Long> wireBytes = new HashMap<>();
        List<String> failures = new ArrayList<>();
        try (TwoQueueManagers two = TwoQueueManagers.start(context.work().resolve("two"), context.work(),
                List.copyOf(pairs.values()), byAgent::get, TwoQueueManagers.Link.relayed(Duration.ZERO, 0).withChannels(2))) {
            context.log("QMA and QMB joined by channels through relays: running");
            for (Map.Entry<String, TwoQueueManagers.Pair> e : pairs.entrySet()) {
                ChannelRun w = ChannelRun.oneFile(two, e.getValue(), "warm-up", e.getKey(), 0, sources.get(Data.TEXT),
                        md5s.get(Data.TEXT), destinationDir);
                context.log("  warm-up %s", w.logLine());
                if (!w.ok()) {
                    failures.add("warm-up of " + e.getKey() + ": " + w.failure());
                }
            }
            for (int rep = 1; rep <= reps && failures.isEmpty(); rep++) {
                two.setDelay(Duration.ZERO);
                two.setBandwidth(CAP_MEGABITS * 1_000_000L / 8);
                for (Data d : Data.values()) {
                    for (CompressionMethod m : rotate(METHODS, rep)) {
                        long wire0 = two.relayedBytes();
                        ChannelRun r = ChannelRun.oneFile(two, pairs.get(compression(m)), compressionCell(d), compression(m), rep,
                                sources.get(d), md5s.get(d), destinationDir);
                        wireBytes.put(r, two.relayedBytes() - wire0);
                        runs.add(r);
                        context.log("  rep %d %s, %,d bytes relayed", rep, r.logLine(), wireBytes.get(r));
                    }
                }
                two.setDelay(Duration.ofNanos(MULTI_RTT_MILLIS * 1_000_000L / 2));
                for (boolean on : rotate(MULTI, rep)) {
                    ChannelRun r = ChannelRun.oneFile(two, pairs.get(multi(on)), MULTI_CELL, multi(on), rep,
                            sources.get(Data.RANDOM), md5s.get(Data.RANDOM), destinationDir);
                    ChannelReports.record(context, runs, r);
                }
            }
        } finally {
            ChannelReports.deleteUnlessKept(context, dir);
        }
        Instant ended = Instant.now();
        ChannelReports.finish(context, NAME, runs, failures);
        ChannelOptionsReport report = new ChannelOptionsReport(runs, wireBytes);
        String md = report.markdown(context.runTable(started, ended, describe) + "| agents | "
                + ChannelReports.properties(base) + "; each pair with its own setting |\n",
                ChannelReports.busyNote(loadAtStart, CpuClock.loadAverage(), context.machine()),
                report.chart(context.images(), context.imagesLink()), failures);
        return new Outcome(md, failures);
    }

    /** {@code list} rotated by {@code rep}, so that no setting always runs first. */
    static <T> List<T> rotate(List<T> list, int rep) {
        List<T> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            out.add(list.get((i + rep) % list.size()));
        }
        return out;
    }
}
