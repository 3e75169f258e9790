package org.openmft.coordination.logger;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A transfer as its stored log messages describe it: one row per transfer id, updated by every
 * message about it. Immutable.
 *
 * @param id the transfer id (48 hex characters)
 * @param sourceAgent the source agent, or {@code null} when no message named it
 * @param sourceQMgr the source agent's queue manager, or {@code null}
 * @param destinationAgent the destination agent, or {@code null}
 * @param destinationQMgr the destination agent's queue manager, or {@code null}
 * @param originatorUser the requesting user ({@code userID}), or {@code null}
 * @param originatorHost the requesting host, or {@code null}
 * @param jobName the job name, or {@code null}
 * @param state where the transfer is
 * @param resultCode the transfer's result code once it ended, else {@code null}
 * @param supplements the status supplements of the message that ended it, possibly empty
 * @param startTime when the transfer started
 * @param endTime when it ended, or {@code null} while it has not
 * @param totalItems items in the whole transfer, or -1 when unknown
 * @param bytesSent bytes sent as last reported, or -1 when never reported
 * @param items the stored items in index order; empty in the results of {@link LogStore#transfers},
 *     which lists transfers without their items
 */
public record StoredTransfer(String id, String sourceAgent, String sourceQMgr, String destinationAgent,
        String destinationQMgr, String originatorUser, String originatorHost, String jobName, TransferState state,
        Integer resultCode, List<String> supplements, Instant startTime, Instant endTime, int totalItems,
        long bytesSent, List<StoredItem> items) {

    /** Copies the lists. */
    public StoredTransfer {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
        supplements = List.copyOf(supplements);
        items = List.copyOf(items);
    }

    /**
     * The same transfer with the given items.
     *
     * @param newItems the items
     * @return a copy
     */
    StoredTransfer withItems(List<StoredItem> newItems) {
        return new StoredTransfer(id, sourceAgent, sourceQMgr, destinationAgent, destinationQMgr, originatorUser,
                originatorHost, jobName, state, resultCode, supplements, startTime, endTime, totalItems, bytesSent,
                newItems);
    }
}
