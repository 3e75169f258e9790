package org.openmft.client;

import java.util.List;

/**
 * An agent's acceptance of a request: the transfer has its id and will run.
 *
 * @param transferId the transfer id the agent gave the request, 48 hexadecimal characters
 * @param messages what the agent said besides (for a scheduled transfer, the schedule), maybe empty
 */
public record Acknowledgement(String transferId, List<String> messages) {
    /**
     * Copies the list.
     *
     * @param transferId the transfer id
     * @param messages the agent's messages
     */
    public Acknowledgement {
        messages = List.copyOf(messages);
    }
}
