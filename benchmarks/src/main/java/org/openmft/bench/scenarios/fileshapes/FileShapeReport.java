package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.harness.ConnectionMode;
import org.openmft.bench.peers.Peers;
import org.openmft.bench.report.Charts;
import org.openmft.bench.report.CsvTable;
import org.openmft.bench.report.Goals;
import org.openmft.bench.report.JsonFiles;
import org.openmft.bench.report.Report;
import org.openmft.bench.report.ResultFiles;
import org.openmft.bench.scenarios.transfer.Summary;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.openmft.bench.scenarios.fileshapes.FileShapeIbmFigures.Figure;
import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix.FileSet;
import org.openmft.bench.scenarios.fileshapes.FileShapeMatrix.MatrixScale;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun.Cell;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun.Group;
import org.openmft.bench.scenarios.fileshapes.FileShapeRun.Kind;

/**
 * The seed 000 matrix written up: each cell beside the raw JMS ceiling of its own group and
 * repetition and beside IBM's figure; the peers beside the agent cell they ran next to; as markdown,
 * CSV, JSON and charts. Pure: everything comes from the runs it is given.
 */
public final class FileShapeReport {
    /** IBM's figure for a cell, from {@link FileShapeIbmFigures}. */
    static final Function<Cell, Optional<Figure>> IBM_FIGURES = c -> FileShapeIbmFigures.find(c.group().mode(),
            c.group().chunkBytes(), c.text(), c.md5(), c.group().fileSet().ibmFileMegabytes(), c.parallel());

    /** The bytes of each of IBM's file sets, as the full scale moves them: 2000 x 1 MiB and so on. */
    static final long IBM_SET_BYTES = 2000 * Scale.MIB;

    /** The vCPUs of IBM's agent machines: its CPU percentages are of these. */
    static final int IBM_VCPUS = 4;

    /**
     * The vCPUs of the machine of IBM's client-mode agent queue manager, whose "AgentQ-CPU" is a
     * percentage of these. The report's chapter 4.4 (Hardware) lists MQPERF2, MQPERF3 and MQPERF4 as
     * "4 CPU" and MQPERF5 as "8 CPU" without naming their roles. Bindings mode needs three machines
     * (two agents, the coordination queue manager), all taken to be the 4-CPU ones as {@link #IBM_VCPUS}
     * takes the agents' to be; client mode needs a fourth, for the agents' queue manager, so that is
     * taken to be MQPERF5. (IBM's seed 001 report, same team, same hardware, has its agent queue
     * manager on an 8-CPU machine beside 4-CPU agents.)
     */
    static final int IBM_AGENT_QM_VCPUS = 8;

    /**
     * A peer of the run, whether it ran or not.
     *
     * @param unavailable why it could not run here, or null
     */
    record PeerInfo(String id, String label, String unavailable) {
    }

    /**
     * One cell over its repetitions: medians of the runs that succeeded.
     *
     * @param runs          every run of the cell
     * @param ok            the runs that succeeded
     * @param pctOfRaw      median of each run's rate over its own raw JMS run's rate, as a fraction
     * @param ibm           IBM's figure, if there is one
     * @param timesFaster   IBM's time for our bytes over ours; NaN without an IBM figure
     */
    record CellSummary(Cell cell, List<FileShapeRun> runs, List<FileShapeRun> ok, double seconds, double mbPerSecond,
            double pctOfRaw, double cpuSource, double cpuDestination, double cpuQueueManager, Optional<Figure> ibm,
            double timesFaster) {
        boolean measured() {
            return !ok.isEmpty() && ok.size() == runs.size();
        }
    }

    private final MatrixScale scale;
    private final List<FileShapeRun> runs;
    private final Function<Cell, Optional<Figure>> ibm;
    private final List<PeerInfo> peers;
    private final List<String> otherFailures;
    private final boolean textIsIdentity;
    private final Map<String, String> agentProperties;

    /**
     * @param scale           what ran
     * @param runs            every run, in the order they ran
     * @param ibm             IBM's figure for a cell
     * @param peers           every peer, those that could not run too
     * @param otherFailures   failures that are not one run's (a warm-up, cells left out after a time-out)
     * @param textIsIdentity  whether text mode had to deliver the text files byte for byte
     * @param agentProperties the agents' properties besides agentChunkSize
     */
    public FileShapeReport(MatrixScale scale, List<FileShapeRun> runs, Function<Cell, Optional<Figure>> ibm,
            List<PeerInfo> peers, List<String> otherFailures, boolean textIsIdentity,
            Map<String, String> agentProperties) {
        this.scale = scale;
        this.runs = List.copyOf(runs);
        this.ibm = ibm;
        this.peers = List.copyOf(peers);
        this.otherFailures = List.copyOf(otherFailures);
        this.textIsIdentity = textIsIdentity;
        Map<String, String> p = new java.util.TreeMap<>(agentProperties);
        p.remove("agentChunkSize");
        this.agentProperties = p;
    }

    /** Every run that failed, then the failures that are not one run's. */
    List<String> failures() {
        List<String> out = new ArrayList<>();
        for (FileShapeRun r : runs) {
            if (!r.ok()) {
                out.add(r.label() + " repetition " + r.repetition() + ": " + r.failure());
            }
        }
        out.addAll(otherFailures);
        return out;
    }

    /** The raw JMS run of {@code agent}'s own group and repetition, if it ran. */
    Optional<FileShapeRun> rawJmsFor(FileShapeRun agent) {
        return runs.stream().filter(r -> r.kind() == Kind.RAW_JMS && r.group().equals(agent.group())
                && r.repetition() == agent.repetition()).findFirst();
    }

    /**
     * The agent run a peer is compared with: bindings, binary, one transfer, same repetition; with MD5
     * for a peer that checks an MD5 ({@code --checksum-choice=md5}), else the no-checksum cell it ran
     * right after.
     */
    Optional<FileShapeRun> agentBeside(FileShapeRun peer) {
        Cell cell = new Cell(new Group(ConnectionMode.BINDINGS, peer.group().chunkBytes(), peer.group().fileSet()),
                false, peer.peer() != null && peer.peer().endsWith("-md5"), false);
        return runs.stream().filter(r -> r.kind() == Kind.AGENT && cell.equals(r.cell())
                && r.repetition() == peer.repetition()).findFirst();
    }

    /**
     * The figures of issue 18's goals this matrix measures ({@link Goals}): on the 100 MB set (IBM's 20 x 100
     * MB; bindings, binary, one transfer, the peers' chunk size) the agents' time with MD5 over
     * {@code rsync -a -I --whole-file --fsync --checksum-choice=md5}'s and without a checksum over
     * {@code rsync -a -I --whole-file --fsync}'s and over {@code cp} then {@code sync}'s; on the 1 MB set
     * (2000 x 1 MiB) the agents' time without a checksum over {@code rsync -a --fsync}'s; each ratio
     * taken within one repetition, then the median; and the worst cell of ten parallel transfers
     * over one transfer of the same files, with how many cells were slower in parallel.
     */
    public Map<String, Double> headline() {
        Map<String, Double> h = new LinkedHashMap<>();
        for (FileSet set : scale.fileSets()) {
            if (set.ibmFileMegabytes() == 100) {
                h.put(Goals.SET100_MD5_OVER_RSYNC, agentOverPeer(set, "rsync-I-fsync-md5"));
                h.put(Goals.SET100_NONE_OVER_RSYNC, agentOverPeer(set, "rsync-I-fsync"));
                h.put(Goals.SET100_NONE_OVER_CP_SYNC, agentOverPeer(set, "cp-sync"));
                h.put(Goals.SET100_MD5_SECONDS, agentSeconds(set, true));
                h.put(Goals.SET100_NONE_SECONDS, agentSeconds(set, false));
            } else if (set.ibmFileMegabytes() == 1) {
                h.put(Goals.SET2000_OVER_RSYNC, agentOverPeer(set, "rsync-fsync"));
                h.put(Goals.SET2000_SECONDS, agentSeconds(set, false));
            }
        }
        List<CellSummary> cells = cells();
        double worst = Double.NaN;
        int slower = 0;
        int pairs = 0;
        for (CellSummary one : cells) {
            if (one.cell().parallel() || !one.measured()) {
                continue;
            }
            Cell parallelCell = new Cell(one.cell().group(), one.cell().text(), one.cell().md5(), true);
            Optional<CellSummary> parallel = find(cells, parallelCell).filter(CellSummary::measured);
            if (parallel.isEmpty()) {
                continue;
            }
            double ratio = Summary.median(one.ok().stream().mapToDouble(r -> runOf(parallelCell, r.repetition())
                    .map(p -> p.seconds() / r.seconds()).orElse(Double.NaN)).toArray());
            pairs++;
            if (ratio > 1) {
                slower++;
            }
            worst = Double.isNaN(worst) ? ratio : Math.max(worst, ratio);
        }
        h.put(Goals.PARALLEL_OVER_ONE_WORST, worst);
        h.put(Goals.PARALLEL_SLOWER_CELLS, pairs == 0 ? Double.NaN : slower);
        return h;
    }

    /** Median over repetitions of the agents' time over {@code peer}'s ({@link #agentBeside}). */
    private double agentOverPeer(FileSet set, String peer) {
        return Summary.median(runs.stream().filter(r -> r.kind() == Kind.PEER && peer.equals(r.peer()) && r.ok()
                && r.group().fileSet().equals(set)).mapToDouble(r -> agentBeside(r).filter(FileShapeRun::ok)
                        .map(a -> a.seconds() / r.seconds()).orElse(Double.NaN)).toArray());
    }

    /** The median time of the bindings, binary, one-transfer cell at the peers' chunk size. */
    private double agentSeconds(FileSet set, boolean md5) {
        Cell cell = new Cell(new Group(ConnectionMode.BINDINGS, scale.peerChunkBytes(), set), false, md5, false);
        return median(runs.stream().filter(r -> r.kind() == Kind.AGENT && cell.equals(r.cell()) && r.ok()).toList(),
                FileShapeRun::seconds);
    }

    /** The run of {@code cell} in {@code repetition}, if it succeeded. */
    private Optional<FileShapeRun> runOf(Cell cell, int repetition) {
        return runs.stream().filter(r -> r.kind() == Kind.AGENT && cell.equals(r.cell())
                && r.repetition() == repetition && r.ok()).findFirst();
    }

    /** {@code agent}'s rate over {@code raw}'s, as a fraction; NaN unless both succeeded. */
    static double fractionOfRaw(FileShapeRun agent, FileShapeRun raw) {
        return agent.ok() && raw != null && raw.ok() ? agent.mbPerSecond() / raw.mbPerSecond() : Double.NaN;
    }

    /**
     * How many times faster than IBM: IBM's time for its set, scaled to the bytes we moved, over our
     * time. At full scale we move IBM's bytes and this is IBM's seconds over ours.
     */
    public static double timesFaster(double ourSeconds, long ourBytes, Figure ibm) {
        return ibm.seconds() * ((double) ourBytes / IBM_SET_BYTES) / ourSeconds;
    }

    /** IBM's CPU percentage of a {@value #IBM_VCPUS}-vCPU machine over {@code seconds}, as CPU seconds. */
    static double ibmCpuSeconds(double percent, double seconds) {
        return percent / 100 * IBM_VCPUS * seconds;
    }

    /**
     * IBM's agent queue manager CPU ("AgentQ-CPU", % of a {@value #IBM_AGENT_QM_VCPUS}-vCPU machine)
     * over the transfer time, as CPU seconds; NaN in bindings mode, where there is no such machine.
     */
    static double ibmQmCpuSeconds(Figure f) {
        return f.agentQmCpuPercent() / 100 * IBM_AGENT_QM_VCPUS * f.seconds();
    }

    /** Every cell that ran, in the order of the tables. */
    List<CellSummary> cells() {
        Map<Cell, List<FileShapeRun>> byCell = new LinkedHashMap<>();
        for (FileShapeRun r : runs) {
            if (r.kind() == Kind.AGENT) {
                byCell.computeIfAbsent(r.cell(), k -> new ArrayList<>()).add(r);
            }
        }
        List<CellSummary> out = new ArrayList<>();
        for (ConnectionMode mode : ConnectionMode.values()) {
            for (FileSet set : scale.fileSets()) {
                for (int chunk : scale.chunkSizes()) {
                    for (Cell cell : FileShapeMatrix.cells(new Group(mode, chunk, set))) {
                        List<FileShapeRun> rs = byCell.get(cell);
                        if (rs != null) {
                            out.add(summarize(cell, rs));
                        }
                    }
                }
            }
        }
        return out;
    }

    private CellSummary summarize(Cell cell, List<FileShapeRun> rs) {
        List<FileShapeRun> ok = rs.stream().filter(FileShapeRun::ok).toList();
        double seconds = median(ok, FileShapeRun::seconds);
        long bytes = ok.isEmpty() ? 0 : ok.get(0).bytes();
        double pct = median(ok, r -> fractionOfRaw(r, rawJmsFor(r).orElse(null)));
        Optional<Figure> f = ibm.apply(cell);
        double x = f.isPresent() && !ok.isEmpty() ? timesFaster(seconds, bytes, f.get()) : Double.NaN;
        return new CellSummary(cell, rs, ok, seconds, ok.isEmpty() ? Double.NaN : bytes / 1e6 / seconds, pct,
                median(ok, r -> cpuSeconds(r.cpu().source())), median(ok, r -> cpuSeconds(r.cpu().destination())),
                median(ok, r -> cpuSeconds(r.cpu().queueManager())), f, x);
    }

    private static double median(List<FileShapeRun> rs, ToDoubleFunction<FileShapeRun> f) {
        return Summary.median(rs.stream().mapToDouble(f).toArray());
    }

    private static double cpuSeconds(long nanos) {
        return nanos < 0 ? Double.NaN : nanos / 1e9;
    }

    // ---- markdown ------------------------------------------------------------------------------

    /**
     * The section, without its begin and end comments.
     *
     * @param runTable {@link Section.Context#runTable}
     * @param charts   the markdown of {@link #charts}
     */
    String markdown(String runTable, String charts) {
        StringBuilder md = new StringBuilder();
        List<CellSummary> cells = cells();
        md.append("## Seed 000 matrix: IBM's cells on one machine\n\n");
        md.append("IBM's seed 000 report times 2 GB of files (as 1 MB, 10 MB or 100 MB files) through two MFT agents,"
                + " for every agentChunkSize from 64 KiB to 512 KiB, text and binary, MD5 and no checksum, one"
                + " transfer of all the files or ten transfers of a tenth each, agents in bindings and in client mode."
                + " This section runs the same matrix with OpenMFT on the embedded queue manager. Each cell is timed"
                + " from the first request put on the source agent's COMMAND queue to the last final reply; then every"
                + " destination file's MD5 is checked against what it must be, outside the timed interval. A cell that"
                + " did not end with result 0, or moved wrong bytes, is a failure, not a figure.");
        if (scale.repetitions() > 1) {
            md.append(" Figures are medians of the repetitions; ratios are taken within each repetition.");
        }
        md.append("\n\n").append(runTable);
        md.append("| agents | agentChunkSize of each cell; ").append(properties()).append(" |\n");
        md.append("| text mode | no encodings and no line ending in the request, so the platform defaults on both sides (")
                .append(java.nio.charset.Charset.defaultCharset().name()).append(", ")
                .append("\n".equals(System.lineSeparator()) ? "LF" : "CR LF").append(")")
                .append(textIsIdentity ? ": the identity on these files (printable ASCII lines, LF ends), so every"
                        + " text destination must equal its source byte for byte |\n"
                        : ": text destinations are checked against the source converted to them |\n");
        md.append('\n');

        md.append("### How to run\n\n```\nmvn -B -q -f benchmarks/pom.xml package -DskipTests\n"
                + "java -cp \"benchmarks/target/benchmarks-0.1.0-SNAPSHOT.jar:benchmarks/target/lib/*\""
                + " org.openmft.bench.BenchmarkRunner --scenario seed000 [--quick] [--repetitions N]\n```\n\n");
        md.append("The full scale runs every cell once on IBM's file sets and prints its expected duration when it"
                + " starts; `--quick` runs every dimension on small files and ")
                .append(MatrixScale.QUICK.chunkSizes().size()).append(" chunk sizes, a check rather than figures."
                        + " Only this section of the report is rewritten.\n\n");

        md.append("### Set-up, IBM's and ours\n\n");
        md.append("- **IBM**: each agent on its own ").append(IBM_VCPUS).append("-vCPU virtual machine (Windows Server"
                + " 2016, IBM MQ 9.0.5). In bindings mode each agent's machine also ran that agent's queue manager,"
                + " the two joined by sender/receiver channels; in client mode both agents were clients of one queue"
                + " manager that had a machine of its own, of ").append(IBM_AGENT_QM_VCPUS).append(" vCPUs (the"
                        + " report's hardware chapter lists three 4-CPU machines and one 8-CPU one without naming their"
                        + " roles; the 8-CPU one is taken to be the fourth machine client mode adds). A coordination"
                        + " queue manager ran on a further machine.\n");
        md.append("- **Ours**: one JVM on the run's machine (table above) runs the queue manager (Artemis, embedded) and both agents;"
                + " bindings is the in-VM connector, client is TCP on loopback; no coordination queue manager.\n");
        md.append("- **CPU**: ours is this process's CPU time from the operating system, split by thread: the source"
                + " agent (threads `openmft-SRCB-*` or `openmft-SRCC-*`), the destination agent, and the rest (queue"
                + " manager, transport, garbage collection, JIT) as \"QM\". IBM's are percentages of a ")
                .append(IBM_VCPUS).append("-vCPU machine over the transfer time, shown as CPU seconds (% / 100 x ")
                .append(IBM_VCPUS).append(" x time) of the source (Agent1) and destination (Agent2) machines: in"
                        + " bindings mode they include each side's queue manager and channel, in client mode no queue"
                        + " manager at all. In client mode IBM's \"QM\" is its agent queue manager's machine (AgentQ),"
                        + " a percentage of ").append(IBM_AGENT_QM_VCPUS).append(" vCPUs, so % / 100 x ")
                .append(IBM_AGENT_QM_VCPUS).append(" x time; it is the whole machine (operating system too), ours"
                        + " the threads that are neither agent's. In bindings mode IBM's queue managers are inside the"
                        + " source and destination figures, so its QM column is —.\n");
        md.append("- **% of raw JMS**: the cell's rate over that of a raw JMS put/get of the same bytes, in messages of"
                + " the chunk size, through the same connector, run just before the cell's group in the same"
                + " repetition.\n");
        md.append("- **10 parallel**: the files split into ").append(FileShapeMatrix.PARALLEL_TRANSFERS)
                .append(" transfers, all requests put at once. The agents run at most ")
                .append(FileShapeMatrix.IBM_AGENT_SETTINGS.get("maxSourceTransfers")).append(" source and ")
                .append(FileShapeMatrix.IBM_AGENT_SETTINGS.get("maxDestinationTransfers"))
                .append(" destination transfers at once (maxSourceTransfers, maxDestinationTransfers: IBM's defaults,"
                        + " which IBM's runs used), so all of them run together, as in IBM's runs.\n");
        md.append("- **x faster**: IBM's time over ours");
        boolean sameBytes = scale.fileSets().stream().allMatch(s -> s.totalBytes() == IBM_SET_BYTES);
        md.append(sameBytes ? ", for the same bytes.\n"
                : ". At this scale our sets are smaller than IBM's " + Report.size(IBM_SET_BYTES) + ", so the ratio"
                        + " compares rates (IBM's time scaled to our bytes), and IBM's seconds and CPU seconds are"
                        + " for its whole set.\n");
        md.append("- **n/a**: IBM's report has no figure for that cell here.\n\n");

        summary(md, cells);
        if (!charts.isBlank()) {
            md.append(charts).append("\n\n");
        }
        for (ConnectionMode mode : ConnectionMode.values()) {
            for (FileSet set : scale.fileSets()) {
                table(md, mode, set, cells);
            }
        }
        peers(md);
        List<String> failures = failures();
        if (!failures.isEmpty()) {
            md.append("### Failures\n\n");
            failures.forEach(f -> md.append("- ").append(esc(f)).append('\n'));
            md.append('\n');
        }
        return md.toString();
    }

    private String properties() {
        if (agentProperties.isEmpty()) {
            return "every other key at its default";
        }
        StringBuilder sb = new StringBuilder();
        agentProperties.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append('`').append(k).append('=')
                .append(v).append('`'));
        return sb.append("; every other key at its default").toString();
    }

    private void summary(StringBuilder md, List<CellSummary> cells) {
        md.append("### Against IBM\n\n");
        md.append("| connection | files | cells measured | with IBM's figure | at least ")
                .append(fmt(HeadlineCellIbmFigures.REQUIRED_SPEEDUP, 0)).append("x faster | best | worst |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        for (ConnectionMode mode : ConnectionMode.values()) {
            for (FileSet set : scale.fileSets()) {
                List<CellSummary> cs = cells.stream().filter(c -> c.cell().group().mode() == mode
                        && c.cell().group().fileSet().equals(set)).toList();
                List<CellSummary> compared = cs.stream().filter(c -> c.measured() && !Double.isNaN(c.timesFaster()))
                        .toList();
                long measured = cs.stream().filter(CellSummary::measured).count();
                long met = compared.stream().filter(c -> c.timesFaster() >= HeadlineCellIbmFigures.REQUIRED_SPEEDUP).count();
                Optional<CellSummary> best = compared.stream().max((a, b) -> Double.compare(a.timesFaster(),
                        b.timesFaster()));
                Optional<CellSummary> worst = compared.stream().min((a, b) -> Double.compare(a.timesFaster(),
                        b.timesFaster()));
                md.append("| ").append(mode.label).append(" | ").append(set.label()).append(" | ").append(measured)
                        .append(" of ").append(cs.size()).append(" | ").append(compared.size()).append(" | ")
                        .append(compared.isEmpty() ? "n/a" : met + " of " + compared.size()).append(" | ")
                        .append(best.map(this::ratioWithCell).orElse("n/a")).append(" | ")
                        .append(worst.map(this::ratioWithCell).orElse("n/a")).append(" |\n");
            }
        }
        md.append('\n');
    }

    private String ratioWithCell(CellSummary c) {
        return fmt(c.timesFaster(), 1) + "x (" + c.cell().group().chunkBytes() + ", " + (c.cell().text() ? "text"
                : "binary") + ", " + (c.cell().md5() ? "MD5" : "none") + ", " + transfers(c.cell()) + ")";
    }

    private void table(StringBuilder md, ConnectionMode mode, FileSet set, List<CellSummary> cells) {
        List<CellSummary> cs = cells.stream().filter(c -> c.cell().group().mode() == mode
                && c.cell().group().fileSet().equals(set)).toList();
        if (cs.isEmpty()) {
            return;
        }
        md.append("### ").append(mode.label).append(", ").append(set.label()).append("\n\n");
        StringBuilder raw = new StringBuilder();
        for (int chunk : scale.chunkSizes()) {
            double rate = Summary.median(runs.stream().filter(r -> r.kind() == Kind.RAW_JMS && r.ok()
                    && r.group().equals(new Group(mode, chunk, set))).mapToDouble(FileShapeRun::mbPerSecond).toArray());
            raw.append(raw.length() == 0 ? "" : ", ").append(chunk).append(": ").append(fmt(rate, 0)).append(" MB/s");
        }
        md.append("Raw JMS of the same bytes (").append(mode.transport).append("): ").append(raw).append(".\n\n");
        md.append("| agentChunkSize | type | checksum | transfers | s | MB/s | % of raw JMS | CPU s source | CPU s"
                + " destination | CPU s QM | IBM s | IBM CPU s source / destination | IBM CPU s QM | x faster |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (CellSummary c : cs) {
            Cell cell = c.cell();
            md.append("| ").append(cell.group().chunkBytes()).append(" | ").append(cell.text() ? "text" : "binary")
                    .append(" | ").append(cell.md5() ? "MD5" : "none").append(" | ").append(transfers(cell))
                    .append(" | ");
            if (c.measured()) {
                md.append(fmt(c.seconds(), 2)).append(" | ").append(fmt(c.mbPerSecond(), 0)).append(" | ")
                        .append(pct(c.pctOfRaw())).append(" | ").append(fmt(c.cpuSource(), 2)).append(" | ")
                        .append(fmt(c.cpuDestination(), 2)).append(" | ").append(fmt(c.cpuQueueManager(), 2));
            } else {
                md.append("**failed** | | | | | ");
            }
            md.append(" | ");
            if (c.ibm().isPresent()) {
                Figure f = c.ibm().get();
                md.append(fmt(f.seconds(), 2)).append(" | ").append(fmt(ibmCpuSeconds(f.agent1CpuPercent(),
                        f.seconds()), 1)).append(" / ").append(fmt(ibmCpuSeconds(f.agent2CpuPercent(), f.seconds()), 1))
                        .append(" | ").append(fmt(ibmQmCpuSeconds(f), 1)).append(" | ")
                        .append(c.measured() ? "**" + fmt(c.timesFaster(), 1) + "x**" : "—");
            } else {
                md.append("n/a | n/a | n/a | n/a");
            }
            md.append(" |\n");
        }
        md.append('\n');
    }

    private void peers(StringBuilder md) {
        if (peers.isEmpty()) {
            return;
        }
        md.append("### Peers on the same files\n\n");
        md.append("Each peer copies the binary files of a set right after the agents' cell of the same files"
                + " (bindings, binary, no checksum, one transfer, agentChunkSize ").append(scale.peerChunkBytes())
                .append("), in the same repetition; its destination files are checked too. The last column is the"
                        + " agents' time over the peer's, in the same repetition: the no-checksum cell's, or the"
                        + " MD5 cell's for a peer with `--checksum-choice=md5`. The agents force every file to disk"
                        + " (at checkpoints and at its end): compare them with the durable peers, `cp` then `sync`"
                        + " (the durable copy limit), `rsync -a --whole-file --fsync` (locally the same as `rsync -a"
                        + " --fsync`) and `rsync -a -I --whole-file --fsync` with and without"
                        + " `--checksum-choice=md5`; `cp` and `rsync -a` leave their copies in the page cache.\n\n");
        md.append("| peer | files | s | MB/s | CPU s | agents' s | agents ÷ peer |\n|---|---|---|---|---|---|---|\n");
        for (PeerInfo p : peers) {
            if (p.unavailable() != null) {
                md.append("| ").append(esc(p.label())).append(" | all | not run: ").append(esc(p.unavailable()))
                        .append(" | | | | |\n");
                continue;
            }
            for (FileSet set : scale.fileSets()) {
                List<FileShapeRun> rs = runs.stream().filter(r -> r.kind() == Kind.PEER && p.id().equals(r.peer())
                        && r.group().fileSet().equals(set)).toList();
                if (rs.isEmpty()) {
                    continue;
                }
                md.append("| ").append(esc(p.label())).append(" | ").append(set.label()).append(" | ");
                List<FileShapeRun> ok = rs.stream().filter(FileShapeRun::ok).toList();
                if (ok.size() != rs.size()) {
                    md.append("**failed** | | | | |\n");
                    continue;
                }
                double ratio = median(ok, r -> agentBeside(r).filter(FileShapeRun::ok)
                        .map(a -> a.seconds() / r.seconds()).orElse(Double.NaN));
                double agent = median(ok, r -> agentBeside(r).filter(FileShapeRun::ok).map(FileShapeRun::seconds)
                        .orElse(Double.NaN));
                double seconds = median(ok, FileShapeRun::seconds);
                md.append(fmt(seconds, 2)).append(" | ").append(fmt(set.totalBytes() / 1e6 / seconds, 0)).append(" | ")
                        .append(fmt(median(ok, r -> cpuSeconds(r.cpu().total())), 2)).append(" | ").append(fmt(agent, 2))
                        .append(" | ").append(fmt(ratio, 1)).append(" |\n");
            }
        }
        md.append('\n');
    }

    private static String transfers(Cell cell) {
        return cell.parallel() ? FileShapeMatrix.PARALLEL_TRANSFERS + " parallel" : "one";
    }

    // ---- charts --------------------------------------------------------------------------------

    /**
     * Two charts: ours and IBM's time per file set and connection (binary, MD5, at the peers' chunk
     * size), and our time by chunk size (bindings, binary, MD5, one transfer) beside IBM's.
     *
     * @return their markdown, or "" when nothing succeeded to draw
     */
    String charts(Path images, String imagesLink) throws IOException {
        List<CellSummary> cells = cells();
        int chunk = scale.peerChunkBytes();
        boolean sameBytes = scale.fileSets().stream().allMatch(s -> s.totalBytes() == IBM_SET_BYTES);
        List<String> categories = new ArrayList<>();
        Map<String, List<Double>> bySet = new LinkedHashMap<>();
        for (boolean parallel : new boolean[] {false, true}) {
            String t = parallel ? FileShapeMatrix.PARALLEL_TRANSFERS + " parallel" : "one transfer";
            bySet.put("OpenMFT, " + t, new ArrayList<>());
            bySet.put("IBM, " + t, new ArrayList<>());
        }
        for (ConnectionMode mode : ConnectionMode.values()) {
            for (FileSet set : scale.fileSets()) {
                categories.add(Report.size(set.fileBytes()) + " " + mode.label);
                for (boolean parallel : new boolean[] {false, true}) {
                    String t = parallel ? FileShapeMatrix.PARALLEL_TRANSFERS + " parallel" : "one transfer";
                    Optional<CellSummary> c = find(cells, new Cell(new Group(mode, chunk, set), false, true, parallel));
                    bySet.get("OpenMFT, " + t).add(c.filter(CellSummary::measured).map(CellSummary::seconds)
                            .orElse(Double.NaN));
                    bySet.get("IBM, " + t).add(ibmSecondsFor(c));
                }
            }
        }
        StringBuilder md = new StringBuilder();
        bySet.values().removeIf(FileShapeReport::allNaN);
        if (!bySet.isEmpty()) {
            md.append(Charts.bars(images, imagesLink, "seed000-time-by-file-set.png", "Seed 000: binary, MD5,"
                    + " agentChunkSize " + chunk + scaledNote(sameBytes, bySet), "seconds (lower is better)",
                    categories, bySet));
        }
        List<Double> xs = scale.chunkSizes().stream().map(c -> c / 1024.0).toList();
        Map<String, List<Double>> byChunk = new LinkedHashMap<>();
        for (FileSet set : scale.fileSets()) {
            List<Double> ours = new ArrayList<>();
            List<Double> theirs = new ArrayList<>();
            for (int c : scale.chunkSizes()) {
                Optional<CellSummary> s = find(cells, new Cell(new Group(ConnectionMode.BINDINGS, c, set), false, true,
                        false));
                ours.add(s.filter(CellSummary::measured).map(CellSummary::seconds).orElse(Double.NaN));
                theirs.add(ibmSecondsFor(s));
            }
            byChunk.put("OpenMFT, " + set.label(), ours);
            byChunk.put("IBM, " + set.label(), theirs);
        }
        byChunk.values().removeIf(FileShapeReport::allNaN);
        if (!byChunk.isEmpty()) {
            md.append(md.length() == 0 ? "" : "\n\n").append(Charts.lines(images, imagesLink,
                    "seed000-time-by-chunk.png", "Seed 000 by chunk size: bindings, binary, MD5, one transfer"
                            + scaledNote(sameBytes, byChunk),
                    "agentChunkSize (KiB)", "seconds (lower is better)", true, xs, byChunk));
        }
        return md.toString();
    }

    /** What a chart's title says when IBM's times in it are scaled to our smaller sets. */
    private static String scaledNote(boolean sameBytes, Map<String, List<Double>> series) {
        return sameBytes || series.keySet().stream().noneMatch(k -> k.startsWith("IBM")) ? ""
                : " (IBM's time scaled to our bytes)";
    }

    /** IBM's time for the cell, scaled to the bytes we moved; NaN when either is missing. */
    private static double ibmSecondsFor(Optional<CellSummary> c) {
        return c.filter(s -> s.ibm().isPresent() && !s.ok().isEmpty())
                .map(s -> s.ibm().get().seconds() * s.ok().get(0).bytes() / IBM_SET_BYTES).orElse(Double.NaN);
    }

    private static Optional<CellSummary> find(List<CellSummary> cells, Cell cell) {
        return cells.stream().filter(c -> c.cell().equals(cell)).findFirst();
    }

    private static boolean allNaN(List<Double> values) {
        return values.stream().allMatch(v -> v == null || v.isNaN());
    }

    // ---- CSV and JSON --------------------------------------------------------------------------

    private static final String[] COLUMNS = {"kind", "mode", "chunk_bytes", "file_set", "file_count", "file_bytes",
        "transfer_mode", "checksum", "transfers", "peer", "repetition", "bytes", "files", "seconds", "mb_per_s",
        "cpu_s", "cpu_source_s", "cpu_destination_s", "cpu_qm_s", "pct_of_raw_jms", "ibm_seconds",
        "ibm_cpu_source_s", "ibm_cpu_destination_s", "ibm_cpu_qm_s", "x_faster", "resends", "ok", "failure"};

    /** One row per run, in the order they ran. */
    String csv() {
        List<List<Object>> rows = new ArrayList<>();
        for (FileShapeRun r : runs) {
            List<Object> v = new ArrayList<>();
            for (Object o : values(r).values()) {
                v.add(o instanceof Double d ? ResultFiles.num(d) : o);
            }
            rows.add(v);
        }
        return CsvTable.write(List.of(COLUMNS), rows);
    }

    /** The context of the run and one object per run, with the same fields as the CSV. */
    String json(Section.Context context, Instant started, Instant ended) {
        ObjectNode root = JsonFiles.object();
        root.put("section", "seed000");
        root.put("started", started.toString());
        root.put("durationSeconds", java.time.Duration.between(started, ended).toSeconds());
        root.put("revision", context.revision());
        ObjectNode scaleNode = root.putObject("scale");
        scaleNode.put("name", scale.name());
        ArrayNode sets = scaleNode.putArray("fileSets");
        for (FileSet s : scale.fileSets()) {
            ObjectNode o = sets.addObject();
            o.put("count", s.count());
            o.put("fileBytes", s.fileBytes());
            o.put("ibmFileMegabytes", s.ibmFileMegabytes());
        }
        scale.chunkSizes().forEach(scaleNode.putArray("chunkSizes")::add);
        scaleNode.put("repetitions", scale.repetitions());
        root.put("textIsIdentity", textIsIdentity);
        agentProperties.forEach(root.putObject("agentProperties")::put);
        context.machine().forEach(root.putObject("machine")::put);
        ArrayNode peerNodes = root.putArray("peers");
        for (PeerInfo p : peers) {
            ObjectNode o = peerNodes.addObject();
            o.put("id", p.id());
            o.put("label", p.label());
            o.put("unavailable", p.unavailable());
        }
        failures().forEach(root.putArray("failures")::add);
        ArrayNode runNodes = root.putArray("runs");
        for (FileShapeRun r : runs) {
            ObjectNode o = runNodes.addObject();
            values(r).forEach((name, v) -> JsonFiles.putValue(o, name, v));
        }
        return JsonFiles.write(root);
    }

    /** The fields of one run by CSV column: String, Long, Integer, Double (NaN when unknown), Boolean or null. */
    private Map<String, Object> values(FileShapeRun r) {
        Map<String, Object> m = new LinkedHashMap<>();
        Cell cell = r.cell();
        FileSet set = r.group().fileSet();
        m.put("kind", r.kind().id);
        m.put("mode", r.kind() == Kind.PEER ? null : r.group().mode().label);
        m.put("chunk_bytes", r.kind() == Kind.PEER ? null : r.group().chunkBytes());
        m.put("file_set", set.id());
        m.put("file_count", set.count());
        m.put("file_bytes", set.fileBytes());
        m.put("transfer_mode", cell == null ? null : cell.text() ? "text" : "binary");
        m.put("checksum", cell == null ? null : cell.md5() ? "md5" : "none");
        m.put("transfers", cell == null ? null : cell.parallel() ? FileShapeMatrix.PARALLEL_TRANSFERS : 1);
        m.put("peer", r.peer());
        m.put("repetition", r.repetition());
        m.put("bytes", r.bytes());
        m.put("files", r.files());
        m.put("seconds", r.ok() ? r.seconds() : Double.NaN);
        m.put("mb_per_s", r.ok() ? r.mbPerSecond() : Double.NaN);
        m.put("cpu_s", cpuSeconds(r.cpu().total()));
        m.put("cpu_source_s", cpuSeconds(r.cpu().source()));
        m.put("cpu_destination_s", cpuSeconds(r.cpu().destination()));
        m.put("cpu_qm_s", cpuSeconds(r.cpu().queueManager()));
        Optional<Figure> f = cell == null ? Optional.empty() : ibm.apply(cell);
        m.put("pct_of_raw_jms", r.kind() == Kind.AGENT ? 100 * fractionOfRaw(r, rawJmsFor(r).orElse(null))
                : Double.NaN);
        m.put("ibm_seconds", f.map(Figure::seconds).orElse(Double.NaN));
        m.put("ibm_cpu_source_s", f.map(x -> ibmCpuSeconds(x.agent1CpuPercent(), x.seconds())).orElse(Double.NaN));
        m.put("ibm_cpu_destination_s", f.map(x -> ibmCpuSeconds(x.agent2CpuPercent(), x.seconds()))
                .orElse(Double.NaN));
        m.put("ibm_cpu_qm_s", f.map(FileShapeReport::ibmQmCpuSeconds).orElse(Double.NaN));
        m.put("x_faster", f.isPresent() && r.ok() ? timesFaster(r.seconds(), r.bytes(), f.get()) : Double.NaN);
        m.put("resends", r.resends());
        m.put("ok", r.ok());
        m.put("failure", r.failure());
        return m;
    }

    private static String fmt(double d, int decimals) {
        return Report.fmt(d, decimals);
    }

    private static String pct(double fraction) {
        return Double.isNaN(fraction) ? "—" : String.format(Locale.ROOT, "%.0f%%", fraction * 100);
    }

    private static String esc(String text) {
        return text == null ? "" : text.replace("|", "\\|").replace("\n", " ");
    }
}
