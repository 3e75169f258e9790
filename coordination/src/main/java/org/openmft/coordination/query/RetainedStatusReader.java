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
 * Reads the retained agent statuses from a coordination queue manager through a non-durable
 * subscription to {@value #ONE_AGENT}, which receives the retained publications first (see
 * {@link Publications}): on Artemis a consumer on the {@value Publications#TOPIC} address selecting
 * on the topic string, whose subscription queue the queue manager fills with the retained copies
 * as it creates it; on IBM MQ a subscription to the topic string itself (not testable here).
 *
 * <p>The retained copies are all there when the subscription exists, but nothing marks the last
 * one, so reading stops at the first silence of {@code quiet} once something arrived, after
 * {@code firstWait} when nothing does, and in any case after {@code readLimit} or
 * {@value #MAX_PUBLICATIONS} publications (live ones keep arriving while agents run); see
 * {@link RetainedPublications}. The newest publication per agent wins. An empty publication (a
 * deleted agent) removes the agent; one that cannot be read is skipped with a warning.
 */
final class RetainedStatusReader implements AgentDirectory.StatusSource {
    private static final Logger log = LoggerFactory.getLogger(RetainedStatusReader.class);

    /** The pattern an agent status topic string matches: exactly one level below Agents. */
    private static final String ONE_AGENT = Publications.ROOT + "/Agents/+";
    /** Most publications read in one listing. */
    static final int MAX_PUBLICATIONS = 100_000;

    private final RetainedPublications retained;
    private final PublicationReader reader = new PublicationReader();

    RetainedStatusReader(QueueManagerConnector connector, Duration firstWait, Duration quiet, Duration readLimit) {
        this.retained = new RetainedPublications(connector, firstWait, quiet, readLimit, MAX_PUBLICATIONS,
                PublicationReader.MAX_DOCUMENT_BYTES);
    }

    @Override
    public List<AgentStatus> read() throws QueueManagerException {
        Map<String, AgentStatus> byAgent = new LinkedHashMap<>();
        for (Map.Entry<String, RetainedPublications.Body> e : retained.read(ONE_AGENT).entrySet()) {
            String topic = e.getKey();
            RetainedPublications.Body body = e.getValue();
            if (body.empty()) {
                continue; // IBM's fteDeleteAgent replaces the retained status with an empty publication.
            }
            try {
                AgentStatus status = body.text() != null ? reader.readAgentStatus(body.text())
                        : reader.readAgentStatus(body.bytes());
                byAgent.put(topic.substring(topic.lastIndexOf('/') + 1).toUpperCase(Locale.ROOT), status);
            } catch (MalformedPublicationException ex) {
                log.warn("Skipped the agent status on {}: {}", topic, ex.getMessage());
            }
        }
        return new ArrayList<>(byAgent.values());
    }
}
