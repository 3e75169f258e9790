package org.openmft.agent.transfer.state;

/**
 * What a source agent records of a transfer it accepted: enough to take it back after a restart,
 * together with the request and plan files. Bounded: nothing here grows with the number of files.
 *
 * @param transferId       the transfer
 * @param destinationAgent the destination agent's name
 * @param itemCount        files planned; {@link #UNPLANNED} while the request waits to be planned
 * @param incarnation      0 while queued; the incarnation of its last (re)start since
 * @param nextSeq          the first chunk the destination had not acknowledged when the transfer
 *                         last (re)started; for information only: a resumed transfer continues
 *                         where the destination's record says
 * @param replyQueue       the queue of the request's JMSReplyTo (the final reply goes there after
 *                         a restart), or null
 * @param requesterUser    the user the queue manager validated for the request, or null: a resumed
 *                         transfer is judged by the same user's sandbox
 */
public record SourceRecord(String transferId, String destinationAgent, int itemCount, int incarnation, long nextSeq,
        String replyQueue, String requesterUser) {

    /** The {@code itemCount} of a transfer accepted and not planned yet: it is planned again after a restart. */
    public static final int UNPLANNED = -1;

    /** Whether the transfer was accepted and not planned yet. */
    public boolean unplanned() {
        return itemCount == UNPLANNED;
    }
}
