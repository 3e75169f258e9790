package org.openmft.agent.messaging;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;

import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;

import org.openmft.agent.lifecycle.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Serves one queue of an agent on a thread of its own: receives, hands each message to its
 * handler, and goes on. A messaging failure is logged and retried after a jittered back-off
 * ({@link Backoff#RECONNECT}: the agent replaces the whole engine when its connection is gone, so
 * this only rides out a passing fault); a bug in the handler is logged with its stack and the next
 * message is served. {@link #close} stops it within a bound and says so when it did not.
 *
 * <p>Idle, the loop waits long: on Artemis a timed receive that ends empty is not free, it forces
 * a delivery, a round trip through the broker ({@code ClientConsumerImpl.receive(timeout)} calls
 * {@code receive(0, true)}), so a loop waking every half second costs two round trips a second even
 * when nothing happens, and hundreds of agents in one process keep the broker busy doing nothing
 * (docs/idle-agents.md). While its owner says it is {@link #idleWhen idle} the loop receives for
 * {@value #IDLE_RECEIVE_MILLIS} ms; else, or when it has a {@link #tick}, for {@value #RECEIVE_MILLIS}
 * ms. A message ends either wait at once, and {@link #close} closes the consumer, which ends a
 * waiting receive, so stopping is not held up either.
 */
public final class ConsumerLoop {
    private static final Logger log = LoggerFactory.getLogger(ConsumerLoop.class);
    private static final long RECEIVE_MILLIS = 500;
    /** How long an idle loop waits in one receive. */
    static final long IDLE_RECEIVE_MILLIS = 30_000;

    /** Handles one message on the loop's thread. */
    @FunctionalInterface
    public interface Handler {
        void handle(Message m) throws JMSException;
    }

    private final String agentName;
    private final String queue;
    private final MessageConsumer consumer;
    private final Handler handler;
    private final Thread thread;
    private volatile boolean closing;
    private volatile Runnable tick = () -> { };
    /** Whether the loop may wait long; by default always (a loop with nothing timed to do). */
    private volatile BooleanSupplier idle = () -> true;

    /**
     * @param queue    the queue served, for messages
     * @param consumer its consumer, on a session only this loop uses
     * @param role     the thread's role, in its name ({@code openmft-<agent>-<role>})
     */
    public ConsumerLoop(String agentName, String queue, MessageConsumer consumer, Handler handler,
            ThreadFactory threads, String role) {
        this.agentName = agentName;
        this.queue = queue;
        this.consumer = consumer;
        this.handler = handler;
        this.thread = threads.newThread(this::serve);
        thread.setName("openmft-" + agentName + "-" + role);
    }

    /**
     * Runs {@code tick} on the loop's thread after each receive, whether a message came or not (at
     * least every half second): for the loop's own timers, which then need no lock. Set before
     * {@link #start}.
     */
    public void tick(Runnable tick) {
        this.tick = tick;
        this.idle = () -> false;
    }

    /**
     * Says when the {@link #tick} has nothing to do, so that the loop may wait
     * {@value #IDLE_RECEIVE_MILLIS} ms for a message (asked on the loop's thread after each receive).
     * Without a tick the loop is always idle; with one, never unless this says so. Set after
     * {@link #tick}, before {@link #start}.
     */
    public void idleWhen(BooleanSupplier idle) {
        this.idle = idle;
    }

    /** Starts serving (the connection must be started too). */
    public void start() {
        thread.start();
    }

    /** Whether the loop is stopping. */
    public boolean closing() {
        return closing;
    }

    private void serve() {
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, agentName);
        Backoff.Retries errors = Backoff.RECONNECT.retries();
        while (!closing) {
            try {
                Message m = consumer.receive(idle.getAsBoolean() ? IDLE_RECEIVE_MILLIS : RECEIVE_MILLIS);
                if (m != null) {
                    handler.handle(m);
                }
                tick.run();
                errors.reset();
            } catch (JMSException e) {
                if (closing) {
                    return;
                }
                long delay = errors.next().toMillis();
                log.warn("Agent {}: serving {} failed, trying again in {} ms: {}", agentName, queue, delay,
                        ProviderErrors.describe(e));
                if (!pause(delay)) {
                    return;
                }
            } catch (RuntimeException e) {
                if (closing) {
                    return;
                }
                log.warn("Agent {}: serving {} failed: {}", agentName, queue, e.toString(), e);
            }
        }
    }

    /** Waits {@code millis} unless closing; false when closing or interrupted. */
    private boolean pause(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (!closing) {
            long left = (end - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return true;
            }
            try {
                Thread.sleep(Math.min(left, 100));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /**
     * Stops serving: closes the consumer (which ends a receive in progress; JMS lets any thread
     * close a consumer) and waits for the thread.
     *
     * @return whether its thread ended within {@code wait}
     */
    public boolean close(Duration wait) {
        closing = true;
        if (thread.getState() == Thread.State.NEW) {
            return true;
        }
        try {
            consumer.close();
        } catch (JMSException | RuntimeException e) {
            log.debug("Agent {}: closing the consumer of {}: {}", agentName, queue, e.toString());
        }
        try {
            thread.join(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            log.warn("Agent {}: the thread serving {} did not stop within {} ms", agentName, queue, wait.toMillis());
            return false;
        }
        return true;
    }
}
