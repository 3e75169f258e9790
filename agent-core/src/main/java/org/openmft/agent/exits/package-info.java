/**
 * User exits of transfers, IBM's {@code SourceTransferStartExit} family in spirit: Java classes an
 * administrator puts in the agent's {@code exits} directory (jars) or on {@code exitClassPath} and
 * names in {@code sourceTransferStartExitClasses}, {@code sourceTransferEndExitClasses},
 * {@code destinationTransferStartExitClasses} and {@code destinationTransferEndExitClasses}. The
 * interfaces ({@link org.openmft.agent.exits.SourceTransferStartExit} and its siblings) and their
 * value types ({@link org.openmft.agent.exits.TransferExitContext},
 * {@link org.openmft.agent.exits.TransferExitResult}) are the API exits compile against;
 * {@link org.openmft.agent.exits.TransferExits} loads (from the agent's configuration) and calls them.
 */
package org.openmft.agent.exits;
