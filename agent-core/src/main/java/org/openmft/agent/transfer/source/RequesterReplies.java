package org.openmft.agent.transfer.source;

import java.util.ArrayList;
import java.util.List;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.command.CommandIntake;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.messaging.Routing;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ItemResult;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a finished transfer's final reply to its requester, as IBM MFT does: only for requests
 * with a {@code <reply>} element, to the request's JMSReplyTo when it has one (after a restart:
 * that queue by name if it still exists), with the item results when {@code detailed="true"}.
 *
 * <p>Thread-safety: the session is shared by the threads that end transfers, under its own lock.
 */
public final class RequesterReplies {
    private static final Logger log = LoggerFactory.getLogger(RequesterReplies.class);
    /** Per-item detail in a final reply stops at this many bytes (estimated, UTF-8 worst case). */
    public static final long DETAILED_REPLY_MAX_BYTES = 1L << 20;

    /** Whether a queue exists on the agent's queue manager. */
    public interface QueueProbe {
        boolean exists(Session session, String queue) throws JMSException;
    }

    private final Session session;
    private final MessageProducer producer;
    private final MessagingProvider provider;
    /** How final replies reach requesters on other queue managers. */
    private final Routing routing;
    private final QueueProbe queues;
    private final DocumentWriter writer = new DocumentWriter();

    /** @param session a session of its own (replies are sent outside any transaction) */
    public RequesterReplies(Session session, MessagingProvider provider, QueueProbe queues, Routing routing)
            throws JMSException {
        this.session = session;
        this.routing = routing;
        this.producer = session.createProducer(null);
        this.provider = provider;
        this.queues = queues;
    }

    /** The session replies go out on; others may use it under its lock (cancel requests). */
    public Session session() {
        return session;
    }

    /** The producer of {@link #session()}, used under the session's lock. */
    public MessageProducer producer() {
        return producer;
    }

    /** Sends the final reply of {@code q}, if its request asked for one. Failures are logged. */
    public void finalReply(QueuedTransfer q, TransferOutcome outcome) {
        ReplyTo replyTo = q.request().reply();
        if (replyTo == null) {
            return;
        }
        List<ItemResult> items = new ArrayList<>();
        List<String> supplements = new ArrayList<>();
        if (outcome.supplement() != null) {
            supplements.add(outcome.supplement());
        }
        if (replyTo.detailed()) {
            // A reply must fit a queue's default MAXMSGL (4 MiB) whatever the number of files:
            // details stop at DETAILED_REPLY_MAX_BYTES and the rest is counted.
            long size = 0;
            for (ItemOutcome i : outcome.items()) {
                size += 128 + length(i.source()) + length(i.destination()) + length(i.supplement());
                if (size > DETAILED_REPLY_MAX_BYTES) {
                    supplements.add("BFGRP0036W: The results of " + (outcome.items().size() - items.size())
                            + " more files are not listed in this reply; the transfer log has them all.");
                    break;
                }
                items.add(new ItemResult(i.source(), i.destination(), i.resultCode(), i.supplement()));
            }
        }
        send(replyTo, q.replyDestination(), q.replyQueue(), new Reply(DocumentWriter.VERSION, outcome.transferId(),
                outcome.resultCode(), supplements, items));
    }

    /**
     * Sends a final reply to a requester: to {@code replyDestination} (the request's JMSReplyTo),
     * else the queue of that name if it still exists (after a restart), else the {@code <reply>}
     * element's queue; through the channel when {@code replyTo} names another queue manager.
     * Failures are logged.
     *
     * @param replyTo          the request's {@code <reply>}
     * @param replyDestination the request's JMSReplyTo, or null
     * @param replyQueue       its queue's name, or null
     * @param reply            the reply, correlated to its {@code ID}
     */
    public void send(ReplyTo replyTo, Destination replyDestination, String replyQueue, Reply reply) {
        String id = reply.requestId();
        try {
            synchronized (session) {
                // After a restart: the requester's queue by name (it may still be waiting on it),
                // else the <reply> element's queue.
                if (routing.isRemote(replyTo.qmgr())) {
                    // The requester is on another queue manager: through the channel, by its document's name.
                    CommandIntake.sendRouted(session, routing, replyTo.queue(), replyTo.qmgr(), id,
                            writer.write(reply));
                    return;
                }
                Destination to = replyDestination != null ? replyDestination
                        : replyQueue != null && queues.exists(session, replyQueue)
                                ? session.createQueue(replyQueue)
                                : CommandIntake.documentReplyDestination(session, provider, replyTo);
                TextMessage m = session.createTextMessage(writer.write(reply));
                m.setJMSCorrelationID(id);
                producer.send(to, m);
            }
        } catch (JMSException | RuntimeException e) {
            log.warn("Request {}: the final reply could not be sent: {}", id, e.toString());
        }
    }

    private static long length(String s) {
        return s == null ? 0 : 3L * s.length();
    }
}
