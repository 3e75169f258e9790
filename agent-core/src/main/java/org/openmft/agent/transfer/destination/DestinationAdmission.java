package org.openmft.agent.transfer.destination;

import org.openmft.agent.ResultCode;

/**
 * Where a START is admitted at the destination, without JMS: {@code maxDestinationTransfers=0}
 * refuses every transfer (52), more files than {@code maxFilesForTransfer} refuses this one (47),
 * and {@code maxDestinationTransfers} running already makes it wait (45 with "retry": the source
 * asks again with a back-off, and ends with 45 once its recovery timeout has passed).
 */
public final class DestinationAdmission {
    private DestinationAdmission() {
    }

    /** Why a START is refused. */
    public record Refusal(ResultCode code, String supplement, boolean retry) {
    }

    /**
     * @param itemCount the files in the transfer
     * @param running   transfers running here now
     * @return null to accept it, else why not
     */
    public static Refusal judge(DestinationSettings s, int itemCount, int running) {
        if (s.maxDestinationTransfers() == 0) {
            return new Refusal(ResultCode.NO_DESTINATION_TRANSFERS, "BFGCH0043E: Agent " + s.agentName()
                    + " does not accept transfers as destination (maxDestinationTransfers=0).", false);
        }
        if (itemCount > s.maxFilesForTransfer()) {
            return new Refusal(ResultCode.DESTINATION_MAX_FILES, "BFGSS0033E: The transfer has " + itemCount
                    + " files, more than the destination agent's maxFilesForTransfer (" + s.maxFilesForTransfer()
                    + ").", false);
        }
        if (running >= s.maxDestinationTransfers()) {
            return new Refusal(ResultCode.DESTINATION_CAPACITY, "BFGCH0044I: Agent " + s.agentName()
                    + " is running its maximum of " + s.maxDestinationTransfers() + " destination transfers.", true);
        }
        return null;
    }
}
