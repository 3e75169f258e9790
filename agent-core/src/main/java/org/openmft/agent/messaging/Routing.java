package org.openmft.agent.messaging;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;

import org.openmft.agent.config.MessagingProvider;

/**
 * IBM MQ's {@code QUEUE@QMGR}: how an agent or a command addresses a queue on another queue manager.
 *
 * <p>On IBM MQ the queue manager resolves it itself: a JMS queue {@code queue://QM2/NAME} goes to the
 * transmission queue of QM2 (or a queue manager alias) and through a channel. On an embedded queue
 * manager (Artemis), OpenMFT's channels do the same with Artemis's own machinery (see
 * {@code org.openmft.agent.qmgr.channel}): the message is put on the local transmission queue
 * {@code SYSTEM.CHANNEL.XMIT.<QM2>} with the target queue and queue manager in two properties; the
 * channel's bridge carries it to QM2's {@value #INBOUND} address, where it is routed to the queue (or
 * on to the next queue manager). A queue on the local queue manager is addressed directly.
 *
 * <p>The destinations {@link #destination} makes are kept, at most {@value #DESTINATIONS_KEPT}, the
 * least recently used given up first: a JMS provider looks a destination up on the queue manager
 * the first time it is made and sent to (Artemis: a queue query when it is made, then an address
 * query, which scans every address of the broker, and a queue query again at its first send), so a
 * destination made afresh for each acknowledgement or reply costs those round trips on each, and
 * at a few hundred agents on one queue manager the scans are the larger part of its CPU. A queue
 * deleted after its destination was kept is still refused, by the queue manager at the send.
 *
 * <p>Thread-safe.
 */
public final class Routing {
    /** String: the queue manager a routed message is for. */
    public static final String ROUTE_QMGR = "mftRouteQMgr";
    /** String: the queue a routed message is for, on {@link #ROUTE_QMGR}. */
    public static final String ROUTE_QUEUE = "mftRouteQueue";
    /**
     * String: the user the first queue manager validated for a routed message; the receiving queue
     * manager makes it the message's JMSXUserID, as IBM MQ keeps a message's user across channels.
     */
    public static final String ORIGIN_USER = "mftOriginUser";
    /** String: the queue manager a routed message was first put on. */
    public static final String ORIGIN_QMGR = "mftOriginQMgr";
    /**
     * String, on a request: the queue manager its JMSReplyTo queue is on, when it is not the agent's
     * (IBM MQ's ReplyToQMgr); the agent routes its replies there.
     */
    public static final String REPLY_TO_QMGR = "mftReplyToQMgr";
    /** Where channels deliver on an embedded queue manager. */
    public static final String INBOUND = "SYSTEM.CHANNEL.INBOUND";
    private static final String TRANSMISSION_PREFIX = "SYSTEM.CHANNEL.XMIT.";
    /** How IBM names the queue manager aliases of several channels: {@code SYSTEM.FTE.<QM>_n}. */
    private static final String ALIAS_PREFIX = "SYSTEM.FTE.";
    /** The prefix of an embedded queue manager's transmission queues of channels 2, 3, … ({@link #aliasTransmissionQueue}). */
    public static final String ALIAS_TRANSMISSION_PREFIX = TRANSMISSION_PREFIX + ALIAS_PREFIX;
    private static final Pattern QMGR_NAME = Pattern.compile("[A-Za-z0-9._%]{1,48}");

    /** Destinations {@link #destination} keeps. */
    static final int DESTINATIONS_KEPT = 256;

    private final MessagingProvider provider;
    private final String localQMgr;
    /** The destinations made, by the name they were made from; guarded by itself. */
    private final Map<String, Destination> destinations = new LinkedHashMap<>(32, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Destination> eldest) {
            return size() > DESTINATIONS_KEPT;
        }
    };

    /**
     * @param provider  the local queue manager's provider
     * @param localQMgr the local queue manager's name
     */
    public Routing(MessagingProvider provider, String localQMgr) {
        this.provider = provider;
        this.localQMgr = localQMgr;
    }

    /**
     * The transmission queue of an embedded queue manager toward {@code qmgr}.
     *
     * @param qmgr the remote queue manager
     * @return {@code SYSTEM.CHANNEL.XMIT.<QMGR>}
     */
    public static String transmissionQueue(String qmgr) {
        return TRANSMISSION_PREFIX + validateQMgr(qmgr);
    }

    /**
     * Whether {@code queue} is an embedded queue manager's transmission queue, which comes and goes
     * with a channel or a queue manager alias (unlike an agent's queues).
     */
    public static boolean isTransmissionQueue(String queue) {
        return queue.startsWith(TRANSMISSION_PREFIX);
    }

    /**
     * IBM's queue manager alias of channel {@code n} to {@code qmgr}, for {@code agentMultipleChannelsEnabled}.
     *
     * @param qmgr the remote queue manager
     * @param n    the channel, from 1
     * @return {@code SYSTEM.FTE.<QMGR>_n}
     */
    public static String alias(String qmgr, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("channels are numbered from 1, not " + n);
        }
        return ALIAS_PREFIX + validateQMgr(qmgr) + "_" + n;
    }

    /**
     * The transmission queue that alias {@code SYSTEM.FTE.<QMGR>_n} resolves to on an embedded queue
     * manager: channel 1 is the channel to {@code qmgr} itself ({@link #transmissionQueue}); channel
     * n &gt; 1 has a transmission queue of its own, named, as IBM names a transmission queue, after the
     * queue manager name it serves: {@code SYSTEM.CHANNEL.XMIT.SYSTEM.FTE.<QMGR>_n}. It exists exactly
     * while the channel is defined, so what exists decides how many channels there are.
     */
    public static String aliasTransmissionQueue(String qmgr, int n) {
        return n == 1 ? transmissionQueue(qmgr) : TRANSMISSION_PREFIX + alias(qmgr, n);
    }

    /**
     * Where to send a message for {@code queue} on {@code qmgr} through channel {@code n} (IBM's
     * {@code agentMultipleChannelsEnabled}); {@link #address} stamps it as for the main route. On IBM
     * MQ the queue manager name is the alias, {@code queue://SYSTEM.FTE.<QMGR>_n/QUEUE}, which the
     * queue manager resolves through the alias's QREMOTE to its own transmission queue (opening it
     * fails, MQRC 2087, when no such alias is defined); on an embedded queue manager, the channel's
     * transmission queue ({@link #aliasTransmissionQueue}).
     */
    public Destination aliasDestination(Session session, String queue, String qmgr, int n) throws JMSException {
        String target = canonical(qmgr);
        if (provider == MessagingProvider.IBMMQ) {
            return session.createQueue("queue://" + alias(target, n) + "/" + queue);
        }
        return session.createQueue(aliasTransmissionQueue(target, n));
    }

    /**
     * The local queue whose existence says that alias {@code n} to {@code qmgr} exists, or null on
     * IBM MQ (opening {@link #aliasDestination} says it).
     */
    public String aliasLocalQueue(String qmgr, int n) {
        return provider == MessagingProvider.IBMMQ ? null : aliasTransmissionQueue(canonical(qmgr), n);
    }

    /**
     * Checks a queue manager name that will name a queue or travel in a property.
     *
     * @param qmgr the name
     * @return the name
     * @throws IllegalArgumentException when it is not 1 to 48 of A-Z, a-z, 0-9, '.', '_', '%'
     */
    public static String validateQMgr(String qmgr) {
        if (qmgr == null || !QMGR_NAME.matcher(qmgr).matches()) {
            throw new IllegalArgumentException("queue manager name '" + qmgr + "' is not valid: 1 to 48 characters"
                    + " from A-Z, a-z, 0-9, '.', '_' and '%'");
        }
        return qmgr;
    }

    /**
     * Whether {@code qmgr} names another queue manager than the local one (null and blank mean the local one).
     *
     * @param qmgr a queue manager name, or null
     * @return true when messages for it must be routed
     */
    public boolean isRemote(String qmgr) {
        // Queue manager names are case-sensitive, as in IBM MQ.
        return qmgr != null && !qmgr.isBlank() && !qmgr.trim().equals(localQMgr);
    }

    /** The local queue manager's name. */
    public String localQMgr() {
        return localQMgr;
    }

    /**
     * Where to send a message for {@code queue} on {@code qmgr}; {@link #address} must stamp the
     * message too. Made once and kept (see above), for any session of this queue manager.
     *
     * @param session the sending session
     * @param queue   the target queue
     * @param qmgr    its queue manager, or null for the local one
     * @return the destination to send to
     */
    public Destination destination(Session session, String queue, String qmgr) throws JMSException {
        String name;
        if (!isRemote(qmgr)) {
            name = queue;
        } else if (provider == MessagingProvider.IBMMQ) {
            name = "queue://" + canonical(qmgr) + "/" + queue;
        } else {
            name = transmissionQueue(canonical(qmgr));
        }
        Destination kept;
        synchronized (destinations) {
            kept = destinations.get(name);
        }
        if (kept != null) {
            return kept;
        }
        // Made outside the lock: it may wait for the queue manager. Two threads making the same one
        // at once both keep a valid destination; the last one stays.
        Destination made = session.createQueue(name);
        synchronized (destinations) {
            destinations.put(name, made);
        }
        return made;
    }

    /**
     * Stamps a message for {@code queue} on {@code qmgr} with its route (nothing for a local queue,
     * or on IBM MQ, which routes by the destination alone).
     */
    public void address(Message m, String queue, String qmgr) throws JMSException {
        if (isRemote(qmgr) && provider != MessagingProvider.IBMMQ) {
            m.setStringProperty(ROUTE_QMGR, canonical(qmgr));
            m.setStringProperty(ROUTE_QUEUE, queue);
        }
    }

    /**
     * The queue a routed destination puts on locally: the transmission queue for a remote queue
     * manager (whose absence means no channel leads there), else the queue itself.
     *
     * @return the local queue to check for existence, or null on IBM MQ for a remote queue (the
     *         queue manager resolves it, and says so when it cannot)
     */
    public String localQueueFor(String queue, String qmgr) {
        if (!isRemote(qmgr)) {
            return queue;
        }
        return provider == MessagingProvider.IBMMQ ? null : transmissionQueue(canonical(qmgr));
    }

    private static String canonical(String qmgr) {
        return validateQMgr(qmgr.trim());
    }
}
