package org.openmft.agent;

/**
 * The outcome of one item of a transfer, as the transfer log reports it.
 *
 * @param index       the item's position in the transfer, from 0
 * @param source      the source file path
 * @param destination the destination file path (as resolved by the destination agent), or the
 *                    requested path when the item failed before it was resolved
 * @param bytes       bytes written at the destination (after text conversion)
 * @param resultCode  0 success, 1 failed, 2 warning (IBM's item codes)
 * @param supplement  what happened, for people (BFG-style message), or null
 * @param checksum    the checksum of the bytes transferred, with its method; null when the method was
 *                    none or the item failed before it was verified
 * @param queueRead   for a source queue (message to file), what was read from it; null for a file
 */
public record ItemOutcome(int index, String source, String destination, long bytes, int resultCode,
        String supplement, Checksum checksum, QueueRead queueRead) {

    /**
     * What a message-to-file item read from its source queue, as IBM's transfer log reports it
     * ({@code <queue size groupId messageCount>}).
     *
     * @param bytes        the bytes of the messages' data (the file before any text conversion)
     * @param messageCount how many messages made the file
     * @param groupId      the group read ({@code JMSXGroupID}), or null when the messages were not a group
     */
    public record QueueRead(long bytes, int messageCount, String groupId) {
    }

    /** The outcome of an item whose source is a file. */
    public ItemOutcome(int index, String source, String destination, long bytes, int resultCode, String supplement,
            Checksum checksum) {
        this(index, source, destination, bytes, resultCode, supplement, checksum, null);
    }

    /**
     * This outcome with what its source queue gave.
     *
     * @param read what was read, or null
     * @return the outcome with {@code read}
     */
    public ItemOutcome withQueueRead(QueueRead read) {
        return new ItemOutcome(index, source, destination, bytes, resultCode, supplement, checksum, read);
    }

    /** Item result: success. */
    public static final int SUCCESS = 0;
    /** Item result: failed. */
    public static final int FAILED = 1;
    /** Item result: succeeded with a warning (e.g. the source could not be deleted). */
    public static final int WARNING = 2;
}
