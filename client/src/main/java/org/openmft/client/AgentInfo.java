package org.openmft.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * An agent as its retained status publication on the coordination queue manager describes it
 * (IBM's fteListAgents and fteShowAgentDetails). Numbers are -1 and other values null when the
 * publication does not say.
 *
 * @param name the agent's name
 * @param queueManager the agent's queue manager, or null when unknown
 * @param status the status to show: the published one, or {@code UNKNOWN} when the publication is
 *     older than the agent's publish interval plus the jitter tolerance
 * @param publishedStatus the status the agent published ({@code READY}, {@code STOPPED}, ...)
 * @param statusAge the age of the publication, or null when it carries no time
 * @param description the agent's description, or null
 * @param hostName the agent's host, or null
 * @param version the agent's version, or null
 * @param sourceTransfers the transfers it runs as source agent: id to state
 * @param destinationTransfers the transfers it runs as destination agent: id to state
 * @param maxSourceTransfers its limit of source transfers, or -1 when unknown
 * @param maxDestinationTransfers its limit of destination transfers, or -1 when unknown
 * @param queuedTransfers transfers waiting for a slot, or -1 when unknown
 * @param agentType the agent's type ({@code STANDARD}), or null
 * @param osName the agent's operating system, or null
 * @param timeZone the agent's time zone id, or null
 * @param startTime when the agent started, or null
 * @param publishTime when the agent published this status, or null
 * @param publishRateMinSeconds the longest the agent goes without publishing its status
 *     ({@code agentStatusPublishRateMin}), or -1 when unknown
 * @param queueManagerHost the host of the agent's queue manager for a client connection, or null
 *     for a bindings connection
 * @param queueManagerPort its port, or -1 for a bindings connection or when unknown
 * @param queueManagerChannel its channel, or null for a bindings connection or when unknown
 * @param maxQueuedTransfers its limit of queued transfers, or -1 when unknown
 */
public record AgentInfo(String name, String queueManager, String status, String publishedStatus, Duration statusAge,
        String description, String hostName, String version, Map<String, String> sourceTransfers,
        Map<String, String> destinationTransfers, int maxSourceTransfers, int maxDestinationTransfers,
        int queuedTransfers, String agentType, String osName, String timeZone, Instant startTime,
        Instant publishTime, int publishRateMinSeconds, String queueManagerHost, int queueManagerPort,
        String queueManagerChannel, int maxQueuedTransfers) {
    /**
     * Copies the maps.
     *
     * @param name the agent's name
     * @param queueManager its queue manager
     * @param status the shown status
     * @param publishedStatus the published status
     * @param statusAge the publication's age
     * @param description its description
     * @param hostName its host
     * @param version its version
     * @param sourceTransfers its source transfers
     * @param destinationTransfers its destination transfers
     * @param maxSourceTransfers its source transfer limit
     * @param maxDestinationTransfers its destination transfer limit
     * @param queuedTransfers its queued transfers
     * @param agentType its type
     * @param osName its operating system
     * @param timeZone its time zone
     * @param startTime when it started
     * @param publishTime when it published the status
     * @param publishRateMinSeconds its longest interval between publications, in seconds
     * @param queueManagerHost its queue manager's host, null in bindings mode
     * @param queueManagerPort its queue manager's port, -1 in bindings mode
     * @param queueManagerChannel its queue manager's channel, null in bindings mode
     * @param maxQueuedTransfers its queued transfer limit
     */
    public AgentInfo {
        sourceTransfers = MftClient.ordered(sourceTransfers);
        destinationTransfers = MftClient.ordered(destinationTransfers);
    }

    /**
     * An agent described by the fields of the first version of this record; the others are
     * unknown (null, or -1).
     *
     * @param name the agent's name
     * @param queueManager its queue manager
     * @param status the shown status
     * @param publishedStatus the published status
     * @param statusAge the publication's age
     * @param description its description
     * @param hostName its host
     * @param version its version
     * @param sourceTransfers its source transfers
     * @param destinationTransfers its destination transfers
     * @param maxSourceTransfers its source transfer limit
     * @param maxDestinationTransfers its destination transfer limit
     * @param queuedTransfers its queued transfers
     */
    public AgentInfo(String name, String queueManager, String status, String publishedStatus, Duration statusAge,
            String description, String hostName, String version, Map<String, String> sourceTransfers,
            Map<String, String> destinationTransfers, int maxSourceTransfers, int maxDestinationTransfers,
            int queuedTransfers) {
        this(name, queueManager, status, publishedStatus, statusAge, description, hostName, version, sourceTransfers,
                destinationTransfers, maxSourceTransfers, maxDestinationTransfers, queuedTransfers, null, null, null,
                null, null, -1, null, -1, null, -1);
    }

    /**
     * Whether the agent connects to its queue manager in bindings mode (same host, no network).
     *
     * @return true when the status names no queue manager host
     */
    public boolean bindings() {
        return queueManagerHost == null;
    }

    /**
     * Whether the status shown differs from the published one because the publication is older
     * than the agent's publish interval plus the jitter tolerance: the agent may have ended without
     * stopping, or cannot reach the coordination queue manager.
     *
     * @return true when {@link #status()} is {@code UNKNOWN} but the agent published another
     */
    public boolean overdue() {
        return !java.util.Objects.equals(status, publishedStatus);
    }
}
