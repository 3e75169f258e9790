package org.openmft.coordination.query;

import java.time.Duration;

import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.Session;
import javax.jms.TextMessage;

import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.log.PublicationReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the retained publications matching a topic pattern through a short-lived non-durable
 * subscription, which receives the retained copies first (see {@link Publications}): on Artemis a
 * consumer on the {@value Publications#TOPIC} address selecting on the topic string, whose
 * subscription queue the queue manager fills with the retained copies as it creates it; on IBM MQ
 * a subscription to the topic string itself (not testable here).
 *
 * <p>The retained copies are all there when the subscription exists, but nothing marks the last
 * one, so reading stops at the first silence of {@code quiet} once something arrived, after
 * {@code firstWait} when nothing does, and in any case after {@code readLimit} or
 * {@value #MAX_PUBLICATIONS} publications (live ones keep arriving while agents run). Thread-safe:
 * it holds no connection between reads.
 */
final class RetainedReader {
    private static final Logger log = LoggerFactory.getLogger(RetainedReader.class);
    /** Most publications read in one listing. */
    static final int MAX_PUBLICATIONS = 100_000;

    /** Receives each publication: its topic string (null when the provider carries none) and body. */
    @FunctionalInterface
    interface Handler {
        /**
         * @param topic the topic string, or {@code null}
         * @param body the body as text, empty for an empty (clearing) publication
         */
        void take(String topic, String body);
    }

    private final QueueManagerConnector connector;
    private final Duration firstWait;
    private final Duration quiet;
    private final Duration readLimit;

    RetainedReader(QueueManagerConnector connector, Duration firstWait, Duration quiet, Duration readLimit) {
        this.connector = connector;
        this.firstWait = firstWait;
        this.quiet = quiet;
        this.readLimit = readLimit;
    }

    /**
     * @param pattern the topic pattern, e.g. {@code SYSTEM.FTE/Agents/#}
     * @param what what is read, for messages ("agent statuses")
     * @param handler receives each publication in arrival order (per topic, publication order)
     * @throws QueueManagerException (unavailable) when the queue manager cannot be read
     */
    void read(String pattern, String what, Handler handler) throws QueueManagerException {
        try (Connection connection = connector.connect()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageConsumer consumer = Publications.subscribe(session, connector.endpoint().provider(), pattern)) {
                connection.start();
                long deadline = System.nanoTime() + readLimit.toNanos();
                int read = 0;
                Message m = consumer.receive(firstWait.toMillis());
                while (m != null) {
                    take(m, what, handler);
                    if (++read >= MAX_PUBLICATIONS || System.nanoTime() - deadline > 0) {
                        log.warn("Stopped reading {} from {} after {} publications in {} s; the list may be"
                                + " incomplete", what, connector.description(), read, readLimit.toSeconds());
                        break;
                    }
                    m = consumer.receive(quiet.toMillis());
                }
            }
        } catch (JMSException e) {
            throw new QueueManagerException("cannot read " + what + " from " + connector.description() + ": "
                    + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
        }
    }

    private static void take(Message m, String what, Handler handler) throws JMSException {
        String topic = m.getStringProperty(Publications.TOPIC_STRING_PROPERTY);
        String where = topic == null ? Publications.TOPIC : topic;
        if (m instanceof TextMessage t) {
            handler.take(topic, t.getText() == null ? "" : t.getText());
        } else if (m instanceof BytesMessage b) {
            long length = b.getBodyLength();
            if (length > PublicationReader.MAX_DOCUMENT_BYTES) {
                log.warn("Skipped one of the {} on {}: {} bytes, more than the {} a publication may have", what, where,
                        length, PublicationReader.MAX_DOCUMENT_BYTES);
                return;
            }
            byte[] bytes = new byte[(int) length];
            b.readBytes(bytes);
            handler.take(topic, new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        } else {
            log.warn("Skipped one of the {} on {}: a {} is neither text nor bytes", what, where,
                    m.getClass().getSimpleName());
        }
    }
}
