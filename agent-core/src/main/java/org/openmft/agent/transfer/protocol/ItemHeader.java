package org.openmft.agent.transfer.protocol;

import org.openmft.xml.ChecksumMethod;

/**
 * What the first chunk (or an ITEM_ABORT) tells the destination about an item.
 *
 * @param destPath       the destination path as requested
 * @param destType       "file", "directory" or "queue"
 * @param relativePath   the file's path relative to the source selection ('/'-separated)
 * @param exist          "error" or "overwrite"
 * @param checksumMethod "MD5", "SHA-256" or "none"
 * @param mode           "binary" or "text"
 * @param sourcePath     the source file, for logs and results
 * @param sourceSize     the source file's size in bytes
 * @param queueOptions   a queue item's options ({@link Wire#QUEUE_OPTIONS}), else null
 */
public record ItemHeader(String destPath, String destType, String relativePath, String exist, String checksumMethod,
        String mode, String sourcePath, long sourceSize, String queueOptions) {
    /** A file or directory item's header. */
    public ItemHeader(String destPath, String destType, String relativePath, String exist, String checksumMethod,
            String mode, String sourcePath, long sourceSize) {
        this(destPath, destType, relativePath, exist, checksumMethod, mode, sourcePath, sourceSize, null);
    }

    /** Whether the item is written to a queue (file to message). */
    public boolean toQueue() {
        return "queue".equals(destType);
    }

    /** Whether the item overwrites an existing destination file. */
    public boolean overwrite() {
        return "overwrite".equals(exist);
    }

    /**
     * How the item is verified.
     *
     * @throws IllegalArgumentException for a method this agent does not know
     */
    public ChecksumMethod checksum() {
        return ChecksumMethod.fromXml(checksumMethod);
    }
}
