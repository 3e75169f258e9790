package org.openmft.agent.exits;

/**
 * Called by the destination agent when a new transfer asks to start here, before its pre-destination
 * call and before any data. A cancel refuses the transfer (result 21 with the reason, at the source).
 * Called on the agent's DATA thread, which serves every transfer arriving here: keep it short. An
 * exception thrown refuses the transfer too.
 */
public interface DestinationTransferStartExit {
    /** @return whether the transfer may go on */
    TransferExitResult onDestinationTransferStart(TransferExitContext transfer);
}
