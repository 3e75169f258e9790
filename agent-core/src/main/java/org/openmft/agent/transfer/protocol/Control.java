package org.openmft.agent.transfer.protocol;

/**
 * A destination-to-source protocol message, copied out of its JMS message by the REPLY
 * dispatcher (with {@link ProtocolCodec#readControl}) so the source transfer's thread never
 * touches another session's message.
 *
 * @param checksum the hex digest the destination verified an item with (ITEM_DONE), by the item's method, or null
 * @param sender the user the queue manager validated for the message ({@code JMSXUserID}), or null
 * @param decompresses on START_OK, the compression methods the destination can decompress ({@link Wire#DECOMPRESSES}), or null
 * @param runsCalls on START_OK, whether the destination runs program calls ({@link Wire#RUNS_CALLS})
 * @param call on CALL_RESULT, what came of the call; otherwise null
 */
public record Control(String type, int incarnation, long seq, long nextSeq, int item, int resultCode,
        String supplement, String destFile, String checksum, long bytes, boolean checkpoint, boolean retry,
        String sender, String decompresses, boolean runsCalls, CallAnswer call) {
}
