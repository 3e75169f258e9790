package org.openmft.client;

/**
 * A transfer an agent is running or has queued, as its status publication says.
 *
 * @param transferId the transfer id
 * @param agent the agent that reports it
 * @param role {@code source} or {@code destination}: the agent's part in the transfer
 * @param state the transfer's state as the agent publishes it (IBM's names, e.g. {@code RUNNING})
 */
public record TransferInfo(String transferId, String agent, String role, String state) {
}
