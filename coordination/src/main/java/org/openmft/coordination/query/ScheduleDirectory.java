package org.openmft.coordination.query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
import org.openmft.xml.log.MalformedPublicationException;
import org.openmft.xml.log.PublicationReader;
import org.openmft.xml.log.ScheduleList;
import org.openmft.xml.log.SchedulePublications;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agents' schedules as their retained ScheduleLists on {@code SYSTEM.FTE/Scheduler/<agent>}
 * say ({@code fteListScheduledTransfers}): read like the agent statuses ({@link AgentDirectory}),
 * the newest list per agent winning; one that cannot be read is skipped with a warning.
 */
public final class ScheduleDirectory {
    private static final Logger log = LoggerFactory.getLogger(ScheduleDirectory.class);
    private static final String SCHEDULERS = Publications.ROOT + "/Scheduler/#";
    private static final String ONE_AGENT = Publications.ROOT + "/Scheduler/+";

    private ScheduleDirectory() {}

    /**
     * @param coordination the coordination queue manager
     * @param pattern      source agents to list ({@code *}, {@code ?}), or null for all
     * @return the lists of the matching agents, by agent name
     * @throws QueueManagerException (exit code 75) when the coordination queue manager cannot be read
     */
    public static List<ScheduleList> read(QueueManagerConnector coordination, String pattern)
            throws QueueManagerException {
        AgentNamePattern agents = pattern == null || pattern.isBlank() ? AgentNamePattern.ALL
                : AgentNamePattern.of(pattern);
        Map<String, ScheduleList> byAgent = new TreeMap<>();
        try (Connection connection = coordination.connect()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageConsumer consumer = Publications.subscribe(session, coordination.endpoint().provider(),
                    SCHEDULERS)) {
                connection.start();
                long deadline = System.nanoTime() + AgentDirectory.READ_LIMIT.toNanos();
                Message m = consumer.receive(AgentDirectory.FIRST_WAIT.toMillis());
                int read = 0;
                while (m != null && ++read <= RetainedStatusReader.MAX_PUBLICATIONS && System.nanoTime() < deadline) {
                    take(m, byAgent);
                    m = consumer.receive(AgentDirectory.QUIET.toMillis());
                }
            }
        } catch (JMSException e) {
            throw new QueueManagerException("cannot read the scheduled transfers from " + coordination.description()
                    + ": " + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
        }
        List<ScheduleList> out = new ArrayList<>();
        for (Map.Entry<String, ScheduleList> e : byAgent.entrySet()) {
            if (agents.matches(e.getKey())) {
                out.add(e.getValue());
            }
        }
        return out;
    }

    private static void take(Message m, Map<String, ScheduleList> byAgent) throws JMSException {
        String topic = m.getStringProperty(Publications.TOPIC_STRING_PROPERTY);
        if (topic == null || !Publications.matches(ONE_AGENT, topic)) {
            return;
        }
        String agent = topic.substring(topic.lastIndexOf('/') + 1);
        byte[] body;
        if (m instanceof TextMessage t) {
            body = t.getText() == null ? new byte[0] : t.getText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        } else if (m instanceof BytesMessage b && b.getBodyLength() <= PublicationReader.MAX_DOCUMENT_BYTES) {
            body = new byte[(int) b.getBodyLength()];
            b.readBytes(body);
        } else {
            log.warn("Skipped the schedule list on {}: not a text or small enough bytes message", topic);
            return;
        }
        if (body.length == 0) {
            byAgent.remove(agent);
            return;
        }
        try {
            byAgent.put(agent, SchedulePublications.readList(body));
        } catch (MalformedPublicationException e) {
            log.warn("Skipped the schedule list on {}: {}", topic, e.getMessage());
        }
    }
}
