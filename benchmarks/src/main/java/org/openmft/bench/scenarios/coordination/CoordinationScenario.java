package org.openmft.bench.scenarios.coordination;

import org.openmft.bench.Scale;
import org.openmft.bench.harness.EmbeddedMft;
import org.openmft.bench.harness.TestFiles;
import org.openmft.bench.measure.CpuClock;
import org.openmft.bench.measure.ThreadCpuSampler;
import org.openmft.bench.report.Report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.jms.client.ActiveMQDestination;
import org.openmft.agent.Agent;
import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentState;
import org.openmft.agent.ForwardingAgentListener;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.coordination.logger.EmbeddedDatabase;
import org.openmft.coordination.logger.ForwardingLogStore;
import org.openmft.coordination.logger.JdbcLogStore;
import org.openmft.coordination.logger.LogRecord;
import org.openmft.coordination.logger.LogStore;
import org.openmft.coordination.logger.LogStoreException;
import org.openmft.coordination.logger.LogSubscriber;
import org.openmft.coordination.logger.StoreOutcome;
import org.openmft.coordination.publish.CoordinationPublisher;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;
import org.openmft.xml.log.LogAction;

/**
 * Coordination at scale, the shape of seed 001: one agent queue manager in this JVM holding N agents
 * (half sources, half destinations, paired) in bindings mode; a separate coordination queue manager
 * (its own embedded broker, directory and port) to which every agent publishes through its
 * {@link CoordinationPublisher} over TCP; a database logger ({@link LogSubscriber} into an embedded
 * H2 {@link JdbcLogStore}) subscribed there. All N/2 pairs run one transfer of 10 files at once.
 *
 * <p>Each cell starts everything afresh (the status publication rates are agent properties), runs a
 * warm-up round of one small file per pair, measures the idle agents, then the measured round:
 * every request put in one transaction, so that all are submitted at the same instant, each with
 * its own reply queue. Then it stops everything and checks: every reply result 0, every destination
 * file's MD5 equal to its source's, and in the database one {@code started}, at least one
 * {@code progress} and one {@code completed} row per transfer, every item with its MD5.
 */
public final class CoordinationScenario {
    static final String AGENT_QM = "QMAGENT";
    static final String COORDINATION_QM = "QMCOORD";
    static final String LOGGER = "BENCH";
    public static final int FILES_PER_TRANSFER = ManyAgentsIbmFigures.FILES_PER_TRANSFER;

    static final String G_AGENT_QM = "agent queue manager (QMAGENT broker threads)";
    static final String G_IN_VM = "in-VM connector (bindings deliveries from QMAGENT)";
    static final String G_COORDINATION_QM = "coordination queue manager (QMCOORD broker threads)";
    static final String G_AGENTS = "agents (command, transfer, data, replies, checkpoint)";
    static final String G_PUBLISHERS = "agents' publishers (their PublicationSender threads)";
    static final String G_LOGGER = "database logger (LogSubscriber and H2)";
    static final String G_CLIENT = "Artemis client pools (shared by agents, publishers, logger)";
    static final String G_BENCH = "benchmark (requester, counters, monitor)";
    static final String G_OTHER = "other threads";
    /** The order of the CPU table. */
    static final List<String> GROUPS = List.of(G_AGENT_QM, G_IN_VM, G_AGENTS, G_PUBLISHERS, G_CLIENT,
            G_COORDINATION_QM, G_LOGGER, G_BENCH, G_OTHER, ThreadCpuSampler.UNATTRIBUTED);

    private static final Originator ORIGINATOR = new Originator("localhost", "benchmark", null);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    static final long SMALL_FILE_BYTES = 64 << 10;

    /**
     * One configuration of the scenario.
     *
     * @param agents          agents in all, half sources
     * @param fileBytes       size of each of the {@value #FILES_PER_TRANSFER} files of a transfer
     * @param statusRateLimit agentStatusPublishRateLimit, seconds
     * @param statusRateMin   agentStatusPublishRateMin, seconds
     * @param rounds          measured rounds; the one of median set time gives the figures
     */
    public record Cell(int agents, long fileBytes, int statusRateLimit, int statusRateMin, int rounds) {
        public Cell {
            if (agents < 2 || agents % 2 != 0) {
                throw new IllegalArgumentException("the agent count must be even and at least 2, not " + agents);
            }
        }

        public String id() {
            return "coordination-" + agents + "-" + FILES_PER_TRANSFER + "x" + Report.size(fileBytes).replace(" ", "")
                    + "-status-" + statusRateLimit + "-" + statusRateMin;
        }

        public int pairs() {
            return agents / 2;
        }

        long bytesPerTransfer() {
            return FILES_PER_TRANSFER * fileBytes;
        }

        long totalBytes() {
            return pairs() * bytesPerTransfer();
        }

        /** The seed's 10 or 100 (MB per transfer) when our file size is its 1 MB or 10 MB, else -1. */
        int seedMegabytes() {
            if (fileBytes == Scale.MIB) {
                return 10;
            }
            return fileBytes == 10 * Scale.MIB ? 100 : -1;
        }
    }

    /**
     * The cells of a scale. Full: seed 001's sweep, 100 to 500 agents in steps of 100, each with its
     * 10 MB cell (10 x 1 MiB per transfer, three measured rounds) and its 100 MB cell (10 x 10 MiB,
     * one round: at 500 agents its files take a quarter of the disk), at the default status rates
     * (30 s / 300 s); then the 10 MB cell of the largest count again with status published often
     * (1 s / 5 s). Quick: 100 agents, the 10 MB cell at both status rates. {@code agentsOverride}
     * replaces the sweep by one agent count. Cells of one file size come together, fewest agents
     * first, so that one set of files serves them all.
     */
    public static List<Cell> cells(Scale scale, Integer agentsOverride) {
        boolean full = "full".equals(scale.name());
        List<Integer> counts = agentsOverride != null ? List.of(agentsOverride)
                : full ? List.of(100, 200, 300, 400, 500) : List.of(100);
        int largest = counts.get(counts.size() - 1);
        List<Cell> cells = new ArrayList<>();
        for (int agents : counts) {
            cells.add(new Cell(agents, Scale.MIB, 30, 300, 3));
        }
        cells.add(new Cell(largest, Scale.MIB, 1, 5, 3));
        if (full) {
            for (int agents : counts) {
                cells.add(new Cell(agents, 10 * Scale.MIB, 30, 300, 1));
            }
        }
        return cells;
    }

    private final Cell cell;
    private final Path root;
    private final Path transferRoot;
    private final Map<String, String> agentProperties;
    private final Consumer<String> log;
    private final CoordinationResult result;

    private EmbeddedQueueManager agentQm;
    private EmbeddedQueueManager coordinationQm;
    private int agentPort;
    private int coordinationPort;
    private QueueManagerConnector agentConnector;
    private QueueManagerConnector coordinationConnector;
    private CoordinationConfig coordinationConfig;
    private final Set<Long> agentQmThreads = new HashSet<>();
    private final Set<Long> coordinationQmThreads = new HashSet<>();
    private final Set<Long> loggerThreads = new HashSet<>();
    private final List<Agent> agents = new ArrayList<>();
    private final List<CoordinationPublisher> publishers = new ArrayList<>();
    private final AtomicInteger resends = new AtomicInteger();
    private final AtomicInteger connectionLosses = new AtomicInteger();
    private TimingStore store;
    private LogSubscriber logger;
    private Thread loggerThread;
    private StatusCounter statusCounter;
    private Requester requester;

    private CoordinationScenario(Cell cell, Path root, Path transferRoot, Map<String, String> agentProperties,
            Consumer<String> log) {
        this.cell = cell;
        this.root = root;
        this.transferRoot = transferRoot;
        this.agentProperties = agentProperties;
        this.log = log;
        this.result = new CoordinationResult(cell);
    }

    /**
     * Runs one cell under {@code root} (created, and deleted afterwards unless {@code keep}).
     *
     * @param files the source files: {@code files.get(pair)} are that pair's files
     */
    /** A cell that was not run, and why. */
    public static CoordinationResult notRun(Cell cell, String why) {
        CoordinationResult r = new CoordinationResult(cell);
        r.fail("not run: " + why);
        return r;
    }

    public static CoordinationResult run(Cell cell, Path root, PairFiles files, Map<String, String> agentProperties,
            Consumer<String> log) {
        CoordinationScenario s = new CoordinationScenario(cell, root, files.root, agentProperties, log);
        try {
            s.runCell(files);
        } catch (Throwable e) {
            s.result.fail("the cell stopped on " + e);
            e.printStackTrace(System.err);
        } finally {
            s.shutDown();
        }
        if (s.result.ok() || s.store != null) {
            try {
                s.checkDatabase(files);
            } catch (Exception e) {
                s.result.fail("the database check failed: " + e);
            }
        }
        return s.result;
    }

    // ------------------------------------------------------------------------------------------

    private void runCell(PairFiles files) throws Exception {
        Files.createDirectories(root);
        agentPort = freePort();
        coordinationPort = freePort();
        Set<Long> before = threadIds();
        agentQm = EmbeddedQueueManager.start(new QueueManagerSettings(AGENT_QM, root.resolve("qm-agent"), "127.0.0.1",
                agentPort));
        agentQmThreads.addAll(newThreads(before));
        before = threadIds();
        coordinationQm = EmbeddedQueueManager.start(new QueueManagerSettings(COORDINATION_QM,
                root.resolve("qm-coordination"), "127.0.0.1", coordinationPort));
        coordinationQmThreads.addAll(newThreads(before));
        // Agents, logger and counters log in to the coordination queue manager as its administrator.
        coordinationConfig = CoordinationConfig.from(Map.of("coordinationQMgr", COORDINATION_QM, "coordinationQMgrHost",
                "127.0.0.1", "coordinationQMgrPort", String.valueOf(coordinationPort),
                "coordinationQMgrAuthenticationCredentialsFile",
                coordinationQm.users().administratorCredentialsFile().toString()), Map.of());
        coordinationConnector = QueueManagerConnector.forAgent(coordinationConfig.endpoint(), null);

        startLogger();
        statusCounter = new StatusCounter(coordinationConnector);
        startAgents();
        if (!result.ok()) {
            return;
        }
        agentConnector = QueueManagerConnector.forAgent(new QueueManagerEndpoint(MessagingProvider.ARTEMIS, AGENT_QM,
                null, agentPort, "SYSTEM.DEF.SVRCONN"), null);
        requester = new Requester(agentConnector, cell.pairs());

        // Warm-up: one small file per pair, untimed; the logger stores its records too.
        log("warm-up: %d transfers of one %s file", cell.pairs(), Report.size(SMALL_FILE_BYTES));
        Round warm = requester.run(files.warmUpItems(), 120_000, () -> null);
        if (warm.failure != null) {
            result.fail("warm-up: " + warm.failure);
            return;
        }
        if (!store.awaitCompleted(warm.transferIds(), Duration.ofSeconds(120))) {
            result.fail("warm-up: the logger did not store every completed record within 120 s ("
                    + store.completedCount(warm.transferIds()) + " of " + cell.pairs() + ")");
            return;
        }
        files.cleanDestination();
        measureIdle();

        List<CoordinationResult> rounds = new ArrayList<>();
        for (int n = 1; n <= cell.rounds(); n++) {
            CoordinationResult r = measureRound(files, n);
            rounds.add(r);
            files.cleanDestination();
            if (!r.ok()) {
                result.absorb(r);
                return;
            }
        }
        // The round of median set time gives the figures; the others' times are listed beside it.
        List<CoordinationResult> byTime = new ArrayList<>(rounds);
        byTime.sort(java.util.Comparator.comparingDouble(r -> r.wallSeconds));
        CoordinationResult median = byTime.get((byTime.size() - 1) / 2);
        result.absorb(median);
        result.roundSeconds = rounds.stream().mapToDouble(r -> r.wallSeconds).toArray();
        result.roundAverageSeconds = rounds.stream().mapToDouble(CoordinationResult::averageTransferSeconds).toArray();
        result.medianRound = rounds.indexOf(median) + 1;
        lagIds = median.transferIds;
    }

    /** One measured round: every pair's transfer at once, then the logger drained, then the files checked. */
    private CoordinationResult measureRound(PairFiles files, int n) throws Exception {
        CoordinationResult result = new CoordinationResult(cell);
        preloadIfSmall(files.all());
        System.gc();
        long storedBefore = logger.stored();
        long duplicatesBefore = logger.duplicates();
        long rejectedBefore = logger.rejected();
        long status0 = statusCounter.status.get();
        long progress0 = statusCounter.progress.get();
        int resends0 = resends.get();
        int losses0 = connectionLosses.get();
        Monitor monitor = new Monitor();
        ThreadCpuSampler sampler = ThreadCpuSampler.startIfSupported(250);
        long machine0 = machineBusyNanos();
        long process0 = CpuClock.processCpuNanos();
        long t0 = System.nanoTime();
        log("measured round %d of %d: %d transfers of %d x %s, all submitted at once", n, cell.rounds(), cell.pairs(),
                FILES_PER_TRANSFER, Report.size(cell.fileBytes()));
        // Ends at once when the disk passes max-disk-usage: Artemis would hold every transfer until the timeout.
        Round round = requester.run(files.items(), 120_000 + cell.totalBytes() / 20_000, monitor::diskFull);
        long finished = System.nanoTime();
        boolean drained = round.failure == null
                && store.awaitCompleted(round.transferIds(), Duration.ofSeconds(300));
        long drainedAt = System.nanoTime();
        long machine1 = machineBusyNanos();
        long process1 = CpuClock.processCpuNanos();
        if (sampler != null) {
            sampler.close();
        }
        monitor.close();
        result.cpuIntervalSeconds = (drainedAt - t0) / 1e9;
        if (machine0 >= 0 && machine1 >= 0 && process0 >= 0) {
            // Other work may share the machine: what the rest of it used is shown beside ours.
            result.otherProcessesCpuSeconds = Math.max(0, (machine1 - machine0) - (process1 - process0)) / 1e9;
        }
        if (sampler != null) {
            result.cpuNanos.putAll(ordered(sampler.byGroup(this::classify)));
            result.rawCpuNanos.putAll(sampler.byGroup((id, name) -> ThreadCpuSampler.group(name)));
        }
        result.statusPublications = statusCounter.status.get() - status0;
        result.progressPublications = statusCounter.progress.get() - progress0;
        result.resends = resends.get() - resends0;
        result.connectionLosses = connectionLosses.get() - losses0;
        result.recordsStored = logger.stored() - storedBefore;
        result.recordsDuplicate = logger.duplicates() - duplicatesBefore;
        result.recordsRejected = logger.rejected() - rejectedBefore;
        monitor.copyTo(result);
        result.bytes = cell.totalBytes();
        if (round.failure != null) {
            result.fail("round " + n + ": " + round.failure);
            return result;
        }
        String diskFull = monitor.diskFull();
        if (diskFull != null) {
            result.fail("round " + n + ": " + diskFull);
            return result;
        }
        result.wallSeconds = (round.lastFinal() - round.submitted) / 1e9;
        result.transferSeconds = round.transferSeconds();
        result.transferIds = round.transferIds();
        measuredIds.addAll(round.transferIds());
        if (!drained) {
            result.fail("round " + n + ": the logger did not store every completed record within 300 s of the last"
                    + " transfer (" + store.completedCount(round.transferIds()) + " of " + cell.pairs() + ")");
            return result;
        }
        result.drainSeconds = (store.lastCompletedCommit(round.transferIds()) - finished) / 1e9;
        result.lagToCommitMillis = store.commitLagMillis(round.transferIds());
        log("  %d transfers in %.2f s (average %.2f s each); logger drained %.2f s after the last; %.1f CPU s;"
                + " verifying files", cell.pairs(), result.wallSeconds, result.averageTransferSeconds(),
                result.drainSeconds, result.totalCpuSeconds());
        String bad = files.verify();
        if (bad != null) {
            result.fail("round " + n + ": destination check failed: " + bad);
        }
        return result;
    }

    /** Every measured transfer of the cell, whose rows are checked. */
    private final List<String> measuredIds = new ArrayList<>();
    /** The transfers of the median round, whose logger lag is reported. */
    private List<String> lagIds = List.of();

    /**
     * Reads the sources once so that they start in the page cache, as in the other scenarios; not
     * when they would take more than a quarter of the memory (the 100 MiB cell), where they could
     * not all stay there anyway.
     */
    private void preloadIfSmall(List<Path> sources) throws IOException {
        long total = 0;
        for (Path p : sources) {
            total += Files.size(p);
        }
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        if (total <= memory / 4) {
            TestFiles.preload(sources);
        } else {
            result.notes.add("the " + Report.size(total) + " of source files were not read into the page cache"
                    + " beforehand (more than a quarter of the memory)");
        }
    }

    private void startLogger() throws Exception {
        LoggerConfig config = LoggerConfig.from(Map.of("wmqfte.logger.type", "DATABASE", "wmqfte.queue.manager",
                COORDINATION_QM, "wmqfte.queue.manager.host", "127.0.0.1", "wmqfte.queue.manager.port",
                String.valueOf(coordinationPort)), LOGGER, Map.of());
        result.maxTransactionMessages = config.maxTransactionMessages();
        result.maxTransactionMillis = config.maxTransactionTime().toMillis();
        new ArtemisQueueAdmin(coordinationConnector).createQueues(List.of(QueueNames.loggerCommand(LOGGER),
                QueueNames.loggerReject(LOGGER)));
        Set<Long> before = threadIds();
        store = new TimingStore(JdbcLogStore.openH2(root.resolve("logger-db")));
        logger = new LogSubscriber(config, coordinationConnector, store);
        loggerThread = new Thread(logger, "bench-logger");
        loggerThread.setDaemon(true);
        loggerThread.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!logger.connected()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the logger did not subscribe within 30 s");
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
        loggerThreads.addAll(newThreads(before));
        loggerSubscriptionQueue = ActiveMQDestination.createQueueNameForSubscription(true,
                LogSubscriber.clientId(LOGGER), LogSubscriber.subscriptionName(config)).toString();
    }

    private String loggerSubscriptionQueue;

    private void startAgents() throws Exception {
        System.gc();
        result.threadsBefore = THREADS.getThreadCount();
        result.heapBeforeMib = heapUsedMib();
        result.fdsBefore = openFileDescriptors();
        log("starting %d agents (%d source/destination pairs), status every %d s at most, %d s at least",
                cell.agents(), cell.pairs(), cell.statusRateLimit(), cell.statusRateMin());
        long t0 = System.nanoTime();
        int step = Math.max(1, cell.agents() / 5);
        try {
            for (int i = 1; i <= cell.pairs(); i++) {
                startAgent(sourceName(i));
                startAgent(destinationName(i));
                if ((2 * i) % step == 0 || i == cell.pairs()) {
                    String snap = String.format(Locale.ROOT, "%d agents: %d threads, %.0f MiB heap in use, %d fds,"
                            + " %.1f s", agents.size(), THREADS.getThreadCount(), heapUsedMib(), openFileDescriptors(),
                            (System.nanoTime() - t0) / 1e9);
                    result.startProgress.add(snap);
                    log("  %s", snap);
                }
            }
        } catch (Throwable e) {
            String snap = String.format(Locale.ROOT, "%d threads, %.0f MiB heap in use, %d fds", THREADS.getThreadCount(),
                    heapUsedMib(), openFileDescriptors());
            result.fail("agent " + (agents.size() + 1) + " of " + cell.agents() + " did not start (" + snap + "): " + e);
            result.agentsStarted = agents.size();
            return;
        }
        result.agentsStarted = agents.size();
        result.startSeconds = (System.nanoTime() - t0) / 1e9;
        // Settled: every agent READY and its first status on the coordination queue manager.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (statusCounter.status.get() < cell.agents()
                || agents.stream().anyMatch(a -> a.state() != AgentState.READY)) {
            if (System.nanoTime() > deadline) {
                result.fail("120 s after the agents started, " + statusCounter.status.get() + " status publications of "
                        + cell.agents() + " had arrived and " + agents.stream().filter(a -> a.state() == AgentState.READY)
                                .count() + " agents were READY");
                return;
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        System.gc();
        result.threadsAfter = THREADS.getThreadCount();
        result.heapAfterMib = heapUsedMib();
        result.fdsAfter = openFileDescriptors();
        result.rssAfterMib = procStatusMib("VmRSS");
        log("  %d agents started in %.1f s: %+d threads, %+.0f MiB heap, %+d file descriptors", agents.size(),
                result.startSeconds, result.threadsAfter - result.threadsBefore, result.heapAfterMib - result.heapBeforeMib,
                result.fdsAfter - result.fdsBefore);
    }

    static String sourceName(int pair) {
        return String.format(Locale.ROOT, "SRC%03d", pair);
    }

    static String destinationName(int pair) {
        return String.format(Locale.ROOT, "DST%03d", pair);
    }

    private void startAgent(String name) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", name, "agentQMgr", AGENT_QM, "agentQMgrPort",
                String.valueOf(agentPort), "immediateShutdownTimeout", "5", "transferRoot", transferRoot.toString(),
                "agentStatusPublishRateLimit", String.valueOf(cell.statusRateLimit()), "agentStatusPublishRateMin",
                String.valueOf(cell.statusRateMin())));
        raw.putAll(agentProperties);
        AgentConfig config = AgentConfig.from(raw, Map.of());
        CoordinationPublisher publisher = CoordinationPublisher.create(config, coordinationConfig, root.resolve("qmgrs"),
                Clock.systemUTC());
        publishers.add(publisher);
        Agent agent = new Agent(config, QueueManagerConnector.forAgent(config.endpoint(), null),
                new CountingListener(publisher), root.resolve("state").resolve(name));
        agents.add(agent);
        agent.start();
        publisher.start();
    }

    /**
     * CPU of the idle agents over 10 s: command loops, publishers' ticks, status publications. The
     * window opens once the status publications the warm-up left due are out: an agent publishes a
     * change of its status at most every {@code agentStatusPublishRateLimit} seconds, so after the
     * warm-up's transfers many are due up to that long later, which is the warm-up's cost, not the
     * idle agents'. So the window opens that limit and 2 s after the warm-up ended.
     */
    private void measureIdle() throws InterruptedException {
        long due = statusCounter.status.get();
        TimeUnit.SECONDS.sleep(cell.statusRateLimit() + 2L);
        log("  %d status publications the warm-up left due went out in the %d s before the idle window",
                statusCounter.status.get() - due, cell.statusRateLimit() + 2);
        long status0 = statusCounter.status.get();
        ThreadCpuSampler sampler = ThreadCpuSampler.startIfSupported(250);
        long t0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(10);
        if (sampler != null) {
            sampler.close();
            result.idleCpuNanos.putAll(ordered(sampler.byGroup(this::classify)));
        }
        result.idleSeconds = (System.nanoTime() - t0) / 1e9;
        result.idleStatusPublications = statusCounter.status.get() - status0;
        double total = result.idleCpuNanos.values().stream().mapToLong(Long::longValue).sum() / 1e9;
        log("  idle: %.3f cores for %d agents over %.1f s; %d status publications", total / result.idleSeconds,
                agents.size(), result.idleSeconds, result.idleStatusPublications);
    }

    private static Map<String, Long> ordered(Map<String, Long> groups) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String g : GROUPS) {
            out.put(g, groups.getOrDefault(g, 0L));
        }
        groups.forEach(out::putIfAbsent);
        return out;
    }

    /** Which part of the set-up a thread works for (see {@link #GROUPS}). */
    String classify(long id, String name) {
        if (agentQmThreads.contains(id)) {
            return G_AGENT_QM;
        }
        if (coordinationQmThreads.contains(id)) {
            return G_COORDINATION_QM;
        }
        if (loggerThreads.contains(id)) {
            return G_LOGGER;
        }
        return classify(name);
    }

    /** As {@link #classify(long, String)} for a thread that did not exist when the brokers started. */
    static String classify(String name) {
        if (name == null) {
            return G_OTHER;
        }
        if (name.contains(artemisName(AGENT_QM))) {
            return G_AGENT_QM;
        }
        if (name.contains(artemisName(COORDINATION_QM))) {
            return G_COORDINATION_QM;
        }
        if (name.contains("in-v-m-connector")) {
            return G_IN_VM;
        }
        // "openmft-publisher", or with the agent's name, "openmft-SRC001-publisher".
        if (name.startsWith("openmft-") && name.endsWith("-publisher")) {
            return G_PUBLISHERS;
        }
        if (name.startsWith("openmft-")) {
            return G_AGENTS;
        }
        if (name.equals("bench-logger") || name.startsWith("H2 ") || name.startsWith("MVStore")) {
            return G_LOGGER;
        }
        if (name.startsWith("bench-") || name.equals("main")) {
            return G_BENCH;
        }
        if (name.contains("activemq-client") || name.contains("activemq-netty")) {
            return G_CLIENT;
        }
        return G_OTHER;
    }

    /** How Artemis spells a broker name in its thread names: "QMAGENT" is "-q-m-a-g-e-n-t". */
    static String artemisName(String broker) {
        StringBuilder sb = new StringBuilder();
        for (char ch : broker.toCharArray()) {
            if (Character.isUpperCase(ch)) {
                sb.append('-').append(Character.toLowerCase(ch));
            } else {
                sb.append(ch);
            }
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------

    private void shutDown() {
        long t0 = System.nanoTime();
        if (requester != null) {
            requester.close();
        }
        // A failed cell may leave transfers that cannot finish (a full disk blocks their messages):
        // those agents stop at once; after a good cell they stop as an administrator stops them.
        boolean immediate = !result.ok();
        for (Agent a : agents) {
            a.requestStop(immediate);
        }
        for (Agent a : agents) {
            try {
                if (!a.awaitStopped(Duration.ofSeconds(30))) {
                    result.notes.add("agent " + a.name() + " did not stop within 30 s of a controlled stop");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            a.close();
        }
        // Each publisher flushes for up to 5 s: close them side by side.
        ExecutorService closer = Executors.newFixedThreadPool(16, r -> {
            Thread t = new Thread(r, "bench-closer");
            t.setDaemon(true);
            return t;
        });
        List<Future<?>> closing = new ArrayList<>();
        for (CoordinationPublisher p : publishers) {
            closing.add(closer.submit(() -> p.close()));
        }
        for (Future<?> f : closing) {
            try {
                f.get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                result.notes.add("a publisher did not close: " + e);
            }
        }
        closer.shutdownNow();
        int held = publishers.stream().mapToInt(CoordinationPublisher::held).sum();
        if (held > 0) {
            result.notes.add(held + " publications still held in memory by the publishers after they closed");
        }
        if (statusCounter != null) {
            statusCounter.close();
        }
        if (logger != null) {
            logger.stop();
            try {
                if (!logger.awaitStopped(Duration.ofSeconds(30))) {
                    result.notes.add("the logger did not stop within 30 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (store != null) {
            try {
                store.close();
            } catch (LogStoreException e) {
                result.notes.add("closing the logger database: " + e.getMessage());
            }
        }
        if (coordinationQm != null) {
            coordinationQm.close();
        }
        if (agentQm != null) {
            agentQm.close();
        }
        result.peakRssMib = procStatusMib("VmHWM");
        log("  stopped %d agents, the logger and both queue managers in %.1f s", agents.size(),
                (System.nanoTime() - t0) / 1e9);
    }

    /** Reads the log tables back: rows per transfer and action, items and their MD5s, the logger's lag. */
    private void checkDatabase(PairFiles files) throws SQLException, IOException {
        if (measuredIds.isEmpty()) {
            return;
        }
        Map<String, Map<String, Integer>> rows = new HashMap<>();
        Map<String, Double> lag = new HashMap<>();
        Map<String, String> states = new HashMap<>();
        Map<String, List<String[]>> items = new HashMap<>();
        try (Connection c = EmbeddedDatabase.connect(root.resolve("logger-db"));
                Statement st = c.createStatement()) {
            String schema = JdbcLogStore.DEFAULT_SCHEMA;
            try (ResultSet rs = st.executeQuery("select transfer_id, log_action, count(*) from " + schema
                    + ".log_record group by transfer_id, log_action")) {
                while (rs.next()) {
                    rows.computeIfAbsent(rs.getString(1), k -> new HashMap<>()).put(rs.getString(2), rs.getInt(3));
                }
            }
            try (ResultSet rs = st.executeQuery("select transfer_id, action_time, received_time from " + schema
                    + ".log_record where log_action = 'completed'")) {
                while (rs.next()) {
                    Instant action = rs.getObject(2, OffsetDateTime.class).toInstant();
                    Instant received = rs.getObject(3, OffsetDateTime.class).toInstant();
                    lag.put(rs.getString(1), Duration.between(action, received).toNanos() / 1e6);
                }
            }
            try (ResultSet rs = st.executeQuery("select transfer_id, state, result_code from " + schema + ".transfer")) {
                while (rs.next()) {
                    states.put(rs.getString(1), rs.getString(2) + "/" + rs.getString(3));
                }
            }
            try (ResultSet rs = st.executeQuery("select transfer_id, source, destination, checksum, result_code from "
                    + schema + ".transfer_item")) {
                while (rs.next()) {
                    items.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(new String[] {rs.getString(2),
                        rs.getString(3), rs.getString(4), rs.getString(5)});
                }
            }
        }
        List<String> problems = new ArrayList<>();
        List<Double> lags = new ArrayList<>();
        Set<String> lagged = new HashSet<>();
        lagIds.forEach(i -> lagged.add(i.toLowerCase(Locale.ROOT)));
        int minProgress = Integer.MAX_VALUE;
        int maxProgress = 0;
        for (int i = 0; i < measuredIds.size(); i++) {
            String id = measuredIds.get(i).toLowerCase(Locale.ROOT);
            Map<String, Integer> r = rows.getOrDefault(id, Map.of());
            int started = r.getOrDefault(LogAction.STARTED.xml(), 0);
            int progress = r.getOrDefault(LogAction.PROGRESS.xml(), 0);
            int completed = r.getOrDefault(LogAction.COMPLETED.xml(), 0);
            minProgress = Math.min(minProgress, progress);
            maxProgress = Math.max(maxProgress, progress);
            if (started != 1 || completed != 1 || progress < 1 || r.size() != 3) {
                problems.add(id + " has rows " + r);
            }
            if (!("SUCCESSFUL/0").equals(states.get(id))) {
                problems.add(id + " is stored as " + states.get(id));
            }
            List<String[]> its = items.getOrDefault(id, List.of());
            if (its.size() != FILES_PER_TRANSFER) {
                problems.add(id + " has " + its.size() + " items stored");
            }
            for (String[] it : its) {
                String expected = files.md5Of(it[0]);
                if (expected == null || !expected.equals(it[2]) || !"0".equals(it[3])) {
                    problems.add(id + " item " + it[0] + " stored with MD5 " + it[2] + " result " + it[3]
                            + ", the source's MD5 is " + expected);
                }
            }
            Double l = lag.get(id);
            if (l != null && lagged.contains(id)) {
                lags.add(l);
            }
        }
        result.lagToReceivedMillis = lags.stream().mapToDouble(Double::doubleValue).toArray();
        result.minProgressRecords = minProgress == Integer.MAX_VALUE ? -1 : minProgress;
        result.maxProgressRecords = maxProgress;
        result.rowsCheck = problems.isEmpty() ? null
                : problems.size() + " problem(s), first: " + String.join("; ", problems.subList(0,
                        Math.min(3, problems.size())));
        if (result.rowsCheck != null) {
            result.fail("log rows: " + result.rowsCheck);
        }
    }

    // ------------------------------------------------------------------------------------------

    private void log(String format, Object... args) {
        log.accept(String.format(Locale.ROOT, format, args));
    }

    private static Set<Long> threadIds() {
        Set<Long> ids = new HashSet<>();
        for (long id : THREADS.getAllThreadIds()) {
            ids.add(id);
        }
        return ids;
    }

    private static Set<Long> newThreads(Set<Long> before) {
        Set<Long> now = threadIds();
        now.removeAll(before);
        return now;
    }

    static double heapUsedMib() {
        return MEMORY.getHeapMemoryUsage().getUsed() / (double) Scale.MIB;
    }

    /** Open file descriptors of this process, or -1 where /proc is missing. */
    static int openFileDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU time the whole machine spent busy (all processes), from /proc/stat in USER_HZ (100) ticks,
     * or -1 where there is none.
     */
    static long machineBusyNanos() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            // user nice system idle iowait irq softirq steal: all but idle and iowait.
            for (int i = 1; i <= 8 && i < f.length; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy * 10_000_000L;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** A /proc/self/status value in MiB (VmRSS, VmHWM), or NaN. */
    static double procStatusMib(String key) {
        return org.openmft.bench.measure.ProcStatus.mib(key);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    // ------------------------------------------------------------------------------------------

    /** Forwards every event to the agent's publisher, counting resends and connection losses. */
    private final class CountingListener extends ForwardingAgentListener {
        private final CoordinationPublisher publisher;

        CountingListener(CoordinationPublisher publisher) {
            this.publisher = publisher;
        }

        @Override
        protected AgentListener delegate() {
            return publisher;
        }

        @Override
        public void connectionLost(String agent, String qmgr, String reason) {
            connectionLosses.incrementAndGet();
            super.connectionLost(agent, qmgr, reason);
        }

        @Override
        public void resending(String agent, String transferId, long fromSeq, String reason) {
            resends.incrementAndGet();
            super.resending(agent, transferId, fromSeq, reason);
        }
    }

    /**
     * The logger's store, noting when each batch was committed: the moment a record reached the
     * database, which {@code received_time} (taken when the batch was read) precedes.
     */
    static final class TimingStore extends ForwardingLogStore {
        /** Transfer id (lower case) to the nanoTime its completed record was committed. */
        private final Map<String, Long> completedCommitted = new ConcurrentHashMap<>();
        /** Transfer id (lower case) to the completed record's action time. */
        private final Map<String, Instant> completedActionTime = new ConcurrentHashMap<>();
        private final Map<String, Instant> completedCommitInstant = new ConcurrentHashMap<>();

        TimingStore(LogStore delegate) {
            super(delegate);
        }

        @Override
        public List<StoreOutcome> storeAll(List<LogRecord> records) throws LogStoreException {
            List<StoreOutcome> outcomes = delegate.storeAll(records);
            long now = System.nanoTime();
            Instant instant = Instant.now();
            for (int i = 0; i < records.size() && i < outcomes.size(); i++) {
                LogRecord r = records.get(i);
                // Authority refusals (r.log() == null) end no transfer.
                if (outcomes.get(i).status() == StoreOutcome.Status.STORED && r.log() != null
                        && r.log().action() == LogAction.COMPLETED) {
                    String id = r.transferId().toLowerCase(Locale.ROOT);
                    completedCommitted.put(id, now);
                    completedCommitInstant.put(id, instant);
                    completedActionTime.put(id, r.log().time());
                }
            }
            return outcomes;
        }

        int completedCount(List<String> ids) {
            int n = 0;
            for (String id : ids) {
                if (completedCommitted.containsKey(id.toLowerCase(Locale.ROOT))) {
                    n++;
                }
            }
            return n;
        }

        boolean awaitCompleted(List<String> ids, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (completedCount(ids) < ids.size()) {
                if (System.nanoTime() > deadline) {
                    return false;
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
            return true;
        }

        long lastCompletedCommit(List<String> ids) {
            long last = Long.MIN_VALUE;
            for (String id : ids) {
                last = Math.max(last, completedCommitted.get(id.toLowerCase(Locale.ROOT)));
            }
            return last;
        }

        /** Per transfer, from the completed record's action time to its commit, in milliseconds. */
        double[] commitLagMillis(List<String> ids) {
            double[] out = new double[ids.size()];
            for (int i = 0; i < ids.size(); i++) {
                String id = ids.get(i).toLowerCase(Locale.ROOT);
                out[i] = Duration.between(completedActionTime.get(id), completedCommitInstant.get(id)).toNanos() / 1e6;
            }
            return out;
        }
    }

    /** One round of transfers: when each was put, acknowledged and finished. */
    static final class Round {
        long submitted;
        final long[] finals;
        final String[] ids;
        String failure;

        Round(int pairs) {
            finals = new long[pairs];
            ids = new String[pairs];
        }

        List<String> transferIds() {
            return List.of(ids);
        }

        long lastFinal() {
            return Arrays.stream(finals).max().orElse(submitted);
        }

        double[] transferSeconds() {
            return Arrays.stream(finals).mapToDouble(f -> (f - submitted) / 1e9).toArray();
        }
    }

    /**
     * Puts every pair's request in one transaction, each with its own temporary reply queue whose
     * listener notes the acknowledgement and the final reply.
     */
    private static final class Requester {
        private final jakarta.jms.Connection connection;
        private final Session producerSession;
        private final Session replySession;
        private final TemporaryQueue[] replyQueues;
        private final MessageConsumer[] consumers;
        private final RequestParser parser = new RequestParser();
        private final DocumentWriter writer = new DocumentWriter();
        private volatile Round round;
        private volatile CountDownLatch done;

        Requester(QueueManagerConnector connector, int pairs) throws Exception {
            connection = connector.connect();
            producerSession = connection.createSession(true, Session.SESSION_TRANSACTED);
            replySession = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            replyQueues = new TemporaryQueue[pairs];
            consumers = new MessageConsumer[pairs];
            for (int i = 0; i < pairs; i++) {
                replyQueues[i] = replySession.createTemporaryQueue();
                consumers[i] = replySession.createConsumer(replyQueues[i]);
                int pair = i;
                consumers[i].setMessageListener(m -> onReply(pair, m));
            }
            connection.start();
        }

        private void onReply(int pair, Message m) {
            long now = System.nanoTime();
            Round r = round;
            try {
                Reply reply = parser.parseReply(((TextMessage) m).getText());
                synchronized (r) {
                    if (r.ids[pair] == null) {
                        r.ids[pair] = reply.requestId();
                        if (reply.resultCode() != 0) {
                            r.failure = r.failure != null ? r.failure : "pair " + (pair + 1) + ": request refused with"
                                    + " result " + reply.resultCode() + ": " + reply.supplements();
                            r.finals[pair] = now;
                            done.countDown();
                        }
                        return;
                    }
                    r.finals[pair] = now;
                    if (reply.resultCode() != 0 && r.failure == null) {
                        r.failure = "pair " + (pair + 1) + ": transfer " + reply.requestId() + " ended with result "
                                + reply.resultCode() + ": " + reply.supplements() + " " + reply.items();
                    }
                }
                done.countDown();
            } catch (Exception e) {
                synchronized (r) {
                    if (r.failure == null) {
                        r.failure = "pair " + (pair + 1) + ": unreadable reply: " + e;
                    }
                }
            }
        }

        /**
         * Submits one transfer a pair and waits for every final reply, for {@code timeoutMillis} at
         * most, or until {@code stop}, asked every second, gives a reason to stop waiting.
         */
        public Round run(List<List<TransferItem>> itemsPerPair, long timeoutMillis, Supplier<String> stop)
                throws Exception {
            int pairs = itemsPerPair.size();
            Round r = new Round(pairs);
            done = new CountDownLatch(pairs);
            round = r;
            List<TextMessage> requests = new ArrayList<>();
            for (int i = 0; i < pairs; i++) {
                TransferRequest request = new TransferRequest("6.00", ORIGINATOR, new AgentRef(sourceName(i + 1),
                        AGENT_QM), new AgentRef(destinationName(i + 1), AGENT_QM),
                        new ReplyTo(replyQueues[i].getQueueName(), AGENT_QM, false),
                        new TransferSet(0, null, Map.of(), itemsPerPair.get(i)), String.format(Locale.ROOT, "PAIR%03d",
                                i + 1));
                TextMessage m = producerSession.createTextMessage(writer.write(request));
                m.setJMSReplyTo(replyQueues[i]);
                requests.add(m);
            }
            for (int i = 0; i < pairs; i++) {
                try (MessageProducer p = producerSession.createProducer(producerSession.createQueue(
                        "SYSTEM.FTE.COMMAND." + sourceName(i + 1)))) {
                    p.send(requests.get(i));
                }
            }
            r.submitted = System.nanoTime();
            producerSession.commit();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
            while (!done.await(Math.min(1000, Math.max(0, (deadline - System.nanoTime()) / 1_000_000)),
                    TimeUnit.MILLISECONDS)) {
                String why = stop.get();
                if (why != null || System.nanoTime() - deadline >= 0) {
                    synchronized (r) {
                        long missing = Arrays.stream(r.finals).filter(f -> f == 0).count();
                        r.failure = r.failure != null ? r.failure : why != null ? why : missing + " of " + pairs
                                + " transfers had no final reply within " + timeoutMillis / 1000 + " s";
                    }
                    break;
                }
            }
            return r;
        }

        void close() {
            try {
                connection.close();
            } catch (JMSException e) {
                // Closing at the end of the cell.
            }
        }
    }

    /** Counts status and progress publications on the coordination queue manager. */
    private static final class StatusCounter {
        final AtomicLong status = new AtomicLong();
        final AtomicLong progress = new AtomicLong();
        private final jakarta.jms.Connection connection;
        private final Thread thread;
        private volatile boolean running = true;

        StatusCounter(QueueManagerConnector coordination) throws Exception {
            connection = coordination.connect();
            Session session = connection.createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
            String selector = "(" + Publications.selector("SYSTEM.FTE/Agents/#") + ") OR ("
                    + Publications.selector("SYSTEM.FTE/Transfers/#") + ")";
            MessageConsumer consumer = session.createConsumer(session.createTopic(Publications.TOPIC), selector);
            connection.start();
            thread = new Thread(() -> {
                while (running) {
                    try {
                        Message m = consumer.receive(200);
                        if (m == null) {
                            continue;
                        }
                        String topic = m.getStringProperty(Publications.TOPIC_STRING_PROPERTY);
                        (topic != null && topic.startsWith("SYSTEM.FTE/Agents/") ? status : progress).incrementAndGet();
                    } catch (JMSException e) {
                        if (running) {
                            System.err.println("status counter: " + e);
                        }
                        return;
                    }
                }
            }, "bench-status-counter");
            thread.setDaemon(true);
            thread.start();
        }

        void close() {
            running = false;
            try {
                thread.join(2000);
                connection.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (JMSException e) {
                // Closing at the end of the cell.
            }
        }
    }

    /**
     * Samples once a second what could pile up: publications held in the publishers' memory, on
     * their outbox queues, and on the logger's subscription; heap and threads.
     */
    private final class Monitor implements AutoCloseable {
        private final Thread thread;
        private volatile boolean running = true;
        private int maxHeldTotal;
        private int maxHeldOne;
        private long maxOutboxTotal = -1;
        private long maxOutboxOne = -1;
        private long maxBacklog = -1;
        private double maxHeap;
        private int maxThreads;
        /**
         * The highest share of the work directory's disk in use, as Artemis reckons it for
         * max-disk-usage; guarded by {@code diskLock}, not the monitor's own lock: the depth queries
         * of a sample can wait for a struggling queue manager, and the round asks for this meanwhile.
         */
        private double maxDiskUsed;
        private final Object diskLock = new Object();

        Monitor() {
            List<String> outboxes = new ArrayList<>();
            for (Agent a : agents) {
                outboxes.add(QueueNames.publish(a.name()));
            }
            ArtemisQueueAdmin agentAdmin = new ArtemisQueueAdmin(agentConnector);
            ArtemisQueueAdmin coordinationAdmin = new ArtemisQueueAdmin(coordinationConnector);
            thread = new Thread(() -> {
                while (running) {
                    sampleDisk();
                    sample(outboxes, agentAdmin, coordinationAdmin);
                    try {
                        TimeUnit.SECONDS.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "bench-monitor");
            thread.setDaemon(true);
            thread.start();
        }

        private synchronized void sample(List<String> outboxes, ArtemisQueueAdmin agentAdmin,
                ArtemisQueueAdmin coordinationAdmin) {
            int total = 0;
            for (CoordinationPublisher p : publishers) {
                int h = p.held();
                total += h;
                maxHeldOne = Math.max(maxHeldOne, h);
            }
            maxHeldTotal = Math.max(maxHeldTotal, total);
            try {
                long sum = 0;
                for (long d : agentAdmin.depths(outboxes).values()) {
                    sum += Math.max(0, d);
                    maxOutboxOne = Math.max(maxOutboxOne, d);
                }
                maxOutboxTotal = Math.max(maxOutboxTotal, sum);
                Long backlog = coordinationAdmin.depths(List.of(loggerSubscriptionQueue)).get(loggerSubscriptionQueue);
                if (backlog != null && backlog >= 0) {
                    maxBacklog = Math.max(maxBacklog, backlog);
                }
            } catch (QueueManagerException e) {
                // A missed sample.
            }
            maxHeap = Math.max(maxHeap, heapUsedMib());
            maxThreads = Math.max(maxThreads, THREADS.getThreadCount());
        }

        @Override
        public void close() {
            running = false;
            thread.interrupt();
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Notes the disk's use now; returns the highest seen. */
        private double sampleDisk() {
            synchronized (diskLock) {
                try {
                    maxDiskUsed = Math.max(maxDiskUsed, DiskRoom.usedShare(root));
                } catch (java.io.IOException e) {
                    // The directory is there for the whole round; a failed look is not a full disk.
                }
                return maxDiskUsed;
            }
        }

        /**
         * Why the round's times are not the agents' when the disk passed the queue managers'
         * max-disk-usage (Artemis's default, which they keep): Artemis then blocks every producer
         * until space is freed. Null when it stayed below. Asked every second as the round waits, it
         * looks at the disk itself: a sample's depth queries may be waiting for the queue manager.
         */
        String diskFull() {
            double limit = DiskRoom.limit();
            double maxDiskUsed = sampleDisk();
            return maxDiskUsed <= limit ? null : String.format(Locale.ROOT, "the disk of %s was %.1f%% used during the"
                    + " round, past the queue managers' max-disk-usage of %.0f%%: Artemis blocked the producers, so the"
                    + " times are not the agents'; free space and run again", root, 100 * maxDiskUsed, 100 * limit);
        }

        synchronized void copyTo(CoordinationResult r) {
            r.maxHeldTotal = maxHeldTotal;
            r.maxHeldOneAgent = maxHeldOne;
            r.maxOutboxTotal = maxOutboxTotal;
            r.maxOutboxOneAgent = maxOutboxOne;
            r.maxLoggerBacklog = maxBacklog;
            r.maxHeapMib = maxHeap;
            r.maxThreads = maxThreads;
        }
    }

    /**
     * The source files of every pair (10 per pair, distinct random content), their MD5s, and the
     * pairs' destination directories.
     */
    public static final class PairFiles {
        public final Path root;
        public final int pairs;
        public final long fileBytes;
        private final Map<String, String> md5s = new ConcurrentHashMap<>();
        private final List<List<Path>> sources = new ArrayList<>();
        private final List<Path> small = new ArrayList<>();

        private PairFiles(Path root, int pairs, long fileBytes) {
            this.root = root;
            this.pairs = pairs;
            this.fileBytes = fileBytes;
        }

        /** The files of the first {@code n} pairs only, for a cell with fewer agents; the same files. */
        public PairFiles firstPairs(int n) {
            if (n > pairs) {
                throw new IllegalArgumentException(n + " pairs asked of files for " + pairs);
            }
            if (n == pairs) {
                return this;
            }
            PairFiles f = new PairFiles(root, n, fileBytes);
            f.md5s.putAll(md5s);
            f.sources.addAll(sources.subList(0, n));
            f.small.addAll(small.subList(0, n));
            return f;
        }

        /**
         * The largest of {@code pairCounts} whose files of {@code fileBytes} (sources and
         * destinations) and queue managers fit on the disk of {@code dir} below the queue managers'
         * max-disk-usage once {@code freed} bytes are deleted; 0 when none does.
         */
        public static int pairsWithRoom(Path dir, List<Integer> pairCounts, long fileBytes, long freed)
                throws IOException {
            return DiskRoom.largestFitting(pairCounts, fileBytes, SMALL_FILE_BYTES, DiskRoom.room(dir, freed));
        }

        /**
         * Why {@code pairs} pairs of files of {@code fileBytes} cannot be generated and run on the
         * disk of {@code dir} once {@code freed} bytes are deleted, or null when they can.
         */
        public static String noRoom(Path dir, int pairs, long fileBytes, long freed) throws IOException {
            return DiskRoom.shortfall(dir, DiskRoom.cellBytes(pairs, fileBytes, SMALL_FILE_BYTES), freed);
        }

        /** Why the destinations of these files' first {@code n} pairs do not fit on the disk now, or null. */
        public String noRoomForDestinations(int n) throws IOException {
            return DiskRoom.shortfall(root, DiskRoom.destinationBytes(n, fileBytes, SMALL_FILE_BYTES)
                    + DiskRoom.QUEUE_MANAGER_ALLOWANCE, 0);
        }

        /** The bytes of the source files, freed when they are deleted. */
        public long sourceBytes() {
            return DiskRoom.destinationBytes(pairs, fileBytes, SMALL_FILE_BYTES);
        }

        /** Writes (two threads) and fsyncs every file under {@code root}. */
        public static PairFiles generate(Path root, int pairs, long fileBytes) throws Exception {
            PairFiles f = new PairFiles(root, pairs, fileBytes);
            List<Path[]> jobs = new ArrayList<>();
            for (int p = 1; p <= pairs; p++) {
                List<Path> own = new ArrayList<>();
                for (int i = 1; i <= FILES_PER_TRANSFER; i++) {
                    own.add(f.sourceDir(p).resolve(String.format(Locale.ROOT, "file-%02d.bin", i)));
                }
                f.sources.add(own);
                f.small.add(f.sourceDir(p).resolve("warm-up.bin"));
                Files.createDirectories(f.sourceDir(p));
                Files.createDirectories(f.destinationDir(p));
            }
            long seed = 2018_08_01L;
            ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "bench-file-writer"));
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int p = 0; p < pairs; p++) {
                    for (Path s : f.sources.get(p)) {
                        long sd = seed++;
                        done.add(pool.submit(() -> f.md5s.put(s.toString(), TestFiles.write(s, fileBytes, sd))));
                    }
                    Path w = f.small.get(p);
                    long sd = seed++;
                    done.add(pool.submit(() -> f.md5s.put(w.toString(), TestFiles.write(w, SMALL_FILE_BYTES, sd))));
                }
                for (Future<?> d : done) {
                    d.get();
                }
            } finally {
                pool.shutdownNow();
            }
            return f;
        }

        Path sourceDir(int pair) {
            return root.resolve("source").resolve(String.format(Locale.ROOT, "p%03d", pair));
        }

        Path destinationDir(int pair) {
            return root.resolve("destination").resolve(String.format(Locale.ROOT, "p%03d", pair));
        }

        Path destinationFor(int pair, Path source) {
            return destinationDir(pair).resolve(source.getFileName());
        }

        List<Path> all() {
            List<Path> out = new ArrayList<>();
            sources.forEach(out::addAll);
            return out;
        }

        /** The MD5 of a source file by its path as the agents report it, or null. */
        String md5Of(String source) {
            return md5s.get(source);
        }

        List<List<TransferItem>> items() {
            List<List<TransferItem>> out = new ArrayList<>();
            for (int p = 1; p <= pairs; p++) {
                List<TransferItem> own = new ArrayList<>();
                for (Path s : sources.get(p - 1)) {
                    own.add(EmbeddedMft.binaryItem(s, destinationFor(p, s), ChecksumMethod.MD5));
                }
                out.add(own);
            }
            return out;
        }

        List<List<TransferItem>> warmUpItems() {
            List<List<TransferItem>> out = new ArrayList<>();
            for (int p = 1; p <= pairs; p++) {
                Path s = small.get(p - 1);
                out.add(List.of(EmbeddedMft.binaryItem(s, destinationFor(p, s), ChecksumMethod.MD5)));
            }
            return out;
        }

        public void cleanDestination() throws IOException {
            for (int p = 1; p <= pairs; p++) {
                try (Stream<Path> files = Files.list(destinationDir(p))) {
                    for (Path f : (Iterable<Path>) files::iterator) {
                        Files.delete(f);
                    }
                }
            }
        }

        /** Checks every destination file against its source's MD5 (two threads); null when all match. */
        String verify() throws Exception {
            ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, "bench-verifier"));
            try {
                List<Future<String>> checks = new ArrayList<>();
                for (int p = 1; p <= pairs; p++) {
                    int pair = p;
                    checks.add(pool.submit(() -> verifyPair(pair)));
                }
                for (Future<String> c : checks) {
                    String bad = c.get();
                    if (bad != null) {
                        return bad;
                    }
                }
                return null;
            } finally {
                pool.shutdownNow();
            }
        }

        private String verifyPair(int pair) throws IOException {
            for (Path s : sources.get(pair - 1)) {
                Path d = destinationFor(pair, s);
                if (!Files.isRegularFile(d)) {
                    return d + " is missing";
                }
                String actual = TestFiles.md5(d);
                if (!actual.equals(md5s.get(s.toString()))) {
                    return d + ": MD5 " + actual + " differs from the source's " + md5s.get(s.toString());
                }
            }
            try (Stream<Path> files = Files.list(destinationDir(pair))) {
                long n = files.count();
                if (n != FILES_PER_TRANSFER) {
                    return destinationDir(pair) + " holds " + n + " files, expected " + FILES_PER_TRANSFER;
                }
            }
            return null;
        }

    }

    /** Thread groups of a sample sorted by CPU, largest first (for the console). */
    public static Map<String, Long> largestFirst(Map<String, Long> groups, int limit) {
        Map<String, Long> out = new LinkedHashMap<>();
        groups.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(limit)
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }
}
