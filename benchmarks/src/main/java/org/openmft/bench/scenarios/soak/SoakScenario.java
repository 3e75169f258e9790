package org.openmft.bench.scenarios.soak;

import org.openmft.bench.Scale;
import org.openmft.bench.harness.ConnectionCutter;
import org.openmft.bench.harness.Distribution;
import org.openmft.bench.report.Report;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.QueueManagerConnector;

/**
 * The soak: many transfers between two client agents while their processes, their queue
 * manager's process and their connections fail at random moments; at the end every transfer
 * must have ended with result 0 and every destination file must have its source's MD5.
 *
 * <p>Everything runs as a user runs it, through the built distribution's launchers
 * ({@link Distribution}): {@code mft qmgr create/start}, {@code fteSetupCoordination},
 * {@code fteSetupCommands}, {@code fteCreateAgent} and {@code fteStartAgent} for two client agents,
 * each a process of its own, each connected to the queue manager through a {@link ConnectionCutter}
 * of this process. Faults, one at a time at random intervals, in a shuffled order that gives every
 * kind its turn before any kind repeats:
 * <ul>
 * <li>{@code kill -9} of the source or the destination agent process, then {@code fteStartAgent};</li>
 * <li>{@code kill -9} of the queue manager process, then {@code mft qmgr start}; the agents
 *     reconnect by themselves;</li>
 * <li>every connection of the source or the destination agent cut (reset) at once; the agent
 *     reconnects by itself.</li>
 * </ul>
 * A fault counts as recovered from once the process is back and both agents answer a ping through
 * their COMMAND queues; as survived when, in addition, every transfer that was in flight when it
 * was injected ended intact. The traffic is {@link SoakTraffic}'s; the agents' own accounts of
 * what was sent twice come from their logs ({@link AgentLogTotals}).
 */
public final class SoakScenario {
    static final String QMGR = "SOAKQM";
    static final String SOURCE = "SOAKSRC";
    static final String DESTINATION = "SOAKDST";
    /** JVM options of the queue manager process (BFG_JVM_PROPERTIES). */
    static final String QMGR_JVM = "-Xmx512m";
    /** JVM options of the agent processes and of the short commands. */
    static final String AGENT_JVM = "-Xmx256m";
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);
    private static final int START_ATTEMPTS = 3;

    /** The faults the soak injects. */
    enum FaultKind {
        KILL_SOURCE_AGENT("kill -9 of the source agent process, then fteStartAgent"),
        KILL_DESTINATION_AGENT("kill -9 of the destination agent process, then fteStartAgent"),
        KILL_QUEUE_MANAGER("kill -9 of the queue manager process, then mft qmgr start"),
        CUT_SOURCE_CONNECTIONS("every connection of the source agent reset"),
        CUT_DESTINATION_CONNECTIONS("every connection of the destination agent reset");

        final String description;

        FaultKind(String description) {
            this.description = description;
        }

        String id() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * How big a soak is.
     *
     * @param name               "quick" or "full"
     * @param load               how long transfers are requested and faults injected (at least until
     *                           every kind of fault was injected once)
     * @param gapMin             shortest pause between a recovery and the next fault
     * @param gapMax             longest such pause
     * @param outstanding        transfers kept requested at once
     * @param smallFiles         files of the small pool (one of them empty)
     * @param smallMaxBytes      the largest small file; sizes are spread log-uniformly below it
     * @param bigFiles           files of tens of MiB
     * @param bigMinBytes        the smallest big file
     * @param bigMaxBytes        the largest big file
     * @param itemsMin           fewest items per transfer
     * @param itemsMax           most items per transfer
     * @param bigShare           the share of transfers with one big file among their items
     * @param drain              how long, after the load, the transfers still running may take
     * @param recoveryTimeout    how long after a fault both agents must answer a ping
     * @param transferAckTimeout the agents' transferAckTimeout, milliseconds
     * @param seed               the random seed of the files, the transfers and the faults
     */
    /**
     * The seed of every soak CI runs (SoakIT always, the runner when the environment variable
     * {@code CI} is set), so that a failure there is repeated by running with the same seed; a run
     * on a developer's machine takes a new one unless given one. Either way the seed is printed and
     * written into the report.
     */
    public static final long CI_SEED = 20_240_611L;

    /** {@link #CI_SEED} when {@code env} is CI's ({@code CI} set and not "false"), else a new random seed. */
    public static long defaultSeed(Map<String, String> env) {
        String ci = env.get("CI");
        if (ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false")) {
            return CI_SEED;
        }
        return new Random().nextLong() & 0xffff_ffffL;
    }

    public record Settings(String name, Duration load, Duration gapMin, Duration gapMax, int outstanding, int smallFiles,
            long smallMaxBytes, int bigFiles, long bigMinBytes, long bigMaxBytes, int itemsMin, int itemsMax,
            double bigShare, Duration drain, Duration recoveryTimeout, int transferAckTimeout, long seed,
            Map<String, String> extraAgentProperties) {

        /** About a minute and a half: every kind of fault once, some twice. */
        public static Settings quick(long seed) {
            return new Settings("quick", Duration.ofSeconds(25), Duration.ofSeconds(1), Duration.ofSeconds(4), 3, 12,
                    2 * Scale.MIB, 2, 20 * Scale.MIB, 40 * Scale.MIB, 2, 5, 0.4, Duration.ofSeconds(150),
                    Duration.ofSeconds(120), 10_000, seed, Map.of());
        }

        /** Ten minutes of faults. */
        public static Settings full(long seed) {
            return new Settings("full", Duration.ofMinutes(10), Duration.ofSeconds(3), Duration.ofSeconds(20), 4,
                    40, 4 * Scale.MIB, 4, 20 * Scale.MIB, 64 * Scale.MIB, 2, 6, 0.35, Duration.ofSeconds(300),
                    Duration.ofSeconds(120), 10_000, seed, Map.of());
        }

        /** The same with more agent.properties values (they win over the soak's own). */
        public Settings withAgentProperties(Map<String, String> extra) {
            return new Settings(name, load, gapMin, gapMax, outstanding, smallFiles, smallMaxBytes, bigFiles,
                    bigMinBytes, bigMaxBytes, itemsMin, itemsMax, bigShare, drain, recoveryTimeout, transferAckTimeout,
                    seed, Map.copyOf(extra));
        }

        /** The agent.properties values the soak sets beyond fteCreateAgent's. */
        Map<String, String> agentProperties() {
            Map<String, String> all = new java.util.TreeMap<>(Map.of("transferAckTimeout",
                    String.valueOf(transferAckTimeout)));
            all.putAll(extraAgentProperties);
            return all;
        }
    }

    private final Settings settings;
    private final Path work;
    private final Path keepLogsIn;
    private final Consumer<String> log;
    private final Random random;
    private final SoakResult result;
    private Distribution dist;
    private ConnectionCutter sourceRelay;
    private ConnectionCutter destinationRelay;
    private SoakTraffic traffic;
    private long loadStartNanos;

    private SoakScenario(Settings settings, Path work, Path keepLogsIn, Consumer<String> log) {
        this.settings = settings;
        this.work = work;
        this.keepLogsIn = keepLogsIn;
        this.log = log;
        // The faults draw from their own sequence: the submitter thread draws the transfers meanwhile.
        this.random = new Random(~settings.seed());
        this.result = new SoakResult(settings);
    }

    /**
     * Runs a soak in {@code work} with the distribution in {@code distribution}; every process it
     * started has ended when it returns, also after a failure.
     *
     * @param keepLogsIn where the agents' and the queue manager's logs are copied when the run
     *                   fails, or null
     */
    public static SoakResult run(Settings settings, Path distribution, Path work, Path keepLogsIn, Consumer<String> log) {
        return new SoakScenario(settings, work, keepLogsIn, log).run(distribution);
    }

    private SoakResult run(Path distribution) {
        result.started = Instant.now();
        long t0 = System.nanoTime();
        Thread killer = null;
        try {
            dist = new Distribution(distribution, work.resolve("data"));
            // Whatever happens to this JVM (Ctrl-C included), no daemon of ours outlives it.
            killer = new Thread(dist::killAll, "soak-kill-daemons");
            Runtime.getRuntime().addShutdownHook(killer);
            setUp();
            result.setupSeconds = (System.nanoTime() - t0) / 1e9;
            log("soak: set up in %.1f s; %d source files, %s; load for at least %d s, then every kind of fault"
                    + " at least once", result.setupSeconds, traffic.sourceFiles(), Report.size(traffic.sourceBytes()),
                    settings.load().toSeconds());
            load();
            drain();
            checkLeftovers();
        } catch (Exception e) {
            result.failure = result.failure != null ? result.failure : "the soak stopped on " + e;
            log("soak: stopped on %s", e);
        } finally {
            // Interrupted (a test's time limit): the processes are still stopped and waited for,
            // then the interrupt is passed on.
            boolean interrupted = Thread.interrupted();
            tearDown();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (killer != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(killer);
                } catch (IllegalStateException e) {
                    // The JVM is shutting down: the hook runs anyway.
                }
            }
            result.wallSeconds = (System.nanoTime() - t0) / 1e9;
        }
        summarise();
        if ((!result.ok() || result.leftovers()) && keepLogsIn != null && dist != null) {
            keepLogs();
        }
        return result;
    }

    // ------------------------------------------------------------------------------------------
    // Set-up

    private void setUp() throws Exception {
        int port = freePort();
        expect(mft(QMGR_JVM, "mft", "qmgr", "create", QMGR, "--port", String.valueOf(port)));
        expect(mft(AGENT_JVM, "fteSetupCoordination", "-coordinationQMgr", QMGR));
        expect(mft(AGENT_JVM, "fteSetupCommands", "-connectionQMgr", QMGR));
        sourceRelay = new ConnectionCutter(SOURCE, port);
        destinationRelay = new ConnectionCutter(DESTINATION, port);
        ExecutorService two = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "soak-setup");
            t.setDaemon(true);
            return t;
        });
        try {
            // The source files are written while the queue manager starts.
            Future<SoakTraffic> files = two.submit(() -> new SoakTraffic(settings, QMGR, SOURCE, DESTINATION,
                    QueueManagerConnector.forAgent(new QueueManagerEndpoint(MessagingProvider.ARTEMIS, QMGR,
                            "127.0.0.1", port, "SYSTEM.DEF.SVRCONN"), org.openmft.agent.qmgr.security.QueueManagerUsers
                                    .of(QMGR, dist.dataDir().resolve("qmgrs").resolve(QMGR)).administrator()
                                    .orElseThrow()), work, new Random(settings.seed()), log));
            expect(mft(QMGR_JVM, "mft", "qmgr", "start", QMGR));
            traffic = files.get();
            Future<Distribution.Result> createSource = two.submit(() -> createAgent(SOURCE, sourceRelay.port()));
            Future<Distribution.Result> createDestination = two.submit(() -> createAgent(DESTINATION,
                    destinationRelay.port()));
            expect(createSource.get());
            expect(createDestination.get());
            for (String agent : List.of(SOURCE, DESTINATION)) {
                Path properties = dist.dataDir().resolve("config").resolve(QMGR).resolve("agents").resolve(agent)
                        .resolve("agent.properties");
                StringBuilder extra = new StringBuilder("# The soak's settings\n");
                settings.agentProperties().forEach((k, v) -> extra.append(k).append('=').append(v).append('\n'));
                Files.writeString(properties, extra, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            }
            Future<Distribution.Result> startSource = two.submit(() -> mft(AGENT_JVM, "fteStartAgent", SOURCE));
            Future<Distribution.Result> startDestination = two.submit(() -> mft(AGENT_JVM, "fteStartAgent",
                    DESTINATION));
            expect(startSource.get());
            expect(startDestination.get());
        } finally {
            two.shutdownNow();
        }
        result.agentSettings = "client agents `" + SOURCE + "` and `" + DESTINATION + "` (fteCreateAgent"
                + " -agentQMgrHost 127.0.0.1 --sandbox-dir <work>, each through its own relay); "
                + String.join(", ", settings.agentProperties().entrySet().stream().map(e -> "`" + e.getKey() + "="
                        + e.getValue() + "`").toList())
                + "; every other agent.properties key at its default; JVMs: queue manager " + QMGR_JVM + ", agents "
                + AGENT_JVM;
    }

    private Distribution.Result createAgent(String agent, int relayPort) {
        // The soak's files are under its work directory, outside the agents' own transfer directories.
        return mft(AGENT_JVM, "fteCreateAgent", "-agentName", agent, "-agentQMgr", QMGR, "-agentQMgrHost",
                "127.0.0.1", "-agentQMgrPort", String.valueOf(relayPort), "--sandbox-dir", work.toString());
    }

    private Distribution.Result mft(String jvm, String launcher, String... args) {
        return dist.run(COMMAND_TIMEOUT, jvm, launcher, args);
    }

    private void expect(Distribution.Result r) throws IOException {
        if (!r.ok()) {
            throw new IOException(r.describe());
        }
        log("soak: set-up: %s (%.1f s)", r.command(), r.seconds());
    }

    // ------------------------------------------------------------------------------------------
    // Load and faults

    private void load() throws InterruptedException {
        loadStartNanos = System.nanoTime();
        traffic.start();
        List<FaultKind> bag = new ArrayList<>();
        Set<FaultKind> injected = EnumSet.noneOf(FaultKind.class);
        while (true) {
            boolean timeUp = System.nanoTime() - loadStartNanos >= settings.load().toNanos();
            if (timeUp && injected.size() == FaultKind.values().length) {
                break;
            }
            if (bag.isEmpty()) {
                bag.addAll(List.of(FaultKind.values()));
                Collections.shuffle(bag, random);
            }
            long gap = settings.gapMin().toMillis()
                    + (long) (random.nextDouble() * (settings.gapMax().toMillis() - settings.gapMin().toMillis()));
            TimeUnit.MILLISECONDS.sleep(gap);
            // A fault is meant to hit transfers: wait (bounded) until some are in flight.
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (traffic.inFlight().isEmpty() && System.nanoTime() < until) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            FaultKind kind = bag.remove(0);
            List<SoakTraffic.Submission> inFlight = traffic.inFlight();
            SoakResult.Fault f = new SoakResult.Fault(result.faults.size() + 1, kind, sinceLoad(),
                    inFlight.stream().map(s -> s.number).toList());
            result.faults.add(f);
            inFlight.forEach(s -> s.faults.add(f.number));
            inject(f);
            injected.add(kind);
            long done = traffic.submissions().stream().filter(s -> s.done).count();
            if (f.recovered()) {
                log("soak: %6.1f s  fault %d %-28s %s; recovered in %.1f s; %d transfers in flight, %d ended so far",
                        f.atSeconds, f.number, kind.id(), f.detail, f.recoverySeconds, f.inFlight.size(), done);
            } else {
                log("soak: %6.1f s  fault %d %-28s %s; NOT RECOVERED: %s", f.atSeconds, f.number, kind.id(), f.detail,
                        f.problem);
                result.failure = "fault " + f.number + " (" + kind.description + ") was not recovered from: "
                        + f.problem;
                break;
            }
        }
        traffic.stopSubmitting();
        result.loadSeconds = sinceLoad();
        if (traffic.submitterFailure() != null && result.failure == null) {
            result.failure = traffic.submitterFailure();
        }
    }

    private double sinceLoad() {
        return (System.nanoTime() - loadStartNanos) / 1e9;
    }

    private void inject(SoakResult.Fault f) throws InterruptedException {
        long t0 = System.nanoTime();
        switch (f.kind) {
            case KILL_SOURCE_AGENT -> killAgent(f, SOURCE);
            case KILL_DESTINATION_AGENT -> killAgent(f, DESTINATION);
            case KILL_QUEUE_MANAGER -> killQueueManager(f);
            case CUT_SOURCE_CONNECTIONS -> cut(f, sourceRelay);
            case CUT_DESTINATION_CONNECTIONS -> cut(f, destinationRelay);
        }
        if (f.problem != null) {
            return;
        }
        long deadline = t0 + settings.recoveryTimeout().toNanos();
        for (String agent : List.of(SOURCE, DESTINATION)) {
            if (!traffic.ping(agent, deadline)) {
                f.problem = "agent " + agent + " did not answer a ping within " + settings.recoveryTimeout().toSeconds()
                        + " s of the fault";
                return;
            }
        }
        f.recoverySeconds = (System.nanoTime() - t0) / 1e9;
    }

    private void killAgent(SoakResult.Fault f, String agent) throws InterruptedException {
        long pid = dist.pid(agentDirectory(agent), "agent");
        if (pid < 0) {
            f.problem = "agent " + agent + " has no running process to kill";
            return;
        }
        if (!dist.kill9(pid, Duration.ofSeconds(30))) {
            f.problem = "agent " + agent + " (pid " + pid + ") did not end on kill -9";
            return;
        }
        long t0 = System.nanoTime();
        Distribution.Result r = startWithRetries(AGENT_JVM, "fteStartAgent", agent);
        f.detail = String.format(java.util.Locale.ROOT, "pid %d killed, started again in %.1f s", pid,
                (System.nanoTime() - t0) / 1e9);
        if (!r.ok()) {
            f.problem = r.describe();
        }
    }

    private void killQueueManager(SoakResult.Fault f) throws InterruptedException {
        long pid = dist.pid(Path.of("qmgrs", QMGR), "qmgr");
        if (pid < 0) {
            f.problem = "queue manager " + QMGR + " has no running process to kill";
            return;
        }
        if (!dist.kill9(pid, Duration.ofSeconds(30))) {
            f.problem = "queue manager " + QMGR + " (pid " + pid + ") did not end on kill -9";
            return;
        }
        long t0 = System.nanoTime();
        Distribution.Result r = startWithRetries(QMGR_JVM, "mft", "qmgr", "start", QMGR);
        f.detail = String.format(java.util.Locale.ROOT, "pid %d killed, started again in %.1f s", pid,
                (System.nanoTime() - t0) / 1e9);
        if (!r.ok()) {
            f.problem = r.describe();
        }
    }

    private static void cut(SoakResult.Fault f, ConnectionCutter relay) {
        int n = relay.cutAll();
        f.detail = n + " connection" + (n == 1 ? "" : "s") + " cut";
        if (n == 0) {
            f.problem = "the agent had no connection to cut";
        }
    }

    /** A start that fails (the machine is slow, a port lingers) is tried again a few times. */
    private Distribution.Result startWithRetries(String jvm, String launcher, String... args)
            throws InterruptedException {
        Distribution.Result r = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            r = mft(jvm, launcher, args);
            if (r.ok()) {
                if (attempt > 1) {
                    result.notes.add(r.command() + " succeeded at attempt " + attempt);
                }
                return r;
            }
            log("soak: %s", r.describe());
            TimeUnit.SECONDS.sleep(2);
        }
        return r;
    }

    private static Path agentDirectory(String agent) {
        return Path.of("logs", QMGR, "agents", agent);
    }

    // ------------------------------------------------------------------------------------------
    // The end

    private void drain() throws InterruptedException, IOException {
        long t0 = System.nanoTime();
        int waiting = traffic.inFlight().size();
        log("soak: %.1f s  load over; waiting up to %d s for the %d transfers still running", sinceLoad(),
                settings.drain().toSeconds(), waiting);
        boolean all = traffic.awaitAllDone(t0 + settings.drain().toNanos());
        result.drainSeconds = (System.nanoTime() - t0) / 1e9;
        if (!all) {
            AgentLogTotals sofar = AgentLogTotals.read(dist.dataDir(), QMGR, List.of(SOURCE, DESTINATION));
            traffic.failUnfinished("no final reply within " + settings.drain().toSeconds() + " s after the load",
                    sofar.endedWith);
        }
    }

    private void checkLeftovers() {
        for (String agent : List.of(SOURCE, DESTINATION)) {
            result.stateRecordsLeft.put(agent, traffic.depth(QueueNames.state(agent)));
        }
    }

    private void tearDown() {
        if (traffic != null) {
            traffic.close();
        }
        if (dist != null) {
            ExecutorService two = Executors.newFixedThreadPool(2, r -> {
                Thread t = new Thread(r, "soak-stop");
                t.setDaemon(true);
                return t;
            });
            try {
                List<Future<Distribution.Result>> stops = new ArrayList<>();
                for (String agent : List.of(SOURCE, DESTINATION)) {
                    if (dist.pid(agentDirectory(agent), "agent") > 0) {
                        stops.add(two.submit(() -> dist.run(Duration.ofSeconds(60), AGENT_JVM, "fteStopAgent", agent,
                                "-i")));
                    }
                }
                for (Future<Distribution.Result> f : stops) {
                    Distribution.Result r = f.get();
                    if (!r.ok()) {
                        result.notes.add("at the end: " + r.describe());
                    }
                }
                if (dist.pid(Path.of("qmgrs", QMGR), "qmgr") > 0) {
                    Distribution.Result r = dist.run(Duration.ofSeconds(60), AGENT_JVM, "mft", "qmgr", "stop", QMGR);
                    if (!r.ok()) {
                        result.notes.add("at the end: " + r.describe());
                    }
                }
            } catch (Exception e) {
                result.notes.add("stopping the agents and the queue manager: " + e);
            } finally {
                two.shutdownNow();
                int killed = dist.killAll();
                if (killed > 0) {
                    result.notes.add(killed + " process(es) still ran after the stop commands and were killed");
                }
            }
        }
        for (ConnectionCutter relay : new ConnectionCutter[] {sourceRelay, destinationRelay}) {
            if (relay != null) {
                relay.close();
                result.relayedBytes += relay.bytesRelayed();
                result.relayedConnections += relay.accepted();
                result.relayRefusals += relay.refusals();
            }
        }
    }

    /** Totals, the fault verdicts and the agents' log figures, once every process has ended. */
    private void summarise() {
        if (traffic == null) {
            return;
        }
        result.sourceFiles = traffic.sourceFiles();
        result.sourceBytes = traffic.sourceBytes();
        // After every process has ended, so that nothing can still be writing.
        result.filesWrittenAgain.addAll(traffic.filesWrittenAgain());
        List<SoakTraffic.Submission> all = traffic.submissions();
        result.transfers = all;
        Map<Integer, SoakTraffic.Submission> byNumber = new LinkedHashMap<>();
        List<Double> seconds = new ArrayList<>();
        for (SoakTraffic.Submission s : all) {
            byNumber.put(s.number, s);
            if (s.ok()) {
                result.completed++;
                result.filesMoved += s.sources.size();
                result.bytesMoved += s.bytes;
                seconds.add(s.seconds());
            } else {
                result.failed.add(new SoakResult.FailedTransfer(s.number, s.transferId,
                        s.failure == null ? "no outcome" : s.failure));
            }
        }
        result.submitted = all.size();
        result.transferSeconds = seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        result.bytesLost = traffic.bytesLost();
        result.duplicateFinalReplies = traffic.duplicateFinals();
        result.strayReplies.addAll(traffic.strayReplies());
        for (SoakResult.Fault f : result.faults) {
            f.survived = f.recovered() && f.inFlight.stream().map(byNumber::get).allMatch(s -> s != null && s.ok());
        }
        if (dist == null) {
            return;
        }
        try {
            result.logs = AgentLogTotals.read(dist.dataDir(), QMGR, List.of(SOURCE, DESTINATION));

        } catch (IOException e) {
            result.notes.add("the agents' logs could not be read: " + e);
        }
        for (String agent : List.of(SOURCE, DESTINATION)) {
            Path state = dist.dataDir().resolve(agentDirectory(agent)).resolve("state");
            try (Stream<Path> files = Files.exists(state) ? Files.list(state) : Stream.empty()) {
                // The agent's state key stays; anything else belongs to a transfer.
                List<String> names = files.map(p -> p.getFileName().toString())
                        .filter(n -> !n.equals(org.openmft.agent.transfer.state.StateTag.KEY_FILE)).sorted().toList();
                result.stateFilesLeft.put(agent, names.size());
                if (!names.isEmpty()) {
                    // Every transfer ended, so nothing should be left: a transfer an agent still
                    // holds stays "recovering" in its status, and a controlled stop waits for it.
                    List<String> ids = names.stream().map(n -> n.substring(0, n.indexOf('.') < 0 ? n.length()
                            : n.indexOf('.'))).distinct().toList();
                    result.transfersLeft.addAll(ids);
                    result.notes.add("agent " + agent + " still holds " + ids.size() + " ended transfer(s) in its state"
                            + " directory: " + names + ". Every transfer had ended at its source; one whose record is"
                            + " also still on the STATE queue shows as RecoveringTransfer in the agent's status for ever,"
                            + " and a controlled stop (fteStopAgent without -i) waits for it");
                }
            } catch (IOException e) {
                result.stateFilesLeft.put(agent, -1);
            }
        }
    }

    private void keepLogs() {
        Path target = keepLogsIn.resolve("soak-logs-" + settings.name());
        try {
            deleteTree(target);
            copyTree(dist.dataDir().resolve("logs"), target.resolve("logs"));
            Path commands = dist.dataDir().resolveSibling(dist.dataDir().getFileName() + "-commands");
            copyTree(commands, target.resolve("commands"));
            result.notes.add("the agents', the queue manager's and the commands' logs of this run are in " + target);
            log("soak: logs kept in %s", target);
        } catch (IOException e) {
            result.notes.add("the logs could not be kept: " + e);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        if (!Files.exists(from)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else if (p.getFileName().toString().endsWith(".log") || p.getFileName().toString().endsWith(".txt")) {
                    Files.copy(p, q, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private void log(String format, Object... args) {
        log.accept(String.format(java.util.Locale.ROOT, format, args));
    }
}
