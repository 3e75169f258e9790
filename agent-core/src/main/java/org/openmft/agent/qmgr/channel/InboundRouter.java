package org.openmft.agent.qmgr.channel;

import java.util.Map;

import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.transformer.Transformer;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.Routing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of every channel into an embedded queue manager: the transformer of the
 * exclusive divert on {@value Routing#INBOUND}, which re-addresses each arriving message to the
 * queue its route names ({@link Routing#ROUTE_QUEUE}) when it is for this queue manager, giving it
 * the user its first queue manager validated ({@link Routing#ORIGIN_USER}); or to the transmission
 * queue toward the next queue manager (IBM MQ's queue manager alias hop, at most {@value #MAX_HOPS}
 * of them); or, when neither exists, the queue is one a channel may not feed or the message has
 * passed through too many queue managers, to the dead-letter queue with the reason in
 * {@value #ERROR}.
 *
 * <p>A channel may feed agents' COMMAND, DATA and REPLY queues, the publication queue
 * {@code SYSTEM.FTE} (published on that address: how agents publish to a coordination queue manager
 * that is not their own), reply queues {@code WMQFTE.*} and application queues (outside {@code SYSTEM.*}
 * and the broker's own); never an agent's STATE, EVENT or authority queues, nor anything of the
 * broker's. Trust in a channel is trust in the queue manager at its other end, as with IBM MQ.
 *
 * <p>Made by the broker from its class name (a divert's configuration is kept in the journal and
 * recovered at start), with this queue manager's name in the property
 * {@value Channels#QMGR_PROPERTY}; it finds the broker through {@link Channels#server}.
 */
public final class InboundRouter implements Transformer {
    /**
     * The validated user of a message passing through to another queue manager: not a user name any
     * login can have, so the next channel's {@link OriginStamp} knows the origin recorded is not this
     * queue manager's to vouch for.
     */
    public static final String TRANSIT = "$transit";
    /** String: why an arriving message was not delivered. */
    public static final String ERROR = "mftRouteError";
    /**
     * Int: the queue managers a message has passed through on its way (set here at each hop, removed
     * by {@link OriginStamp} from what a client puts, so no client can forge it).
     */
    public static final String HOPS = "mftRouteHops";
    /**
     * The most queue managers a message passes through: beyond them it is dead-lettered, named, since
     * queue manager aliases that lead to each other would otherwise send it round for ever.
     */
    public static final int MAX_HOPS = 16;
    private static final Logger log = LoggerFactory.getLogger(InboundRouter.class);

    private String localQMgr;
    private String deadLetter;

    /** For the broker, which calls {@link #init} next. */
    public InboundRouter() {
    }

    @Override
    public void init(Map<String, String> properties) {
        this.localQMgr = properties.get(Channels.QMGR_PROPERTY);
        this.deadLetter = properties.get(Channels.DEAD_LETTER_PROPERTY);
    }

    @Override
    public Message transform(Message m) {
        String qmgr = m.getStringProperty(Routing.ROUTE_QMGR);
        String queue = m.getStringProperty(Routing.ROUTE_QUEUE);
        if (qmgr == null || queue == null) {
            return dead(m, "no " + Routing.ROUTE_QMGR + " and " + Routing.ROUTE_QUEUE + " to route it by");
        }
        if (!qmgr.equals(localQMgr)) {
            String next;
            try {
                next = Routing.transmissionQueue(qmgr);
            } catch (IllegalArgumentException e) {
                return dead(m, e.getMessage());
            }
            if (!exists(next)) {
                return dead(m, "queue manager " + localQMgr + " has no channel to " + qmgr);
            }
            int hops = m.getObjectProperty(HOPS) instanceof Integer n ? n : 0;
            if (hops >= MAX_HOPS) {
                return dead(m, "passed through " + hops + " queue managers without reaching " + qmgr
                        + ": do queue manager aliases on the way lead to each other?");
            }
            m.putIntProperty(HOPS, hops + 1);
            m.setValidatedUserID(TRANSIT);
            m.setAddress(next);
            return m;
        }
        if (!deliverable(queue)) {
            return dead(m, "a channel may not put to queue " + queue);
        }
        if (queue.equals(Publications.TOPIC)) {
            return publish(m);
        }
        if (!exists(queue)) {
            return dead(m, "queue " + queue + " does not exist on queue manager " + localQMgr);
        }
        return deliver(m, queue);
    }

    /** {@code m} to {@code address} here, as the user its first queue manager validated. */
    private static Message deliver(Message m, String address) {
        String origin = m.getStringProperty(Routing.ORIGIN_USER);
        if (origin != null) {
            m.setValidatedUserID(origin);
        }
        m.setAddress(address);
        return m;
    }

    /**
     * A publication for this queue manager's {@value Publications#TOPIC}: on IBM MQ a queued publish
     * on the queue of that name, here the multicast address of that name (see {@link Publications}),
     * so it reaches every subscription and the retained queue as if an agent of this queue manager
     * had published it. The divert made it an anycast message, which no subscription would see.
     */
    private Message publish(Message m) {
        ActiveMQServer server = Channels.server(localQMgr);
        if (server == null || server.getAddressInfo(SimpleString.of(Publications.TOPIC)) == null) {
            return dead(m, "queue manager " + localQMgr + " has no " + Publications.TOPIC + " address to publish on");
        }
        m.setRoutingType(RoutingType.MULTICAST);
        return deliver(m, Publications.TOPIC);
    }

    /** Whether a channel may put to {@code queue} here. */
    static boolean deliverable(String queue) {
        if (queue.startsWith("SYSTEM.FTE.COMMAND.") || queue.startsWith("SYSTEM.FTE.DATA.")
                || queue.startsWith("SYSTEM.FTE.REPLY.") || queue.equals("SYSTEM.FTE") || queue.startsWith("WMQFTE.")) {
            return true;
        }
        return !queue.startsWith("SYSTEM.") && !queue.startsWith("activemq.") && !queue.startsWith("$.")
                && !queue.contains("#") && !queue.contains("*");
    }

    private boolean exists(String queue) {
        ActiveMQServer server = Channels.server(localQMgr);
        return server != null && server.locateQueue(SimpleString.of(queue)) != null;
    }

    private Message dead(Message m, String why) {
        log.warn("Queue manager {}: a message arriving on a channel (from {}, user {}) goes to {}: {}", localQMgr,
                m.getStringProperty(Routing.ORIGIN_QMGR), m.getStringProperty(Routing.ORIGIN_USER), deadLetter, why);
        m.putStringProperty(ERROR, why);
        m.setAddress(deadLetter);
        return m;
    }
}
