package org.openmft.bench.harness;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;


import org.openmft.agent.Agent;
import org.openmft.agent.AgentListener;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerLimits;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;

/**
 * One embedded queue manager in this JVM with pairs of agents: by default two, SRCB and DSTB
 * connected in bindings mode (in-VM), SRCC and DSTC in client mode (TCP on loopback); a suite that
 * compares agent settings starts a pair per setting instead ({@link #start(Path, Path, List, Function)}).
 * Transfers are requested as any MQ application would: the request XML as a text message on the
 * source agent's COMMAND queue, with a temporary reply queue that receives the acknowledgement and
 * then the final reply.
 */
public final class EmbeddedMft implements AutoCloseable {
    public static final String QMGR = "QMBENCH";

    private final EmbeddedQueueManager qm;
    private final int port;
    private final Path root;
    private final List<Agent> agents = new ArrayList<>();
    private final Map<ConnectionMode, QueueManagerConnector> connectors = new EnumMap<>(ConnectionMode.class);
    private final Map<Pair, TransferRequester> requesters = new LinkedHashMap<>();
    private final ResendCounter listener = new ResendCounter();

    /** The outcome of one requested transfer. */
    public record Result(Reply reply, int resends, String failure) {
        /**
         * Whether no answer came in time: the transfer may still be running, so whoever waits for
         * more transfers on these agents should stop rather than pile up more.
         */
        public boolean timedOut() {
            return reply == null && failure != null;
        }
    }

    private EmbeddedMft(Path root) throws Exception {
        this.root = root;
        this.port = freePort();
        this.qm = EmbeddedQueueManager.start(new QueueManagerSettings(QMGR, root.resolve("qm"), "127.0.0.1", port)
                .withLimits(PEER_LIMITS));
    }

    /**
     * The queue manager's limits with room for the Camel peer, which sends each file as one message:
     * a 100 MiB file with its headers is just over the 100 MiB default for non-agent addresses (IBM MQ's
     * largest MAXMSGL, so on IBM MQ that route could not move it at all). The agents' own limits
     * (command and data queues) stay at their defaults.
     */
    private static final QueueManagerLimits PEER_LIMITS = new QueueManagerLimits(
            QueueManagerLimits.DEFAULTS.commandMessageMaxBytes(), QueueManagerLimits.DEFAULTS.dataMessageMaxBytes(),
            1L << 30, QueueManagerLimits.DEFAULTS.addressDiskMaxBytes());

    /**
     * A source agent and the destination agent it sends to, both connected in one mode.
     *
     * @param source      the source agent's name
     * @param destination the destination agent's name
     * @param mode        how both connect to the queue manager
     */
    public record Pair(String source, String destination, ConnectionMode mode) {
    }

    /** The pairs {@link #start(Path, Map, Path)} starts. */
    private static final List<Pair> STANDARD_PAIRS = List.of(new Pair("SRCB", "DSTB", ConnectionMode.BINDINGS),
            new Pair("SRCC", "DSTC", ConnectionMode.CLIENT));

    /**
     * Starts the queue manager under {@code root} and both standard agent pairs.
     *
     * @param agentProperties extra agent.properties values for all four agents (agentChunkSize, ...)
     * @param transferRoot    the agents' transferRoot
     */
    public static EmbeddedMft start(Path root, Map<String, String> agentProperties, Path transferRoot) throws Exception {
        return start(root, transferRoot, STANDARD_PAIRS, agent -> agentProperties);
    }

    /**
     * Starts the queue manager under {@code root} and {@code pairs}, each agent with its own extra
     * agent.properties values (a pair per protection policy, each with its own keys).
     *
     * @param transferRoot    the agents' transferRoot
     * @param pairs           the pairs, each of two agents no other pair has
     * @param agentProperties extra agent.properties values by agent name
     */
    public static EmbeddedMft start(Path root, Path transferRoot, List<Pair> pairs,
            Function<String, Map<String, String>> agentProperties) throws Exception {
        EmbeddedMft mft = new EmbeddedMft(root);
        try {
            for (Pair pair : pairs) {
                QueueManagerConnector c = mft.startAgent(pair.source(), pair.mode(),
                        agentProperties.apply(pair.source()), transferRoot);
                mft.startAgent(pair.destination(), pair.mode(), agentProperties.apply(pair.destination()),
                        transferRoot);
                mft.connectors.putIfAbsent(pair.mode(), c);
                mft.requesters.put(pair, new TransferRequester(c, QMGR, mft.listener::of));
            }
            return mft;
        } catch (Exception e) {
            mft.close();
            throw e;
        }
    }

    /** The source agent of the standard pair of {@code mode}. */
    public static String sourceAgent(ConnectionMode mode) {
        return standardPair(mode).source();
    }

    /** The destination agent of the standard pair of {@code mode}. */
    public static String destinationAgent(ConnectionMode mode) {
        return standardPair(mode).destination();
    }

    private static Pair standardPair(ConnectionMode mode) {
        return STANDARD_PAIRS.stream().filter(p -> p.mode() == mode).findFirst().orElseThrow();
    }

    private QueueManagerConnector startAgent(String name, ConnectionMode mode, Map<String, String> extra,
            Path transferRoot) throws Exception {
        StartedAgent started = startAgent(qm, port, name, mode, extra, transferRoot, listener,
                root.resolve("state").resolve(name));
        agents.add(started.agent());
        return started.connector();
    }

    /** An agent that runs, and the connector it uses (as the administrator: it also submits requests). */
    public record StartedAgent(Agent agent, QueueManagerConnector connector) {
    }

    /**
     * Starts agent {@code name} on {@code qm} (listening on {@code port}), connected in {@code mode},
     * with {@code extra} agent.properties values over the harness's own.
     */
    public static StartedAgent startAgent(EmbeddedQueueManager qm, int port, String name, ConnectionMode mode,
            Map<String, String> extra, Path transferRoot, AgentListener listener, Path stateDir) throws Exception {
        Map<String, String> raw = new HashMap<>(Map.of("agentName", name, "agentQMgr", qm.settings().name(),
                "agentQMgrPort", String.valueOf(port), "immediateShutdownTimeout", "5",
                "transferRoot", transferRoot.toString()));
        if (mode == ConnectionMode.CLIENT) {
            raw.put("agentQMgrHost", "127.0.0.1");
        }
        raw.putAll(extra);
        AgentConfig config = AgentConfig.from(raw, Map.of());
        // As the administrator: the same connector submits requests and carries the raw JMS ceiling.
        QueueManagerConnector connector = QueueManagerConnector.forAgent(config.endpoint(),
                qm.administrator().orElseThrow());
        Agent agent = new Agent(config, connector, listener, stateDir);
        try {
            agent.start();
        } catch (Exception e) {
            agent.close();
            throw e;
        }
        return new StartedAgent(agent, connector);
    }

    /**
     * The connector the (first started) source agent of {@code mode} uses: the raw JMS ceiling goes
     * through the same one.
     */
    public QueueManagerConnector connector(ConnectionMode mode) {
        return connectors.get(mode);
    }

    /** A binary item from {@code source} to the file {@code destination}. */
    public static TransferItem binaryItem(Path source, Path destination, ChecksumMethod checksum) {
        return item(Mode.BINARY, source, destination, checksum);
    }

    /**
     * An item from {@code source} to the file {@code destination}; a text item names no encodings
     * and no line ending, so both sides use their platform's defaults, as {@code fteCreateTransfer -t
     * text} without {@code -sce}, {@code -dce} or {@code -dle} does.
     */
    public static TransferItem item(Mode mode, Path source, Path destination, ChecksumMethod checksum) {
        return new TransferItem(mode, checksum,
                new ItemSource(false, Disposition.LEAVE, source.toString(), null),
                new ItemDestination(DestinationType.FILE, ExistAction.ERROR, destination.toString(), null, null));
    }

    /**
     * Requests one transfer of {@code items} between the agents of {@code mode} and waits for its
     * final reply. The caller times this call.
     */
    public Result transfer(ConnectionMode mode, List<TransferItem> items, long timeoutMillis) throws Exception {
        return transfer(standardPair(mode), items, timeoutMillis);
    }

    /** As {@link #transfer(ConnectionMode, List, long)}, from {@code pair}'s source to its destination. */
    public Result transfer(Pair pair, List<TransferItem> items, long timeoutMillis) throws Exception {
        return transferAll(pair, List.of(items), timeoutMillis).get(0);
    }

    /**
     * Requests every transfer of {@code transfers} between the agents of {@code mode} at once (every
     * request is put before any reply is read) and waits for all their final replies, at most
     * {@code timeoutMillis} from the first put. The caller times this call: from the first put to the
     * last final reply.
     *
     * <p>Acknowledgements and final replies of all the transfers arrive on the requester's one
     * temporary queue, in any order: an acknowledgement is correlated with its request's message id
     * (CorrelId = request MsgId, as IBM MFT does) and names the transfer id, which the final reply
     * carries as its ID.
     *
     * @return one result per transfer, in the order of {@code transfers}
     */
    public List<Result> transferAll(ConnectionMode mode, List<List<TransferItem>> transfers, long timeoutMillis)
            throws Exception {
        return transferAll(standardPair(mode), transfers, timeoutMillis);
    }

    /** As {@link #transferAll(ConnectionMode, List, long)}, between {@code pair}'s agents. */
    public List<Result> transferAll(Pair pair, List<List<TransferItem>> transfers, long timeoutMillis)
            throws Exception {
        TransferRequester r = requesters.get(pair);
        if (r == null) {
            throw new IllegalArgumentException("no agents " + pair + " on this queue manager");
        }
        return r.transferAll(new AgentRef(pair.source(), QMGR), new AgentRef(pair.destination(), QMGR), transfers,
                timeoutMillis);
    }

    @Override
    public void close() {
        for (TransferRequester r : requesters.values()) {
            r.close();
        }
        for (Agent a : agents) {
            a.close();
        }
        qm.close();
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
