package org.openmft.agent.transfer.state;

import org.openmft.xml.ChecksumMethod;

/**
 * A destination agent's checkpoint of a transfer: where the source may continue after a restart
 * and, when an item was being written, its partial file and how much of it is durable. Bounded.
 *
 * @param transferId       the transfer
 * @param sourceAgent      the source agent (its REPLY queue gets the answers)
 * @param sourceQMgr       the source agent's queue manager, or null
 * @param jobName          the job name, or null
 * @param incarnation      the source's incarnation adopted
 * @param nextSeq          the first chunk not durable here: the source resumes from it
 * @param itemCount        files in the transfer
 * @param window           chunks between acknowledgements
 * @param checkpointChunks chunks between checkpoints
 * @param item             the item being written, or -1
 * @param offset           its bytes durable in the partial file
 * @param partial          the partial file of the item being written, or null when none is open
 * @param requesterUser    the user the source's queue manager validated for the request, as its
 *                         START said, or null: a resumed transfer writes with the same user's sandbox
 * @param transferKey      the transfer's key from the START (base64), which tags its messages, or
 *                         null for a record written before keys existed (the next START's is taken)
 */
public record DestinationRecord(String transferId, String sourceAgent, String sourceQMgr, String jobName,
        int incarnation, long nextSeq, int itemCount, int window, int checkpointChunks, int item, long offset,
        Partial partial, String requesterUser, String transferKey) {

    /**
     * An item being written at the checkpoint.
     *
     * @param partFile       the file being written ({@code <name>.part}, or the final name with
     *                       {@code doNotUseTempOutputFile})
     * @param finalPath      the name it gets once verified
     * @param itemFirstSeq   the number of the item's first chunk
     * @param overwrite      {@code exist="overwrite"}
     * @param checksumMethod how the item is verified: at resume its digest is rebuilt from the
     *                       partial file's bytes kept, whatever the method
     * @param sourcePath     the source file, or null
     * @param destPath       the destination as requested, or null
     */
    public record Partial(String partFile, String finalPath, long itemFirstSeq, boolean overwrite,
            ChecksumMethod checksumMethod, String sourcePath, String destPath) {
    }
}
