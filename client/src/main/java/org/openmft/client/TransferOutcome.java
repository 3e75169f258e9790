package org.openmft.client;

import java.util.List;

/**
 * How a transfer ended: IBM MFT's result code and each item's outcome.
 *
 * @param transferId the transfer id
 * @param resultCode IBM's result code: 0 successful, 20 partly successful, 40 failed, 41
 *     cancelled, 69 recovery timed out, ...
 * @param messages the agent's messages about the transfer (BFG message ids), maybe empty
 * @param items each item's outcome, in the request's order
 */
public record TransferOutcome(String transferId, int resultCode, List<String> messages, List<ItemOutcome> items) {
    /**
     * Copies the lists.
     *
     * @param transferId the transfer id
     * @param resultCode IBM's result code
     * @param messages the agent's messages
     * @param items each item's outcome
     */
    public TransferOutcome {
        messages = List.copyOf(messages);
        items = List.copyOf(items);
    }

    /**
     * Whether every item was transferred.
     *
     * @return true for result code 0
     */
    public boolean succeeded() {
        return resultCode == 0;
    }
}
