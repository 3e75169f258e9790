package org.openmft.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.security.QueueManagerUsers;
import org.openmft.bench.measure.CpuSplit;
import org.openmft.bench.measure.ProcessCpu;
import org.openmft.xml.AgentRef;
import org.openmft.xml.TransferItem;

/**
 * Seed 000's bindings topology as IBM ran it, in two processes: queue manager {@value #QMA} with
 * the source agent in one, {@value #QMB} with the destination agent in another, each agent in
 * bindings mode hosted by its queue manager's process, the queue managers joined by channels both
 * ways; everything set up and started with the distribution's launchers ({@link Distribution}) as
 * an administrator of two hosts would, each host with a data directory of its own: {@code mft qmgr
 * create}, {@code fteSetupCoordination} (QMA coordinates both), {@code fteCreateAgent}, {@code mft
 * qmgr user add} and {@code mft qmgr channel create} for each channel, {@code mft qmgr start},
 * {@code fteStartAgent}.
 *
 * <p>Run as root on Linux, QMB's process runs in a {@link NetworkNamespace} of its own joined to
 * this one by a veth pair, so the channels cross a network interface, plain TCP as IBM's were
 * ({@code --allow-plaintext-network}, both listeners on the veth only); otherwise both processes run
 * here with their listeners and channels on loopback, as they also do with {@code -D}{@value
 * #LOOPBACK_PROPERTY}{@code =true} ({@link #topology} says which). Requests are
 * put by this JVM on the source agent's COMMAND queue over a client connection to QMA as its
 * administrator. {@link #close} kills both processes and removes the namespace, also after a
 * failure (and a shutdown hook does if this JVM is stopped).
 */
public final class TwoProcesses implements AutoCloseable {
    static final String QMA = "QMA";
    static final String QMB = "QMB";
    /** The JVM options of each queue manager process (BFG_JVM_PROPERTIES). */
    public static final String QMGR_JVM = "-Xmx1g";
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(180);
    private static final long CHANNEL_START_MILLIS = 90_000;
    /** The system property that keeps both processes on loopback even where a namespace could be built. */
    static final String LOOPBACK_PROPERTY = "openmft.bench.loopback";

    private final Path root;
    private final String source;
    private final String destination;
    private final Consumer<String> log;
    private NetworkNamespace namespace;
    private Distribution hostA;
    private Distribution hostB;
    private TransferRequester requester;
    private Thread killer;
    private long pidA = -1;
    private long pidB = -1;

    private TwoProcesses(Path root, String source, String destination, Consumer<String> log) {
        this.root = root;
        this.source = source;
        this.destination = destination;
        this.log = log;
    }

    /**
     * Sets up and starts both hosts under {@code root} with the distribution in {@code dist}, agent
     * {@code source} on QMA and {@code destination} on QMB, each with {@code agentProperties} added to
     * its agent.properties and allowed to read and write under {@code transferRoot}; returns once both
     * channels run.
     */
    public static TwoProcesses start(Path dist, Path root, Path transferRoot, String source, String destination,
            Map<String, String> agentProperties, Consumer<String> log) throws Exception {
        TwoProcesses two = new TwoProcesses(root, source, destination, log);
        try {
            two.setUp(dist, transferRoot, agentProperties);
            return two;
        } catch (Exception e) {
            two.close();
            throw e;
        }
    }

    private void setUp(Path dist, Path transferRoot, Map<String, String> agentProperties) throws Exception {
        String addressA = "127.0.0.1";
        String addressB = "127.0.0.1";
        List<String> prefixB = List.of();
        if (noNamespaceReason() == null) {
            namespace = NetworkNamespace.create();
            addressA = namespace.hostAddress();
            addressB = namespace.namespaceAddress();
            prefixB = namespace.commandPrefix();
        }
        hostA = new Distribution(dist, root.resolve("a"));
        hostB = new Distribution(dist, root.resolve("b"), prefixB);
        killer = new Thread(this::killAll, "two-processes-kill");
        Runtime.getRuntime().addShutdownHook(killer);
        int portA = EmbeddedMft.freePort();
        // In its own namespace QMB has every port to itself; on loopback it needs a free one.
        int portB = namespace != null ? 1414 : EmbeddedMft.freePort();
        ExecutorService both = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "two-processes-setup");
            t.setDaemon(true);
            return t;
        });
        try {
            String a = addressA;
            String b = addressB;
            Future<?> setA = both.submit(() -> host(hostA, QMA, a, portA, source, transferRoot, agentProperties));
            Future<?> setB = both.submit(() -> host(hostB, QMB, b, portB, destination, transferRoot, agentProperties));
            setA.get();
            setB.get();
            Future<?> chAB = both.submit(() -> channel(hostA, QMA, hostB, QMB, b, portB));
            Future<?> chBA = both.submit(() -> channel(hostB, QMB, hostA, QMA, a, portA));
            chAB.get();
            chBA.get();
            Future<?> startA = both.submit(() -> startHost(hostA, QMA, source));
            Future<?> startB = both.submit(() -> startHost(hostB, QMB, destination));
            startA.get();
            startB.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        } finally {
            both.shutdownNow();
        }
        pidA = hostA.pid(Path.of("qmgrs", QMA), "qmgr");
        pidB = hostB.pid(Path.of("qmgrs", QMB), "qmgr");
        TwoQueueManagers.awaitChannels(hostA.dataDir().resolve("qmgrs").resolve(QMA),
                hostB.dataDir().resolve("qmgrs").resolve(QMB), CHANNEL_START_MILLIS);
        requester = new TransferRequester(QueueManagerConnector.forAgent(new QueueManagerEndpoint(
                MessagingProvider.ARTEMIS, QMA, addressA, portA, "SYSTEM.DEF.SVRCONN"), QueueManagerUsers.of(QMA,
                        hostA.dataDir().resolve("qmgrs").resolve(QMA)).administrator().orElseThrow()), QMA,
                id -> 0);
    }

    /** A host: its queue manager (not started), coordinated by QMA, and its bindings agent. */
    private Void host(Distribution d, String qmgr, String address, int port, String agent, Path transferRoot,
            Map<String, String> agentProperties) throws IOException {
        List<String> create = new ArrayList<>(List.of("qmgr", "create", qmgr, "--bind", address, "--port",
                String.valueOf(port)));
        if (namespace != null) {
            create.add("--allow-plaintext-network");
        }
        expect(d.run(COMMAND_TIMEOUT, QMGR_JVM, "mft", create.toArray(String[]::new)));
        expect(d.run(COMMAND_TIMEOUT, "", "fteSetupCoordination", "-coordinationQMgr", QMA));
        expect(d.run(COMMAND_TIMEOUT, "", "fteCreateAgent", "-agentName", agent, "-agentQMgr", qmgr, "--sandbox-dir",
                transferRoot.toAbsolutePath().toString()));
        StringBuilder extra = new StringBuilder("\n# The benchmark's settings\n");
        agentProperties.forEach((k, v) -> extra.append(k).append('=').append(v).append('\n'));
        Files.writeString(d.dataDir().resolve("config").resolve(QMA).resolve("agents").resolve(agent)
                .resolve("agent.properties"), extra, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        return null;
    }

    /** The channel from {@code from} to {@code to}: a login made on {@code to}'s host, the definition on {@code from}'s. */
    private Void channel(Distribution here, String from, Distribution there, String to, String address, int port)
            throws IOException {
        Path login = root.resolve(from.toLowerCase(java.util.Locale.ROOT) + "-to-" + to.toLowerCase(java.util.Locale.ROOT)
                + ".xml");
        expect(there.run(COMMAND_TIMEOUT, "", "mft", "qmgr", "user", "add", to, "channel." + from, "--role", "channel",
                "--credentials-file", login.toAbsolutePath().toString()));
        List<String> create = new ArrayList<>(List.of("qmgr", "channel", "create", from, "--to", to, "--host", address,
                "--port", String.valueOf(port), "--credentials", login.toAbsolutePath().toString()));
        if (namespace != null) {
            create.add("--allow-plaintext-network");
        }
        expect(here.run(COMMAND_TIMEOUT, "", "mft", create.toArray(String[]::new)));
        return null;
    }

    private Void startHost(Distribution d, String qmgr, String agent) throws IOException {
        expect(d.run(COMMAND_TIMEOUT, QMGR_JVM, "mft", "qmgr", "start", qmgr));
        expect(d.run(COMMAND_TIMEOUT, "", "fteStartAgent", agent));
        return null;
    }

    private void expect(Distribution.Result r) throws IOException {
        if (!r.ok()) {
            throw new IOException(r.describe());
        }
        log.accept(String.format(java.util.Locale.ROOT, "  set-up: %s (%.1f s)", r.command(), r.seconds()));
    }

    /** "two network namespaces joined by a veth pair" or "two processes on loopback (why)". */
    public String topology() {
        return namespace != null ? "two network namespaces joined by a veth pair (QMB's process in "
                + "its own namespace, " + namespace.hostAddress() + " to " + namespace.namespaceAddress() + ")"
                : "two processes on loopback (no network namespace: " + noNamespaceReason() + ")";
    }

    /** Why the processes run on loopback, or null when QMB's gets a namespace of its own. */
    private static String noNamespaceReason() {
        return Boolean.getBoolean(LOOPBACK_PROPERTY) ? "-D" + LOOPBACK_PROPERTY + "=true"
                : NetworkNamespace.unavailableReason().orElse(null);
    }

    /** Whether the processes run in two network namespaces (else both on loopback). */
    public boolean namespaced() {
        return namespace != null;
    }

    public String source() {
        return source;
    }

    public String destination() {
        return destination;
    }

    /** Starts measuring both processes' CPU, split as {@link ProcessCpu} splits it. */
    public CpuSplit startCpu() {
        return ProcessCpu.start(pidA, source, pidB, destination);
    }

    /** As {@link EmbeddedMft#transferAll}: every transfer requested at once, from the source on QMA to the destination on QMB. */
    public List<EmbeddedMft.Result> transferAll(List<List<TransferItem>> transfers, long timeoutMillis)
            throws Exception {
        return requester.transferAll(new AgentRef(source, QMA), new AgentRef(destination, QMB), transfers,
                timeoutMillis);
    }

    private void killAll() {
        for (Distribution d : new Distribution[] {hostA, hostB}) {
            if (d != null) {
                d.killAll();
            }
        }
        if (namespace != null) {
            namespace.close();
        }
    }

    /** Kills both processes and removes the namespace. */
    @Override
    public void close() {
        if (requester != null) {
            requester.close();
        }
        killAll();
        if (killer != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(killer);
            } catch (IllegalStateException e) {
                // The JVM is shutting down: the hook runs anyway.
            }
        }
    }
}
