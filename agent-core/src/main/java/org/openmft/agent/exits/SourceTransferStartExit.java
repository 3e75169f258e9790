package org.openmft.agent.exits;

/**
 * Called by the source agent before a transfer starts (before its pre-source call and before any
 * data moves). Exits are called in the order {@code sourceTransferStartExitClasses} names them; the
 * first that cancels ends the transfer with result 21 and its reason, and the others are not called.
 * Called on the transfer's thread: it may take its time, but the transfer waits. An exception thrown
 * cancels the transfer too (never fail open).
 */
public interface SourceTransferStartExit {
    /** @return whether the transfer goes on */
    TransferExitResult onSourceTransferStart(TransferExitContext transfer);
}
