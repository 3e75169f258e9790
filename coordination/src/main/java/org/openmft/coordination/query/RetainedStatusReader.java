package org.openmft.coordination.query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.log.AgentStatus;
import org.openmft.xml.log.MalformedPublicationException;
import org.openmft.xml.log.PublicationReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the retained agent statuses ({@value #AGENTS}) from a coordination queue manager with a
 * {@link RetainedReader}. The newest publication per agent wins. An empty publication (a deleted
 * agent) removes the agent; one that cannot be read is skipped with a warning.
 */
final class RetainedStatusReader implements AgentDirectory.StatusSource {
    private static final Logger log = LoggerFactory.getLogger(RetainedStatusReader.class);

    /** The topic pattern of every agent's status. */
    static final String AGENTS = Publications.ROOT + "/Agents/#";
    /** The pattern an agent status topic string matches: exactly one level below Agents. */
    private static final String ONE_AGENT = Publications.ROOT + "/Agents/+";

    private final RetainedReader reader;
    private final PublicationReader documents = new PublicationReader();

    RetainedStatusReader(QueueManagerConnector connector, Duration firstWait, Duration quiet, Duration readLimit) {
        this.reader = new RetainedReader(connector, firstWait, quiet, readLimit);
    }

    @Override
    public List<AgentStatus> read() throws QueueManagerException {
        Map<String, AgentStatus> byAgent = new LinkedHashMap<>();
        reader.read(AGENTS, "agent statuses", (topic, body) -> take(topic, body, byAgent));
        return new ArrayList<>(byAgent.values());
    }

    private void take(String topic, String body, Map<String, AgentStatus> byAgent) {
        if (topic != null && !Publications.matches(ONE_AGENT, topic)) {
            return;
        }
        String agentFromTopic = topic == null ? null : topic.substring(topic.lastIndexOf('/') + 1);
        try {
            if (body.isEmpty()) {
                // IBM's fteDeleteAgent replaces the retained status with an empty publication.
                if (agentFromTopic != null) {
                    byAgent.remove(agentFromTopic.toUpperCase(Locale.ROOT));
                }
                return;
            }
            AgentStatus status = documents.readAgentStatus(body);
            String key = (agentFromTopic != null ? agentFromTopic : status.agentName()).toUpperCase(Locale.ROOT);
            // Per topic, arrival order is publication order: the retained copy first, then live ones.
            byAgent.remove(key);
            byAgent.put(key, status);
        } catch (MalformedPublicationException e) {
            log.warn("Skipped the agent status on {}: {}", topic == null ? Publications.TOPIC : topic, e.getMessage());
        }
    }
}
