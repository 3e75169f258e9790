package org.openmft.agent.transfer.destination;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongUnaryOperator;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.openmft.agent.AgentListener;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.state.DestinationRecord;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.TransferStateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Where destination checkpoints are written, off the data path: at a checkpoint the DATA
 * dispatcher hands over the open file and the transfer's record and goes on writing; this thread
 * forces the file to disk, replaces the record through the state port, and only then sends the
 * acknowledgement that marks the checkpoint, followed by the transfer's plain acknowledgement that
 * waited for it, if any (see {@code DestinationTransfer}: the acknowledgement waits, not the
 * dispatcher). Removals of records go through the same queue, so a
 * record is never removed before a replacement that was asked for earlier.
 *
 * <p>A checkpoint that cannot be made durable is reported to its transfer (which then ends or is
 * suspended, see {@code FailurePolicy}); it is never acknowledged as a checkpoint.
 *
 * <p>The hand-over queue is bounded ({@value #CAPACITY} jobs); a full queue makes the dispatcher
 * wait, which slows the sources through their windows.
 *
 * <p>It also lends its {@link #forcer() forcing threads} to items whose last chunk is written
 * ({@link FinishingItem}): up to {@value #FORCE_THREADS} files are forced at once, beside the
 * dispatcher's writes, so that the file system commits them together; the threads end when idle.
 */
public final class Checkpointer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Checkpointer.class);
    static final int CAPACITY = 16;
    /** How long the idle thread sleeps before it looks at {@code closing} again. */
    private static final long IDLE_POLL_SECONDS = 30;
    /** Files forced at once at most. */
    static final int FORCE_THREADS = 4;
    /** Forces waiting for a thread at most; past it the dispatcher forces itself. */
    private static final int FORCE_QUEUE = 64;

    /**
     * A record to replace ({@code channel} may be null; {@code seq} -1: no acknowledgement to
     * send), or with {@code remove} the transfer's state to delete.
     *
     * @param done    told the sequence number once the job is handled, durable or not; answers the
     *                sequence number of a plain acknowledgement that waited for it, sent next, or -1
     * @param failure told why the checkpoint could not be made durable
     */
    record Job(String transferId, String sourceAgent, int incarnation, long seq, FileChannel channel,
            DestinationRecord record, boolean remove, LongUnaryOperator done, Consumer<StateException> failure) {
        static Job removal(String transferId) {
            return new Job(transferId, null, 0, -1, null, null, true, null, null);
        }
    }

    /** Handed over by {@link #close} only to wake the thread; never handled. */
    private static final Job WAKE = Job.removal(null);

    private final String agentName;
    private final AgentListener listener;
    private final TransferStateStore state;
    private final BlockingQueue<Job> jobs = new ArrayBlockingQueue<>(CAPACITY);
    private final Session ackSession;
    private final MessageProducer ackProducer;
    private final ProtocolCodec codec;
    private final ProtocolCodec.Keys keys;
    /**
     * The key of the acknowledgement being built (checkpointer thread only): looked up once per
     * acknowledgement, so a transfer that ends meanwhile on the DATA thread cannot leave it untagged.
     */
    private byte[] ackKey;
    private final Routing routing;
    private final Thread thread;
    private final ThreadPoolExecutor forcePool;
    private final Executor forcer;
    private volatile boolean closing;

    /** Opens its own session for the acknowledgements and starts its thread. */
    public Checkpointer(String agentName, Connection connection, TransferStateStore state, AgentListener listener,
            ThreadFactory threads, ProtocolCodec.Keys keys, Routing routing) throws JMSException {
        this(agentName, connection, state, listener, threads, keys, routing, null);
    }

    /**
     * As the public constructor, with {@code forcer} (null: its own threads) forcing finished
     * items' files, so that a test can hold them.
     */
    Checkpointer(String agentName, Connection connection, TransferStateStore state, AgentListener listener,
            ThreadFactory threads, ProtocolCodec.Keys keys, Routing routing, Executor forcer) throws JMSException {
        this.agentName = agentName;
        this.routing = routing;
        this.listener = listener;
        this.state = state;
        this.ackSession = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        this.ackProducer = ackSession.createProducer(null);
        ackProducer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        this.keys = keys;
        this.codec = new ProtocolCodec(ackSession, id -> ackKey);
        this.thread = threads.newThread(this::run);
        thread.setName("openmft-" + agentName + "-checkpoint");
        thread.start();
        AtomicInteger forcers = new AtomicInteger();
        // A force refused (queue full, or closing) runs on the caller's thread: never dropped.
        this.forcePool = new ThreadPoolExecutor(FORCE_THREADS, FORCE_THREADS, IDLE_POLL_SECONDS, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(FORCE_QUEUE), r -> {
                    Thread t = threads.newThread(r);
                    t.setName("openmft-" + agentName + "-force-" + forcers.incrementAndGet());
                    return t;
                }, (r, pool) -> r.run());
        forcePool.allowCoreThreadTimeOut(true);
        this.forcer = forcer != null ? forcer : forcePool;
    }

    /** Where finished items' files are forced to disk, several at once. */
    Executor forcer() {
        return forcer;
    }

    /** Queues a job, waiting while the queue is full. */
    void submit(Job job) throws InterruptedException {
        jobs.put(job);
    }

    private void run() {
        MDC.put(org.openmft.agent.Agent.MDC_AGENT, agentName);
        while (!closing || !jobs.isEmpty()) {
            Job job;
            try {
                // Long: close() wakes the thread with WAKE, and an idle agent's threads should sleep.
                job = jobs.poll(IDLE_POLL_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (job == null || job == WAKE) {
                continue;
            }
            try {
                if (job.remove()) {
                    state.removeDestination(job.transferId());
                } else {
                    checkpoint(job);
                }
            } catch (StateException e) {
                if (job.remove()) {
                    log.error("Transfer {}: its destination state could not be removed ({}); after a restart the"
                            + " agent waits for its source again until the source says it is over", job.transferId(),
                            e.getMessage());
                } else {
                    job.failure().accept(e);
                }
            } catch (JMSException | RuntimeException e) {
                // The checkpoint is durable; only its acknowledgement did not go (the connection
                // went): the source asks again, or resumes from the record.
                log.warn("Transfer {}: the checkpoint acknowledgement could not be sent: {}", job.transferId(),
                        e instanceof JMSException j ? ProviderErrors.describe(j) : e.toString());
            } finally {
                if (job.done() != null) {
                    release(job, job.done().applyAsLong(job.seq()));
                }
            }
        }
    }

    /** Sends the plain acknowledgement of {@code seq} that waited for the job's checkpoint (-1: none). */
    private void release(Job job, long seq) {
        if (seq < 0) {
            return;
        }
        try {
            acknowledge(job, seq, false);
        } catch (JMSException | RuntimeException e) {
            // The source asks again (ACK_REQUEST) when its acknowledgement timeout expires.
            log.warn("Transfer {}: an acknowledgement could not be sent: {}", job.transferId(),
                    e instanceof JMSException j ? ProviderErrors.describe(j) : e.toString());
        }
    }

    private void checkpoint(Job job) throws JMSException, StateException {
        if (job.channel() != null) {
            try {
                job.channel().force(false);
            } catch (ClosedChannelException e) {
                // The item finished meanwhile: its end forced it to disk before the rename.
            } catch (IOException e) {
                throw new StateException("transfer " + job.transferId() + ": the partial file could not be forced to"
                        + " disk: " + e.getMessage(), e);
            }
        }
        state.saveDestination(job.record());
        if (job.seq() < 0) {
            return;
        }
        listener.checkpointed(agentName, job.transferId(), job.seq() + 1);
        acknowledge(job, job.seq(), true);
    }

    /** Acknowledges message {@code seq} of the job's transfer, marked as a checkpoint or not. */
    private void acknowledge(Job job, long seq, boolean checkpoint) throws JMSException {
        ackKey = keys.key(job.transferId());
        if (ackKey == null) {
            // The transfer ended here meanwhile (its source acknowledged the end): nobody waits for
            // this acknowledgement, and without the transfer's key it could not be tagged.
            return;
        }
        String queue = QueueNames.reply(job.sourceAgent());
        String qmgr = job.record() == null ? null : job.record().sourceQMgr();
        Message ack;
        try {
            ack = codec.ack(job.transferId(), job.incarnation(), seq, checkpoint);
        } finally {
            ackKey = null;
        }
        routing.address(ack, queue, qmgr);
        ackProducer.send(routing.destination(ackSession, queue, qmgr), ack);
    }

    /**
     * Finishes the queued jobs (bounded wait) and stops.
     *
     * @return whether the thread ended in time
     */
    public boolean close(Duration wait) {
        closing = true;
        // Wakes an idle thread; a full queue means the thread is not idle and sees closing soon.
        jobs.offer(WAKE);
        try {
            thread.join(wait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        forcePool.shutdown();
        try {
            forcePool.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boolean ended = !thread.isAlive();
        if (!ended) {
            log.warn("Agent {}: the checkpoint thread did not finish its {} queued job(s) within {} ms; interrupting it",
                    agentName, jobs.size(), wait.toMillis());
            thread.interrupt();
        }
        return ended;
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }
}
