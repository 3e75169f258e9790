package org.openmft.agent.transfer.destination;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.openmft.agent.Checksum;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.DestinationPaths;
import org.openmft.agent.transfer.files.DestinationType;
import org.openmft.agent.transfer.files.FileErrors;
import org.openmft.agent.transfer.files.PathRefusedException;
import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.agent.transfer.protocol.ItemChecksum;
import org.openmft.agent.transfer.protocol.ItemHeader;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.queue.QueueOptions;
import org.openmft.agent.transfer.queue.QueueWriter;
import org.openmft.agent.transfer.state.DestinationRecord;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.xml.ChecksumMethod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an item is written at the destination: {@code <name>.part} (or the final name with
 * {@code doNotUseTempOutputFile}) at each chunk's offset, its size and checksum checked against the
 * source's, forced to disk and renamed to its final name only then, never replacing a file that
 * appeared meanwhile unless {@code exist="overwrite"}. A failed item leaves nothing under its
 * final name, and its partial file is removed at once.
 *
 * <p>An item for a queue (file to message) is written and verified the same way into a spool file
 * of the agent's own, then put as messages ({@link QueueWriter}) instead of renamed.
 *
 * <p>Not thread-safe: owned by the DATA dispatcher thread (the checkpointer only forces the
 * channel it is handed).
 */
final class ItemWriter {
    private static final Logger log = LoggerFactory.getLogger(ItemWriter.class);

    /** The item fails: its reason, and the destination to report. */
    static final class ItemFailure extends Exception {
        private static final long serialVersionUID = 1L;
        final String destination;

        ItemFailure(String reason, Object destination) {
            super(reason, null, false, false);
            this.destination = destination == null ? null : destination.toString();
        }
    }

    /** Records the intent to rename, before the rename (so a crash right after is understood). */
    interface RenameJournal {
        void journal(StateFiles.Rename rename) throws StateException;
    }

    private final String transferId;
    private final PathResolver agentPaths;
    private final String requesterUser;
    private final boolean writeFinalName;

    private int item = -1;
    private long firstSeq;
    private Path finalPath;
    private Path partPath;
    private FileChannel channel;
    private ItemChecksum checksum;
    private long written;
    private boolean overwrite;
    private String sourcePath;
    private String requestedDestination;
    /** Where files become messages, and the agents named in their properties. */
    private QueueWriter queues;
    private String sourceAgent;
    private String destinationAgent;
    /** The open item's queue options, when it goes to a queue; else null. */
    private QueueOptions queueOptions;
    private String itemMode;
    private long sourceSize;

    /**
     * @param agentPaths the agent's resolver; each item is written with its requester's
     * @param requesterUser the user the source's queue manager validated for the request, or null
     */
    ItemWriter(String transferId, PathResolver agentPaths, String requesterUser, boolean doNotUseTempOutputFile) {
        this.transferId = transferId;
        this.agentPaths = agentPaths;
        this.requesterUser = requesterUser;
        this.writeFinalName = doNotUseTempOutputFile;
    }

    /**
     * Lets items go to queues.
     *
     * @param queueWriter where they are put, or null when this agent puts none
     * @return this writer
     */
    ItemWriter toQueues(QueueWriter queueWriter, String source, String destination) {
        this.queues = queueWriter;
        this.sourceAgent = source;
        this.destinationAgent = destination;
        return this;
    }

    /** The item being written, or -1. */
    int item() {
        return item;
    }

    /** The number of its first message. */
    long firstSeq() {
        return firstSeq;
    }

    /** Bytes of it written. */
    long written() {
        return written;
    }

    /** The open file, for the checkpointer to force; null when none is open. */
    FileChannel channel() {
        return channel;
    }

    String sourcePath() {
        return sourcePath;
    }

    /** The item as a checkpoint records it, or null when no item is being written. */
    DestinationRecord.Partial partial() {
        if (partPath == null || item < 0) {
            return null;
        }
        // A spooled queue item is marked: after a restart it is received again from its start.
        String target = queueOptions != null ? QueueWriter.SPOOLED + finalPath : finalPath.toString();
        return new DestinationRecord.Partial(partPath.toString(), target, firstSeq, overwrite,
                checksum == null ? ChecksumMethod.NONE : checksum.method(), sourcePath, requestedDestination);
    }

    /**
     * Opens item {@code index}, whose first message is {@code seq}: resolves and checks its
     * destination and creates its partial file.
     *
     * @param finishing whether an earlier item, verified and still finishing, will have the final
     *                  name this one resolves to
     * @return false when it would (nothing is opened: call again once that item is finished)
     */
    boolean start(int index, long seq, ItemHeader h, java.util.function.Predicate<Path> finishing)
            throws ItemFailure {
        discard();
        item = index;
        firstSeq = seq;
        sourcePath = h.sourcePath();
        requestedDestination = h.destPath();
        overwrite = h.overwrite();
        queueOptions = null;
        itemMode = h.mode();
        sourceSize = h.sourceSize();
        // What is being created, for the message if that fails: the file, or its .part file.
        Path creating = null;
        // Asked for at each item: the requester's user sandbox may have changed since the last.
        PathResolver paths = agentPaths.forRequester(requesterUser);
        try {
            if (h.toQueue()) {
                startSpool(index, h);
                return true;
            }
            ChecksumMethod method = checksumMethod(h);
            DestinationType dt = "directory".equals(h.destType()) ? DestinationType.DIRECTORY : DestinationType.FILE;
            Path named = dt == DestinationType.DIRECTORY ? paths.resolveDirectory(requestedDestination, Access.WRITE)
                    : paths.resolve(requestedDestination, Access.WRITE);
            Path directory = dt == DestinationType.DIRECTORY ? named : named.getParent();
            if (directory != null && !Files.isDirectory(directory)) {
                throw new ItemFailure("BFGIO0007E: The destination directory \"" + directory + "\" does not exist.",
                        named);
            }
            finalPath = DestinationPaths.resolve(dt, named, h.relativePath());
            if (finishing.test(finalPath)) {
                item = -1;
                return false;
            }
            paths.sandbox().check(finalPath, Access.WRITE);
            if (Files.isDirectory(finalPath)) {
                throw new ItemFailure("BFGIO0006E: File \"" + finalPath + "\" already exists as a directory.",
                        finalPath);
            }
            if (!overwrite && Files.exists(finalPath)) {
                throw new ItemFailure("BFGIO0006E: File \"" + finalPath + "\" already exists.", finalPath);
            }
            Files.createDirectories(finalPath.getParent());
            Path part = writeFinalName ? finalPath : DestinationPaths.partFile(finalPath);
            // A .part left by anyone is overwritten: it must not be a link that leads out of the
            // sandbox, and it is never followed (without a sandbox too), so that a link planted as
            // <name>.part cannot make the agent write to whatever it points at.
            paths.sandbox().checkPartFile(part, finalPath);
            creating = part;
            channel = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            partPath = part;
            checksum = ItemChecksum.start(method);
            written = 0;
            return true;
        } catch (ItemFailure e) {
            item = -1;
            throw e;
        } catch (PathRefusedException e) {
            item = -1;
            throw new ItemFailure(e.supplement(), requestedDestination);
        } catch (IOException e) {
            discard();
            item = -1;
            // Name the file that failed: a directory on the way, or the .part file, may be what is wrong.
            Object failed = e instanceof java.nio.file.FileSystemException fse && fse.getFile() != null
                    ? fse.getFile() : creating != null ? creating : finalPath;
            throw new ItemFailure("BFGIO0005E: The destination file \"" + failed + "\" could not be created: "
                    + FileErrors.reason(e), String.valueOf(finalPath));
        }
    }

    /** Opens a queue item's spool file: the agent's own, outside any sandbox. */
    private void startSpool(int index, ItemHeader h) throws ItemFailure, IOException {
        if (queues == null) {
            throw new ItemFailure("BFGTR0071E: This agent does not write files to queues.", h.destPath());
        }
        try {
            queueOptions = QueueOptions.decode(h.queueOptions());
        } catch (IllegalArgumentException e) {
            throw new ItemFailure("BFGTR0070E: The destination queue of item " + index + " is not valid: "
                    + e.getMessage(), h.destPath());
        }
        String refused = QueueWriter.refusal(queueOptions.destination().queue());
        if (refused != null) {
            throw new ItemFailure(refused, h.destPath());
        }
        try {
            // Asked at each item: the requester's user sandbox may have changed since the last.
            agentPaths.forRequester(requesterUser).sandbox().checkQueue(queueOptions.destination().spec(),
                    Access.WRITE);
        } catch (PathRefusedException e) {
            throw new ItemFailure(e.supplement(), h.destPath());
        }
        ChecksumMethod method = checksumMethod(h);
        finalPath = queues.spoolFile(transferId, index);
        channel = FileChannel.open(finalPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
        partPath = finalPath;
        checksum = ItemChecksum.start(method);
        written = 0;
    }

    /** Puts a verified queue item's messages, then removes its spool file. */
    private Finished finishSpool(Checksum ours) throws ItemFailure, IOException {
        String spec = queueOptions.destination().spec();
        channel.close();
        channel = null;
        try {
            queues.put(partPath, queueOptions, new QueueWriter.PutInfo(transferId, item, itemMode, sourceAgent,
                    destinationAgent, sourcePath, sourceSize, requesterUser));
        } catch (QueueWriter.QueueFailure e) {
            discard();
            item = -1;
            throw new ItemFailure(e.getMessage(), spec);
        }
        Files.deleteIfExists(partPath);
        Finished done = new Finished(spec, written, ours);
        item = -1;
        partPath = null;
        queueOptions = null;
        return done;
    }

    /** Whether a chunk of {@code index} can be written (its item is the open one). */
    boolean open(int index) {
        return index == item && channel != null;
    }

    /** Writes a chunk at its offset. */
    void write(byte[] body, int length, long offset) throws ItemFailure {
        try {
            ByteBuffer bb = ByteBuffer.wrap(body, 0, length);
            long at = offset;
            while (bb.hasRemaining()) {
                at += channel.write(bb, at);
            }
            if (checksum != null) {
                checksum.update(body, 0, length);
            }
            written += length;
        } catch (IOException e) {
            String reason = "BFGIO0005E: File \"" + partPath + "\" could not be written: " + FileErrors.reason(e);
            discard();
            item = -1;
            throw new ItemFailure(reason, String.valueOf(finalPath));
        }
    }

    /** The outcome of a finished item: where it went, its size and checksum (null when none). */
    record Finished(String destination, long bytes, Checksum checksum) {
    }

    /**
     * Verifies the open queue item against what the source says of it and puts its messages; a
     * file item is never finished here, it is {@linkplain #handOver handed over}.
     *
     * @param expectedBytes the size the source sent
     * @param theirs        the source's hex digest by the item's method, or null
     */
    Finished finishQueueItem(long expectedBytes, String theirs) throws ItemFailure {
        if (queueOptions == null) {
            throw new IllegalStateException("a file item is handed over, not finished by the writer");
        }
        Checksum ours = verify(expectedBytes, theirs);
        try {
            return finishSpool(ours);
        } catch (IOException e) {
            Path spool = partPath;
            discard();
            item = -1;
            throw new ItemFailure("BFGIO0341E: The temporary file \"" + spool + "\" could not be renamed to \""
                    + finalPath + "\": " + FileErrors.reason(e), finalPath);
        }
    }

    /** Whether the open item is a file (not for a queue) that {@link #handOver} can take. */
    boolean canHandOver() {
        return queueOptions == null && channel != null;
    }

    /**
     * Verifies the open file item against what the source says of it and hands it over, open, to
     * be forced and renamed by a {@link FinishingItem}; this writer is free for the next item.
     *
     * @param lastSeq the number of the item's last message
     * @throws ItemFailure the size or checksum is not the source's (the partial file is removed)
     */
    FinishingItem handOver(long expectedBytes, String theirs, long lastSeq) throws ItemFailure {
        Checksum ours = verify(expectedBytes, theirs);
        FinishingItem f = new FinishingItem(transferId, item, lastSeq, sourcePath, partPath, finalPath, overwrite,
                written, ours, channel);
        channel = null;
        partPath = null;
        item = -1;
        return f;
    }

    /** The open item's checksum once its size and checksum are checked; a mismatch discards it. */
    private Checksum verify(long expectedBytes, String theirs) throws ItemFailure {
        Checksum ours = checksum == null ? null : checksum.finish();
        String failed = null;
        if (written != expectedBytes) {
            failed = "BFGTR0061E: The destination file \"" + finalPath + "\" has " + written
                    + " bytes but the source sent " + expectedBytes;
        } else if (ours != null && !ours.hex().equalsIgnoreCase(String.valueOf(theirs))) {
            failed = "BFGTR0062E: The checksum of \"" + finalPath + "\" does not match the source's"
                    + " (" + ours + " at the destination, " + theirs + " at the source)";
        }
        if (failed != null) {
            Path target = finalPath;
            discard();
            item = -1;
            throw new ItemFailure(failed, target);
        }
        return ours;
    }

    /**
     * Continues item {@code index} after a restart from {@code offset} bytes of its partial file:
     * the file is cut back to it and the checksum rebuilt from the bytes kept.
     *
     * @return the bytes written after the checkpoint, discarded now and received again
     */
    long resume(int index, long itemFirstSeq, Path part, Path target, boolean overwriteTarget, ChecksumMethod method,
            long offset, String source, String requested) throws IOException {
        long have = Files.size(part);
        item = index;
        firstSeq = itemFirstSeq;
        partPath = part;
        finalPath = target;
        overwrite = overwriteTarget;
        sourcePath = source;
        requestedDestination = requested;
        channel = FileChannel.open(part, StandardOpenOption.WRITE, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        channel.truncate(offset);
        written = offset;
        checksum = ItemChecksum.start(method);
        if (checksum != null) {
            ByteBuffer bb = ByteBuffer.allocate(1 << 20);
            long at = 0;
            while (at < offset) {
                bb.clear().limit((int) Math.min(bb.capacity(), offset - at));
                int n = channel.read(bb, at);
                if (n < 0) {
                    throw new IOException("partial file " + part + " ended at " + at + " of " + offset);
                }
                checksum.update(bb.array(), 0, n);
                at += n;
            }
        }
        return have - offset;
    }

    /** Closes the open file, keeping it (the transfer is suspended). */
    void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("Closing {}: {}", partPath, e.getMessage());
            }
            channel = null;
        }
    }

    /** The item is given up: its partial (or unfinished) file goes and no item is open any more. */
    void abandon() {
        discard();
        item = -1;
    }

    /** Closes and removes the partial (or, written to its final name, unfinished) file. */
    void discard() {
        closeChannel();
        if (partPath != null && (!partPath.equals(finalPath) || item >= 0)) {
            try {
                Files.deleteIfExists(partPath);
            } catch (IOException e) {
                log.warn("Transfer {}: could not remove the {} file {}: {}", transferId,
                        partPath.equals(finalPath) ? "unfinished" : "partial", partPath, FileErrors.reason(e));
            }
        }
        partPath = null;
    }

    /** The method the item's first chunk names; one this agent does not know fails the item. */
    private static ChecksumMethod checksumMethod(ItemHeader h) throws ItemFailure {
        try {
            return h.checksum();
        } catch (IllegalArgumentException e) {
            throw new ItemFailure("BFGTR0003E: The source asked for the checksum method "
                    + TransferIds.printable(h.checksumMethod()) + ", which this agent does not know", h.destPath());
        }
    }
}
