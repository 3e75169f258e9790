package org.openmft.bench;

import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.harness.Distribution;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.harness.TestFiles;
import org.openmft.bench.measure.CpuClock;
import org.openmft.bench.measure.FreePageReporting;
import org.openmft.bench.measure.MachineInfo;
import org.openmft.bench.measure.ThreadCpuSampler;
import org.openmft.bench.measure.DigestCost;
import org.openmft.bench.peers.LocalCopy;
import org.openmft.bench.peers.Peer;
import org.openmft.bench.peers.Peers;
import org.openmft.bench.peers.RawJms;
import org.openmft.bench.report.Goals;
import org.openmft.bench.report.HeadlineFigures;
import org.openmft.bench.report.Report;
import org.openmft.bench.report.ReportSections;
import org.openmft.bench.report.ResultFiles;
import org.openmft.bench.scenarios.coordination.CoordinationReport;
import org.openmft.bench.scenarios.coordination.CoordinationResult;
import org.openmft.bench.scenarios.coordination.CoordinationScenario;
import org.openmft.bench.scenarios.soak.SoakReport;
import org.openmft.bench.scenarios.soak.SoakResult;
import org.openmft.bench.scenarios.soak.SoakScenario;
import org.openmft.bench.scenarios.transfer.Sample;
import org.openmft.bench.scenarios.transfer.Scenario;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.openmft.xml.TransferItem;

/**
 * The scenario runner: OpenMFT's agents and their ceilings (raw JMS on the same queue manager, and
 * {@code cp}) measured side by side in one run, repetition by repetition, then written up as
 * {@code docs/performance.md} with the raw numbers as CSV and JSON.
 *
 * <pre>
 * java -cp "benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*" \
 *     org.openmft.bench.BenchmarkRunner [--quick] [--out FILE] [--results DIR] [--dir DIR]
 *     [--repetitions N] [--keep]
 * </pre>
 *
 * <p>Correctness is part of the measurement: a transfer that does not end with result 0, or whose
 * destination file's MD5 differs from the source's, is reported as a failure and gives no figure.
 * The exit code is 0 when every scenario succeeded, 1 when one failed, 2 for bad arguments.
 */
public final class BenchmarkRunner {
    /** agentChunkSize of every agent, and the message size of the raw JMS ceiling: IBM's default. */
    public static final int CHUNK_SIZE = 262_144;

    /** What {@code --scenario} also takes for coordination at scale: seed 001 is IBM's report of it. */
    static final String COORDINATION_ALIAS = "seed001";

    private final Options options;
    private final PrintStream out = System.out;
    private final List<Sample> samples = new ArrayList<>();
    /** The transfer scenario's durable peers by id ({@link Scenario.Kind#PEER}). */
    private final Map<String, Peer> durablePeers = new java.util.LinkedHashMap<>();

    private BenchmarkRunner(Options options) {
        this.options = options;
    }

    /** Which scenarios a run measures. */
    enum Which {
        /** Everything: the transfer scenarios, then coordination at scale. */
        ALL,
        /** The transfer scenarios (agent beside raw JMS and cp, the seed 000 set). */
        TRANSFER,
        /** Coordination at scale (seed 001) only; rewrites only its section of the report. */
        COORDINATION,
        /**
         * The soak: transfers through agent and queue manager crashes and cut connections, with
         * real processes of the built distribution; not part of ALL. Rewrites only its section.
         */
        SOAK,
        /** One {@link Section} named by {@link Options#section()}; rewrites only its section. */
        SECTION;

        boolean transfer() {
            return this == ALL || this == TRANSFER;
        }

        boolean coordination() {
            return this == ALL || this == COORDINATION;
        }

        boolean soak() {
            return this == SOAK;
        }

        /** Whether {@code section} runs. */
        boolean runs(Section section, String named) {
            return this == ALL || this == SECTION && section.name().equals(named);
        }
    }

    /** Command-line options. */
    record Options(Scale scale, Path report, Path results, Path parentDir, boolean keep,
            Map<String, String> agentProperties, Which which, Integer coordinationAgents, long seed,
            String section, Integer repetitions, boolean holdPageReporting) {
    }

    public static void main(String[] args) throws Exception {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "logback-benchmark.xml");
        }
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(usage());
            System.exit(2);
            return;
        }
        if (options == null) {
            System.out.println(usage());
            return;
        }
        FreePageReporting.Hold hold = null;
        if (options.holdPageReporting()) {
            try {
                hold = FreePageReporting.hold(FreePageReporting.PARAMETERS);
            } catch (IllegalStateException e) {
                System.err.println(e.getMessage());
                System.exit(2);
                return;
            }
        }
        int status;
        try {
            status = new BenchmarkRunner(options).run();
        } finally {
            if (hold != null) {
                hold.close();
            }
        }
        System.exit(status);
    }

    static String usage() {
        return String.join("\n",
                "usage: BenchmarkRunner [--quick] [--out FILE] [--results DIR] [--dir DIR] [--repetitions N] [--keep]",
                "                       [--agent KEY=VALUE]... [--scenario all|transfer|coordination|file-shapes|",
                "                       file-shapes-channels|latency|chunk-sizes|channel-options|file-sizes|protection|",
                "                       compression|micro|monitor|queueio|memory|soak]",
                "                       [--coordination-agents N] [--seed N] [--hold-page-reporting]",
                "  --quick          smaller files (256 MiB, 20 x 16 MiB), every scenario; a check, not figures",
                "  --out FILE       the markdown report (default docs/performance.md; with --quick",
                "                   benchmarks/target/results/performance-quick.md)",
                "  --results DIR    CSV and JSON of the raw numbers (default benchmarks/target/results)",
                "  --dir DIR        where the work directory (files, queue manager) is made (default java.io.tmpdir)",
                "  --repetitions N  measured runs of each scenario (default 5, --quick 3); the report shows medians",
                "  --keep           keep the work directory",
                "  --hold-page-reporting  as root on a virtual machine whose balloon reports free pages to its host:",
                "                   turn that off for the run and back on afterwards, so that a deleted file's pages",
                "                   do not fault in the host when the next repetition writes (the machine table says so)",
                "  --agent KEY=VALUE an agent.properties value for all four agents (e.g. agentWindowSize=20), and for",
                "                   the soak's two; repeatable; the report lists them",
                "  --scenario S     all (default); transfer: the transfer scenarios only; coordination (or seed001): seed 001's",
                "                   many agents with a coordination queue manager and a database logger only, which",
                "                   rewrites only its own section of the report; soak: transfers through crashes and",
                "                   cut connections of real agent and queue manager processes (10 min, --quick about",
                "                   2 min; needs the built distribution, see docs/performance.md), its section only;",
                "                   file-shapes (or seed000): IBM's seed 000 matrix (192 cells of 2000 MiB, about an hour a repetition,",
                "                   default 1; --quick about 3 min); file-shapes-channels (or seed000-channels): seed 000's binary cells on two",
                "                   queue managers joined by channels beside one and beside IBM (about 15 min);",
                "                   latency: one file across two queue managers at round trips of 0 to 100 ms with",
                "                   IBM's fixed window and the adaptive one (about 10 min); chunk-sizes (or seed002): WebSphere MQ",
                "                   7.5's bindings tables on two queue managers (about 30 min); channel-options:",
                "                   openmft.compression and agentMultipleChannelsEnabled across a relayed link",
                "                   (about 5 min); each of these four with --quick in about a minute (two to three",
                "                   for chunk-sizes); file-shapes-channels and chunk-sizes run each queue manager",
                "                   with its agent in a process of the built distribution (as root the second in a",
                "                   network namespace), the other two in this JVM;",
                "                   file-sizes (or seed003): single files of 1 MiB to 1 GiB beside",
                "                   cp, raw JMS, rsync, rsync and sftp over ssh and a Camel route (--quick about 2 min);",
                "                   protection: the 1 GiB transfer with openmft.messageProtection none, integrity and",
                "                   privacy (about 4 min, --quick about 1.5);",
                "                   compression: openmft.compression's throughput per core and ratio, per method,",
                "                   on text-like and random chunks (about 1 min, --quick 20 s);",
                "                   micro: the JMH micro-benchmarks of the hot path (about 8 min, --quick about 2);",
                "                   queueio: file to message at seed 004's payloads, non-persistent and persistent,",
                "                   and message to file (about 10 min, --quick about 1);",
                "                   monitor: a directory monitor idle on 100,000 files, draining 10,000 (batches of 100,",
                "                   then one file a transfer), and the delay from a file landing to its transfer at 1",
                "                   to 10,000 files a minute (about 40 min on two loaded cores, --quick about 8);",
                "                   memory: resident size and heap of a queue manager hosting 2, 100 and 500 agents, per",
                "                   running transfer, and a 4 GiB file at -Xmx256m, each in a JVM of its own (about",
                "                   5 min, --quick about 1);",
                "                   each rewrites only its own section; every run rewrites the goals of issue 18",
                "  --coordination-agents N  agents of the coordination scenario (default 500, --quick 100)",
                "  --seed N         the soak's random seed (files, transfers, faults); default: a new one, printed,",
                "                   or " + SoakScenario.CI_SEED + " when the environment variable CI is set");
    }

    static Options parse(String[] args) {
        boolean quick = false;
        boolean keep = false;
        boolean holdPageReporting = false;
        Path report = null;
        Path results = Path.of("benchmarks", "target", "results");
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        Integer repetitions = null;
        Which which = Which.ALL;
        String section = null;
        Integer coordinationAgents = null;
        Long seed = null;
        Map<String, String> agent = new java.util.TreeMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> quick = true;
                case "--keep" -> keep = true;
                case "--hold-page-reporting" -> holdPageReporting = true;
                case "--out" -> report = Path.of(value(args, ++i, a));
                case "--results" -> results = Path.of(value(args, ++i, a));
                case "--dir" -> dir = Path.of(value(args, ++i, a));
                case "--agent" -> {
                    String kv = value(args, ++i, a);
                    int eq = kv.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("--agent needs KEY=VALUE, not " + kv);
                    }
                    agent.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
                case "--repetitions" -> {
                    try {
                        repetitions = Integer.parseInt(value(args, ++i, a));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--repetitions needs a number");
                    }
                    if (repetitions < 1) {
                        throw new IllegalArgumentException("--repetitions must be at least 1");
                    }
                }
                case "--scenario" -> {
                    String v = value(args, ++i, a);
                    Optional<Section> named = Sections.named(v);
                    if (named.isPresent()) {
                        which = Which.SECTION;
                        section = named.get().name();
                    } else if (v.equals(COORDINATION_ALIAS)) {
                        which = Which.COORDINATION;
                    } else {
                        try {
                            which = Which.valueOf(v.toUpperCase(java.util.Locale.ROOT));
                        } catch (IllegalArgumentException e) {
                            which = null;
                        }
                        if (which == null || which == Which.SECTION) {
                            throw new IllegalArgumentException("--scenario is " + scenarioNames() + ", not " + v);
                        }
                    }
                }
                case "--coordination-agents" -> {
                    try {
                        coordinationAgents = Integer.parseInt(value(args, ++i, a));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--coordination-agents needs a number");
                    }
                    if (coordinationAgents < 2 || coordinationAgents % 2 != 0) {
                        throw new IllegalArgumentException("--coordination-agents must be even and at least 2");
                    }
                }
                case "--seed" -> {
                    try {
                        seed = Long.parseLong(value(args, ++i, a));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seed needs a number");
                    }
                }
                case "-h", "--help" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        Scale scale = quick ? Scale.QUICK : Scale.FULL;
        if (repetitions != null) {
            scale = scale.withRepetitions(repetitions);
        }
        if (report == null) {
            report = quick ? results.resolve("performance-quick.md") : Path.of("docs", "performance.md");
        }
        agent.putIfAbsent("agentChunkSize", String.valueOf(CHUNK_SIZE));
        if (!agent.get("agentChunkSize").equals(String.valueOf(CHUNK_SIZE))) {
            throw new IllegalArgumentException("agentChunkSize is fixed at " + CHUNK_SIZE
                    + ": the raw JMS ceiling uses the same message size");
        }
        return new Options(scale, report, results, dir, keep, Map.copyOf(agent), which, coordinationAgents,
                seed != null ? seed : SoakScenario.defaultSeed(System.getenv()), section, repetitions,
                holdPageReporting);
    }

    /** What --scenario takes; a section named by IBM's report number shows that number as an alias. */
    public static String scenarioNames() {
        StringBuilder sb = new StringBuilder("all, transfer, coordination (" + COORDINATION_ALIAS + ")");
        Sections.all().forEach(s -> sb.append(", ").append(s.scenario())
                .append(s.scenario().equals(s.name()) ? "" : " (" + s.name() + ")"));
        return sb.append(" or soak").toString();
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private int run() throws Exception {
        Scale scale = options.scale();
        Instant started = Instant.now();
        Files.createDirectories(options.parentDir());
        Path work = Files.createTempDirectory(options.parentDir(), "openmft-bench-");
        Map<String, String> machine = MachineInfo.describe(work);
        String revision = MachineInfo.gitRevision();
        if (options.which().soak()) {
            log("OpenMFT soak, %s scale; work directory %s", scale.name(), work);
        } else {
            log("OpenMFT benchmark, %s scale, %d repetitions; work directory %s; agents: %s", scale.name(),
                    scale.repetitions(), work, options.agentProperties());
        }
        machine.forEach((k, v) -> log("  %s: %s", k, v));

        String aborted = null;
        double idleCores = Double.NaN;
        double md5SecondsPerGib = Double.NaN;
        List<CoordinationResult> coordination = new ArrayList<>();
        Instant coordinationStarted = null;
        Instant coordinationEnded = null;
        SoakResult soak = null;
        Map<Section, Section.Outcome> sectionOutcomes = new java.util.LinkedHashMap<>();
        Path images = imagesDir(options.report());
        try {
            if (options.which().transfer()) {
                long t = System.nanoTime();
                TestFiles files = TestFiles.generate(work.resolve("files"), scale);
                log("generated %.0f MiB of random files in %.1f s", (scale.singleFileBytes()
                        + scale.setBytes()) / (double) Scale.MIB, (System.nanoTime() - t) / 1e9);

                Peers.durable().forEach(p -> durablePeers.put(p.id(), p));
                durablePeers.values().stream().filter(p -> p.unavailable() != null)
                        .forEach(p -> log("peer %s not run: %s", p.id(), p.unavailable()));
                try (EmbeddedMft mft = EmbeddedMft.start(work.resolve("mft"), options.agentProperties(), work)) {
                    RawJms.defineQueue(mft.connector(ConnectionMode.BINDINGS));
                    idleCores = idleCoresBusy();
                    log("idle: the queue manager and four agents use %.3f cores", idleCores);
                    md5SecondsPerGib = DigestCost.md5CpuSecondsPerGib();
                    log("MD5 alone: %.2f CPU s per GiB on one thread", md5SecondsPerGib);
                    // Repetition 0 warms up the JIT, the heap and the machine's memory and is not counted.
                    for (int rep = 0; rep <= scale.repetitions() && aborted == null; rep++) {
                        log(rep == 0 ? "repetition 0: warm-up, not counted" : "repetition %d of %d", rep,
                                scale.repetitions());
                        for (Scenario s : Scenario.values()) {
                            if (s.kind == Scenario.Kind.PEER && durablePeers.get(s.id).unavailable() != null) {
                                continue;
                            }
                            Sample sample = runOne(mft, files, scale, s, rep);
                            samples.add(sample);
                            print(sample);
                            if (!sample.ok() && sample.failure().startsWith("no final reply")) {
                                aborted = s.id + " repetition " + rep + ": " + sample.failure()
                                        + "; the run stopped there because the transfer may still be running";
                                break;
                            }
                        }
                    }
                }
                if (!options.keep()) {
                    // Room on the disk for the coordination scenario's files.
                    deleteTree(work.resolve("files"));
                    deleteTree(work.resolve("mft"));
                }
            }
            if (options.which().coordination() && aborted == null) {
                coordinationStarted = Instant.now();
                runCoordination(work, coordination);
                coordinationEnded = Instant.now();
            }
            for (Section section : Sections.all()) {
                if (options.which().runs(section, options.section()) && aborted == null) {
                    sectionOutcomes.put(section, runSection(section, work, images, machine, revision));
                }
            }
            if (options.which().soak()) {
                soak = runSoak(work, machine, revision);
            }
        } catch (Exception e) {
            aborted = "the run stopped on " + e;
            e.printStackTrace(System.err);
        } finally {
            if (!options.keep()) {
                deleteTree(work);
            }
        }
        Instant ended = Instant.now();

        Report.Context context = new Report.Context(scale, CHUNK_SIZE, options.agentProperties(), started,
                Duration.between(started, ended), machine, revision, idleCores, aborted);
        Files.createDirectories(options.results());
        String stamp = scale.name();
        Path parent = options.report().toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        String section = null;
        Map<String, Double> headline = new java.util.LinkedHashMap<>();
        if (!coordination.isEmpty()) {
            Instant from = coordinationStarted == null ? started : coordinationStarted;
            Report.Context cc = new Report.Context(scale, CHUNK_SIZE, options.agentProperties(), from,
                    Duration.between(from, coordinationEnded == null ? ended : coordinationEnded), machine, revision,
                    idleCores, aborted);
            Path csv = options.results().resolve("benchmark-coordination-" + stamp + ".csv");
            Path json = options.results().resolve("benchmark-coordination-" + stamp + ".json");
            Files.writeString(csv, CoordinationReport.csv(coordination));
            Files.writeString(json, CoordinationReport.json(cc, coordination));
            CoordinationReport report = new CoordinationReport(cc, coordination);
            headline.putAll(report.headline());
            section = report.withCharts(imagesDir(options.report()), "img").markdown();
            log("wrote %s and %s", csv, json);
        }
        String existing = Files.exists(options.report()) ? Files.readString(options.report()) : "";
        String md = existing;
        if (options.which().transfer()) {
            Path csv = options.results().resolve("benchmark-" + stamp + ".csv");
            Path json = options.results().resolve("benchmark-" + stamp + ".json");
            Files.writeString(csv, ResultFiles.csv(samples));
            Files.writeString(json, ResultFiles.json(context, samples));
            Report report = new Report(context, samples).withPeers(peerLabels(), peersNotRun(), md5SecondsPerGib);
            md = report.markdown();
            headline.putAll(report.headline());
            // The sections of the scenarios that do not run now are kept from the report as it was.
            md = ReportSections.carryOver(existing, md, CoordinationReport.BEGIN, CoordinationReport.END);
            for (Section s : Sections.all()) {
                md = ReportSections.carryOver(existing, md, s.begin(), s.end());
            }
            md = ReportSections.carryOver(existing, md, SoakReport.BEGIN, SoakReport.END);
            log("wrote %s and %s", csv, json);
        }
        if (section != null) {
            md = ReportSections.splice(md, section, CoordinationReport.BEGIN, CoordinationReport.END);
        }
        for (Map.Entry<Section, Section.Outcome> e : sectionOutcomes.entrySet()) {
            Section s = e.getKey();
            md = ReportSections.splice(md, s.begin() + "\n" + e.getValue().markdown().strip() + "\n" + s.end() + "\n",
                    s.begin(), s.end());
        }
        if (soak != null) {
            Path transfersCsv = options.results().resolve("benchmark-soak-" + stamp + "-transfers.csv");
            Path faultsCsv = options.results().resolve("benchmark-soak-" + stamp + "-faults.csv");
            Files.writeString(transfersCsv, SoakReport.transfersCsv(soak.transfers));
            Files.writeString(faultsCsv, SoakReport.faultsCsv(soak.faults));
            md = ReportSections.splice(md, new SoakReport(soak).markdown(), SoakReport.BEGIN, SoakReport.END);
            log("wrote %s and %s", transfersCsv, faultsCsv);
        }
        sectionOutcomes.values().forEach(o -> headline.putAll(o.headline()));
        md = goals(md, headline, started, revision);
        Files.writeString(options.report(), md);
        log("wrote %s in %d s", options.report(), context.duration().toSeconds());
        List<String> sectionFailures = new ArrayList<>();
        sectionOutcomes.forEach((s, o) -> o.failures().forEach(f -> sectionFailures.add(s.name() + ": " + f)));
        sectionFailures.forEach(f -> log("FAILED %s", f));
        boolean allOk = aborted == null && samples.stream().allMatch(Sample::ok) && sectionFailures.isEmpty()
                && coordination.stream().allMatch(CoordinationResult::ok) && (soak == null || soak.ok());
        if (!allOk) {
            log("FAILED: %s", aborted != null ? aborted : "see the failures above");
        }
        return allOk ? 0 : 1;
    }

    /**
     * {@code md} with the goals of issue 18 rewritten: this run's figures merged into the headline file
     * of its scale beside the report (a run of everything starts it afresh, so that its goals are
     * judged by its own figures only), beside the baseline. Beside the report, not in the results
     * directory under {@code target/}: a section run alone after a clean build, or on a fresh clone,
     * keeps the other sections' figures as the report it rewrites shows them.
     */
    private String goals(String md, Map<String, Double> headline, Instant started, String revision)
            throws IOException {
        Path file = headlineFile(options.report(), options.scale().name());
        HeadlineFigures before = options.which() == Which.ALL ? HeadlineFigures.empty("this run")
                : HeadlineFigures.load(file);
        HeadlineFigures now = before.with(headline, java.time.format.DateTimeFormatter.ISO_LOCAL_DATE.format(
                started.atOffset(java.time.ZoneOffset.UTC)), revision, MachineInfo.cpuModel());
        Files.writeString(file, now.json());
        log("wrote %s", file);
        return ReportSections.spliceNearTop(md, Goals.markdown(now, HeadlineFigures.baseline(),
                !"full".equals(options.scale().name())), Goals.BEGIN, Goals.END);
    }

    private Map<String, String> peerLabels() {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        durablePeers.forEach((id, p) -> m.put(id, p.label()));
        return m;
    }

    private Map<String, String> peersNotRun() {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        durablePeers.forEach((id, p) -> {
            if (p.unavailable() != null) {
                m.put(id, p.unavailable());
            }
        });
        return m;
    }

    /** The goals' figures of a report at one scale: {@code performance.md} has {@code performance-headline-full.json}. */
    static Path headlineFile(Path report, String scale) {
        String name = report.getFileName().toString();
        String stem = name.endsWith(".md") ? name.substring(0, name.length() - 3) : name;
        return report.resolveSibling(stem + "-headline-" + scale + ".json");
    }

    /** Where a report's charts go: {@code img/} beside it. */
    static Path imagesDir(Path report) {
        Path parent = report.toAbsolutePath().getParent();
        return parent.resolve("img");
    }

    /** One section suite in a directory of its own; a suite that throws is reported as a failure. */
    private Section.Outcome runSection(Section section, Path work, Path images, Map<String, String> machine,
            String revision) throws IOException {
        Path dir = Files.createDirectories(work.resolve(section.name()));
        Section.Context c = new Section.Context("quick".equals(options.scale().name()),
                options.repetitions(), dir, options.results(), images, "img", machine, revision,
                options.agentProperties(), options.keep(), this::logLine);
        log("section %s", section.name());
        Section.Outcome o;
        try {
            o = section.run(c);
        } catch (Exception e) {
            e.printStackTrace(System.err);
            o = new Section.Outcome("**" + section.name() + " could not run:** " + e + "\n", List.of(e.toString()));
        }
        if (!options.keep()) {
            deleteTree(dir);
        }
        return o;
    }

    /** The soak, in a directory of its own; its processes have all ended when it returns. */
    private SoakResult runSoak(Path work, Map<String, String> machine, String revision) throws IOException {
        Map<String, String> agent = new java.util.TreeMap<>(options.agentProperties());
        // The runner always names the chunk size; the soak's agents leave IBM's default alone.
        agent.remove("agentChunkSize", String.valueOf(CHUNK_SIZE));
        SoakScenario.Settings settings = ("full".equals(options.scale().name()) ? SoakScenario.Settings.full(
                options.seed()) : SoakScenario.Settings.quick(options.seed())).withAgentProperties(agent);
        Path dist = Distribution.locate();
        log("soak, %s scale, seed %d (repeat the sequence with --seed %d); distribution %s", settings.name(),
                settings.seed(), settings.seed(), dist);
        Files.createDirectories(options.results());
        SoakResult r = SoakScenario.run(settings, dist, work.resolve("soak"), options.results(), this::logLine);
        r.machine = machine;
        r.revision = revision;
        log("soak: %s; %d of %d transfers intact, %d bytes lost; faults survived %d of %d; %.0f s",
                r.ok() ? (r.leftovers() ? r.verdict() : "passed") : "FAILED: " + r.verdict(), r.completed, r.submitted, r.bytesLost,
                r.faultsSurvived(), r.faults.size(), r.wallSeconds);
        return r;
    }

    /** The cells of the coordination scenario, each in a directory of its own, sharing the source files. */
    private void runCoordination(Path work, List<CoordinationResult> out) throws Exception {
        List<CoordinationScenario.Cell> cells = CoordinationScenario.cells(options.scale(), options.coordinationAgents());
        CoordinationScenario.PairFiles files = null;
        int n = 0;
        for (CoordinationScenario.Cell cell : cells) {
            n++;
            if (files == null || files.fileBytes != cell.fileBytes() || files.pairs < cell.pairs()) {
                // Enough pairs for every cell of this file size that the disk has room for, below the
                // queue managers' max-disk-usage: the smaller cells use the first ones.
                long freed = files == null ? 0 : files.sourceBytes();
                int pairs = CoordinationScenario.PairFiles.pairsWithRoom(work, cells.stream()
                        .filter(c -> c.fileBytes() == cell.fileBytes() && c.pairs() >= cell.pairs())
                        .map(CoordinationScenario.Cell::pairs).toList(), cell.fileBytes(), freed);
                if (pairs == 0) {
                    notRun(out, n, cells.size(), cell, CoordinationScenario.PairFiles.noRoom(work, cell.pairs(),
                            cell.fileBytes(), freed));
                    continue;
                }
                if (files != null) {
                    deleteTree(files.root);
                }
                long t = System.nanoTime();
                files = CoordinationScenario.PairFiles.generate(work.resolve("coordination-files"), pairs,
                        cell.fileBytes());
                log("generated %d x %d files of %s (and one small file per pair) in %.1f s", pairs,
                        CoordinationScenario.FILES_PER_TRANSFER, Report.size(cell.fileBytes()),
                        (System.nanoTime() - t) / 1e9);
            }
            String noRoom = files.noRoomForDestinations(cell.pairs());
            if (noRoom != null) {
                notRun(out, n, cells.size(), cell, noRoom);
                continue;
            }
            log("coordination cell %d of %d: %s", n, cells.size(), CoordinationReport.label(cell));
            Path dir = work.resolve("coordination-" + n);
            CoordinationResult r = CoordinationScenario.run(cell, dir, files.firstPairs(cell.pairs()),
                    options.agentProperties(), this::logLine);
            out.add(r);
            print(r);
            if (!options.keep()) {
                deleteTree(dir);
            }
            files.cleanDestination();
        }
    }

    private void notRun(List<CoordinationResult> out, int n, int of, CoordinationScenario.Cell cell, String why) {
        log("coordination cell %d of %d: %s", n, of, CoordinationReport.label(cell));
        CoordinationResult r = CoordinationScenario.notRun(cell, why);
        out.add(r);
        print(r);
    }

    private void print(CoordinationResult r) {
        if (!r.ok()) {
            log("  FAILED: %s", r.failure);
        }
        if (!Double.isNaN(r.wallSeconds)) {
            log("  set %.2f s, average %.2f s per transfer; CPU over %.1f s:", r.wallSeconds,
                    r.averageTransferSeconds(), r.cpuIntervalSeconds);
            r.cpuNanos.forEach((g, nanos) -> log("    %-62s %8.2f s", g, nanos / 1e9));
            log("  by thread name (largest):");
            CoordinationScenario.largestFirst(r.rawCpuNanos, 14).forEach((g, nanos) -> log("    %-62s %8.2f s", g,
                    nanos / 1e9));
            log("  logger: %d stored, %d duplicates, %d rejected; lag median %.0f ms, p95 %.0f ms, max %.0f ms;"
                    + " rows: %s", r.recordsStored, r.recordsDuplicate, r.recordsRejected,
                    CoordinationResult.Stats.percentile(r.lagToReceivedMillis, 50),
                    CoordinationResult.Stats.percentile(r.lagToReceivedMillis, 95),
                    CoordinationResult.Stats.max(r.lagToReceivedMillis), r.rowsCheck == null ? "all as expected"
                            : r.rowsCheck);
            log("  publications: %d status, %d progress; held max %d (one agent %d), outboxes max %d, logger backlog"
                    + " max %d", r.statusPublications, r.progressPublications, r.maxHeldTotal, r.maxHeldOneAgent,
                    r.maxOutboxTotal, r.maxLoggerBacklog);
        }
        r.notes.forEach(note -> log("  note: %s", note));
    }

    private void logLine(String line) {
        log("%s", line);
    }

    private Sample runOne(EmbeddedMft mft, TestFiles files, Scale scale, Scenario s, int rep) throws Exception {
        files.cleanDestination();
        switch (s.kind) {
            case COPY, PEER, AGENT_FILE -> TestFiles.preload(List.of(files.single));
            case AGENT_SET -> TestFiles.preload(files.set);
            case RAW_JMS -> {
                // No file.
            }
        }
        // Garbage of the previous scenario is collected here rather than during this one.
        System.gc();
        return switch (s.kind) {
            case COPY -> {
                Sample sample = LocalCopy.run(s, rep, files.single, files.destinationFor(files.single),
                        timeoutMillis(scale.singleFileBytes()));
                yield verified(sample, files, List.of(files.single));
            }
            case PEER -> {
                Peer.Run run = durablePeers.get(s.id).copy(List.of(files.single),
                        files.destinationFor(files.single).getParent(), timeoutMillis(scale.singleFileBytes()));
                Sample sample = new Sample(s, rep, scale.singleFileBytes(), 1, run.wallNanos(), run.cpuNanos(), 0, 0,
                        run.failure(), null);
                yield verified(sample, files, List.of(files.single));
            }
            case RAW_JMS -> RawJms.run(s, rep, mft.connector(s.mode), CHUNK_SIZE, scale.singleFileBytes(),
                    timeoutMillis(scale.singleFileBytes()));
            case AGENT_FILE -> agentRun(mft, files, s, rep, List.of(files.single), scale.singleFileBytes());
            case AGENT_SET -> agentRun(mft, files, s, rep, files.set, scale.setBytes());
        };
    }

    private Sample agentRun(EmbeddedMft mft, TestFiles files, Scenario s, int rep, List<Path> sources, long bytes)
            throws Exception {
        List<TransferItem> items = new ArrayList<>();
        for (Path p : sources) {
            items.add(EmbeddedMft.binaryItem(p, files.destinationFor(p), s.checksum));
        }
        ThreadCpuSampler threads = ThreadCpuSampler.startIfSupported();
        long cpu0 = CpuClock.processCpuNanos();
        long t0 = System.nanoTime();
        EmbeddedMft.Result r = mft.transfer(s.mode, items, timeoutMillis(bytes));
        long wall = System.nanoTime() - t0;
        long cpu1 = CpuClock.processCpuNanos();
        if (threads != null) {
            threads.close();
        }
        long cpu = cpu0 < 0 ? -1 : cpu1 - cpu0 - (threads == null ? 0 : threads.ownCpuNanos());
        Sample sample = new Sample(s, rep, bytes, sources.size(), wall, cpu, 0, r.resends(),
                null, threads == null ? null : threads.byGroup());
        if (r.failure() != null) {
            return sample.withFailure(r.failure());
        }
        return verified(sample, files, sources);
    }

    private static Sample verified(Sample sample, TestFiles files, List<Path> sources) throws IOException {
        if (!sample.ok()) {
            return sample;
        }
        String bad = files.verify(sources);
        return bad == null ? sample : sample.withFailure("destination check failed: " + bad);
    }

    /** Generous: a minute plus 5 MB/s. A transfer that needs longer is a failure, not a figure. */
    private static long timeoutMillis(long bytes) {
        return 60_000 + bytes / 5_000;
    }

    private static double idleCoresBusy() throws InterruptedException {
        long cpu0 = CpuClock.processCpuNanos();
        long t0 = System.nanoTime();
        Thread.sleep(3000);
        long cpu1 = CpuClock.processCpuNanos();
        return cpu0 < 0 ? Double.NaN : (double) (cpu1 - cpu0) / (System.nanoTime() - t0);
    }

    private void print(Sample s) {
        if (!s.ok()) {
            log("  %-26s FAILED: %s", s.scenario().id, s.failure());
            return;
        }
        String cpu = s.cpuNanos() < 0 ? "" : String.format(Locale.ROOT, "  %5.2f CPU s/GiB  %4.2f cores",
                s.cpuSecondsPerGib(), s.coresBusy());
        String extra = s.extraNanos() > 0 ? String.format(Locale.ROOT, "  (+%.2f s fsync)", s.extraNanos() / 1e9) : "";
        String resends = s.resends() > 0 ? "  " + s.resends() + " resends" : "";
        log("  %-26s %7.2f s  %7.1f MB/s%s%s%s", s.scenario().id, s.seconds(), s.mbPerSecond(), cpu, extra, resends);
    }

    private void log(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
        out.flush();
    }

    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
