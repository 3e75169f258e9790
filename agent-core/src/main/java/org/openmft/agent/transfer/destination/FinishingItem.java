package org.openmft.agent.transfer.destination;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

import org.openmft.agent.Checksum;
import org.openmft.agent.transfer.destination.ItemWriter.Finished;
import org.openmft.agent.transfer.destination.ItemWriter.ItemFailure;
import org.openmft.agent.transfer.destination.ItemWriter.RenameJournal;
import org.openmft.agent.transfer.files.FileErrors;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file item whose every byte is written and verified (its size and checksum are the source's)
 * but which is not final yet: its file is forced to disk, on the checkpointer's forcing threads
 * when {@link #forceWith} hands it there (beside the next items' writes, several files at once),
 * else by {@link #complete} itself; {@link #complete} then journals the rename and gives the file
 * its final name, never replacing a file that appeared meanwhile unless {@code exist="overwrite"}.
 * Nothing is renamed before it is forced; a failure removes the partial file and names the
 * destination.
 *
 * <p>Owned by the DATA dispatcher thread; the forcing thread only forces and closes the channel,
 * and {@link #complete} waits for it before it touches the file again.
 */
final class FinishingItem {
    private static final Logger log = LoggerFactory.getLogger(FinishingItem.class);

    private final String transferId;
    private final int item;
    private final long lastSeq;
    private final String sourcePath;
    private final Path partPath;
    private final Path finalPath;
    private final boolean overwrite;
    private final long bytes;
    private final Checksum checksum;
    private final FileChannel channel;
    /** The force handed to another thread, or null when {@link #complete} forces. */
    private CompletableFuture<Void> forced;

    FinishingItem(String transferId, int item, long lastSeq, String sourcePath, Path partPath, Path finalPath,
            boolean overwrite, long bytes, Checksum checksum, FileChannel channel) {
        this.transferId = transferId;
        this.item = item;
        this.lastSeq = lastSeq;
        this.sourcePath = sourcePath;
        this.partPath = partPath;
        this.finalPath = finalPath;
        this.overwrite = overwrite;
        this.bytes = bytes;
        this.checksum = checksum;
        this.channel = channel;
    }

    int item() {
        return item;
    }

    /** The number of the item's last message, which its result answers. */
    long lastSeq() {
        return lastSeq;
    }

    String sourcePath() {
        return sourcePath;
    }

    /** Whether this item will be given {@code target} as its final name (or writes it already). */
    boolean writesTo(Path target) {
        return finalPath.equals(target) || partPath.equals(target);
    }

    /** Starts forcing the file to disk on {@code forcer}. */
    void forceWith(Executor forcer) {
        forced = CompletableFuture.runAsync(this::forceAndClose, forcer);
    }

    /** Whether {@link #complete} would not wait: the force handed over is done. */
    boolean forced() {
        return forced == null || forced.isDone();
    }

    private void forceAndClose() {
        try (FileChannel c = channel) {
            c.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits for the force (or forces), journals the rename through {@code journal} and renames.
     *
     * @throws ItemFailure the file could not be forced or renamed (its partial file is removed)
     * @throws StateException the rename could not be journaled (its partial file is removed)
     */
    Finished complete(RenameJournal journal) throws ItemFailure, StateException {
        try {
            awaitForce();
            if (!partPath.equals(finalPath)) {
                journal.journal(new StateFiles.Rename(item, finalPath.toString(), bytes,
                        checksum == null ? null : checksum.hex()));
                if (!overwrite && Files.exists(finalPath)) {
                    throw new ItemFailure("BFGIO0006E: File \"" + finalPath + "\" already exists.", finalPath);
                }
                if (overwrite) {
                    Files.move(partPath, finalPath, StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                } else {
                    moveNoReplace(partPath, finalPath);
                }
            }
        } catch (ItemFailure | StateException e) {
            remove();
            throw e;
        } catch (IOException e) {
            remove();
            throw new ItemFailure("BFGIO0341E: The temporary file \"" + partPath + "\" could not be renamed to \""
                    + finalPath + "\": " + FileErrors.reason(e), finalPath);
        }
        return new Finished(finalPath.toString(), bytes, checksum);
    }

    private void awaitForce() throws IOException {
        try {
            if (forced == null) {
                forceAndClose();
                return;
            }
            forced.join();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            throw e;
        }
    }

    /**
     * The item will not be finished: once a force handed over is done, its file is closed and,
     * unless {@code keep}, removed (kept, it is redone from the transfer's last checkpoint, which
     * comes before it).
     */
    void abandon(boolean keep) {
        if (forced != null) {
            try {
                forced.join();
            } catch (CompletionException e) {
                log.debug("Transfer {}: forcing abandoned item {}: {}", transferId, item, e.getCause().toString());
            }
        }
        if (keep) {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("Transfer {}: closing {}: {}", transferId, partPath, e.getMessage());
            }
        } else {
            remove();
        }
    }

    private void remove() {
        try {
            channel.close();
            Files.deleteIfExists(partPath);
        } catch (IOException e) {
            log.warn("Transfer {}: could not remove the {} file {}: {}", transferId,
                    partPath.equals(finalPath) ? "unfinished" : "partial", partPath, FileErrors.reason(e));
        }
    }

    /** Renames without replacing: a file that appeared meanwhile is never overwritten. */
    private static void moveNoReplace(Path from, Path to) throws IOException, ItemFailure {
        try {
            Files.createLink(to, from);
            Files.delete(from);
        } catch (FileAlreadyExistsException e) {
            throw new ItemFailure("BFGIO0006E: File \"" + to + "\" already exists.", to);
        } catch (UnsupportedOperationException | AccessDeniedException e) {
            // File systems without hard links: check then move (a tiny window remains).
            if (Files.exists(to)) {
                throw new ItemFailure("BFGIO0006E: File \"" + to + "\" already exists.", to);
            }
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        }
    }
}
