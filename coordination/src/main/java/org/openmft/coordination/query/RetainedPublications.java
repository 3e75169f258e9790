package org.openmft.coordination.query;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the retained publications under a topic pattern once, as a new subscriber receives them
 * (see {@link Publications}), for the commands that list what the coordination queue manager
 * keeps retained: the newest body of each topic string, with an empty body where the retained
 * publication was replaced by an empty one (IBM's way of deleting). Reading stops as
 * {@link RetainedStatusReader} explains: at the first silence of {@code quiet} once something
 * arrived, after {@code firstWait} when nothing does, and in any case after {@code readLimit} or
 * {@code maxPublications}. A body over {@code maxBytes}, or neither text nor bytes, is skipped with
 * a warning naming its topic. Thread-safe: holds no connection between calls.
 *
 * @param connector the coordination queue manager
 * @param firstWait how long to wait for the first publication
 * @param quiet the silence after which all retained publications have arrived
 * @param readLimit the longest one reading may take
 * @param maxPublications most publications read at once
 * @param maxBytes largest body kept
 */
public record RetainedPublications(QueueManagerConnector connector, Duration firstWait, Duration quiet,
        Duration readLimit, int maxPublications, int maxBytes) {
    private static final Logger log = LoggerFactory.getLogger(RetainedPublications.class);

    /**
     * One retained publication's body: text (from a text message) or bytes (from a bytes message,
     * to be decoded as its XML declaration says).
     *
     * @param text the text, or {@code null}
     * @param bytes the bytes, or {@code null}
     */
    public record Body(String text, byte[] bytes) {
        /** @return whether the body is empty: the retained publication was deleted */
        public boolean empty() {
            return text != null ? text.isEmpty() : bytes == null || bytes.length == 0;
        }
    }

    /**
     * Reads the retained publications whose topic strings match {@code pattern}.
     *
     * @param pattern an IBM topic pattern such as {@code SYSTEM.FTE/Templates/+}
     * @return topic string to newest body (empty for a deletion), in order of first arrival
     * @throws QueueManagerException (exit code 75) when the queue manager cannot be reached or read
     */
    public Map<String, Body> read(String pattern) throws QueueManagerException {
        Map<String, Body> byTopic = new LinkedHashMap<>();
        try (Connection connection = connector.connect()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageConsumer consumer = Publications.subscribe(session, connector.endpoint().provider(), pattern)) {
                connection.start();
                long deadline = System.nanoTime() + readLimit.toNanos();
                int read = 0;
                Message m = consumer.receive(firstWait.toMillis());
                while (m != null) {
                    String topic = topic(m);
                    if (topic != null && Publications.matches(pattern, topic)) {
                        Body body = body(m, topic);
                        if (body != null) {
                            byTopic.put(topic, body);
                        }
                    }
                    if (++read >= maxPublications || System.nanoTime() - deadline > 0) {
                        log.warn("Stopped reading {} from {} after {} publications in {} s; the list may be"
                                + " incomplete", pattern, connector.description(), read, readLimit.toSeconds());
                        break;
                    }
                    m = consumer.receive(quiet.toMillis());
                }
            }
        } catch (JMSException e) {
            throw new QueueManagerException("cannot read " + pattern + " from " + connector.description() + ": "
                    + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
        }
        return byTopic;
    }

    /** The topic string: Artemis carries it as a property; IBM MQ as the message's destination. */
    private static String topic(Message m) throws JMSException {
        String topic = m.getStringProperty(Publications.TOPIC_STRING_PROPERTY);
        if (topic == null && m.getJMSDestination() instanceof jakarta.jms.Topic t) {
            topic = t.getTopicName();
        }
        return topic;
    }

    private Body body(Message m, String topic) throws JMSException {
        if (m instanceof TextMessage t) {
            String text = t.getText();
            if (text != null && text.length() > maxBytes) {
                log.warn("Skipped the publication on {}: longer than the {} bytes it may have", topic, maxBytes);
                return null;
            }
            return new Body(text == null ? "" : text, null);
        }
        if (m instanceof BytesMessage b) {
            long length = b.getBodyLength();
            if (length > maxBytes) {
                log.warn("Skipped the publication on {}: {} bytes, more than the {} it may have", topic, length,
                        maxBytes);
                return null;
            }
            byte[] bytes = new byte[(int) length];
            b.readBytes(bytes);
            return new Body(null, bytes);
        }
        log.warn("Skipped the publication on {}: a {} is neither text nor bytes", topic, m.getClass().getSimpleName());
        return null;
    }
}
