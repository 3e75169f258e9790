package org.openmft.agent.qmgr.channel;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.BridgeConfiguration;
import org.apache.activemq.artemis.core.config.DivertConfiguration;
import org.apache.activemq.artemis.core.config.TransformerConfiguration;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.ComponentConfigurationRoutingType;
import org.apache.activemq.artemis.core.server.Queue;
import org.apache.activemq.artemis.core.server.cluster.Bridge;
import org.openmft.agent.config.PrivateFiles;
import org.openmft.agent.messaging.ArtemisTuning;
import org.openmft.agent.messaging.Routing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded queue manager's channels, built on Artemis's core bridges: each definition
 * ({@link ChannelDefinition}) becomes a durable transmission queue {@code SYSTEM.CHANNEL.XMIT.<REMOTE>}
 * and a bridge that forwards it, with duplicate detection (each message arrives once, even when the
 * link drops between the send and its confirmation), retrying for ever with a capped backoff, to the
 * remote queue manager's {@value Routing#INBOUND}; there {@link InboundRouter} delivers each
 * message. Why bridges and not cluster connections or federation: docs/architecture.md, "Channels".
 *
 * <p>A definition with several channels ({@link ChannelDefinition#channels()}) gets a bridge, a
 * connection and a transmission queue per channel: channel n &gt; 1 forwards
 * {@code SYSTEM.CHANNEL.XMIT.SYSTEM.FTE.<REMOTE>_n}, which is how IBM's queue manager alias
 * {@code SYSTEM.FTE.<REMOTE>_n} resolves here ({@link Routing#aliasTransmissionQueue}); those queues
 * exist exactly while their channel is defined, and what one holds when its channel goes moves to
 * the main transmission queue ({@code retireAliasQueues}).
 *
 * <p>{@link #apply()} runs at start and then every {@link #PERIOD_MILLIS}: it deploys new and
 * changed definitions, removes the bridges of removed ones (their transmission queue stays with
 * what it holds, so nothing is lost), applies the queue manager aliases of multi-hop routes
 * ({@link AliasRoutes}), and writes every channel's status to
 * {@code channels/status.properties} for {@code mft qmgr channel list}.
 *
 * <p>Used by the queue manager's scheduled thread only.
 */
public final class Channels implements Runnable {
    /** How often definitions are re-read and statuses written. */
    public static final long PERIOD_MILLIS = 2000;
    /** The file the statuses are written to, in {@link ChannelDefinition#DIRECTORY}. */
    public static final String STATUS_FILE = "status.properties";
    private static final String BRIDGE_PREFIX = "channel.";
    private static final String INBOUND_DIVERT = "channel.inbound";
    private static final Logger log = LoggerFactory.getLogger(Channels.class);
    /** The transformers' property naming their queue manager. */
    static final String QMGR_PROPERTY = "qmgr";
    /** The inbound transformer's property naming the dead-letter queue. */
    static final String DEAD_LETTER_PROPERTY = "deadLetter";
    /** The brokers of the queue managers running in this JVM, for the transformers the broker makes. */
    private static final Map<String, ActiveMQServer> SERVERS = new java.util.concurrent.ConcurrentHashMap<>();

    private final ActiveMQServer server;
    private final String localQMgr;
    private final Path directory;
    private final String deadLetter;
    private final Map<String, ChannelDefinition> deployed = new HashMap<>();
    /** Why a channel cannot start, by {@link ChannelDefinition#route}. */
    private final Map<String, String> problems = new HashMap<>();
    /** The transmission queue of every channel tried, by {@link ChannelDefinition#route}. */
    private final Map<String, String> transmissionQueues = new HashMap<>();
    private boolean first = true;
    /**
     * The definitions every transmission queue of a removed channel was last retired for; null
     * until a pass left none. Only this class makes those queues, so they need looking for (a
     * scan of every queue of the broker) only when the definitions change, not every pass.
     */
    private Map<String, ChannelDefinition> retiredFor;
    private final AliasRoutes aliases;
    /** The statuses last written, for readers on other threads (the metrics). */
    private volatile List<Status> latest = List.of();

    /**
     * @param server     the queue manager's broker (started)
     * @param localQMgr  its name
     * @param directory  its data directory
     * @param deadLetter its dead-letter queue
     */
    public Channels(ActiveMQServer server, String localQMgr, Path directory, String deadLetter) {
        this.server = server;
        this.localQMgr = localQMgr;
        this.directory = directory;
        this.deadLetter = deadLetter;
        this.aliases = new AliasRoutes(server, localQMgr);
    }

    /**
     * Makes the receiving end: the {@value Routing#INBOUND} address and its exclusive divert through
     * {@link InboundRouter}. Every embedded queue manager can receive channels; only users with the
     * role {@code channel} may send to it.
     */
    public void openInbound() throws Exception {
        SERVERS.put(localQMgr, server);
        // A queue of the address's name, which the exclusive divert leaves empty: without it, a
        // channel's send would ask to create one (a permission channels do not have).
        if (server.locateQueue(SimpleString.of(Routing.INBOUND)) == null) {
            server.createQueue(QueueConfiguration.of(Routing.INBOUND).setRoutingType(RoutingType.ANYCAST)
                    .setDurable(true).setAutoCreated(false));
        }
        if (server.getPostOffice().getBinding(SimpleString.of(INBOUND_DIVERT)) == null) {
            server.deployDivert(new DivertConfiguration().setName(INBOUND_DIVERT).setAddress(Routing.INBOUND)
                    .setForwardingAddress(deadLetter).setExclusive(true)
                    .setRoutingType(ComponentConfigurationRoutingType.ANYCAST)
                    .setTransformerConfiguration(new TransformerConfiguration(InboundRouter.class.getName())
                            .setProperties(Map.of(QMGR_PROPERTY, localQMgr, DEAD_LETTER_PROPERTY, deadLetter))));
        }
    }

    /**
     * The broker of queue manager {@code qmgr} in this JVM, for {@link InboundRouter}.
     *
     * @return it, or null when it does not run here (or is not ready yet)
     */
    static ActiveMQServer server(String qmgr) {
        return qmgr == null ? null : SERVERS.get(qmgr);
    }

    /** The queue manager stops: its transformers find no broker any more. */
    public void close() {
        SERVERS.remove(localQMgr, server);
    }

    @Override
    public void run() {
        try {
            apply();
        } catch (RuntimeException e) {
            log.warn("Queue manager {}: applying its channels failed: {}", localQMgr, e.toString());
        }
    }

    /** Deploys, redeploys and removes bridges to match the definitions, and writes the statuses. */
    public void apply() {
        Map<String, ChannelDefinition> wanted;
        try {
            wanted = ChannelDefinition.loadAll(directory);
        } catch (IOException e) {
            log.warn("Queue manager {}: its channel definitions cannot be read; the channels stay as they are: {}",
                    localQMgr, e.getMessage());
            writeStatus();
            return;
        }
        if (first) {
            // Bridges deployed by an earlier run are in the journal; the definitions are what counts.
            for (String name : List.copyOf(server.getClusterManager().getBridges().keySet())) {
                if (name.startsWith(BRIDGE_PREFIX)) {
                    destroy(name);
                }
            }
            first = false;
        }
        for (String remote : List.copyOf(deployed.keySet())) {
            if (!wanted.containsKey(remote)) {
                ChannelDefinition old = deployed.remove(remote);
                destroyAll(old);
                log.info("Queue manager {}: channel {} removed; its transmission queue keeps what it holds",
                        localQMgr, old.name(localQMgr));
            }
        }
        for (ChannelDefinition d : wanted.values()) {
            ChannelDefinition old = deployed.get(d.remoteQMgr());
            if (d.equals(old)) {
                continue;
            }
            if (old != null) {
                destroyAll(old);
                deployed.remove(d.remoteQMgr());
            }
            deployAll(d);
        }
        if (!wanted.equals(retiredFor) && retireAliasQueues(wanted)) {
            retiredFor = Map.copyOf(wanted);
        }
        Map<String, ChannelAlias> aliasesWanted = AliasRoutes.load(directory, localQMgr);
        if (aliasesWanted != null) {
            aliases.apply(aliasesWanted, wanted);
        }
        writeStatus();
    }

    private static String bridgeName(String route) {
        return BRIDGE_PREFIX + route;
    }

    /** Deploys every channel of a definition, or none (a failure is tried again at the next pass). */
    private void deployAll(ChannelDefinition d) {
        for (int i = 1; i <= d.channels(); i++) {
            transmissionQueues.put(d.route(i), Routing.aliasTransmissionQueue(d.remoteQMgr(), i));
        }
        int n = 1;
        try {
            for (; n <= d.channels(); n++) {
                deploy(d, n);
                problems.remove(d.route(n));
            }
            deployed.put(d.remoteQMgr(), d);
            log.info("Queue manager {}: channel {} to {}:{} started{}", localQMgr, d.name(localQMgr), d.host(),
                    d.port(), d.channels() == 1 ? "" : " (" + d.channels() + " parallel channels)");
        } catch (Exception e) {
            for (int i = 1; i < n; i++) {
                destroy(bridgeName(d.route(i)));
            }
            // Tried again at every pass; said once per new reason, not every two seconds.
            String why = String.valueOf(e.getMessage());
            if (!why.equals(problems.put(d.route(n), why))) {
                log.warn("Queue manager {}: channel {} cannot start (tried again every {} s): {}", localQMgr,
                        d.name(localQMgr, n), PERIOD_MILLIS / 1000, why);
            }
        }
    }

    private void destroyAll(ChannelDefinition d) {
        for (int n = 1; n <= d.channels(); n++) {
            destroy(bridgeName(d.route(n)));
            problems.remove(d.route(n));
        }
    }

    private void deploy(ChannelDefinition d, int n) throws Exception {
        String xmit = Routing.aliasTransmissionQueue(d.remoteQMgr(), n);
        if (server.locateQueue(SimpleString.of(xmit)) == null) {
            server.createQueue(QueueConfiguration.of(xmit).setRoutingType(RoutingType.ANYCAST).setDurable(true)
                    .setAutoCreated(false));
        }
        // A connector per channel: each bridge has its own connection, which is the point of several.
        String connector = bridgeName(d.route(n));
        server.getConfiguration().addConnectorConfiguration(connector, url(d));
        BridgeConfiguration b = new BridgeConfiguration().setName(bridgeName(d.route(n))).setQueueName(xmit)
                .setForwardingAddress(Routing.INBOUND).setStaticConnectors(List.of(connector))
                .setUseDuplicateDetection(true).setReconnectAttempts(-1).setInitialConnectAttempts(-1)
                .setRetryInterval(500).setRetryIntervalMultiplier(2.0).setMaxRetryInterval(d.maxRetryMillis())
                // IBM's HBINT: a link cut without a reset (a cable, a firewall) is noticed within a few
                // heartbeats (about 30 s by default) rather than after Artemis's default minute.
                .setClientFailureCheckPeriod(d.heartbeatMillis()).setConnectionTTL(d.connectionTtlMillis())
                .setUser(d.login().user()).setPassword(d.login().password())
                .setRoutingType(ComponentConfigurationRoutingType.ANYCAST)
                // Chunks stay normal messages across the channel too (see ArtemisTuning).
                .setMinLargeMessageSize(ArtemisTuning.CLIENT_MIN_LARGE_MESSAGE_BYTES)
                // No producer credits and autotuned socket buffers: neither caps a long link (see
                // ArtemisTuning); the sources' windows bound what is in flight.
                .setProducerWindowSize(ArtemisTuning.CHANNEL_PRODUCER_WINDOW_BYTES)
                .setTransformerConfiguration(new TransformerConfiguration(OriginStamp.class.getName())
                        .setProperties(Map.of(QMGR_PROPERTY, localQMgr)));
        if (!server.deployBridge(b)) {
            throw new IllegalStateException("the broker did not deploy bridge " + b.getName());
        }
    }

    /**
     * Removes the transmission queues of channels 2, 3, … that no definition has any more (a
     * definition deleted, or given fewer channels, here or before a restart): their alias must stop
     * resolving, or sources would keep sending into a queue nothing forwards. What such a queue
     * holds moves first to the main transmission queue toward the same queue manager (made if
     * need be), which forwards it, or keeps it like any channel's, so nothing is lost.
     *
     * @return whether none is left (false when one still held messages, or could not be removed:
     *         the next pass tries again)
     */
    private boolean retireAliasQueues(Map<String, ChannelDefinition> wanted) {
        java.util.Set<String> keep = new java.util.HashSet<>();
        for (ChannelDefinition d : wanted.values()) {
            for (int n = 2; n <= d.channels(); n++) {
                keep.add(Routing.aliasTransmissionQueue(d.remoteQMgr(), n));
            }
        }
        List<String> retire = server.getPostOffice().getAllBindings()
                .map(b -> b.getUniqueName().toString())
                .filter(q -> q.startsWith(Routing.ALIAS_TRANSMISSION_PREFIX) && !keep.contains(q)).toList();
        boolean left = false;
        for (String xmit : retire) {
            String alias = xmit.substring(Routing.ALIAS_TRANSMISSION_PREFIX.length());
            int cut = alias.lastIndexOf('_');
            try {
                String main = Routing.transmissionQueue(alias.substring(0, Math.max(0, cut)));
                if (server.locateQueue(SimpleString.of(main)) == null) {
                    server.createQueue(QueueConfiguration.of(main).setRoutingType(RoutingType.ANYCAST)
                            .setDurable(true).setAutoCreated(false));
                }
                Queue q = server.locateQueue(SimpleString.of(xmit));
                // The binding given is where the moved messages are routed: the main transmission queue's.
                int moved = q == null ? 0 : q.moveReferences(null, SimpleString.of(main),
                        server.getPostOffice().getBinding(SimpleString.of(main)));
                if (moved > 0) {
                    log.info("Queue manager {}: {} messages moved from {}, the transmission queue of a removed channel,"
                            + " to {}", localQMgr, moved, xmit, main);
                }
                if (q != null && q.getMessageCount() > 0) {
                    // Something arrived meanwhile, or is being delivered: the next pass moves it.
                    left = true;
                    continue;
                }
                server.destroyQueue(SimpleString.of(xmit), null, false, true);
                log.info("Queue manager {}: transmission queue {} of a removed channel deleted", localQMgr, xmit);
            } catch (Exception e) {
                log.warn("Queue manager {}: transmission queue {} of a removed channel stays: {}", localQMgr, xmit,
                        e.toString());
                left = true;
            }
        }
        return !left;
    }

    private static String url(ChannelDefinition d) throws IOException {
        StringBuilder u = new StringBuilder("tcp://").append(d.host().contains(":") && !d.host().startsWith("[")
                ? "[" + d.host() + "]" : d.host()).append(':').append(d.port())
                .append('?').append(ArtemisTuning.tcpUrlParameters());
        if (d.trustStore() != null) {
            u.append("&sslEnabled=true&verifyHost=true&trustStoreType=PKCS12&trustStorePath=")
                    .append(enc(d.trustStore().toString())).append("&trustStorePassword=")
                    .append(enc(ChannelDefinition.password(d.trustStorePasswordFile())));
        }
        return u.toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private void destroy(String bridge) {
        try {
            server.destroyBridge(bridge);
        } catch (Exception e) {
            log.warn("Queue manager {}: bridge {} could not be removed: {}", localQMgr, bridge, e.toString());
        }
    }

    /**
     * One channel's state.
     *
     * @param remoteQMgr what the channel is named after: the remote queue manager for a definition's
     *                   first channel, its alias {@code SYSTEM.FTE.<REMOTE>_n} for the others
     *                   ({@link ChannelDefinition#route}); the key of its status
     * @param sent       messages its bridge has forwarded since the queue manager started (IBM's MSGS)
     */
    public record Status(String remoteQMgr, String state, long waiting, long sent, String detail) {
    }

    /**
     * The statuses now.
     *
     * @return one per channel deployed or failing, by {@link ChannelDefinition#route}
     */
    public List<Status> statuses() {
        List<Status> out = new ArrayList<>();
        java.util.Map<String, String> routes = new java.util.TreeMap<>();
        for (ChannelDefinition d : deployed.values()) {
            for (int n = 1; n <= d.channels(); n++) {
                routes.put(d.route(n), Routing.aliasTransmissionQueue(d.remoteQMgr(), n));
            }
        }
        for (String route : problems.keySet()) {
            routes.putIfAbsent(route, transmissionQueues.get(route));
        }
        for (Map.Entry<String, String> r : routes.entrySet()) {
            String route = r.getKey();
            Queue q = r.getValue() == null ? null : server.locateQueue(SimpleString.of(r.getValue()));
            long waiting = q == null ? 0 : q.getMessageCount();
            long sent = q == null ? 0 : q.getMessagesAcknowledged();
            Bridge b = server.getClusterManager().getBridges().get(bridgeName(route));
            String state;
            String detail = problems.getOrDefault(route, "");
            if (b == null) {
                state = "STOPPED";
            } else if (b.isStarted() && b.isConnected()) {
                state = "RUNNING";
            } else {
                state = "RETRYING";
            }
            out.add(new Status(route, state, waiting, sent, detail));
        }
        return out;
    }

    /** The statuses as last written (every {@link #PERIOD_MILLIS}); safe from any thread. */
    public List<Status> latestStatuses() {
        return latest;
    }

    private void writeStatus() {
        StringBuilder b = new StringBuilder();
        List<Status> now = List.copyOf(statuses());
        latest = now;
        for (Status s : now) {
            String k = s.remoteQMgr();
            b.append(k).append(".state=").append(s.state()).append('\n');
            b.append(k).append(".waiting=").append(s.waiting()).append('\n');
            b.append(k).append(".sent=").append(s.sent()).append('\n');
            if (!s.detail().isEmpty()) {
                b.append(k).append(".detail=").append(s.detail().replace('\n', ' ').replace("\\", "\\\\")).append('\n');
            }
        }
        Path dir = directory.resolve(ChannelDefinition.DIRECTORY);
        try {
            PrivateFiles.createDirectories(dir);
            Path temp = dir.resolve(".status.tmp");
            Files.deleteIfExists(temp);
            PrivateFiles.createFile(temp, b.toString().getBytes(StandardCharsets.UTF_8));
            Files.move(temp, dir.resolve(STATUS_FILE), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.debug("Queue manager {}: channel statuses not written: {}", localQMgr, e.toString());
        }
    }
}
