package org.openmft.bench.report;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.peers.RawJms;
import org.openmft.bench.scenarios.fileshapes.HeadlineCellIbmFigures;
import org.openmft.bench.scenarios.transfer.Sample;
import org.openmft.bench.scenarios.transfer.Scenario;
import org.openmft.bench.scenarios.transfer.Summary;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code docs/performance.md} from one run's samples: the machine, the bars of the product
 * brief with their verdicts, the tables, observations computed from the figures, the method and how
 * to run it again. Everything in the file comes from the run, so the file is regenerated, never
 * edited by hand.
 */
public final class Report {
    /** Required agent rate as a fraction of the raw JMS rate (product brief §5). */
    static final double REQUIRED_FRACTION_OF_RAW = 0.85;
    /** Allowed CPU seconds per GiB, binary, no checksum, agents and queue manager together. */
    static final double ALLOWED_CPU_S_PER_GIB = 2.0;

    /** What the report says about the run besides its samples. */
    public record Context(Scale scale, int chunkBytes, Map<String, String> agentProperties, Instant started, Duration duration, Map<String, String> machine,
            String revision, double idleCores, String aborted) {
    }

    private final Context c;
    private final Map<Scenario, Summary> s = new EnumMap<>(Scenario.class);
    private final StringBuilder md = new StringBuilder();
    private final List<Sample> warmUp = new ArrayList<>();
    private Map<String, String> peerLabels = Map.of();
    private Map<String, String> peersNotRun = Map.of();
    private double md5SecondsPerGib = Double.NaN;

    public Report(Context context, List<Sample> samples) {
        this.c = context;
        for (Sample sample : samples) {
            if (sample.repetition() == 0) {
                warmUp.add(sample);
            }
        }
        for (Scenario scenario : Scenario.values()) {
            s.put(scenario, new Summary(scenario, samples));
        }
    }

    /**
     * The durable peers of the transfer scenario and the MD5 digest's own cost, measured by the runner
     * beside the samples.
     *
     * @param labels           what the report calls each peer, by id
     * @param notRun           why a peer could not run here, by id
     * @param md5SecondsPerGib CPU seconds of the MD5 digest alone per GiB on one thread, or NaN
     */
    public Report withPeers(Map<String, String> labels, Map<String, String> notRun, double md5SecondsPerGib) {
        this.peerLabels = Map.copyOf(labels);
        this.peersNotRun = Map.copyOf(notRun);
        this.md5SecondsPerGib = md5SecondsPerGib;
        return this;
    }

    public String markdown() {
        header();
        md.append(Goals.BEGIN).append('\n').append(Goals.END).append("\n\n");
        machine();
        bars();
        singleFile();
        ceilings();
        durablePeers();
        cpuBreakdown();
        seed000();
        observations();
        method();
        howToRun();
        return md.toString();
    }

    // ------------------------------------------------------------------------------------------

    private void header() {
        Scale sc = c.scale();
        line("# OpenMFT performance");
        line();
        line("Measured by the `benchmarks` module (`org.openmft.bench.BenchmarkRunner`): OpenMFT's agents, the raw JMS");
        line("put/get rate on the same queue manager and `cp`, side by side in one run on one machine. Each repetition");
        line("runs every scenario once, in the order of the tables below, so that every agent figure has its ceiling");
        line("measured next to it; the figures are medians of the repetitions. This file is generated: run the");
        line("benchmark again rather than editing it (see [How to run](#how-to-run)).");
        line();
        line("IBM's reports compared with, named below by the scenarios that reproduce them: seed 000 is \"IBM MQ 9.0.5");
        line("Managed File Transfer Performance Report for Windows\" (2018); seed 001 is \"IBM MQ 9.0.5 Managed File");
        line("Transfer Performance Report for – Number of Agents connecting to Agent Queue Manager\" (2018); seed 003 is");
        line("\"IBM MQ for z/OS - Managed File Transfer Performance\", version 1.02 (2021).");
        line();
        line("| run | |");
        line("|---|---|");
        row("date", DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(c.started().atOffset(ZoneOffset.UTC)
                .withNano(0)) + " UTC, " + minutes(c.duration()));
        row("revision", c.revision() == null ? "unknown" : "`" + c.revision() + "`");
        row("scale", "**" + sc.name() + "**: one file of " + size(sc.singleFileBytes()) + "; " + sc.setFileCount()
                + " x " + size(sc.setFileBytes()) + " in one transfer; " + sc.repetitions() + " repetitions");
        StringBuilder props = new StringBuilder();
        c.agentProperties().forEach((k, v) -> props.append(props.length() == 0 ? "" : ", ").append('`').append(k)
                .append('=').append(v).append('`'));
        row("agents", props + (c.agentProperties().size() == 1
                ? " (IBM's default); every other agent.properties key at its default" : "; the rest at defaults")
                + "; raw JMS messages of the same size");
        if (c.aborted() != null) {
            row("**incomplete**", c.aborted());
        }
        line();
        if (!"full".equals(sc.name())) {
            line("> **Quick scale**: a check that every scenario works, not the committed figures. The seed 000");
            line("> comparison needs the full scale.");
            line();
        }
    }

    private void machine() {
        line("## Machine");
        line();
        line("| | |");
        line("|---|---|");
        c.machine().forEach(this::row);
        row("idle cost", fmt(c.idleCores(), 3) + " cores: the queue manager and four idle agents in this JVM, measured"
                + " over 3 s before the first scenario");
        line();
    }

    private void bars() {
        line("## Against the bar (product brief §5)");
        line();
        MarkdownTable t = MarkdownTable.of("bar", "scenario", "measured", "verdict");
        for (Scenario a : List.of(Scenario.AGENT_BINDINGS_NONE, Scenario.AGENT_BINDINGS_MD5,
                Scenario.AGENT_CLIENT_NONE, Scenario.AGENT_CLIENT_MD5)) {
            double f = fractionOfCeiling(a);
            t.row("agent rate >= " + pct(REQUIRED_FRACTION_OF_RAW) + " of raw JMS, " + size(c.scale().singleFileBytes())
                    + " binary", label(a), pct(f), verdict(f >= REQUIRED_FRACTION_OF_RAW, f));
        }
        for (Scenario a : List.of(Scenario.AGENT_BINDINGS_NONE, Scenario.AGENT_CLIENT_NONE)) {
            double cpu = value(a, Summary::medianCpuSecondsPerGib);
            t.row("CPU <= " + fmt(ALLOWED_CPU_S_PER_GIB, 0) + " s/GiB, binary, no checksum, queue manager and both"
                    + " agents", label(a), fmt(cpu, 2) + " s/GiB", verdict(cpu <= ALLOWED_CPU_S_PER_GIB, cpu));
        }
        Summary set = s.get(Scenario.SEED000_SET_BINDINGS_MD5);
        double ibm = HeadlineCellIbmFigures.SAME_CELL.seconds();
        if (isFull() && set.ok()) {
            double speedup = ibm / set.medianSeconds();
            t.row("seed 000: >= " + fmt(HeadlineCellIbmFigures.REQUIRED_SPEEDUP, 0) + "x faster than IBM (" + fmt(ibm, 2)
                    + " s, same cell)", label(Scenario.SEED000_SET_BINDINGS_MD5), fmt(set.medianSeconds(), 2) + " s, "
                    + fmt(speedup, 1) + "x", verdict(speedup >= HeadlineCellIbmFigures.REQUIRED_SPEEDUP, speedup));
        } else {
            t.row("seed 000: >= " + fmt(HeadlineCellIbmFigures.REQUIRED_SPEEDUP, 0) + "x faster than IBM",
                    label(Scenario.SEED000_SET_BINDINGS_MD5), set.ok() ? "quick scale" : "failed", "not judged");
        }
        md.append(t);
        line();
        line("The other tables of the seeds have sections of their own below: IBM's whole seed 000 matrix (text mode, 1 MB");
        line("and 10 MB files, 10 parallel transfers, every chunk size, client mode), seed 003's file sizes beside rsync,");
        line("ssh and a Camel route, seed 001's 100 to 500 agents, the cost of each message protection policy, and the");
        line("JMH micro-benchmarks and memory (an idle agent, a queue manager hosting many, a 4 GiB file at -Xmx256m).");
        line();
    }

    private void singleFile() {
        line("## One " + size(c.scale().singleFileBytes()) + " file, binary, agentChunkSize " + c.chunkBytes());
        line();
        line("From the request put on the source agent's COMMAND queue to the final reply; every destination file's");
        line("MD5 checked against the source's afterwards (not timed). CPU is this JVM's, which hosts the queue");
        line("manager and both agents.");
        line();
        line("| connection | checksum | time (s) | MB/s | MB/s of each run | CPU s/GiB | cores busy | % of raw JMS (runs) | resends |");
        line("|---|---|---|---|---|---|---|---|---|");
        for (Scenario a : List.of(Scenario.AGENT_BINDINGS_MD5, Scenario.AGENT_BINDINGS_NONE, Scenario.AGENT_CLIENT_MD5,
                Scenario.AGENT_CLIENT_NONE)) {
            Summary x = s.get(a);
            String head = "| " + a.mode.label + " | " + a.checksum.xmlValue() + " | ";
            if (!x.ok()) {
                line(head + "**FAILED**: " + esc(x.failed()) + " | | | | | | | |");
                continue;
            }
            line(head + fmt(x.medianSeconds(), 2) + " | **" + fmt(x.medianMbPerSecond(), 0) + "** | " + runs(x) + " | "
                    + fmt(x.medianCpuSecondsPerGib(), 2) + " | " + fmt(x.medianCoresBusy(), 2) + " | "
                    + pct(fractionOfCeiling(a)) + " (" + pairedRange(a) + ") | " + x.resends() + " |");
        }
        line();
    }

    private void ceilings() {
        line("## Ceilings: the same bytes without the agents");
        line();
        line("| ceiling | time (s) | MB/s | MB/s of each run | CPU s/GiB | cores busy |");
        line("|---|---|---|---|---|---|");
        for (Scenario r : List.of(Scenario.RAW_JMS_BINDINGS, Scenario.RAW_JMS_CLIENT)) {
            Summary x = s.get(r);
            String head = "| raw JMS put/get, " + r.mode.transport + " (" + r.mode.label + "), "
                    + size(c.chunkBytes()) + " messages | ";
            if (!x.ok()) {
                line(head + "**FAILED**: " + esc(x.failed()) + " | | | | |");
                continue;
            }
            line(head + fmt(x.medianSeconds(), 2) + " | **" + fmt(x.medianMbPerSecond(), 0) + "** | " + runs(x) + " | "
                    + fmt(x.medianCpuSecondsPerGib(), 2) + " | " + fmt(x.medianCoresBusy(), 2) + " |");
        }
        Summary cp = s.get(Scenario.COPY);
        if (!cp.ok()) {
            line("| `cp` | **FAILED**: " + esc(cp.failed()) + " | | | | |");
        } else {
            line("| `cp` (source in page cache, copy not yet on disk) | " + fmt(cp.medianSeconds(), 2) + " | **"
                    + fmt(cp.medianMbPerSecond(), 0) + "** | " + runs(cp) + " | (another process) | |");
            line("| `cp`, then fsync of the copy | " + fmt(cp.medianSeconds() + cp.medianExtraSeconds(), 2) + " | **"
                    + fmt(cp.medianMbPerSecondWithExtra(), 0) + "** | | (another process) | |");
        }
        for (Scenario p : peers()) {
            Summary x = s.get(p);
            String head = "| " + esc(peerLabels.getOrDefault(p.id, p.id)) + " | ";
            if (peersNotRun.containsKey(p.id)) {
                line(head + "not run: " + esc(peersNotRun.get(p.id)) + " | | | | |");
            } else if (!x.ok()) {
                line(head + "**FAILED**: " + esc(x.failed()) + " | | | | |");
            } else {
                line(head + fmt(x.medianSeconds(), 2) + " | **" + fmt(x.medianMbPerSecond(), 0) + "** | " + runs(x)
                        + " | " + fmt(x.medianCpuSecondsPerGib(), 2) + " (its processes) | |");
            }
        }
        line();
    }

    /** The durable peers of the single file, in the order they run. */
    private static List<Scenario> peers() {
        return Arrays.stream(Scenario.values()).filter(x -> x.kind == Scenario.Kind.PEER).toList();
    }

    /** Each agent scenario of the single file over the durable peers doing its work, pair by pair. */
    private void durablePeers() {
        line("## The agents beside durable peers");
        line();
        line("The agents force each file to disk, at checkpoints and at its end; so do these peers: `cp` then `sync`");
        line("of the copy (the durable copy limit) and `rsync -a -I --whole-file --fsync`, with `--checksum-choice=md5`");
        line("beside the agents' MD5 runs. Agents' time over the peer's, repetition by repetition (the runs sat next");
        line("to each other), median and range.");
        line();
        MarkdownTable t = MarkdownTable.of("agents", "peer", "agents' s", "peer's s", "agents ÷ peer (runs)");
        for (Scenario a : List.of(Scenario.AGENT_BINDINGS_MD5, Scenario.AGENT_BINDINGS_NONE, Scenario.AGENT_CLIENT_MD5,
                Scenario.AGENT_CLIENT_NONE)) {
            boolean md5 = a.checksum != org.openmft.xml.ChecksumMethod.NONE;
            for (Scenario p : md5 ? List.of(Scenario.RSYNC_FSYNC_MD5)
                    : List.of(Scenario.COPY_SYNC, Scenario.RSYNC_FSYNC)) {
                String peer = peerLabels.getOrDefault(p.id, p.id);
                if (peersNotRun.containsKey(p.id)) {
                    t.row(label(a), peer, "", "", "not run: " + peersNotRun.get(p.id));
                    continue;
                }
                double[] r = timeRatios(a, p);
                t.row(label(a), peer, fmt(value(a, Summary::medianSeconds), 2), fmt(value(p, Summary::medianSeconds), 2),
                        r.length == 0 ? "—" : fmt(Summary.median(r), 2) + " (" + fmt(Arrays.stream(r).min().orElse(0), 2)
                                + "–" + fmt(Arrays.stream(r).max().orElse(0), 2) + ")");
            }
        }
        md.append(t);
        line();
    }

    /** {@code a}'s time over {@code b}'s, repetition by repetition. */
    private double[] timeRatios(Scenario a, Scenario b) {
        return s.get(b).pairedRatios(s.get(a));
    }

    /**
     * The figures of issue 18's goals this scenario measures ({@link Goals}), pair by pair: the bindings
     * agents' rate (no checksum) over the lower of raw JMS in-VM and {@code cp} then {@code sync}; the
     * client agents' over raw JMS over TCP; CPU per GiB without a checksum, alone and over raw JMS in-VM's;
     * what MD5 adds, alone and over twice the digest's own cost (once a side); and raw JMS in-VM's rate and
     * CPU per GiB, the machine's pace that the absolute figures move with.
     */
    public Map<String, Double> headline() {
        Map<String, Double> h = new java.util.LinkedHashMap<>();
        Summary none = s.get(Scenario.AGENT_BINDINGS_NONE);
        Summary raw = s.get(Scenario.RAW_JMS_BINDINGS);
        Summary copy = s.get(Scenario.COPY_SYNC);
        List<Double> ofMin = new ArrayList<>();
        for (Sample a : none.samples) {
            Sample r = at(raw, a.repetition());
            Sample c = at(copy, a.repetition());
            if (a.ok() && r != null && c != null) {
                ofMin.add(a.mbPerSecond() / Math.min(r.mbPerSecond(), c.mbPerSecond()));
            }
        }
        h.put(Goals.FILE_BINDINGS_OF_MIN, Summary.median(ofMin.stream().mapToDouble(Double::doubleValue).toArray()));
        h.put(Goals.CPU_NONE_OVER_RAW, Summary.median(none.pairedRatios(raw, Sample::cpuSecondsPerGib)));
        h.put(Goals.RAW_JMS_VM_MB_S, value(Scenario.RAW_JMS_BINDINGS, Summary::medianMbPerSecond));
        h.put(Goals.RAW_JMS_VM_CPU, value(Scenario.RAW_JMS_BINDINGS, Summary::medianCpuSecondsPerGib));
        h.put(Goals.FILE_CLIENT_OF_RAW, Summary.median(s.get(Scenario.AGENT_CLIENT_NONE)
                .pairedRatios(s.get(Scenario.RAW_JMS_CLIENT))));
        h.put(Goals.FILE_BINDINGS_MB_S, value(Scenario.AGENT_BINDINGS_NONE, Summary::medianMbPerSecond));
        double cpuNone = value(Scenario.AGENT_BINDINGS_NONE, Summary::medianCpuSecondsPerGib);
        double extra = value(Scenario.AGENT_BINDINGS_MD5, Summary::medianCpuSecondsPerGib) - cpuNone;
        h.put(Goals.CPU_NONE, cpuNone);
        h.put(Goals.MD5_EXTRA_CPU, extra);
        h.put(Goals.MD5_DIGEST_CPU, md5SecondsPerGib);
        h.put(Goals.MD5_EXTRA_OVER_DIGEST, extra / (2 * md5SecondsPerGib));
        return h;
    }

    /** The successful sample of {@code x} in {@code repetition}, or null. */
    private static Sample at(Summary x, int repetition) {
        return x.samples.stream().filter(y -> y.repetition() == repetition && y.ok()).findFirst().orElse(null);
    }

    private void cpuBreakdown() {
        List<Scenario> cols = List.of(Scenario.RAW_JMS_BINDINGS, Scenario.AGENT_BINDINGS_NONE,
                Scenario.AGENT_BINDINGS_MD5, Scenario.RAW_JMS_CLIENT, Scenario.AGENT_CLIENT_NONE,
                Scenario.AGENT_CLIENT_MD5, Scenario.SEED000_SET_BINDINGS_MD5);
        Map<Scenario, Map<String, Double>> perGib = new EnumMap<>(Scenario.class);
        java.util.Set<String> groups = new java.util.TreeSet<>();
        for (Scenario sc : cols) {
            Summary x = s.get(sc);
            if (!x.ok()) {
                continue;
            }
            Map<String, Double> m = new java.util.HashMap<>();
            double gib = 0;
            for (Sample sample : x.samples) {
                gib += (double) sample.bytes() / Scale.GIB;
                sample.threadCpu().forEach((g, nanos) -> m.merge(g, nanos / 1e9, Double::sum));
            }
            if (gib == 0 || m.isEmpty()) {
                continue;
            }
            double total = gib;
            m.replaceAll((g, sec) -> sec / total);
            perGib.put(sc, m);
        }
        if (perGib.isEmpty()) {
            return;
        }
        // Groups that matter somewhere get a row; the rest are summed.
        for (Map<String, Double> m : perGib.values()) {
            m.forEach((g, v) -> {
                if (v >= 0.05) {
                    groups.add(g);
                }
            });
        }
        List<String> rows = new ArrayList<>(groups);
        rows.sort(java.util.Comparator.comparingDouble((String g) -> -perGib.values().stream()
                .mapToDouble(m -> m.getOrDefault(g, 0.0)).max().orElse(0)));
        line("## Where the CPU goes");
        line();
        line("CPU seconds per GiB by thread, measured repetitions together. Agent threads are named");
        line("`openmft-<AGENT>-<role>` (`transfer`: the source's thread of one transfer, reading, checksumming and");
        line("sending; `data`: the destination's DATA dispatcher, receiving, checksumming and writing). In the raw");
        line("JMS runs `bench-raw-producer` puts and `main` gets. The rest is Artemis and the JVM.");
        line();
        List<String> header = new ArrayList<>(List.of("thread"));
        perGib.keySet().forEach(sc -> header.add(sc.id));
        MarkdownTable t = MarkdownTable.of(header);
        for (String g : rows) {
            List<String> r = new ArrayList<>(List.of(g));
            perGib.values().forEach(m -> r.add(fmt(m.getOrDefault(g, 0.0), 2)));
            t.row(r);
        }
        List<String> other = new ArrayList<>(List.of("other threads"));
        List<String> total = new ArrayList<>(List.of("**total**"));
        for (Map<String, Double> m : perGib.values()) {
            double o = 0;
            double sum = 0;
            for (Map.Entry<String, Double> e : m.entrySet()) {
                sum += e.getValue();
                if (!groups.contains(e.getKey())) {
                    o += e.getValue();
                }
            }
            other.add(fmt(o, 2));
            total.add("**" + fmt(sum, 2) + "**");
        }
        md.append(t.row(other).row(total));
        line();
    }

    private void seed000() {
        Scale sc = c.scale();
        Summary set = s.get(Scenario.SEED000_SET_BINDINGS_MD5);
        line("## Seed 000 headline: " + sc.setFileCount() + " x " + size(sc.setFileBytes())
                + " in one transfer, binary, MD5, bindings");
        line();
        if (!set.ok()) {
            line("**FAILED**: " + esc(set.failed()));
            line();
            return;
        }
        line("OpenMFT: **" + fmt(set.medianSeconds(), 2) + " s** (runs " + secondsRuns(set) + "), "
                + fmt(set.medianMbPerSecond(), 0) + " MB/s, " + fmt(set.medianCpuSecondsPerGib(), 2) + " CPU s/GiB, "
                + pct(fractionOfCeiling(Scenario.SEED000_SET_BINDINGS_MD5)) + " of the raw JMS rate (in-VM), "
                + set.resends() + " resends.");
        line();
        if (!isFull()) {
            line("IBM's figures are for 20 x 100 MB; at the quick scale they are not compared.");
            line();
            return;
        }
        line("IBM's figures for 2 GB as 20 x 100 MB, agents in bindings mode (\"IBM MQ 9.0.5 Managed File Transfer");
        line("Performance Report for Windows\", 2018). IBM ran the two agents on separate 4-vCPU machines, each");
        line("with its own queue manager joined by channels; here everything shares one JVM on " + cores() + " cores.");
        line();
        line("| IBM cell | where in the report | IBM (s) | OpenMFT (s) | OpenMFT faster by |");
        line("|---|---|---|---|---|");
        for (HeadlineCellIbmFigures.Figure f : HeadlineCellIbmFigures.FIGURES) {
            String cell = f.same() ? "**" + f.cell() + "** (the cell we run)" : f.cell();
            line("| " + cell + " | " + f.source() + " | " + fmt(f.seconds(), 2) + " | " + fmt(set.medianSeconds(), 2)
                    + " | " + fmt(f.seconds() / set.medianSeconds(), 2) + "x |");
        }
        line();
        line("Only the first row is the same cell. The 15.50 s sometimes quoted as IBM's best is the 100 MB files sent");
        line("as 10 parallel transfers without checksum; it is shown as the strictest comparison, not the like one.");
        line("Our set is 20 x 100 MiB (2000 MiB).");
        line();
    }

    private void observations() {
        line("## Observations");
        line();
        line("Computed from the figures above.");
        line();
        List<String> notes = new ArrayList<>();
        for (Scenario a : List.of(Scenario.AGENT_BINDINGS_NONE, Scenario.AGENT_BINDINGS_MD5, Scenario.AGENT_CLIENT_NONE,
                Scenario.AGENT_CLIENT_MD5, Scenario.SEED000_SET_BINDINGS_MD5)) {
            double f = fractionOfCeiling(a);
            if (!Double.isNaN(f) && f < REQUIRED_FRACTION_OF_RAW) {
                Summary ceiling = s.get(a.ceiling());
                notes.add(label(a) + " reaches " + pct(f) + " of the raw JMS rate (" + fmt(s.get(a).medianMbPerSecond(), 0)
                        + " of " + fmt(ceiling.medianMbPerSecond(), 0) + " MB/s): below the " + pct(REQUIRED_FRACTION_OF_RAW)
                        + " bar by " + fmt((REQUIRED_FRACTION_OF_RAW - f) * 100, 0) + " points.");
            }
        }
        for (ConnectionMode m : ConnectionMode.values()) {
            Scenario md5 = m == ConnectionMode.BINDINGS ? Scenario.AGENT_BINDINGS_MD5 : Scenario.AGENT_CLIENT_MD5;
            Scenario none = m == ConnectionMode.BINDINGS ? Scenario.AGENT_BINDINGS_NONE : Scenario.AGENT_CLIENT_NONE;
            if (s.get(md5).ok() && s.get(none).ok()) {
                double dCpu = s.get(md5).medianCpuSecondsPerGib() - s.get(none).medianCpuSecondsPerGib();
                double dRate = s.get(md5).medianMbPerSecond() / s.get(none).medianMbPerSecond() - 1;
                String digest = Double.isNaN(md5SecondsPerGib) ? ""
                        : ": the digest alone takes " + fmt(md5SecondsPerGib, 2) + " CPU s/GiB on one thread here ("
                                + fmt(1024 / md5SecondsPerGib, 0) + " MiB/s), " + fmt(2 * md5SecondsPerGib, 2)
                                + " s/GiB for the two ends, in series with everything else those threads do";
                notes.add("MD5 in " + m.label + " mode: " + signed(dCpu, 2) + " CPU s/GiB and " + signedPct(dRate)
                        + " rate against no checksum. MD5 runs at both ends, on the source's transfer thread and the"
                        + " destination's data thread" + digest + ".");
            }
        }
        Summary rawVm = s.get(Scenario.RAW_JMS_BINDINGS);
        Summary rawTcp = s.get(Scenario.RAW_JMS_CLIENT);
        if (rawVm.ok() && rawTcp.ok() && rawTcp.medianMbPerSecond() > rawVm.medianMbPerSecond()) {
            notes.add("The TCP ceiling (" + fmt(rawTcp.medianMbPerSecond(), 0) + " MB/s) is above the in-VM one ("
                    + fmt(rawVm.medianMbPerSecond(), 0) + " MB/s): the in-VM connector is not the faster path here.");
        }
        Summary none = s.get(Scenario.AGENT_BINDINGS_NONE);
        Summary cp = s.get(Scenario.COPY);
        if (none.ok() && cp.ok()) {
            notes.add("Bindings, no checksum, runs at " + pct(none.medianMbPerSecond() / cp.medianMbPerSecondWithExtra())
                    + " of `cp` + fsync (" + fmt(cp.medianMbPerSecondWithExtra(), 0) + " MB/s) and "
                    + pct(none.medianMbPerSecond() / cp.medianMbPerSecond()) + " of plain `cp`.");
        }
        if (none.ok() && !Double.isNaN(c.idleCores())) {
            double idlePerGib = c.idleCores() * none.medianSeconds() / ((double) none.bytes() / Scale.GIB);
            notes.add("The idle cost (" + fmt(c.idleCores(), 3) + " cores) accounts for " + fmt(idlePerGib, 2)
                    + " of the " + fmt(none.medianCpuSecondsPerGib(), 2) + " CPU s/GiB of bindings without checksum.");
        }
        Summary set = s.get(Scenario.SEED000_SET_BINDINGS_MD5);
        Summary one = s.get(Scenario.AGENT_BINDINGS_MD5);
        if (set.ok() && one.ok()) {
            double streaming = set.bytes() / 1e6 / one.medianMbPerSecond();
            double perFileMs = (set.medianSeconds() - streaming) / set.files() * 1000;
            notes.add("The " + set.files() + "-file set takes " + fmt(set.medianSeconds(), 2) + " s against "
                    + fmt(streaming, 2) + " s for its bytes at the single-file rate (bindings, MD5): "
                    + (perFileMs > 0 ? signed(perFileMs, 0) + " ms per file."
                            : "no per-file overhead shows at this file size (the set moves faster than the single"
                                    + " file)."));
        }
        for (ConnectionMode m : ConnectionMode.values()) {
            Scenario agent = m == ConnectionMode.BINDINGS ? Scenario.AGENT_BINDINGS_NONE : Scenario.AGENT_CLIENT_NONE;
            Summary a = s.get(agent);
            Summary raw = s.get(agent.ceiling());
            if (a.ok() && raw.ok() && a.medianCoresBusy() < 0.75 * raw.medianCoresBusy()) {
                notes.add(label(agent) + " keeps " + fmt(a.medianCoresBusy(), 2) + " of " + cores()
                        + " cores busy where raw JMS keeps " + fmt(raw.medianCoresBusy(), 2)
                        + ": the agents spend the difference waiting, not computing. `--agent agentWindowSize=N`"
                        + " (or agentFrameSize, agentCheckpointInterval) reruns the suite to see which wait it is.");
            }
        }
        List<String> noisy = new ArrayList<>();
        for (Summary x : s.values()) {
            if (x.ok() && x.samples.size() > 1) {
                double spread = (x.maxMbPerSecond() - x.minMbPerSecond()) / x.medianMbPerSecond();
                if (spread > 0.2) {
                    noisy.add("`" + x.scenario.id + "` " + pct(spread));
                }
            }
            if (x.resends() > 0) {
                notes.add("`" + x.scenario.id + "` had " + x.resends() + " chunk resends over " + x.samples.size()
                        + " runs; a healthy run on one machine has none.");
            }
            if (x.ran() && !x.ok()) {
                notes.add("`" + x.scenario.id + "` FAILED: " + esc(x.failed()));
            }
        }
        for (Sample w : warmUp) {
            if (!w.ok()) {
                notes.add("The warm-up run of `" + w.scenario().id + "` FAILED: " + esc(w.failure()));
            }
        }
        if (!noisy.isEmpty()) {
            notes.add("Spread between runs (max - min over median) above 20%: " + String.join(", ", noisy)
                    + ". The ratios pair neighbouring runs, which keeps them steadier than the rates; the"
                    + " \"% of raw JMS (runs)\" column shows their range.");
        }
        if (notes.isEmpty()) {
            notes.add("Nothing stands out.");
        }
        for (String n : notes) {
            line("- " + n);
        }
        line();
    }

    private void method() {
        line("## Method");
        line();
        line("- One JVM runs an embedded Artemis queue manager (`QMBENCH`, persistent journal) and four agents:");
        line("  `SRCB` and `DSTB` in bindings mode (in-VM connector), `SRCC` and `DSTC` in client mode (TCP to");
        line("  127.0.0.1). The same agents serve every repetition.");
        line("- Source files are random bytes, written (and synced) once before the first scenario. A transfer");
        line("  counts only when it ends with result 0 and every destination file's MD5 equals the source's;");
        line("  otherwise the scenario shows FAILED instead of a figure.");
        line("- Transfers are requested as an MQ application would: request XML on `SYSTEM.FTE.COMMAND.<source>`");
        line("  with a temporary reply queue; time runs from the put to the final reply.");
        line("- CPU is `OperatingSystemMXBean.getProcessCpuTime()` of the JVM over the run: queue manager and both");
        line("  agents together (the benchmark's own threads wait meanwhile). \"Cores busy\" is CPU time over");
        line("  elapsed time. `cp` runs in a process of its own and its CPU is not counted.");
        line("- Raw JMS: one producer thread putting non-persistent BytesMessages of the chunk size, one consumer");
        line("  (DUPS_OK_ACKNOWLEDGE, body copied out) on `" + RawJms.QUEUE + "`, a queue with the agents' DATA");
        line("  address settings, through the same connector as the agents of that mode; the same byte count as");
        line("  the file.");
        line("- The destination agent forces its file to disk at each checkpoint and at the end of each file;");
        line("  plain `cp` does not, hence the `cp` + fsync row and the durable peers: `cp` then `sync` of the copy");
        line("  and `rsync -a -I --whole-file --fsync` (with `--checksum-choice=md5` beside the MD5 runs), each a");
        line("  process of its own whose CPU is read from /proc; a peer whose program is missing is listed as not run.");
        line("- The MD5 digest's own cost is measured once, after the idle cost: one thread digesting 1 GiB in chunks");
        line("  of 256 KiB from a heap array, its thread CPU time.");
        line("- Repetition 0 runs every scenario once, unmeasured (its rows are in the CSV with repetition 0): it");
        line("  warms up the JIT and the heap and touches the memory the run needs. Before every scenario the");
        line("  destination is emptied, the source files are read once (untimed) so that they are in the page");
        line("  cache, and `System.gc()` runs.");
        line("- The CPU breakdown samples every thread's CPU time ten times a second; the sampler's own CPU is");
        line("  subtracted from the figures.");
        line("- MB/s means 10^6 bytes per second; sizes are binary (MiB, GiB).");
        line();
    }

    private void howToRun() {
        line("## How to run");
        line();
        line("From the repository root, with JDK 17 and Maven 3.8 (and, for the peers, Debian's `rsync`,");
        line("`openssh-server` and `openssh-client`: `apt-get install rsync openssh-server openssh-client`; a peer whose");
        line("tools are missing is listed as not run, with the reason):");
        line();
        line("```sh");
        line("mvn -q -pl benchmarks -am package -DskipTests      # the jar, and its dependencies in benchmarks/target/lib");
        line("java -cp \"benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*\" \\");
        line("    org.openmft.bench.BenchmarkRunner --quick          # every scenario, small: a check, about 5 minutes");
        line("java -cp \"benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*\" \\");
        line("    org.openmft.bench.BenchmarkRunner --scenario file-sizes  # one scenario at full scale: its section only");
        line("```");
        line();
        line("Every scenario checks every byte it moved (a run that moved wrong bytes is a failure, not a figure) and");
        line("writes its raw numbers as CSV and JSON into `--results DIR`, its section of this file, and its charts");
        line("into `docs/img/`. A scenario run alone (`--scenario NAME`) replaces only its own section of the report.");
        line();
        line("On a virtual machine whose balloon gives free pages back to its host (the machine table's \"memory");
        line("reclaim\" says so), the pages of a file just deleted fault in the host when the next repetition writes");
        line("into them, on some repetitions and not others. As root, `--hold-page-reporting` turns that reporting off");
        line("for the run and back on afterwards (as pyperf's `system tune` fixes a CPU's frequency); the machine");
        line("table of each section it measured says so.");
        line();
        line("| scenario | what | full scale | disk |");
        line("|---|---|---|---|");
        line("| `transfer` | this section: one 1 GiB file beside raw JMS, `cp` and the durable peers, seed 000's headline"
                + " cell | about 8 min |"
                + " 6 GiB |");
        line("| `file-shapes` (`seed000`) | IBM's seed 000 matrix: 192 cells of 2000 MiB, IBM's figure beside each | about an hour |"
                + " 14 GiB |");
        line("| `file-sizes` (`seed003`) | 1 MiB to 1 GiB files beside `cp`, raw JMS, rsync (also durable), rsync and"
                + " sftp over ssh, Camel | about"
                + " 25 min | 8 GiB |");
        line("| `coordination` | seed 001: 100 to 500 agents, a coordination queue manager and a database logger |"
                + " about 40 min | 52 GiB, below the queue managers' max-disk-usage (90%): the last tenth of the file"
                + " system does not count; a cell without room is not run, and says so |");
        line("| `protection` | the 1 GiB transfer with message protection none, integrity and privacy | about 4 min |"
                + " 2 GiB |");
        line("| `micro` | the JMH micro-benchmarks: chunk reading, checksums, text conversion, request XML | about 8"
                + " min | 0.1 GiB |");
        line("| `memory` | resident size and heap of an idle agent, of a queue manager hosting 2, 100 and 500 agents,"
                + " per running transfer; a 4 GiB file at -Xmx256m | about 5 min | 7 GiB |");
        line("| `soak` | transfers through crashes and cut connections of real processes; not part of `all` | about"
                + " 12 min | 2 GiB |");
        line();
        line("`--scenario all` (the default) runs all of them but the soak"
                + (isFull() ? "; the transfer scenario took " + minutes(c.duration()) + " on the machine above." : "."));
        line();
        line("| option | |");
        line("|---|---|");
        line("| `--quick` | every scenario at a small scale with few repetitions: a check that it works, not figures |");
        line("| `--out FILE` | the report (default `docs/performance.md`; with `--quick`,"
                + " `benchmarks/target/results/performance-quick.md`); charts go to `img/` beside it |");
        line("| `--results DIR` | CSV and JSON of every run, warm-ups included (default `benchmarks/target/results`) |");
        line("| `--repetitions N` | measured repetitions (transfer and protection: 5, 3 with `--quick`; seed000: 1;"
                + " seed003: 3) |");
        line("| `--agent KEY=VALUE` | an agent.properties value for every agent, e.g. `agentWindowSize=50`;"
                + " repeatable; the report lists it (the seed 000 matrix sets its own chunk sizes and transfer limits) |");
        line("| `--dir DIR`, `--keep` | where the work directory is made; keep it afterwards |");
        line("| `--scenario " + BenchmarkRunner.scenarioNames().replace(", ", "\\|").replace(" or ", "\\|")
                + "` | which scenarios run (default all) |");
        line("| `--coordination-agents N` | one agent count for the coordination scenario instead of the sweep |");
        line("| `--seed N` | the soak's random seed (its files, transfers and faults); default a new one, printed |");
        line();
        line("The soak (`--scenario soak`) runs the queue manager and the agents as processes of the distribution that");
        line("the package step builds in `agent-cli/target/openmft` (or `-Dopenmft.dist=DIR`); it takes about 12 minutes,");
        line("or about 1.5 with `--quick`. On a failure it keeps every process's log in `--results DIR`/`soak-logs-<scale>`.");
        line("JMH runs on its own too, after the package step: `java -cp \"benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:"
                + "benchmarks/target/lib/*\" org.openjdk.jmh.Main -l` lists the benchmarks.");
        line();
        line("The exit code is 0 when every scenario succeeded and verified, 1 otherwise.");
    }

    // ------------------------------------------------------------------------------------------

    private boolean isFull() {
        return "full".equals(c.scale().name());
    }

    /** Median agent rate over median ceiling rate, or NaN. */
    private double fractionOfCeiling(Scenario a) {
        Summary x = s.get(a);
        Summary ceiling = s.get(a.ceiling());
        if (!x.ok() || !ceiling.ok()) {
            return Double.NaN;
        }
        return x.medianMbPerSecond() / ceiling.medianMbPerSecond();
    }

    private String pairedRange(Scenario a) {
        double[] r = s.get(a).pairedRatios(s.get(a.ceiling()));
        if (r.length == 0) {
            return "—";
        }
        double min = Arrays.stream(r).min().orElse(Double.NaN);
        double max = Arrays.stream(r).max().orElse(Double.NaN);
        return pct(min) + "–" + pct(max);
    }

    private double value(Scenario a, java.util.function.ToDoubleFunction<Summary> f) {
        Summary x = s.get(a);
        return x.ok() ? f.applyAsDouble(x) : Double.NaN;
    }

    private static String label(Scenario a) {
        if (a.kind == Scenario.Kind.AGENT_SET) {
            return "file set, " + a.mode.label + ", " + a.checksum.xmlValue();
        }
        return a.mode.label + ", " + a.checksum.xmlValue();
    }

    private static String verdict(boolean met, double measured) {
        if (Double.isNaN(measured)) {
            return "no figure";
        }
        return met ? "met" : "**not met**";
    }

    private static String runs(Summary x) {
        List<String> r = new ArrayList<>();
        for (Sample sample : x.samples) {
            r.add(fmt(sample.mbPerSecond(), 0));
        }
        return String.join(", ", r);
    }

    private static String secondsRuns(Summary x) {
        List<String> r = new ArrayList<>();
        for (Sample sample : x.samples) {
            r.add(fmt(sample.seconds(), 2));
        }
        return String.join(", ", r) + " s";
    }

    private String cores() {
        return c.machine().getOrDefault("cores (available to the JVM)", "?");
    }

    public static String size(long bytes) {
        if (bytes % Scale.GIB == 0) {
            return bytes / Scale.GIB + " GiB";
        }
        if (bytes % Scale.MIB == 0) {
            return bytes / Scale.MIB + " MiB";
        }
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }

    private static String minutes(Duration d) {
        long sec = d.toSeconds();
        return sec / 60 + " min " + sec % 60 + " s";
    }

    public static String fmt(double d, int decimals) {
        return Double.isNaN(d) ? "—" : String.format(Locale.ROOT, "%,." + decimals + "f", d);
    }

    public static String pct(double fraction) {
        return Double.isNaN(fraction) ? "—" : String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }

    public static String signed(double d, int decimals) {
        return (d >= 0 ? "+" : "") + fmt(d, decimals);
    }

    private static String signedPct(double fraction) {
        return (fraction >= 0 ? "+" : "") + pct(fraction);
    }

    private static String esc(String text) {
        return MarkdownTable.escape(text);
    }

    private void row(String key, String value) {
        line("| " + esc(key) + " | " + esc(value) + " |");
    }

    private void line(String text) {
        md.append(text).append('\n');
    }

    private void line() {
        md.append('\n');
    }
}
