package org.openmft.agent.transfer.protocol;

/**
 * What the first chunk (or an ITEM_ABORT) tells the destination about an item.
 *
 * @param destPath       the destination path as requested
 * @param destType       "file" or "directory"
 * @param relativePath   the file's path relative to the source selection ('/'-separated)
 * @param exist          "error" or "overwrite"
 * @param checksumMethod "MD5" or "none"
 * @param mode           "binary" or "text"
 * @param sourcePath     the source file, for logs and results
 * @param sourceSize     the source file's size in bytes
 */
public record ItemHeader(String destPath, String destType, String relativePath, String exist, String checksumMethod,
        String mode, String sourcePath, long sourceSize) {
    /** Whether the item overwrites an existing destination file. */
    public boolean overwrite() {
        return "overwrite".equals(exist);
    }

    /** Whether the item is verified with MD5. */
    public boolean md5() {
        return "MD5".equals(checksumMethod);
    }
}
