package org.openmft.agent.transfer.source;

import java.nio.charset.Charset;

import org.openmft.agent.transfer.files.SelectedFile;
import org.openmft.xml.TransferItem;

/**
 * One file of a transfer as the source agent plans it, after wildcard and directory expansion.
 *
 * @param index          position in the transfer, from 0
 * @param file           the selected source file
 * @param item           the request item it came from (mode, checksum, dispositions, destination)
 * @param sourceCharset  the source encoding (text mode), else null
 * @param destCharset    the destination encoding (text mode), else null
 * @param spool          for a source queue (message to file), the spool file its messages were read into;
 *                       {@code file} then names the queue and describes the spool. Null for files.
 */
public record PlannedItem(int index, SelectedFile file, TransferItem item, Charset sourceCharset, Charset destCharset,
        java.nio.file.Path spool) {

    /** A file of the transfer. */
    public PlannedItem(int index, SelectedFile file, TransferItem item, Charset sourceCharset, Charset destCharset) {
        this(index, file, item, sourceCharset, destCharset, null);
    }

    /** Whether this item reads a queue (message to file). */
    public boolean fromQueue() {
        return item.source().queue() != null;
    }

    /** The file the bytes are read from: the spool of a queue item, else the source file. */
    public java.nio.file.Path readPath() {
        return spool != null ? spool : file.source();
    }
}
