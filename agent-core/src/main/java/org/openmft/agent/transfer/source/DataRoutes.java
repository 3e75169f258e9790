package org.openmft.agent.transfer.source;

import java.util.ArrayList;
import java.util.List;

import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.openmft.agent.messaging.Routing;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a transfer's sequenced messages (DATA and ITEM_ABORT) go: the main route to the
 * destination's DATA queue, or, with {@code agentMultipleChannelsEnabled} and at least two of IBM's
 * queue manager aliases {@code SYSTEM.FTE.<QM>_1}, {@code _2}, … (consecutive from 1, the first
 * missing one ends the count), one producer per alias, message {@code seq} over channel
 * {@code seq % n}. Control messages (START, ACK_REQUEST, CANCEL) stay on the main route.
 *
 * <p>Why chunk by chunk and not window by window: both spread the bytes evenly and both keep at
 * most the source's window in flight, but chunk by chunk keeps the channels' streams interleaved
 * finely, so the destination, which writes in order, holds the fewest chunks back (about one per
 * extra channel when the channels are alike) and each window's acknowledgement waits for no
 * channel longer than for the others; and since {@code seq % n} is a rule the destination knows
 * (the DATA carries {@code n}), it can tell a chunk lost on a channel (a later one of the same
 * channel came first) from one merely slower, and ask for it at once.
 *
 * <p>Aliases are looked for when the transfer (re)negotiates, so a channel added or removed takes
 * effect at a transfer's next start or resynchronisation. Not thread-safe: the transfer's thread.
 */
final class DataRoutes {
    /** The most aliases looked for; IBM names no limit, this keeps the probing bounded. */
    static final int MAX_CHANNELS = 16;
    private static final Logger log = LoggerFactory.getLogger(DataRoutes.class);

    private final List<MessageProducer> channels = new ArrayList<>();
    private MessageProducer main;

    /** Everything goes over {@code main} until {@link #discover} finds aliases. */
    void bind(MessageProducer main) {
        this.main = main;
    }

    /** Channels in use: 0 when everything goes over the main route, else 2 or more. */
    int count() {
        return channels.size();
    }

    /** The producer for message {@code seq}. */
    MessageProducer forSeq(long seq) {
        return channels.isEmpty() ? main : channels.get((int) Math.floorMod(seq, (long) channels.size()));
    }

    /**
     * Looks for the aliases of {@code qmgr} again and opens a producer on each; with fewer than
     * two, everything goes over the main route.
     *
     * @param sessions   asks whether a queue exists (Artemis)
     * @param priority   the transfer's message priority
     * @param transferId for the log
     * @return the channels in use now (0 for the main route only)
     */
    int discover(Session session, Sessions sessions, Routing routing, String dataQueue, String qmgr, int priority,
            String transferId) throws JMSException {
        close();
        for (int n = 1; n <= MAX_CHANNELS; n++) {
            MessageProducer p;
            String local = routing.aliasLocalQueue(qmgr, n);
            if (local != null) {
                if (!sessions.queueExists(session, local)) {
                    break;
                }
                p = session.createProducer(routing.aliasDestination(session, dataQueue, qmgr, n));
            } else {
                try {
                    // IBM MQ opens the queue here: an alias that is not defined fails (MQRC 2087).
                    p = session.createProducer(routing.aliasDestination(session, dataQueue, qmgr, n));
                } catch (JMSException e) {
                    break;
                }
            }
            p.setDeliveryMode(jakarta.jms.DeliveryMode.NON_PERSISTENT);
            p.setPriority(priority);
            p.setDisableMessageTimestamp(true);
            channels.add(p);
        }
        if (channels.size() < 2) {
            close();
        }
        if (!channels.isEmpty()) {
            log.info("Transfer {}: data spread over {} channels to queue manager {} (its aliases SYSTEM.FTE.{}_1 to _{})",
                    transferId, channels.size(), qmgr, qmgr, channels.size());
        }
        return channels.size();
    }

    /** Closes the alias producers (the main one belongs to the transfer). */
    void close() {
        for (MessageProducer p : channels) {
            try {
                p.close();
            } catch (JMSException e) {
                log.debug("Closing a channel's producer: {}", e.toString());
            }
        }
        channels.clear();
    }
}
