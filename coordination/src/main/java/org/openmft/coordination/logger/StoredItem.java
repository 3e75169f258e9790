package org.openmft.coordination.logger;

/**
 * One item of a stored transfer, from a {@code progress} message. Immutable.
 *
 * @param index the item's position in the transfer, as the progress message numbered it
 * @param source the source file
 * @param sourceSize the source size in bytes, or -1 when unknown
 * @param destination the destination file, or {@code null} when the item failed before one was known
 * @param destinationSize the size written in bytes, or -1 when unknown
 * @param mode {@code binary} or {@code text}, or {@code null} when not stated
 * @param checksumMethod {@code MD5} (IBM's), {@code SHA-256} (OpenMFT's own), or {@code null} when no checksum
 *                       was computed
 * @param checksum the hex checksum, or {@code null}
 * @param resultCode 0 success, 1 failure, 2 warning
 * @param supplement the explanation, or {@code null}
 */
public record StoredItem(int index, String source, long sourceSize, String destination, long destinationSize,
        String mode, String checksumMethod, String checksum, int resultCode, String supplement) {
}
