package org.openmft.coordination.query;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.MonitorListing;
import org.openmft.xml.RequestParser;
import org.openmft.xml.log.PublicationReader;
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
    private static final String ONE_MONITOR = Publications.ROOT + "/monitors/+/+";

    private final RetainedPublications retained;
    private final RequestParser parser = new RequestParser();

    private MonitorDirectory(RetainedPublications retained) {
        this.retained = retained;
    }

    /**
     * @param coordination a connector to the coordination queue manager
     * @return a directory reading from it
     */
    public static MonitorDirectory of(QueueManagerConnector coordination) {
        return new MonitorDirectory(new RetainedPublications(coordination, AgentDirectory.FIRST_WAIT,
                AgentDirectory.QUIET, AgentDirectory.READ_LIMIT, RetainedStatusReader.MAX_PUBLICATIONS,
                PublicationReader.MAX_DOCUMENT_BYTES));
    }

    /**
     * @return every listed monitor, sorted by agent and then monitor name
     * @throws QueueManagerException (unavailable) when the coordination queue manager cannot be read
     */
    public List<MonitorListing> read() throws QueueManagerException {
        List<MonitorListing> out = new ArrayList<>();
        for (Map.Entry<String, RetainedPublications.Body> e : retained.read(ONE_MONITOR).entrySet()) {
            RetainedPublications.Body body = e.getValue();
            if (body.empty()) {
                continue; // a deleted monitor's listing is replaced by an empty publication
            }
            String xml = body.text() != null ? body.text() : new String(body.bytes(), StandardCharsets.UTF_8);
            try {
                out.add(parser.parseMonitorList(xml));
            } catch (MalformedRequestException ex) {
                log.warn("Skipped the monitor listing on {}: {}", e.getKey(), ex.getMessage());
            }
        }
        out.sort(Comparator.comparing(MonitorListing::agent).thenComparing(MonitorListing::name));
        return out;
    }
}
