package org.openmft.agent.transfer.destination;

import java.time.Duration;

import org.openmft.agent.config.AgentConfig;

/**
 * The slice of {@code agent.properties} the destination side uses.
 *
 * @param agentName               this agent
 * @param agentQMgr               its queue manager
 * @param doNotUseTempOutputFile  write to the final name instead of {@code <name>.part}
 * @param maxDestinationTransfers transfers running here at once (0: none accepted, 52)
 * @param maxFilesForTransfer     files in one transfer (more: 47)
 * @param authorityChecking       {@code authorityChecking}: must equal the source's (else 54), and a
 *                                source's user must hold {@code AGENT_SEND} here (else 53)
 * @param sourceSilence           how long a transfer whose source says nothing is kept, or null for
 *                                ever ({@code openmft.sourceSilenceTimeout})
 */
public record DestinationSettings(String agentName, String agentQMgr, boolean doNotUseTempOutputFile,
        int maxDestinationTransfers, int maxFilesForTransfer, boolean authorityChecking, Duration sourceSilence) {

    /** Settings without authority checking. */
    public DestinationSettings(String agentName, String agentQMgr, boolean doNotUseTempOutputFile,
            int maxDestinationTransfers, int maxFilesForTransfer) {
        this(agentName, agentQMgr, doNotUseTempOutputFile, maxDestinationTransfers, maxFilesForTransfer, false, null);
    }

    /** The slice of an agent's configuration. */
    public static DestinationSettings of(AgentConfig c) {
        return new DestinationSettings(c.agentName(), c.agentQMgr(), c.doNotUseTempOutputFile(),
                c.maxDestinationTransfers(), c.maxFilesForTransfer(), c.authorityChecking(),
                c.sourceSilenceTimeout().orElse(null));
    }
}
