package org.openmft.agent.transfer.destination;

import org.openmft.agent.ResultCode;
import org.openmft.agent.authority.Authority;
import org.openmft.agent.authority.AuthorityRefusal;
import org.openmft.agent.authority.HeldAuthorities;

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
     * Whether this agent takes a transfer a source agent STARTs, authorities first: a source whose
     * {@code authorityChecking} differs from this agent's is refused (54); with checking on, a START
     * whose sender the queue manager did not vouch for holding {@link Authority#AGENT_SEND} here is
     * refused (53).
     *
     * @param itemCount    the files in the transfer
     * @param running      transfers running here now
     * @param sourceChecks the source's {@code authorityChecking}, from the START
     * @param held         what the queue manager says the START's sender holds here
     * @param senderUser   the START's validated user (the source agent's), or null
     * @return null to accept it, else why not
     */
    public static Refusal judge(DestinationSettings s, int itemCount, int running, boolean sourceChecks,
            HeldAuthorities held, String senderUser) {
        if (sourceChecks != s.authorityChecking()) {
            return new Refusal(ResultCode.AUTHORITY_CHECKING_MISMATCH, "The source agent has"
                    + " authorityChecking=" + sourceChecks + " but destination agent " + s.agentName() + " has"
                    + " authorityChecking=" + s.authorityChecking() + "; both agents of a transfer must have the same"
                    + " setting.", false);
        }
        if (s.authorityChecking() && !held.holds(Authority.AGENT_SEND)) {
            return new Refusal(ResultCode.NOT_AUTHORIZED, AuthorityRefusal.message(senderUser, Authority.AGENT_SEND,
                    s.agentName(), "send it a transfer"), false);
        }
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
