package org.openmft.client;

import java.time.Instant;

/**
 * A transfer's live progress, as its source agent publishes it on
 * {@code SYSTEM.FTE/Transfers/<agent>/<transferId>} (IBM's TransferStatus.xsd). Numbers are -1
 * when the agent did not say.
 *
 * @param transferId the transfer id, 48 hexadecimal characters
 * @param sourceAgent the source agent's name
 * @param destinationAgent the destination agent's name
 * @param time when the agent measured this
 * @param bytes bytes sent so far in the whole transfer
 * @param seconds seconds since the transfer started moving data
 * @param currentItem the 1-based number of the item being sent
 * @param totalItems items in the transfer
 * @param currentTransferred bytes of the current item sent so far
 * @param currentSize size of the current item in bytes
 * @param currentSource the current item's source file, or null
 * @param currentDestination the current item's destination file, or null
 */
public record ProgressEvent(String transferId, String sourceAgent, String destinationAgent, Instant time,
        long bytes, double seconds, int currentItem, int totalItems, long currentTransferred, long currentSize,
        String currentSource, String currentDestination) {
    /**
     * The transfer's average rate since it started moving data: {@link #bytes()} over
     * {@link #seconds()}.
     *
     * @return bytes per second, or -1 when the agent did not say
     */
    public double bytesPerSecond() {
        return bytes < 0 || seconds <= 0 ? -1 : bytes / seconds;
    }
}
