package org.openmft.agent.transfer.source;

import java.util.List;

import jakarta.jms.Destination;

import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferInfo;
import org.openmft.xml.TransferRequest;

/**
 * An accepted transfer at its source, waiting for its turn or running.
 *
 * @param id               the transfer id
 * @param request          the request as accepted
 * @param items            the files planned
 * @param preFailed        items that failed at planning (they count in the result)
 * @param replyDestination the request's JMSReplyTo (null after a restart)
 * @param arrival          order of arrival, for equal priorities
 * @param info             what the transfer log says of it
 * @param resume           what an earlier run left of it, or null
 * @param replyQueue       the name of the JMSReplyTo queue, kept in its record, or null
 * @param requesterUser    the user the queue manager validated for the request, or null: its
 *                         sandbox is the one the transfer reads with, and the destination writes with
 */
public record QueuedTransfer(String id, TransferRequest request, List<PlannedItem> items, List<ItemOutcome> preFailed,
        Destination replyDestination, long arrival, TransferInfo info, SourceTransfer.Resume resume,
        String replyQueue, String requesterUser) {
}
