package org.openmft.agent.exits;

/**
 * Called by the destination agent when every item of a transfer has its result and the transfer
 * succeeded or partly succeeded (IBM: only then), before its post-destination call. Called on the
 * agent's DATA thread: keep it short. What it throws is logged and changes nothing.
 */
public interface DestinationTransferEndExit {
    /**
     * @param resultCode 0 (success) or 20 (partial success)
     * @param supplement what happened, or null
     */
    void onDestinationTransferEnd(TransferExitContext transfer, int resultCode, String supplement);
}
