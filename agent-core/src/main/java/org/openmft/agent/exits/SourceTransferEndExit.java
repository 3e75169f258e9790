package org.openmft.agent.exits;

/**
 * Called by the source agent after a transfer ended, whatever its result (IBM: always), before its
 * post-source call. What it throws is logged and changes nothing.
 */
public interface SourceTransferEndExit {
    /**
     * @param resultCode the transfer's result code (0, 20, 40, 41, ...)
     * @param supplement what happened, or null
     */
    void onSourceTransferEnd(TransferExitContext transfer, int resultCode, String supplement);
}
