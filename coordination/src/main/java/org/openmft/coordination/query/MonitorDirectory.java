package org.openmft.coordination.query;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.MonitorListing;
import org.openmft.xml.RequestParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resource monitors known to a coordination queue manager, from the listing each agent
 * publishes retained on {@code SYSTEM.FTE/monitors/<agent>/<monitor>} (IBM's MonitorList.xsd) when
 * a monitor is created, started, stopped or deleted (an empty publication) and when the agent
 * starts, as fteListMonitors shows them: IBM has no command message for listing monitors either.
 * The newest publication per topic wins; one that cannot be read is skipped with a warning.
 *
 * <p>Thread-safe: instances hold no connection between calls.
 */
public final class MonitorDirectory {
    private static final Logger log = LoggerFactory.getLogger(MonitorDirectory.class);
    /** The topic pattern of every monitor's listing. */
    static final String MONITORS = Publications.ROOT + "/monitors/#";
    private static final String ONE_MONITOR = Publications.ROOT + "/monitors/+/+";

    private final RetainedReader reader;
    private final RequestParser parser = new RequestParser();

    private MonitorDirectory(RetainedReader reader) {
        this.reader = reader;
    }

    /**
     * @param coordination a connector to the coordination queue manager
     * @return a directory reading from it
     */
    public static MonitorDirectory of(QueueManagerConnector coordination) {
        return new MonitorDirectory(new RetainedReader(coordination, AgentDirectory.FIRST_WAIT, AgentDirectory.QUIET,
                AgentDirectory.READ_LIMIT));
    }

    /**
     * @return every listed monitor, sorted by agent and then monitor name
     * @throws QueueManagerException (unavailable) when the coordination queue manager cannot be read
     */
    public List<MonitorListing> read() throws QueueManagerException {
        Map<String, MonitorListing> byTopic = new LinkedHashMap<>();
        reader.read(MONITORS, "monitor listings", (topic, body) -> take(topic, body, byTopic));
        List<MonitorListing> out = new ArrayList<>(byTopic.values());
        out.sort(Comparator.comparing(MonitorListing::agent).thenComparing(MonitorListing::name));
        return out;
    }

    private void take(String topic, String body, Map<String, MonitorListing> byTopic) {
        if (topic == null || !Publications.matches(ONE_MONITOR, topic)) {
            return;
        }
        byTopic.remove(topic);
        if (body.isEmpty()) {
            return;
        }
        try {
            byTopic.put(topic, parser.parseMonitorList(body));
        } catch (MalformedRequestException e) {
            log.warn("Skipped the monitor listing on {}: {}", topic, e.getMessage());
        }
    }
}
