package org.openmft.agent.transfer.protocol;

/**
 * A START: the source opens, or resynchronises with a new incarnation, a transfer.
 *
 * @param transferId       the 48-hex transfer id
 * @param incarnation      raised by each resynchronisation
 * @param sourceAgent      whose REPLY queue receives the answers
 * @param sourceQMgr       the source agent's queue manager, or null
 * @param destinationAgent the agent the START is for
 * @param itemCount        files in the transfer
 * @param window           chunks between acknowledgements
 * @param checkpointChunks chunks between checkpoints
 * @param originatorUser   the user the request's {@code <originator>} names, for logs, or null
 * @param requesterUser    the user the source's queue manager validated for the request, or null
 * @param jobName          the job name, or null
 * @param firstOpenItem    on a resynchronisation, the first item the source has no result for;
 *                         -1 on a first start
 * @param authorityChecking whether the source agent checks authorities ({@code authorityChecking}); the
 *                         destination refuses a START whose setting differs from its own (54)
 */
public record Start(String transferId, int incarnation, String sourceAgent, String sourceQMgr,
        String destinationAgent, int itemCount, int window, int checkpointChunks, String originatorUser,
        String requesterUser, String jobName, int firstOpenItem, boolean authorityChecking) {
}
