package org.openmft.bench.scenarios.protection;

import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.harness.TestFiles;
import org.openmft.bench.measure.CpuClock;
import org.openmft.bench.measure.TransferCpu;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openmft.agent.protection.MessageProtection;
import org.openmft.agent.protection.ProtectionLevel;
import org.openmft.agent.protection.ProtectionStores;
import org.openmft.xml.ChecksumMethod;

/**
 * What each message protection policy ({@code openmft.messageProtection}) costs: the transfer of
 * the transfer section's main scenario (one file of {@link Scale#singleFileBytes()}, binary, MD5,
 * bindings) between two agents that both ask for none, integrity or privacy; see
 * {@link ProtectionReport} for what the section says.
 *
 * <p>Every policy gets a pair of agents of its own on one queue manager, started once, rather
 * than a queue manager per policy started in turn: then every repetition runs the three policies
 * side by side, and the comparison with none is taken between runs seconds apart, which matters on a
 * shared machine. The order rotates from one repetition to the next, so that none of them always
 * runs first (after the previous repetition's garbage) or last.
 */
public final class ProtectionSuite implements Section {
    /** The checksum of the main transfer scenario, fteCreateTransfer's default. */
    private static final ChecksumMethod CHECKSUM = ChecksumMethod.MD5;

    @Override
    public String name() {
        return "protection";
    }

    /** The pair of agents that transfers at {@code level}: SRC_NONE to DST_NONE, ... */
    static EmbeddedMft.Pair pair(ProtectionLevel level) {
        String word = level.word().toUpperCase(Locale.ROOT);
        return new EmbeddedMft.Pair("SRC_" + word, "DST_" + word, ConnectionMode.BINDINGS);
    }

    /**
     * The policies of repetition {@code rep}, in the order they run: {@link ProtectionReport#LEVELS}
     * rotated by the repetition number.
     */
    static List<ProtectionLevel> order(int rep) {
        List<ProtectionLevel> levels = ProtectionReport.LEVELS;
        List<ProtectionLevel> order = new ArrayList<>();
        for (int i = 0; i < levels.size(); i++) {
            order.add(levels.get((rep + i) % levels.size()));
        }
        return order;
    }

    @Override
    public Outcome run(Context context) throws Exception {
        Scale scale = context.quick() ? Scale.QUICK : Scale.FULL;
        if (context.repetitions() != null) {
            scale = scale.withRepetitions(context.repetitions());
        }
        double loadAtStart = CpuClock.loadAverage();
        Busy sectionStart = Busy.now();
        Instant started = Instant.now();
        Path work = context.work();
        Path source = work.resolve("source").resolve("protection.bin");
        String md5 = TestFiles.write(source, scale.singleFileBytes(), 7);
        Path destination = Files.createDirectories(work.resolve("destination"));
        Map<String, Map<String, String>> agents = agentProperties(context.agentProperties(),
                Files.createDirectories(work.resolve("keys")));
        context.log("protection: %s", ProtectionReport.describe(scale).replace("**", ""));

        List<ProtectionReport.Run> runs = new ArrayList<>();
        try (EmbeddedMft mft = EmbeddedMft.start(work.resolve("mft"), work,
                ProtectionReport.LEVELS.stream().map(ProtectionSuite::pair).toList(), agents::get)) {
            for (int rep = 0; rep <= scale.repetitions(); rep++) {
                context.log("  %s", rep == 0 ? "repetition 0: warm-up, not counted"
                        : "repetition " + rep + " of " + scale.repetitions());
                for (ProtectionLevel level : order(rep)) {
                    ProtectionReport.Run r = transfer(mft, level, rep, source, md5, destination);
                    runs.add(r);
                    print(context, r);
                    if (r.wallNanos() < 0) {
                        // No final reply: the transfer may still be running, and would weigh on the next.
                        return outcome(context, scale, started, loadAtStart, sectionStart, runs);
                    }
                }
            }
        }
        return outcome(context, scale, started, loadAtStart, sectionStart, runs);
    }

    /**
     * Every agent's agent.properties values: those of the run (--agent), then its pair's policy, with
     * keys in {@code keys} where the policy needs them. The agents of none have no keys at all, as an
     * agent that was never set up for protection.
     */
    static Map<String, Map<String, String>> agentProperties(Map<String, String> common, Path keys) throws Exception {
        Map<String, Map<String, String>> out = new HashMap<>();
        for (ProtectionLevel level : ProtectionReport.LEVELS) {
            EmbeddedMft.Pair pair = pair(level);
            List<String> names = List.of(pair.source(), pair.destination());
            Map<String, Map<String, String>> protection = level == ProtectionLevel.NONE ? null
                    : ProtectionStores.forAgents(keys, names, level);
            for (String agent : names) {
                Map<String, String> p = new HashMap<>(common);
                p.put(MessageProtection.LEVEL_KEY, level.word());
                if (protection != null) {
                    p.putAll(protection.get(agent));
                }
                out.put(agent, Map.copyOf(p));
            }
        }
        return out;
    }

    private static ProtectionReport.Run transfer(EmbeddedMft mft, ProtectionLevel level, int rep, Path source,
            String md5, Path destination) throws Exception {
        long bytes = Files.size(source);
        TestFiles.emptyDirectory(destination);
        TestFiles.preload(List.of(source));
        // Garbage of the previous run is collected here rather than during this one.
        System.gc();
        EmbeddedMft.Pair pair = pair(level);
        long timeout = 60_000 + bytes / 5_000;
        Busy before = Busy.now();
        TransferCpu cpu = TransferCpu.start(pair.source(), pair.destination());
        long t0 = System.nanoTime();
        EmbeddedMft.Result r = mft.transfer(pair, List.of(EmbeddedMft.binaryItem(source,
                destination.resolve(source.getFileName()), CHECKSUM)), timeout);
        long wall = System.nanoTime() - t0;
        FileShapeRun.Cpu used = cpu.stop();
        long others = Busy.now().othersSince(before);
        String failure = r.failure() != null ? r.failure()
                : TestFiles.verify(List.of(source), p -> md5, destination);
        if (failure != null && r.failure() == null) {
            failure = "destination check failed: " + failure;
        }
        return new ProtectionReport.Run(level, rep, bytes, r.timedOut() ? -1 : wall, used, others, r.resends(),
                failure);
    }

    private Outcome outcome(Context context, Scale scale, Instant started, double loadAtStart, Busy sectionStart,
            List<ProtectionReport.Run> runs) throws Exception {
        Instant ended = Instant.now();
        long others = Busy.now().othersSince(sectionStart);
        long wall = java.time.Duration.between(started, ended).toNanos();
        ProtectionReport.Load load = new ProtectionReport.Load(loadAtStart,
                others < 0 || wall <= 0 ? Double.NaN : (double) others / wall,
                Runtime.getRuntime().availableProcessors());
        ProtectionReport report = new ProtectionReport(context, scale, started, ended, load, runs);
        String scaleName = scale.name();
        Files.createDirectories(context.results());
        Files.writeString(context.results().resolve(name() + "-" + scaleName + ".csv"), report.csv());
        Files.writeString(context.results().resolve(name() + "-" + scaleName + ".json"), report.json());
        List<String> failures = runs.stream().filter(r -> !r.ok()).map(ProtectionReport::describe).toList();
        return new Outcome(report.markdown(), failures);
    }

    private static void print(Context context, ProtectionReport.Run r) {
        if (!r.ok()) {
            context.log("    %-10s FAILED: %s", r.level().word(), r.failure());
        } else {
            context.log("    %-10s %7.2f s %8.1f MB/s %7.2f CPU s/GiB (source %.2f, destination %.2f); others %.2f"
                    + " cores", r.level().word(), r.wallNanos() / 1e9, r.mbPerSecond(), r.cpuSecondsPerGib(),
                    r.perGib(r.cpu().source()), r.perGib(r.cpu().destination()), r.otherCores());
        }
    }

    /**
     * The machine's busy CPU time and this JVM's at one moment: between two readings, the difference
     * of the first less that of the second is what the machine's other processes took.
     */
    private record Busy(long machine, long own) {
        static Busy now() {
            return new Busy(CpuClock.machineBusyNanos(), CpuClock.processCpuNanos());
        }

        /** Other processes' CPU nanoseconds since {@code before}, -1 when unknown. */
        long othersSince(Busy before) {
            if (machine < 0 || own < 0 || before.machine < 0 || before.own < 0) {
                return -1;
            }
            // Both clocks tick in steps (1/100 s for the machine): never below zero.
            return Math.max(0, machine - before.machine - (own - before.own));
        }
    }
}
