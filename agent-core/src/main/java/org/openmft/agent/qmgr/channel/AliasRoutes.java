package org.openmft.agent.qmgr.channel;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.config.DivertConfiguration;
import org.apache.activemq.artemis.core.postoffice.BindingType;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.ComponentConfigurationRoutingType;
import org.apache.activemq.artemis.core.server.Queue;
import org.openmft.agent.messaging.Routing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded queue manager's queue manager aliases ({@link ChannelAlias}), IBM MQ's QREMOTE with a
 * blank RNAME, made with Artemis's own routing: the alias to QMB via QMC is an exclusive divert from
 * the transmission address {@code SYSTEM.CHANNEL.XMIT.QMB} to {@code SYSTEM.CHANNEL.XMIT.QMC}, whose
 * channel carries the message (its route still names QMB) to QMC, where {@link InboundRouter} sends
 * it on toward QMB. So an agent, a command or a passing message addresses QMB exactly as if a channel
 * led there ({@link Routing}). A queue of the alias's name, which the exclusive divert leaves empty,
 * makes the route visible to those who check that a transmission queue exists before they send
 * (agents, commands, {@link InboundRouter}); it goes with the alias.
 *
 * <p>An alias and a channel to the same queue manager: the alias wins, as a queue manager alias does
 * on IBM MQ (the commands refuse to make both). Nothing is lost on a change: what reached the
 * alias's queue while its divert was being replaced moves on to the transmission queue it leads to,
 * and the queue of a removed alias stays while it holds anything.
 *
 * <p>Applied by {@link Channels} at start and at every pass, on the queue manager's scheduled thread.
 */
final class AliasRoutes {
    private static final String DIVERT_PREFIX = "channel.alias.";
    private static final Logger log = LoggerFactory.getLogger(AliasRoutes.class);

    private final ActiveMQServer server;
    private final String localQMgr;
    private final Map<String, ChannelAlias> deployed = new HashMap<>();
    private final Set<ChannelAlias> refusedSaid = new HashSet<>();
    private boolean first = true;

    AliasRoutes(ActiveMQServer server, String localQMgr) {
        this.server = server;
        this.localQMgr = localQMgr;
    }

    /**
     * Deploys, replaces and removes diverts to match the aliases that may be applied.
     *
     * @param defined  the aliases defined now (those {@link ChannelAlias#refusal refused} are not applied)
     * @param channels the channel definitions now, by remote queue manager
     */
    void apply(Map<String, ChannelAlias> defined, Map<String, ChannelDefinition> channels) {
        Map<String, ChannelAlias> wanted = applicable(defined);
        if (first) {
            // Diverts deployed by an earlier run may be in the journal; the definitions are what counts.
            List<String> old = server.getPostOffice().getAllBindings().filter(b -> b.getType() == BindingType.DIVERT)
                    .map(b -> b.getUniqueName().toString()).filter(n -> n.startsWith(DIVERT_PREFIX)).toList();
            old.forEach(this::destroy);
            first = false;
        }
        for (ChannelAlias a : List.copyOf(deployed.values())) {
            if (!a.equals(wanted.get(a.remoteQMgr()))) {
                destroy(DIVERT_PREFIX + a.remoteQMgr());
                deployed.remove(a.remoteQMgr());
                if (!wanted.containsKey(a.remoteQMgr())) {
                    retire(a, channels.containsKey(a.remoteQMgr()));
                }
            }
        }
        for (ChannelAlias a : wanted.values()) {
            try {
                if (!deployed.containsKey(a.remoteQMgr())) {
                    deploy(a, channels.containsKey(a.remoteQMgr()));
                    deployed.put(a.remoteQMgr(), a);
                }
                moveOn(a);
            } catch (Exception e) {
                log.warn("Queue manager {}: alias {} via {} cannot be applied (tried again every {} s): {}", localQMgr,
                        a.remoteQMgr(), a.via(), Channels.PERIOD_MILLIS / 1000, e.toString());
            }
        }
    }

    /** The aliases that may be applied; each refused one is said once ({@link ChannelAlias#refusal}). */
    private Map<String, ChannelAlias> applicable(Map<String, ChannelAlias> defined) {
        Map<String, ChannelAlias> out = new HashMap<>();
        for (ChannelAlias a : defined.values()) {
            Optional<String> refused = a.refusal(defined);
            if (refused.isEmpty()) {
                out.put(a.remoteQMgr(), a);
                refusedSaid.remove(a);
            } else if (refusedSaid.add(a)) {
                log.warn("Queue manager {}: {}; it is not applied", localQMgr, refused.get());
            }
        }
        refusedSaid.retainAll(defined.values());
        return out;
    }

    private void deploy(ChannelAlias a, boolean channelToo) throws Exception {
        String from = Routing.transmissionQueue(a.remoteQMgr());
        ensureQueue(from);
        ensureQueue(Routing.transmissionQueue(a.via()));
        server.deployDivert(new DivertConfiguration().setName(DIVERT_PREFIX + a.remoteQMgr()).setAddress(from)
                .setForwardingAddress(Routing.transmissionQueue(a.via())).setExclusive(true)
                .setRoutingType(ComponentConfigurationRoutingType.ANYCAST));
        log.info("Queue manager {}: messages for queue manager {} go through {} (queue manager alias{})", localQMgr,
                a.remoteQMgr(), a.via(), channelToo ? "; it wins over the channel to " + a.remoteQMgr() : "");
    }

    /** Moves what reached the alias's own queue (while its divert was being replaced) on to its route. */
    private void moveOn(ChannelAlias a) throws Exception {
        Queue q = server.locateQueue(SimpleString.of(Routing.transmissionQueue(a.remoteQMgr())));
        if (q != null && q.getMessageCount() > 0) {
            SimpleString to = SimpleString.of(Routing.transmissionQueue(a.via()));
            int moved = q.moveReferences(null, to, server.getPostOffice().getBinding(to));
            log.info("Queue manager {}: {} messages for {} moved on to {}", localQMgr, moved, a.remoteQMgr(), to);
        }
    }

    /**
     * The queue of a removed alias goes, unless a channel serves it or it holds something: with it
     * gone, a sender to that queue manager hears at once that no route leads there.
     */
    private void retire(ChannelAlias a, boolean channelToo) {
        String queue = Routing.transmissionQueue(a.remoteQMgr());
        log.info("Queue manager {}: alias {} via {} removed", localQMgr, a.remoteQMgr(), a.via());
        Queue q = server.locateQueue(SimpleString.of(queue));
        if (channelToo || q == null || q.getMessageCount() > 0) {
            return;
        }
        try {
            server.destroyQueue(SimpleString.of(queue), null, false, true);
        } catch (Exception e) {
            log.warn("Queue manager {}: queue {} of a removed alias stays: {}", localQMgr, queue, e.toString());
        }
    }

    private void ensureQueue(String name) throws Exception {
        if (server.locateQueue(SimpleString.of(name)) == null) {
            server.createQueue(QueueConfiguration.of(name).setRoutingType(RoutingType.ANYCAST).setDurable(true)
                    .setAutoCreated(false));
        }
    }

    private void destroy(String divert) {
        try {
            server.destroyDivert(SimpleString.of(divert));
        } catch (Exception e) {
            log.warn("Queue manager {}: divert {} could not be removed: {}", localQMgr, divert, e.toString());
        }
    }

    /** The aliases of a queue manager directory, or null (said) when they cannot be read. */
    static Map<String, ChannelAlias> load(java.nio.file.Path directory, String localQMgr) {
        try {
            return ChannelAlias.loadAll(directory);
        } catch (IOException e) {
            log.warn("Queue manager {}: its queue manager aliases cannot be read; they stay as they are: {}", localQMgr,
                    e.getMessage());
            return null;
        }
    }
}
