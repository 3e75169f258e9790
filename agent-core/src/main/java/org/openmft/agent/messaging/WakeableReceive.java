package org.openmft.agent.messaging;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;

/**
 * A long receive that another thread can end at once: for a loop that waits for a message with a
 * long idle timeout, and must still notice promptly that it is to stop or reconnect.
 *
 * <p>A JMS receive cannot be interrupted, but any thread may close the consumer it waits on (JMS
 * allows {@code MessageConsumer.close()} from another thread; a receive in progress then returns
 * null). {@link #wake} does that, so it is only for when the loop is about to leave its consumer
 * anyway (stop, reconnect): the consumer is not usable afterwards, and whatever it had prefetched
 * goes back to the queue, as when its session closes. A wake that comes before the loop's
 * {@link #receive} makes that receive return null at once; {@link #rearm} forgets it (call it
 * where the loop looks at its reasons to stop, before it receives again).
 *
 * <p>Thread-safe: one loop receives; any thread wakes it.
 */
public final class WakeableReceive {
    private boolean woken;
    private MessageConsumer waiting;

    /** Forgets an earlier wake; call before looking at the loop's conditions. */
    public synchronized void rearm() {
        woken = false;
    }

    /** Whether a wake came since the last {@link #rearm}. */
    public synchronized boolean woken() {
        return woken;
    }

    /**
     * Receives from {@code consumer} for at most {@code timeoutMillis}, or returns null at once
     * when woken since the last {@link #rearm}.
     */
    public Message receive(MessageConsumer consumer, long timeoutMillis) throws JMSException {
        synchronized (this) {
            if (woken) {
                return null;
            }
            waiting = consumer;
        }
        try {
            return consumer.receive(timeoutMillis);
        } finally {
            synchronized (this) {
                waiting = null;
            }
        }
    }

    /** Ends the receive in progress (closing its consumer), or the next one before it starts. */
    public void wake() {
        MessageConsumer c;
        synchronized (this) {
            woken = true;
            c = waiting;
        }
        if (c != null) {
            try {
                c.close();
            } catch (JMSException | RuntimeException e) {
                // The connection is already gone: the receive ends on its own.
            }
        }
    }
}
