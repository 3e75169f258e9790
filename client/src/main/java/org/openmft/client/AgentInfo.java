package org.openmft.client;

import java.time.Duration;
import java.util.Map;

/**
 * An agent as its retained status publication on the coordination queue manager describes it
 * (IBM's fteListAgents and fteShowAgentDetails).
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
 */
public record AgentInfo(String name, String queueManager, String status, String publishedStatus, Duration statusAge,
        String description, String hostName, String version, Map<String, String> sourceTransfers,
        Map<String, String> destinationTransfers, int maxSourceTransfers, int maxDestinationTransfers,
        int queuedTransfers) {
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
     */
    public AgentInfo {
        sourceTransfers = MftClient.ordered(sourceTransfers);
        destinationTransfers = MftClient.ordered(destinationTransfers);
    }
}
