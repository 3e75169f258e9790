package org.openmft.coordination.publish;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.lifecycle.Backoff;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What moves an agent's publications to the coordination queue manager, in order: on a thread of
 * its own ({@link #run}), or one pass at a time on the {@link PublisherThread} that serves every
 * agent of the process ({@link #step}).
 *
 * <p>When the coordination queue manager is the agent's own, publications go straight to it.
 * Otherwise status and log publications go straight to the coordination queue manager while it is
 * reachable and nothing waits on the agent's outbox queue {@code SYSTEM.FTE.PUBLISH.<agent>} (a
 * persistent send it confirms); else they are put, persistently and in order, on that outbox on the
 * agent's own queue manager, and forwarded from there, each one removed from the outbox only after
 * the coordination queue manager took it, and the publications after them go the same way until
 * the outbox is empty again. So an unreachable coordination queue manager, or an agent that stops
 * or crashes meanwhile, loses nothing (IBM MFT holds them on a transmission queue the same way).
 * A publication forwarded twice after a crash carries the same id; Artemis drops the duplicate
 * and loggers store it once. Progress publications are never held: they are sent when the
 * coordination queue manager is reachable and dropped otherwise.
 *
 * <p>When the agent's embedded queue manager has a channel to the coordination queue manager (its
 * transmission queue exists when the outbox is opened), the outbox is forwarded through that
 * channel instead ({@link Delivery.ThroughChannel}), as IBM MFT agents publish: each message moves
 * from the outbox to the transmission queue in one local transaction, and the channel carries it,
 * once and in order, whenever the link allows; progress publications take the same way. No
 * connection to the coordination queue manager is made then, and none need be possible.
 *
 * <p>Both connections are re-made with the jittered back-off {@link Backoff#RECONNECT} (1 s
 * doubling to 30 s; a loss counts as the first failure), each loss and each recovery logged once.
 */
final class PublicationSender implements Runnable, PublisherThread.Pass {
    private static final Logger log = LoggerFactory.getLogger(PublicationSender.class);
    private static final String KIND = "OpenMFTPublicationKind";
    private static final String TOPIC = org.openmft.agent.messaging.Publications.TOPIC_STRING_PROPERTY;
    private static final String ID = org.openmft.agent.messaging.Publications.PUBLICATION_ID_PROPERTY;
    private static final int BATCH = 100;

    private final String agent;
    private final PublicationBuffer buffer;
    private final QueueManagerConnector agentQMgr;
    /** A direct connection to the coordination queue manager; null when only a channel leads there. */
    private final QueueManagerConnector coordination;
    private final Delivery delivery;
    /** The way through the agent queue manager's channel, or null when there can be none. */
    private final Delivery.ThroughChannel channel;
    /** Whether the outbox was last forwarded through the channel, to log each change of way once. */
    private Boolean lastViaChannel;
    private final String outbox;
    private final Runnable tick;
    /** Whether the tick has only whole-second timers to look after (then it runs every second). */
    private final java.util.function.BooleanSupplier idle;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile Duration flushTimeout = Duration.ofSeconds(5);

    private Link local;
    private Link remote;
    private long localRetryAt;
    private final Backoff.Retries localRetries = Backoff.RECONNECT.retries();
    private long remoteRetryAt;
    private final Backoff.Retries remoteRetries = Backoff.RECONNECT.retries();
    private String remoteProblem;
    /**
     * Whether the outbox may hold messages: true at start (a previous run may have left some) and
     * after anything was put there, false once a forward found it empty. Idle agents then never
     * poll the broker.
     */
    private boolean outboxPending = true;

    /**
     * A connection with a transacted session (outbox, and {@code channel} the producer to the
     * transmission queue when publications go through a channel) or a plain one (publishing).
     */
    private record Link(Connection connection, Session session, MessageProducer producer, MessageConsumer consumer,
            MessageProducer channel) {
        void close() {
            try {
                connection.close();
            } catch (JMSException | RuntimeException e) {
                // Already broken.
            }
        }
    }

    /**
     * @param coordination the coordination queue manager, or {@code null} when it can be reached
     *                     through a channel only
     * @param outbox  the outbox queue on the agent queue manager, or {@code null} to publish
     *                directly (the coordination queue manager is the agent's own)
     * @param channel the way through the agent queue manager's channel to the coordination queue
     *                manager, taken when that channel exists; or {@code null}
     * @param tick    called on this thread for timed publications: about every 200 ms, or every
     *                second while {@code idle} says it has only whole-second timers (an idle agent's
     *                thread then wakes once a second, not five times)
     */
    PublicationSender(String agent, PublicationBuffer buffer, QueueManagerConnector agentQMgr,
            QueueManagerConnector coordination, Delivery delivery, String outbox, Delivery.ThroughChannel channel,
            Runnable tick, java.util.function.BooleanSupplier idle) {
        this.agent = agent;
        this.buffer = buffer;
        this.agentQMgr = agentQMgr;
        this.coordination = coordination;
        this.delivery = delivery;
        this.outbox = outbox;
        this.channel = channel;
        this.tick = tick;
        this.idle = idle;
    }

    /** The agent whose publications these are. */
    @Override
    public String agent() {
        return agent;
    }

    /** Asks the thread to flush for at most {@code timeout} and end. */
    void stop(Duration timeout) {
        flushTimeout = timeout;
        stopping.countDown();
        buffer.release();
    }

    boolean awaitStopped(Duration timeout) throws InterruptedException {
        return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void run() {
        try {
            while (stopping.getCount() > 0) {
                tick.run();
                List<Publication> batch = buffer.take(BATCH, idle.getAsBoolean() ? 1000 : 200);
                if (!handOver(batch)) {
                    // The queue manager is away: what was taken is back in the buffer; do not spin
                    // on it until the next connection attempt is due.
                    stopping.await(200, TimeUnit.MILLISECONDS);
                }
                forward();
            }
            finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            release();
        }
    }

    /**
     * One pass of the loop without waiting, for a thread that serves many senders
     * ({@link PublisherThread}): ticks, hands over what the buffer holds, forwards the outbox.
     *
     * @return milliseconds until this sender wants its next pass: 0 when the buffer still holds
     *         publications, 200 while the queue manager is away or a transfer is logged, 1000 when
     *         only whole-second timers wait
     */
    @Override
    public synchronized long step() {
        if (stopping.getCount() == 0) {
            return Long.MAX_VALUE;
        }
        tick.run();
        List<Publication> batch;
        try {
            batch = buffer.take(BATCH, 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 200;
        }
        boolean handedOver = handOver(batch);
        forward();
        if (!handedOver) {
            return 200;
        }
        return buffer.size() > 0 ? 0 : idle.getAsBoolean() ? 1000 : 200;
    }

    /**
     * Ends a sender served by a {@link PublisherThread} (after it was taken off that thread): flushes
     * for at most the stop's timeout on the calling thread, then closes its connections.
     */
    synchronized void finishStep() {
        try {
            finish();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            release();
        }
    }

    /** Flushes for at most {@link #flushTimeout}: the end of the loop, after the stop. */
    private void finish() throws InterruptedException {
        tick.run();
        long end = System.nanoTime() + flushTimeout.toNanos();
        while (System.nanoTime() < end) {
            List<Publication> batch = buffer.take(BATCH, 0);
            boolean handedOver = handOver(batch);
            int forwarded = forward();
            if (batch.isEmpty() && forwarded == 0 && handedOver) {
                break;
            }
            if (!handedOver || (outbox != null && remote == null)) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
        if (buffer.size() > 0) {
            log.warn("Agent {}: {} publication(s) not delivered at stop", agent, buffer.size());
        }
    }

    private void release() {
        if (local != null) {
            local.close();
            local = null;
        }
        if (remote != null) {
            remote.close();
            remote = null;
        }
        stopped.countDown();
    }

    /** Sends or stores {@code batch}; puts it back and returns false when that failed. */
    private boolean handOver(List<Publication> batch) {
        if (batch.isEmpty()) {
            return true;
        }
        if (outbox == null) {
            if (!connectRemote()) {
                buffer.putBack(batch);
                return false;
            }
            for (int i = 0; i < batch.size(); i++) {
                try {
                    delivery.send(remote.session, remote.producer, batch.get(i));
                } catch (JMSException | RuntimeException e) {
                    remoteLost(e);
                    buffer.putBack(batch.subList(i, batch.size()));
                    return false;
                }
            }
            return true;
        }
        if (!connectLocal()) {
            buffer.putBack(batch);
            return false;
        }
        // The publications before the first put on the outbox are delivered (or dropped: progress)
        // when they leave this loop; only the rest goes back to the buffer when the outbox fails.
        int delivered = 0;
        try {
            for (Publication p : batch) {
                if (p.kind() == Publication.Kind.PROGRESS) {
                    sendProgress(p);
                    delivered += outboxPending ? 0 : 1;
                    continue;
                }
                if (sentDirectly(p)) {
                    delivered++;
                    continue;
                }
                TextMessage m = local.session.createTextMessage(p.body());
                m.setStringProperty(TOPIC, p.topic());
                m.setStringProperty(KIND, p.kind().name());
                m.setStringProperty(ID, p.id());
                local.producer.send(m, DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY, Message.DEFAULT_TIME_TO_LIVE);
                outboxPending = true;
            }
            local.session.commit();
            return true;
        } catch (JMSException | RuntimeException e) {
            localLost(e);
            buffer.putBack(batch.subList(delivered, batch.size()));
            return false;
        }
    }

    /**
     * Sends {@code p} straight to the coordination queue manager when nothing waits on the outbox
     * before it and the connection there is up: a persistent send that queue manager confirms, as
     * the outbox's forward is, so the publication is as safe and keeps its place, and the agent's
     * queue manager is spared the outbox's put, get and two commits.
     *
     * @return false when {@code p} must go on the outbox (something waits there, publications go
     *         through a channel, or the coordination queue manager cannot be reached now)
     */
    private boolean sentDirectly(Publication p) {
        if (outboxPending || local.channel != null || coordination == null || !connectRemote()) {
            return false;
        }
        try {
            delivery.send(remote.session, remote.producer, p);
            return true;
        } catch (JMSException | RuntimeException e) {
            remoteLost(e);
            return false;
        }
    }

    private void sendProgress(Publication p) throws JMSException {
        if (local.channel != null) {
            channel.send(local.session, local.channel, p);
            return;
        }
        if (remote == null) {
            return;
        }
        try {
            delivery.send(remote.session, remote.producer, p);
        } catch (JMSException | RuntimeException e) {
            remoteLost(e);
        }
    }

    /** Moves what waits on the outbox to the coordination queue manager; returns how many. */
    private int forward() {
        if (outbox == null || !outboxPending || local == null) {
            return 0;
        }
        boolean viaChannel = local.channel != null;
        if (!viaChannel && !connectRemote()) {
            return 0;
        }
        int n = 0;
        try {
            // At most a few batches per call, so that timed publications are not held up by a backlog.
            while (n < 10 * BATCH) {
                Message m = local.consumer.receiveNoWait();
                if (m == null) {
                    outboxPending = false;
                    break;
                }
                Publication p = new Publication(Publication.Kind.valueOf(m.getStringProperty(KIND)),
                        m.getStringProperty(TOPIC), ((TextMessage) m).getText(), m.getStringProperty(ID));
                if (viaChannel) {
                    // In the outbox's transaction: a failure here is the agent queue manager's.
                    channel.send(local.session, local.channel, p);
                } else {
                    try {
                        delivery.send(remote.session, remote.producer, p);
                    } catch (JMSException | RuntimeException e) {
                        remoteLost(e);
                        local.session.rollback();
                        return n;
                    }
                }
                n++;
                if (n % BATCH == 0) {
                    local.session.commit();
                }
            }
            if (n % BATCH != 0) {
                local.session.commit();
            }
        } catch (JMSException | RuntimeException e) {
            localLost(e);
        }
        return n;
    }

    private boolean connectLocal() {
        if (local != null) {
            return true;
        }
        if (System.currentTimeMillis() < localRetryAt) {
            return false;
        }
        Connection c = null;
        try {
            c = agentQMgr.connect();
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            jakarta.jms.Queue q = s.createQueue(outbox);
            MessageProducer p = s.createProducer(q);
            MessageConsumer consumer = s.createConsumer(q);
            MessageProducer through = channel != null && agentQMgr.queueExists(s, channel.transmissionQueue())
                    ? s.createProducer(channel.destination(s)) : null;
            c.start();
            local = new Link(c, s, p, consumer, through);
            localRetries.reset();
            logWay(through != null);
            return true;
        } catch (QueueManagerException | JMSException | RuntimeException e) {
            close(c);
            long delayMillis = localRetries.next().toMillis();
            localRetryAt = System.currentTimeMillis() + delayMillis;
            log.warn("Agent {}: cannot open its publication outbox {} on {}: {}; retrying in {} ms", agent, outbox,
                    agentQMgr.description(), describe(e), delayMillis);
            return false;
        }
    }

    /** Says once which way the outbox goes, and again when that changes. */
    private void logWay(boolean viaChannel) {
        if (outbox == null || Boolean.valueOf(viaChannel).equals(lastViaChannel)) {
            return;
        }
        lastViaChannel = viaChannel;
        if (viaChannel) {
            log.info("Agent {}: publications go from {} through channel {} ({})", agent, outbox, channel.channel(),
                    channel.transmissionQueue());
        } else if (channel != null) {
            log.info("Agent {}: {} has no channel to the coordination queue manager (no {}); publications go from"
                    + " {} over a connection of their own", agent, agentQMgr.description(),
                    channel.transmissionQueue(), outbox);
        }
    }

    private boolean connectRemote() {
        if (remote != null) {
            return true;
        }
        if (System.currentTimeMillis() < remoteRetryAt) {
            return false;
        }
        if (coordination == null) {
            // Reached through a channel only, and the agent queue manager has none yet: the outbox
            // holds everything; it is opened again now and then, which looks for the channel again.
            remoteRetryAt = System.currentTimeMillis() + Backoff.RECONNECT.max().toMillis();
            if (remoteProblem == null) {
                remoteProblem = "no channel from " + agentQMgr.description() + " to it";
                log.warn("Agent {}: cannot publish to the coordination queue manager: {}, and it is not reachable"
                        + " directly; publications are held on {} until a channel is made (looked for every {} s)",
                        agent, remoteProblem, outbox, Backoff.RECONNECT.max().toSeconds());
            }
            if (local != null) {
                local.close();
                local = null;
            }
            return false;
        }
        Connection c = null;
        try {
            c = coordination.connect();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(delivery.destination(s));
            remote = new Link(c, s, p, null, null);
            remoteRetries.reset();
            if (remoteProblem != null) {
                log.info("Agent {}: publishing to {} again", agent, coordination.description());
                remoteProblem = null;
            }
            return true;
        } catch (QueueManagerException | JMSException | RuntimeException e) {
            close(c);
            remoteRetryAt = System.currentTimeMillis() + remoteRetries.next().toMillis();
            String why = describe(e);
            if (remoteProblem == null) {
                log.warn("Agent {}: cannot publish to {}: {}; publications are held{} and retried every {} s at most",
                        agent, coordination.description(), why, outbox == null ? " in memory" : " on " + outbox,
                        Backoff.RECONNECT.max().toSeconds());
            }
            remoteProblem = why;
            return false;
        }
    }

    private void remoteLost(Exception e) {
        if (remote != null) {
            remote.close();
            remote = null;
        }
        remoteRetryAt = System.currentTimeMillis() + remoteRetries.next().toMillis();
        remoteProblem = describe(e);
        log.warn("Agent {}: publishing to {} failed: {}; publications are held{}", agent, coordination.description(),
                remoteProblem, outbox == null ? " in memory" : " on " + outbox);
    }

    private void localLost(Exception e) {
        outboxPending = true;
        if (local != null) {
            local.close();
            local = null;
        }
        localRetryAt = System.currentTimeMillis() + localRetries.next().toMillis();
        log.warn("Agent {}: the publication outbox {} failed: {}", agent, outbox, describe(e));
    }

    private static void close(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (JMSException | RuntimeException e) {
                // Never opened properly.
            }
        }
    }

    private static String describe(Exception e) {
        return ProviderErrors.describe(e);
    }
}
