package org.openmft.client;

import java.time.Instant;
import java.util.List;

/**
 * A transfer as the logger's database records it (IBM's transfer log, stored by a {@code DATABASE}
 * logger): running ones and ended ones, kept across restarts.
 *
 * @param transferId the transfer id, 48 hexadecimal characters, upper case
 * @param sourceAgent the source agent, or null when no stored message named it
 * @param destinationAgent the destination agent, or null
 * @param state IBM's REST API name of where the transfer is: {@code started}, {@code inProgress},
 *     {@code successful}, {@code partiallySuccessful}, {@code failed} or {@code cancelled}
 * @param resultCode the transfer's result code once it ended (0 success, 20 partial, 40 failed, 41
 *     cancelled, ...), or null while it has not
 * @param user the requesting user ({@code <originator><userID>}), or null
 * @param jobName the job name, or null
 * @param startTime when it started, or null when no stored message said
 * @param endTime when it ended, or null while it has not
 * @param totalItems items in the transfer, or -1 when unknown
 * @param bytesSent bytes sent as last logged, or -1 when never logged
 * @param messages what the agent said when the transfer ended, maybe nothing
 * @param items the items with their outcome, in order; empty in a listing ({@link MftClient#history}),
 *     filled by {@link MftClient#transfer(String)}
 */
public record TransferRecord(String transferId, String sourceAgent, String destinationAgent, String state,
        Integer resultCode, String user, String jobName, Instant startTime, Instant endTime, int totalItems,
        long bytesSent, List<String> messages, List<ItemOutcome> items) {
    /**
     * Copies the lists.
     *
     * @param transferId the transfer id
     * @param sourceAgent the source agent
     * @param destinationAgent the destination agent
     * @param state the state's name
     * @param resultCode the result code
     * @param user the requesting user
     * @param jobName the job name
     * @param startTime the start
     * @param endTime the end
     * @param totalItems the items in the transfer
     * @param bytesSent the bytes sent
     * @param messages the agent's messages
     * @param items the items
     */
    public TransferRecord {
        messages = List.copyOf(messages);
        items = List.copyOf(items);
    }

    /**
     * Whether the transfer has ended.
     *
     * @return true once a result code is recorded
     */
    public boolean ended() {
        return resultCode != null;
    }
}
