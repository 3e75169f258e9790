package org.openmft.agent.transfer.protocol;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.openmft.agent.AgentListener;
import org.openmft.agent.authority.AuthorityStamp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a dispatcher does with an agent-to-agent message it drops before it changes anything: a
 * WARN naming the queue, type, transfer id and the sender the queue manager validated (the wire
 * strings escaped, so a forged id cannot write lines of its own into the log), a count, and the
 * listener's {@link AgentListener#protocolMessageRejected} event. At most one line a second is
 * logged (with the number left out since), so a flood of forged messages cannot flood the log.
 *
 * <p>Thread-safe.
 */
public final class Rejections {
    private static final Logger log = LoggerFactory.getLogger(Rejections.class);
    private static final long LOG_INTERVAL_NANOS = 1_000_000_000L;

    private final String agent;
    private final String queue;
    private final AgentListener listener;
    private final AtomicLong count = new AtomicLong();
    private long lastLog = System.nanoTime() - LOG_INTERVAL_NANOS;
    private long unlogged;

    /**
     * @param agent    the agent
     * @param queue    the queue the dispatcher serves
     * @param listener where the events go
     */
    public Rejections(String agent, String queue, AgentListener listener) {
        this.agent = agent;
        this.queue = queue;
        this.listener = listener == null ? AgentListener.NONE : listener;
    }

    /**
     * Drops a message: logs, counts and tells the listener.
     *
     * @param m      the message
     * @param reason why
     */
    public void reject(Message m, String reason) throws JMSException {
        String type = m.getStringProperty(Wire.TYPE);
        String id = m.getStringProperty(Wire.TRANSFER_ID);
        String sender = AuthorityStamp.sender(m);
        count.incrementAndGet();
        long skipped = -1;
        synchronized (this) {
            long now = System.nanoTime();
            if (now - lastLog >= LOG_INTERVAL_NANOS) {
                lastLog = now;
                skipped = unlogged;
                unlogged = 0;
            } else {
                unlogged++;
            }
        }
        if (skipped >= 0) {
            log.warn("Agent {}: dropped a {} message for transfer {} from user {} on {}: {}{}", agent, TransferIds.printable(type),
                    TransferIds.printable(id), TransferIds.printable(sender), queue, reason,
                    skipped == 0 ? "" : " (and " + skipped + " more since the last such line)");
        }
        listener.protocolMessageRejected(agent, queue, type, id, sender, reason);
    }

    /** Messages dropped so far. */
    public long count() {
        return count.get();
    }
}
