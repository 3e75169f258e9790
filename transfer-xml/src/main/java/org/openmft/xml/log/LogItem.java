package org.openmft.xml.log;

import java.util.Objects;

/**
 * One {@code <item>} of a progress log message: a file that finished, with sizes, checksum and
 * result. Immutable.
 *
 * @param mode {@code binary} or {@code text}, or {@code null} when not stated
 * @param source the source file path (for a queue item, the queue name); never {@code null}
 * @param sourceDisposition {@code leave} or {@code delete}, or {@code null} when not stated
 * @param sourceSize the source size in bytes, or -1 when unknown
 * @param destination the destination file path, or {@code null} when the item failed before one was known
 * @param destinationExist {@code error} or {@code overwrite}, or {@code null} when not stated
 * @param destinationSize the size written, or -1 when unknown
 * @param checksumMethod {@code MD5} (IBM's), {@code SHA-256} (OpenMFT's own), or {@code null} when no checksum
 *                       was computed (empty also means null)
 * @param checksum the hex checksum, or {@code null} (empty also means null)
 * @param resultCode 0 success, 1 failure, 2 warning
 * @param supplement the explanation, or {@code null}
 * @param sourceQueue whether the source is a queue (message to file: {@code <source type="queue"><queue>})
 * @param groupId for a source queue, the group its messages were read from (IBM's {@code <queue groupId>}),
 *     or {@code null}
 * @param messageCount for a source queue, how many messages made the file (IBM's {@code <queue messageCount>}),
 *     or -1 when unknown
 */
public record LogItem(String mode, String source, String sourceDisposition, long sourceSize, String destination,
        String destinationExist, long destinationSize, String checksumMethod, String checksum, int resultCode,
        String supplement, boolean sourceQueue, String groupId, long messageCount) {

    /** An item without a source queue's details. */
    public LogItem(String mode, String source, String sourceDisposition, long sourceSize, String destination,
            String destinationExist, long destinationSize, String checksumMethod, String checksum, int resultCode,
            String supplement, boolean sourceQueue) {
        this(mode, source, sourceDisposition, sourceSize, destination, destinationExist, destinationSize,
                checksumMethod, checksum, resultCode, supplement, sourceQueue, null, -1);
    }

    /** An item whose source is a file. */
    public LogItem(String mode, String source, String sourceDisposition, long sourceSize, String destination,
            String destinationExist, long destinationSize, String checksumMethod, String checksum, int resultCode,
            String supplement) {
        this(mode, source, sourceDisposition, sourceSize, destination, destinationExist, destinationSize,
                checksumMethod, checksum, resultCode, supplement, false);
    }

    /**
     * Validates; an empty {@code checksumMethod} or {@code checksum} becomes {@code null}.
     *
     * @throws NullPointerException if {@code source} is {@code null}
     * @throws IllegalArgumentException if a size is below -1
     */
    public LogItem {
        Objects.requireNonNull(source, "source");
        Statistics.atLeastMinusOne(sourceSize, "sourceSize");
        Statistics.atLeastMinusOne(destinationSize, "destinationSize");
        Statistics.atLeastMinusOne(messageCount, "messageCount");
        groupId = groupId == null || groupId.isEmpty() ? null : groupId;
        checksumMethod = checksumMethod == null || checksumMethod.isEmpty() ? null : checksumMethod;
        checksum = checksum == null || checksum.isEmpty() ? null : checksum;
    }
}
