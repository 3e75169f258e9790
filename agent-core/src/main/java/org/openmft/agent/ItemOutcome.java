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
 */
public record ItemOutcome(int index, String source, String destination, long bytes, int resultCode,
        String supplement, Checksum checksum) {
    /** Item result: success. */
    public static final int SUCCESS = 0;
    /** Item result: failed. */
    public static final int FAILED = 1;
    /** Item result: succeeded with a warning (e.g. the source could not be deleted). */
    public static final int WARNING = 2;
}
