package org.openmft.samples.exits;

import org.openmft.agent.exits.SourceTransferEndExit;
import org.openmft.agent.exits.SourceTransferStartExit;
import org.openmft.agent.exits.TransferExitContext;
import org.openmft.agent.exits.TransferExitResult;

/**
 * A sample source transfer exit: cancels a transfer that would send a file still being written
 * (its name ends with {@code .tmp} or {@code .part}), unless the transfer's metadata says
 * {@code allowTemporary=true}; and notes every transfer's end on standard error.
 *
 * <p>Build it against the agent's jar and put the jar in the agent's {@code exits} directory:
 * <pre>
 * javac -cp agent-core.jar -d classes src/org/openmft/samples/exits/RefuseTemporaryFilesExit.java
 * jar cf refuse-temporary.jar -C classes .
 * cp refuse-temporary.jar $MFT_DATA/config/QM1/agents/AGENT1/exits/
 * # agent.properties:
 * sourceTransferStartExitClasses=org.openmft.samples.exits.RefuseTemporaryFilesExit
 * sourceTransferEndExitClasses=org.openmft.samples.exits.RefuseTemporaryFilesExit
 * </pre>
 * One instance serves every transfer of the agent, on several threads at once: it keeps no state.
 */
public final class RefuseTemporaryFilesExit implements SourceTransferStartExit, SourceTransferEndExit {

    @Override
    public TransferExitResult onSourceTransferStart(TransferExitContext transfer) {
        if ("true".equals(transfer.metadata().get("allowTemporary"))) {
            return TransferExitResult.PROCEED;
        }
        for (TransferExitContext.File f : transfer.files()) {
            if (f.source().endsWith(".tmp") || f.source().endsWith(".part")) {
                return TransferExitResult.cancel("the file " + f.source() + " is still being written");
            }
        }
        return TransferExitResult.PROCEED;
    }

    @Override
    public void onSourceTransferEnd(TransferExitContext transfer, int resultCode, String supplement) {
        System.err.println("transfer " + transfer.transferId() + " from " + transfer.sourceAgent() + " to "
                + transfer.destinationAgent() + " ended with " + resultCode);
    }
}
