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
 */
public record PlannedItem(int index, SelectedFile file, TransferItem item, Charset sourceCharset, Charset destCharset) {
}
