package org.openmft.xml.log;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

import org.openmft.xml.AgentRef;

/**
 * A live progress message, published on {@code SYSTEM.FTE/Transfers/<agent>/<transferId>}
 * (reference §5.3, IBM's TransferStatus.xsd). The time is kept to the millisecond, the precision
 * the document carries. Immutable.
 *
 * @param version the schema version, {@code 4.00}
 * @param transferId the transfer id
 * @param sourceAgent the source agent
 * @param destinationAgent the destination agent
 * @param time when this was measured
 * @param bytes bytes sent so far in the whole transfer, or -1 when unknown
 * @param seconds seconds since the transfer started moving data, or -1 when unknown
 * @param currentItem the 1-based number of the item being sent, or -1 when unknown
 * @param totalItems items in the transfer, or -1 when unknown
 * @param currentTransferred bytes of the current item sent so far, or -1 when unknown
 * @param currentSize size of the current item, or -1 when unknown
 * @param currentSource the current item's source file, or {@code null} when none is named
 * @param currentDestination the current item's destination file, or {@code null} when none is named
 */
public record TransferProgress(String version, String transferId, AgentRef sourceAgent, AgentRef destinationAgent,
        Instant time, long bytes, double seconds, int currentItem, int totalItems, long currentTransferred,
        long currentSize, String currentSource, String currentDestination) {

    /**
     * Validates and truncates the time to milliseconds; {@code -0.0} seconds becomes {@code 0.0}.
     *
     * @throws NullPointerException if {@code version}, {@code transferId}, an agent or {@code time} is {@code null}
     * @throws IllegalArgumentException if a number is below -1 or {@code seconds} is not finite
     */
    public TransferProgress {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(transferId, "transferId");
        Objects.requireNonNull(sourceAgent, "sourceAgent");
        Objects.requireNonNull(destinationAgent, "destinationAgent");
        time = Objects.requireNonNull(time, "time").truncatedTo(ChronoUnit.MILLIS);
        Statistics.atLeastMinusOne(bytes, "bytes");
        if (!Double.isFinite(seconds) || seconds < -1) {
            throw new IllegalArgumentException("seconds must be -1 (unknown) or more, not " + seconds);
        }
        seconds = seconds + 0.0; // -0.0 would be written as 0.0 and not read back equal
        Statistics.atLeastMinusOne(currentItem, "currentItem");
        Statistics.atLeastMinusOne(totalItems, "totalItems");
        Statistics.atLeastMinusOne(currentTransferred, "currentTransferred");
        Statistics.atLeastMinusOne(currentSize, "currentSize");
    }
}
