package org.openmft.coordination.query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
import org.openmft.xml.log.AgentStatus;
import org.openmft.xml.log.MalformedPublicationException;
import org.openmft.xml.log.PublicationReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the retained agent statuses from a coordination queue manager through a non-durable
 * subscription to {@value #AGENTS}, which receives the retained publications first (see
 * {@link Publications}): on Artemis a consumer on the {@value Publications#TOPIC} address selecting
 * on the topic string, whose subscription queue the queue manager fills with the retained copies
 * as it creates it; on IBM MQ a subscription to the topic string itself (not testable here).
 *
 * <p>The retained copies are all there when the subscription exists, but nothing marks the last
 * one, so reading stops at the first silence of {@link #quiet} once something arrived, after
 * {@link #firstWait} when nothing does, and in any case after {@link #readLimit} or
 * {@value #MAX_PUBLICATIONS} publications (live ones keep arriving while agents run). The newest
 * publication per agent wins. An empty publication (a deleted agent) removes the agent; one that
 * cannot be read is skipped with a warning.
 */
final class RetainedStatusReader implements AgentDirectory.StatusSource {
    private static final Logger log = LoggerFactory.getLogger(RetainedStatusReader.class);

    /** The topic pattern of every agent's status. */
    static final String AGENTS = Publications.ROOT + "/Agents/#";
    /** The pattern an agent status topic string matches: exactly one level below Agents. */
    private static final String ONE_AGENT = Publications.ROOT + "/Agents/+";
    /** Most publications read in one listing. */
    static final int MAX_PUBLICATIONS = 100_000;

    private final QueueManagerConnector connector;
    private final Duration firstWait;
    private final Duration quiet;
    private final Duration readLimit;
    private final PublicationReader reader = new PublicationReader();

    RetainedStatusReader(QueueManagerConnector connector, Duration firstWait, Duration quiet, Duration readLimit) {
        this.connector = connector;
        this.firstWait = firstWait;
        this.quiet = quiet;
        this.readLimit = readLimit;
    }

    @Override
    public List<AgentStatus> read() throws QueueManagerException {
        Map<String, AgentStatus> byAgent = new LinkedHashMap<>();
        try (Connection connection = connector.connect()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageConsumer consumer = Publications.subscribe(session, connector.endpoint().provider(), AGENTS)) {
                connection.start();
                long deadline = System.nanoTime() + readLimit.toNanos();
                int read = 0;
                Message m = consumer.receive(firstWait.toMillis());
                while (m != null) {
                    take(m, byAgent);
                    if (++read >= MAX_PUBLICATIONS || System.nanoTime() - deadline > 0) {
                        log.warn("Stopped reading agent statuses from {} after {} publications in {} s; the list"
                                + " may be incomplete", connector.description(), read, readLimit.toSeconds());
                        break;
                    }
                    m = consumer.receive(quiet.toMillis());
                }
            }
        } catch (JMSException e) {
            throw new QueueManagerException("cannot read agent statuses from " + connector.description() + ": "
                    + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
        }
        return new ArrayList<>(byAgent.values());
    }


    private void take(Message m, Map<String, AgentStatus> byAgent) throws JMSException {
        String topic = m.getStringProperty(Publications.TOPIC_STRING_PROPERTY);
        if (topic != null && !Publications.matches(ONE_AGENT, topic)) {
            return;
        }
        String agentFromTopic = topic == null ? null : topic.substring(topic.lastIndexOf('/') + 1);
        String where = topic == null ? Publications.TOPIC : topic;
        try {
            AgentStatus status;
            if (m instanceof TextMessage t) {
                String text = t.getText();
                status = text == null || text.isEmpty() ? null : reader.readAgentStatus(text);
            } else if (m instanceof BytesMessage b) {
                long length = b.getBodyLength();
                if (length > PublicationReader.MAX_DOCUMENT_BYTES) {
                    log.warn("Skipped the agent status on {}: {} bytes, more than the {} a status may have", where,
                            length, PublicationReader.MAX_DOCUMENT_BYTES);
                    return;
                }
                byte[] bytes = new byte[(int) length];
                b.readBytes(bytes);
                status = length == 0 ? null : reader.readAgentStatus(bytes);
            } else {
                log.warn("Skipped the agent status on {}: a {} is neither text nor bytes", where,
                        m.getClass().getSimpleName());
                return;
            }
            if (status == null) {
                // IBM's fteDeleteAgent replaces the retained status with an empty publication.
                if (agentFromTopic != null) {
                    byAgent.remove(agentFromTopic.toUpperCase(Locale.ROOT));
                }
                return;
            }
            String key = (agentFromTopic != null ? agentFromTopic : status.agentName()).toUpperCase(Locale.ROOT);
            // Per topic, arrival order is publication order: the retained copy first, then live ones.
            byAgent.remove(key);
            byAgent.put(key, status);
        } catch (MalformedPublicationException e) {
            log.warn("Skipped the agent status on {}: {}", where, e.getMessage());
        }
    }
}
