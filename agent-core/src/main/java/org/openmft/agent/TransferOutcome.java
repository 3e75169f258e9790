package org.openmft.agent;

import java.time.Instant;
import java.util.List;

/**
 * The outcome of a whole transfer.
 *
 * @param transferId the 48-hex transfer id
 * @param resultCode the MFT transfer result: 0 success, 20 partially successful, 40 failed, 41
 *                   cancelled, 69 recovery timed out, and the capacity and limit codes
 * @param supplement what happened, for people, or null
 * @param items      the items' outcomes, in item order
 * @param started    when the transfer started moving data (or was refused)
 * @param ended      when it ended
 */
public record TransferOutcome(String transferId, int resultCode, String supplement, List<ItemOutcome> items,
        Instant started, Instant ended) {
    /** Copies the list. */
    public TransferOutcome {
        items = List.copyOf(items);
    }

    /** Bytes written at the destination by successful items. */
    public long bytes() {
        return items.stream().filter(i -> i.resultCode() != ItemOutcome.FAILED).mapToLong(ItemOutcome::bytes).sum();
    }
}
