package org.openmft.agent.transfer.source;

import java.time.Duration;
import java.util.Optional;

import org.openmft.agent.compression.CompressionPolicy;
import org.openmft.agent.config.AgentConfig;

/**
 * The slice of {@code agent.properties} the source side uses.
 *
 * @param agentName          this agent
 * @param agentQMgr          its queue manager
 * @param chunkSize          {@code agentChunkSize}, bytes
 * @param windowSize         {@code agentWindowSize}, chunks between acknowledgements
 * @param frameSize          {@code agentFrameSize}, windows in flight
 * @param checkpointInterval {@code agentCheckpointInterval}, frames between checkpoints
 * @param ackTimeout         {@code transferAckTimeout}
 * @param ackRetries         {@code transferAckTimeoutRetries}
 * @param recoveryTimeout    {@code transferRecoveryTimeout}; empty for ever
 * @param textReplacement    {@code textReplacementCharacterSequence}, or null/empty
 * @param maxSourceTransfers {@code maxSourceTransfers}
 * @param maxQueuedTransfers {@code maxQueuedTransfers}
 * @param maxFilesForTransfer {@code maxFilesForTransfer}
 * @param wildcardSandboxChecking {@code additionalWildcardSandboxChecking}: a wildcard that reaches
 *                           outside the sandbox fails the whole transfer
 * @param maxPlannedItems    {@code openmft.maxPlannedItems}: planned items held across queued and
 *                           running transfers
 * @param authorityChecking  {@code authorityChecking}: told to the destination in the START, and a
 *                           destination's user must hold {@code AGENT_RECEIVE} here
 * @param compression        {@code openmft.compression} and {@code openmft.compressionByAgent}
 * @param multipleChannels   {@code agentMultipleChannelsEnabled}: DATA spread over the destination queue
 *                           manager's aliases {@code SYSTEM.FTE.<QM>_n} ({@link DataRoutes})
 * @param adaptiveWindow     {@code openmft.adaptiveWindow}: the window follows the link (see {@link AdaptiveWindow})
 * @param maxInlineFileSize  {@code maxInlineFileSize}, bytes: a transfer of one file this small goes inline
 *                           (its chunk right behind the START); 0 never
 */
public record SourceSettings(String agentName, String agentQMgr, int chunkSize, int windowSize, int frameSize,
        int checkpointInterval, Duration ackTimeout, int ackRetries, Optional<Duration> recoveryTimeout,
        String textReplacement, int maxSourceTransfers, int maxQueuedTransfers, int maxFilesForTransfer,
        boolean wildcardSandboxChecking, int maxPlannedItems, boolean authorityChecking,
        CompressionPolicy compression, boolean multipleChannels, boolean adaptiveWindow,
        long maxInlineFileSize) {

    /** The slice of an agent's configuration. */
    public static SourceSettings of(AgentConfig c) {
        return new SourceSettings(c.agentName(), c.agentQMgr(), c.chunkSize(), c.windowSize(), c.frameSize(),
                c.checkpointInterval(), c.transferAckTimeout(), c.transferAckTimeoutRetries(),
                c.transferRecoveryTimeout(), c.textReplacementCharacterSequence(), c.maxSourceTransfers(),
                c.maxQueuedTransfers(), c.maxFilesForTransfer(), c.additionalWildcardSandboxChecking(),
                c.maxPlannedItems(), c.authorityChecking(), c.compression(),
                c.multipleChannelsEnabled(), c.adaptiveWindow(), c.maxInlineFileSize());
    }

    /** Chunks that may be unacknowledged: window × frame. */
    public int maxUnacked() {
        return windowSize * frameSize;
    }
}
