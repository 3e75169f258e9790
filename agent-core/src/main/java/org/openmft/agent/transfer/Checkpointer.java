package org.openmft.agent.transfer;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageProducer;
import javax.jms.Session;

import org.openmft.agent.AgentListener;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ProviderErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Makes destination data durable off the data path: at a checkpoint the DATA dispatcher hands
 * over the open file and a snapshot of the transfer's position and goes on writing; this thread
 * forces the file to disk, replaces the transfer's record on the STATE queue, and only then sends
 * the acknowledgement that marks the checkpoint. Removals of records go through the same queue,
 * so a record is never removed before a replacement that was asked for earlier.
 *
 * <p>The hand-over queue is bounded ({@value #CAPACITY} jobs); a full queue makes the dispatcher
 * wait, which slows the sources through their windows.
 */
final class Checkpointer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Checkpointer.class);
    static final int CAPACITY = 16;

    /**
     * A record to replace (channel may be null; {@code seq} -1: no acknowledgement to send) or, with
     * {@code remove}, to delete together with the transfer's results journal.
     */
    record Job(String transferId, String sourceAgent, int incarnation, long seq, FileChannel channel,
            Map<String, Object> state, boolean remove, Path journal, java.util.function.LongConsumer done) {
        static Job removal(String transferId, Path journal) {
            return new Job(transferId, null, 0, -1, null, Map.of(), true, journal, null);
        }
    }

    private final String agentName;
    private final AgentListener listener;
    private final BlockingQueue<Job> jobs = new ArrayBlockingQueue<>(CAPACITY);
    private final Session stateSession;
    private final StateStore store;
    private final Session ackSession;
    private final MessageProducer ackProducer;
    private final Thread thread;
    private volatile boolean closing;

    Checkpointer(String agentName, Connection connection, AgentListener listener) throws JMSException {
        this.agentName = agentName;
        this.listener = listener;
        this.stateSession = connection.createSession(true, Session.SESSION_TRANSACTED);
        this.store = new StateStore(stateSession, QueueNames.state(agentName));
        this.ackSession = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        this.ackProducer = ackSession.createProducer(null);
        ackProducer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        this.thread = new Thread(this::run, "openmft-" + agentName + "-checkpoint");
        thread.start();
    }

    /** Reads the destination records an earlier run of the agent left. */
    List<Map<String, Object>> load() throws JMSException {
        return store.load("D");
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
                job = jobs.poll(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (job == null) {
                continue;
            }
            try {
                if (job.remove()) {
                    store.remove(job.transferId(), "D");
                    if (job.journal() != null) {
                        java.nio.file.Files.deleteIfExists(job.journal());
                    }
                } else {
                    checkpoint(job);
                }
            } catch (JMSException | IOException | RuntimeException e) {
                log.warn("Transfer {}: checkpoint failed: {}", job.transferId(),
                        e instanceof JMSException j ? ProviderErrors.describe(j) : e.toString());
            } finally {
                if (job.done() != null) {
                    job.done().accept(job.seq());
                }
            }
        }
    }

    private void checkpoint(Job job) throws JMSException {
        boolean durable = true;
        if (job.channel() != null) {
            try {
                job.channel().force(false);
            } catch (ClosedChannelException e) {
                // The item finished meanwhile: its end forced it to disk before the rename.
            } catch (IOException e) {
                durable = false;
                log.warn("Transfer {}: could not force the partial file to disk: {}", job.transferId(), e.toString());
            }
        }
        if (durable) {
            store.replace(job.transferId(), "D", job.state());
            if (job.seq() < 0) {
                return;
            }
            listener.checkpointed(agentName, job.transferId(), job.seq() + 1);
        }
        Message ack = ackSession.createMessage();
        ack.setIntProperty(Wire.PROTOCOL, Wire.VERSION);
        ack.setStringProperty(Wire.TYPE, Wire.ACK);
        ack.setStringProperty(Wire.TRANSFER_ID, job.transferId());
        ack.setIntProperty(Wire.INCARNATION, job.incarnation());
        ack.setJMSCorrelationID(job.transferId());
        ack.setLongProperty(Wire.SEQ, job.seq());
        ack.setBooleanProperty(Wire.CHECKPOINT, durable);
        ackProducer.send(ackSession.createQueue(QueueNames.reply(job.sourceAgent())), ack);
    }

    /** Finishes the queued jobs (bounded wait) and stops. */
    @Override
    public void close() {
        closing = true;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.interrupt();
    }
}
