package org.openmft.bench.peers;

import org.openmft.bench.measure.CpuClock;
import org.openmft.bench.measure.ThreadCpuSampler;
import org.openmft.bench.scenarios.transfer.Sample;
import org.openmft.bench.scenarios.transfer.Scenario;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;

import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;

/**
 * The transport ceiling: one thread putting non-persistent BytesMessages of the chunk size, one
 * thread getting them, through the same connector (and so the same URL parameters) as the agents,
 * on a queue under {@code SYSTEM.FTE.DATA.} so that it has the same address settings as the agents'
 * chunks. The consumer's session is DUPS_OK_ACKNOWLEDGE and it copies each body out, as the
 * destination agent's DATA dispatcher does; the producer disables timestamps, as the source does.
 */
public final class RawJms {
    public static final String QUEUE = "SYSTEM.FTE.DATA.BENCHRAW";

    private RawJms() {
    }

    /** Defines the queue (SYSTEM.FTE.* queues are not created on demand). */
    public static void defineQueue(QueueManagerConnector connector) throws Exception {
        new ArtemisQueueAdmin(connector).createQueues(List.of(QUEUE));
    }

    /**
     * Moves {@code totalBytes} in messages of {@code messageBytes} and returns the elapsed and CPU
     * time from the first put to the last get.
     */
    public static Sample run(Scenario scenario, int repetition, QueueManagerConnector connector, int messageBytes,
            long totalBytes, long timeoutMillis) throws Exception {
        long messages = (totalBytes + messageBytes - 1) / messageBytes;
        byte[] payload = new byte[messageBytes];
        new java.util.SplittableRandom(repetition).nextBytes(payload);
        byte[] sink = new byte[messageBytes];
        try (Connection producerConnection = connector.connect();
                Connection consumerConnection = connector.connect()) {
            Session ps = producerConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session cs = consumerConnection.createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
            Queue queue = ps.createQueue(QUEUE);
            MessageProducer producer = ps.createProducer(queue);
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            producer.setDisableMessageTimestamp(true);
            MessageConsumer consumer = cs.createConsumer(cs.createQueue(QUEUE));
            consumerConnection.start();
            drain(consumer);

            AtomicReference<Exception> producerFailure = new AtomicReference<>();
            Thread producerThread = new Thread(() -> {
                try {
                    long left = totalBytes;
                    for (long i = 0; i < messages; i++) {
                        int n = (int) Math.min(left, messageBytes);
                        BytesMessage m = ps.createBytesMessage();
                        m.writeBytes(payload, 0, n);
                        producer.send(m);
                        left -= n;
                    }
                } catch (Exception e) {
                    producerFailure.set(e);
                }
            }, "bench-raw-producer");

            ThreadCpuSampler threads = ThreadCpuSampler.startIfSupported();
            long cpu0 = CpuClock.processCpuNanos();
            long t0 = System.nanoTime();
            producerThread.start();
            long received = 0;
            long bytes = 0;
            long deadline = t0 + timeoutMillis * 1_000_000L;
            while (received < messages) {
                Message m = consumer.receive(1000);
                if (m == null) {
                    if (producerFailure.get() != null || System.nanoTime() > deadline) {
                        break;
                    }
                    continue;
                }
                BytesMessage b = (BytesMessage) m;
                int length = (int) b.getBodyLength();
                b.readBytes(sink, length);
                bytes += length;
                received++;
            }
            long wall = System.nanoTime() - t0;
            long cpu1 = CpuClock.processCpuNanos();
            if (threads != null) {
                threads.close();
            }
            producerThread.join(timeoutMillis);
            long cpu = cpu0 < 0 ? -1 : cpu1 - cpu0 - (threads == null ? 0 : threads.ownCpuNanos());
            Sample s = new Sample(scenario, repetition, bytes, 0, wall, cpu, 0, 0, null,
                    threads == null ? null : threads.byGroup());
            if (producerFailure.get() != null) {
                return s.withFailure("producer failed: " + producerFailure.get());
            }
            if (received != messages || bytes != totalBytes) {
                return s.withFailure("received " + received + " messages (" + bytes + " bytes) of " + messages
                        + " (" + totalBytes + " bytes)");
            }
            return s;
        }
    }

    /** Removes what an earlier, failed run may have left on the queue. */
    private static void drain(MessageConsumer consumer) throws JMSException {
        while (consumer.receiveNoWait() != null) {
            // discard
        }
    }
}
