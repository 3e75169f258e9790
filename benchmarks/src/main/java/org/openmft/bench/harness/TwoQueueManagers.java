package org.openmft.bench.harness;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

import org.openmft.agent.Agent;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.net.DelayRelay;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.qmgr.channel.ChannelDefinition;
import org.openmft.agent.qmgr.channel.Channels;
import org.openmft.agent.qmgr.security.Permissions;
import org.openmft.xml.AgentRef;
import org.openmft.xml.TransferItem;

/**
 * Seed 000's bindings topology: two queue managers, {@value #QMA} and {@value #QMB}, joined by
 * channels both ways (Artemis core bridges over TCP, as {@code mft qmgr channel create} defines
 * them), each source agent bound to {@value #QMA} and each destination agent to {@value #QMB}, both
 * in bindings mode (in-VM). A transfer's request goes to the source agent's COMMAND queue on
 * {@value #QMA} and names {@code destinationAgent QMgr=QMB}: its chunks, and the destination's
 * acknowledgements back, cross the channels.
 *
 * <p>Both queue managers and all agents run in this JVM, each queue manager with its own journal
 * directory and TCP listener: what a channel costs (the bridge's send, the TCP hop, the receiving
 * queue manager's put) is all there, but the two sides share this machine's cores and disk, as
 * they would not on IBM's two machines. Optionally each channel goes through a {@link DelayRelay},
 * so that the link between the queue managers has a round-trip time and a rate cap.
 */
public final class TwoQueueManagers implements AutoCloseable {
    static final String QMA = "QMA";
    static final String QMB = "QMB";

    /** How long the channels may take to run after the queue managers started. */
    private static final long CHANNEL_START_MILLIS = 60_000;

    /**
     * A source agent on {@value #QMA} and the destination agent on {@value #QMB} it sends to.
     *
     * @param source      the source agent's name
     * @param destination the destination agent's name
     */
    /** Bytes a relay holds in flight per direction and connection: 64 MiB. */
    public static final int RELAY_WINDOW_BYTES = 64 << 20;

    public record Pair(String source, String destination) {
    }

    /**
     * The link between the queue managers.
     *
     * @param relayed        whether the channels go through delaying relays (else straight to the other listener)
     * @param oneWayDelay    each direction's delay, when relayed
     * @param bytesPerSecond each direction's rate cap per connection when relayed (a per-flow shaper), 0 for none
     * @param channels       parallel channels each way (their aliases SYSTEM.FTE.<QM>_n; see
     *                       agentMultipleChannelsEnabled), 1 for one
     */
    public record Link(boolean relayed, Duration oneWayDelay, long bytesPerSecond, int channels) {
        /** The channels straight to the other queue manager's listener on loopback. */
        public static final Link DIRECT = new Link(false, Duration.ZERO, 0, 1);

        /** Through relays of the given delay and rate cap. */
        public static Link relayed(Duration oneWayDelay, long bytesPerSecond) {
            return new Link(true, oneWayDelay, bytesPerSecond, 1);
        }

        /** The same link with {@code n} parallel channels each way. */
        public Link withChannels(int n) {
            return new Link(relayed, oneWayDelay, bytesPerSecond, n);
        }
    }

    private final Path root;
    private final Map<String, Side> sides = new LinkedHashMap<>();
    private final List<DelayRelay> relays = new ArrayList<>();
    private final List<Agent> agents = new ArrayList<>();
    private final Map<Pair, TransferRequester> requesters = new LinkedHashMap<>();
    private final ResendCounter listener = new ResendCounter();

    /** One queue manager and where it listens. */
    private record Side(EmbeddedQueueManager qm, int port, Path directory) {
    }

    private TwoQueueManagers(Path root) {
        this.root = root;
    }

    /**
     * Starts both queue managers under {@code root}, the channels between them over {@code link},
     * and {@code pairs}, each agent with its own extra agent.properties values; returns once both
     * channels run.
     */
    public static TwoQueueManagers start(Path root, Path transferRoot, List<Pair> pairs,
            Function<String, Map<String, String>> agentProperties, Link link) throws Exception {
        TwoQueueManagers two = new TwoQueueManagers(root);
        try {
            for (String name : List.of(QMA, QMB)) {
                int port = EmbeddedMft.freePort();
                Path dir = root.resolve(name).resolve("qm");
                two.sides.put(name, new Side(EmbeddedQueueManager.start(new QueueManagerSettings(name, dir, "127.0.0.1",
                        port)), port, dir));
            }
            two.join(QMA, QMB, link);
            two.join(QMB, QMA, link);
            two.awaitChannels();
            for (Pair pair : pairs) {
                EmbeddedMft.StartedAgent source = two.startAgent(QMA, pair.source(), agentProperties, transferRoot);
                two.startAgent(QMB, pair.destination(), agentProperties, transferRoot);
                two.requesters.put(pair, new TransferRequester(source.connector(), QMA, two.listener::of));
            }
            return two;
        } catch (Exception e) {
            two.close();
            throw e;
        }
    }

    private EmbeddedMft.StartedAgent startAgent(String qmgr, String name,
            Function<String, Map<String, String>> agentProperties, Path transferRoot) throws Exception {
        Side side = sides.get(qmgr);
        EmbeddedMft.StartedAgent a = EmbeddedMft.startAgent(side.qm(), side.port(), name, ConnectionMode.BINDINGS,
                agentProperties.apply(name), transferRoot, listener, root.resolve(qmgr).resolve("state").resolve(name));
        agents.add(a.agent());
        return a;
    }

    /**
     * The channel from {@code from} to {@code to}, as {@code mft qmgr channel create} makes it: a user
     * with the channel role on {@code to}, its credentials in a file, the definition in {@code from}'s
     * directory, which {@code from} applies within seconds.
     */
    private void join(String from, String to, Link link) throws IOException {
        Side remote = sides.get(to);
        Credentials login = remote.qm().users().add("channel." + from, Set.of(Permissions.CHANNEL), true);
        remote.qm().applySecurityChanges();
        Path credentials = root.resolve(from).resolve("channel-" + to + ".xml");
        remote.qm().users().writeCredentials(credentials, login, false);
        int port = remote.port();
        if (link.relayed()) {
            // A relay window far above any bandwidth-delay product measured here (1.3 GB/s at 100 ms):
            // the relay's default 4 MiB would cap a connection at 84 MB/s over 100 ms by itself.
            DelayRelay relay = DelayRelay.start(new InetSocketAddress("127.0.0.1", 0),
                    new InetSocketAddress("127.0.0.1", remote.port()), link.oneWayDelay(), link.bytesPerSecond(),
                    RELAY_WINDOW_BYTES);
            relays.add(relay);
            port = relay.address().getPort();
        }
        new ChannelDefinition(to, "127.0.0.1", port, credentials, null, null, false, link.channels())
                .store(sides.get(from).directory());
    }

    private void awaitChannels() throws IOException, InterruptedException {
        awaitChannels(sides.get(QMA).directory(), sides.get(QMB).directory(), CHANNEL_START_MILLIS);
    }

    /**
     * Waits until QMA's channel to QMB and QMB's to QMA both run, as their queue managers (in
     * directories {@code dirA} and {@code dirB}) report it; throws after {@code millis}.
     */
    static void awaitChannels(Path dirA, Path dirB, long millis) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (!("RUNNING".equals(channelState(dirA, QMB)) && "RUNNING".equals(channelState(dirB, QMA)))) {
            if (System.nanoTime() > deadline) {
                throw new IOException("the channels did not run within " + millis / 1000 + " s: " + QMA + ".TO." + QMB
                        + " " + channelState(dirA, QMB) + ", " + QMB + ".TO." + QMA + " " + channelState(dirB, QMA));
            }
            Thread.sleep(100); // polling the status file the queue manager rewrites; nothing to wait on
        }
    }

    /** The state the channel to {@code to} of the queue manager whose directory is {@code qmDir} last reported, or null. */
    static String channelState(Path qmDir, String to) {
        Path f = qmDir.resolve(ChannelDefinition.DIRECTORY).resolve(Channels.STATUS_FILE);
        if (!Files.exists(f)) {
            return null;
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(f)) {
            p.load(in);
        } catch (IOException e) {
            return null; // being rewritten
        }
        return p.getProperty(to + ".state");
    }

    /** Each channel's one-way delay from now on (relayed links only). */
    public void setDelay(Duration oneWayDelay) {
        relays.forEach(r -> r.setDelay(oneWayDelay));
    }

    /** Each channel's rate cap from now on, 0 for none (relayed links only). */
    public void setBandwidth(long bytesPerSecond) {
        relays.forEach(r -> r.setBandwidth(bytesPerSecond));
    }

    /** Bytes the relays delivered so far, both directions. */
    public long relayedBytes() {
        return relays.stream().mapToLong(r -> r.bytesToTarget() + r.bytesFromTarget()).sum();
    }

    /** As {@link EmbeddedMft#transferAll}: every transfer requested at once, from {@code pair}'s source on QMA to its destination on QMB. */
    public List<EmbeddedMft.Result> transferAll(Pair pair, List<List<TransferItem>> transfers, long timeoutMillis)
            throws Exception {
        TransferRequester r = requesters.get(pair);
        if (r == null) {
            throw new IllegalArgumentException("no agents " + pair);
        }
        return r.transferAll(new AgentRef(pair.source(), QMA), new AgentRef(pair.destination(), QMB), transfers,
                timeoutMillis);
    }

    @Override
    public void close() {
        requesters.values().forEach(TransferRequester::close);
        agents.forEach(Agent::close);
        for (Side s : sides.values()) {
            s.qm().close();
        }
        for (DelayRelay r : relays) {
            try {
                r.close();
            } catch (IOException e) {
                // Closing at the end of the run: nothing to do about it.
            }
        }
    }
}
