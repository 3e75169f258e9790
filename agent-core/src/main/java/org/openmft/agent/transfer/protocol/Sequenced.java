package org.openmft.agent.transfer.protocol;

/**
 * A sequenced source-to-destination message: a chunk (DATA) or an item the source gave up
 * (ITEM_ABORT). The chunk's bytes are read separately, into the dispatcher's buffer.
 *
 * @param abort       whether this is an ITEM_ABORT (then {@code last} is true)
 * @param incarnation the transfer's incarnation the message belongs to
 * @param seq         its number within the transfer, from 0, contiguous
 * @param item        the item index
 * @param offset      the chunk's byte offset in the destination file
 * @param first       the item's first chunk (then {@code header} is set)
 * @param last        the item's last message
 * @param header      the item's description: on a first chunk and on an abort, else null
 * @param itemBytes   the item's total size as sent (last chunk), else -1
 * @param checksum    the item's hex digest by its method (last chunk, unless the method is none), else null
 * @param supplement  why the source gave up the item (abort), else null
 * @param channels    the channels the transfer's sequenced messages are spread over (message
 *                    {@code seq} over channel {@code seq % channels}), 1 when not spread
 */
public record Sequenced(boolean abort, int incarnation, long seq, int item, long offset, boolean first, boolean last,
        ItemHeader header, long itemBytes, String checksum, String supplement, int channels) {
}
