package org.openmft.agent.transfer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import javax.jms.JMSException;
import javax.jms.Message;

import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.DestinationPaths;
import org.openmft.agent.transfer.files.DestinationType;
import org.openmft.agent.transfer.files.PathRefusedException;
import org.openmft.xml.AgentRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The destination side of one transfer: takes the source's messages strictly in sequence, writes
 * each item to {@code <name>.part} at the chunk's offset, verifies size and checksum, and renames
 * the file to its final name only when it is complete and verified. Acknowledges every window,
 * makes the data durable and records a checkpoint every checkpoint span, reports each item's
 * outcome, and keeps those outcomes until the source acknowledges completion so that a resent
 * last chunk is answered again.
 *
 * <p>Called only by the agent's DATA dispatcher thread.
 */
final class DestinationTransfer {
    private static final Logger log = LoggerFactory.getLogger(DestinationTransfer.class);

    final String id;
    final String sourceAgent;
    private final TransferEngine engine;
    private final int itemCount;
    private final int window;
    private final int checkpointChunks;
    private final Map<Integer, ItemOutcome> results = new TreeMap<>();
    private final Instant started = Instant.now();
    private final TransferInfo info;
    int incarnation;
    long expectedSeq;
    private long nackedFor = -1;
    private boolean ended;

    // The item being written.
    private int itemIndex = -1;
    private Path finalPath;
    private Path partPath;
    private FileChannel channel;
    private MessageDigest md5;
    private long written;
    private boolean overwrite;
    private String sourcePath;
    private String requestedDestination;

    DestinationTransfer(TransferEngine engine, Message start) throws JMSException {
        this.engine = engine;
        this.id = start.getStringProperty(Wire.TRANSFER_ID);
        this.sourceAgent = start.getStringProperty(Wire.SOURCE_AGENT);
        this.itemCount = start.getIntProperty(Wire.ITEM_COUNT);
        this.window = Math.max(1, start.getIntProperty(Wire.WINDOW));
        this.checkpointChunks = Math.max(window, start.getIntProperty(Wire.CHECKPOINT_CHUNKS));
        this.incarnation = start.getIntProperty(Wire.INCARNATION);
        String sourceQMgr = start.getStringProperty(Wire.SOURCE_QMGR);
        this.info = new TransferInfo(id, new AgentRef(sourceAgent, sourceQMgr),
                new AgentRef(engine.agentName(), engine.config().agentQMgr()), null,
                start.getStringProperty(Wire.JOB_NAME), 0, Map.of(), started, List.of(),
                itemCount);
    }

    /** What this destination knows of the transfer. */
    TransferInfo info() {
        return info;
    }

    int itemCount() {
        return itemCount;
    }

    boolean ended() {
        return ended;
    }

    /** A (re)start from the source: adopt its incarnation and say where to continue. */
    void restart(int newIncarnation) throws JMSException {
        incarnation = newIncarnation;
        nackedFor = -1;
        Message ok = engine.replyMessage(this, Wire.START_OK);
        ok.setLongProperty(Wire.NEXT_SEQ, expectedSeq);
        engine.sendToSource(this, ok);
    }

    /**
     * Handles a sequenced message (DATA or ITEM_ABORT).
     *
     * @param body the chunk's bytes (DATA), valid until the next call
     */
    void onSequenced(Message m, byte[] body, int length) throws JMSException {
        if (m.getIntProperty(Wire.INCARNATION) != incarnation || ended) {
            return;
        }
        long seq = m.getLongProperty(Wire.SEQ);
        int item = m.getIntProperty(Wire.ITEM);
        boolean last = Wire.ITEM_ABORT.equals(m.getStringProperty(Wire.TYPE))
                || m.propertyExists(Wire.LAST) && m.getBooleanProperty(Wire.LAST);
        if (seq < expectedSeq) {
            // A resend of something we have: answer again what the source may have missed.
            if (last && results.containsKey(item)) {
                sendItemDone(item, results.get(item), seq);
            } else if ((seq + 1) % window == 0) {
                sendAck(expectedSeq - 1, false);
            }
            return;
        }
        if (seq > expectedSeq) {
            if (nackedFor != expectedSeq) {
                nackedFor = expectedSeq;
                log.info("Transfer {}: expected chunk {} but got {}; asking the source to resend", id, expectedSeq, seq);
                Message nack = engine.replyMessage(this, Wire.NACK);
                nack.setLongProperty(Wire.NEXT_SEQ, expectedSeq);
                engine.sendToSource(this, nack);
            }
            return;
        }
        expectedSeq = seq + 1;
        nackedFor = -1;
        if (results.containsKey(item)) {
            // The item is finished (or failed): nothing to write; a repeated last chunk gets its answer.
            if (last) {
                sendItemDone(item, results.get(item), seq);
            } else {
                acknowledge(seq);
            }
            return;
        }
        if (Wire.ITEM_ABORT.equals(m.getStringProperty(Wire.TYPE))) {
            discardItem();
            fail(item, m.getStringProperty(Wire.SOURCE_PATH), m.getStringProperty(Wire.DEST_PATH),
                    m.getStringProperty(Wire.SUPPLEMENT), seq);
            return;
        }
        boolean first = m.getBooleanProperty(Wire.FIRST);
        if (first) {
            if (!startItem(m, item, seq)) {
                return;
            }
        } else if (item != itemIndex || channel == null) {
            log.warn("Transfer {}: chunk {} for item {} arrived without its start; the item fails", id, seq, item);
            fail(item, null, null, "BFGTR0002E: Chunk " + seq + " arrived out of order for item " + item, seq);
            return;
        }
        try {
            ByteBuffer bb = ByteBuffer.wrap(body, 0, length);
            long offset = m.getLongProperty(Wire.OFFSET);
            while (bb.hasRemaining()) {
                offset += channel.write(bb, offset);
            }
            if (md5 != null) {
                md5.update(body, 0, length);
            }
            written += length;
        } catch (IOException e) {
            String reason = "BFGIO0005E: File \"" + partPath + "\" could not be written: " + describe(e);
            discardItem();
            fail(item, sourcePath, String.valueOf(finalPath), reason, seq);
            return;
        }
        if (last) {
            finishItem(m, item, seq);
        } else {
            acknowledge(seq);
        }
    }

    private boolean startItem(Message m, int item, long seq) throws JMSException {
        discardItem();
        itemIndex = item;
        sourcePath = m.getStringProperty(Wire.SOURCE_PATH);
        requestedDestination = m.getStringProperty(Wire.DEST_PATH);
        String type = m.getStringProperty(Wire.DEST_TYPE);
        String relative = m.getStringProperty(Wire.RELATIVE_PATH);
        overwrite = "overwrite".equals(m.getStringProperty(Wire.EXIST));
        // What is being created, for the message if that fails: the file, or its .part file.
        Path creating = null;
        try {
            Path named = engine.pathResolver().resolve(requestedDestination, Access.WRITE);
            DestinationType dt = "directory".equals(type) ? DestinationType.DIRECTORY : DestinationType.FILE;
            Path directory = dt == DestinationType.DIRECTORY ? named : named.getParent();
            if (directory != null && !Files.isDirectory(directory)) {
                fail(item, sourcePath, named.toString(), "BFGIO0007E: The destination directory \"" + directory
                        + "\" does not exist.", seq);
                return false;
            }
            finalPath = DestinationPaths.resolve(dt, named, relative);
            engine.pathResolver().sandbox().check(finalPath, Access.WRITE);
            if (Files.isDirectory(finalPath)) {
                fail(item, sourcePath, finalPath.toString(), "BFGIO0006E: File \"" + finalPath
                        + "\" already exists as a directory.", seq);
                return false;
            }
            if (!overwrite && Files.exists(finalPath)) {
                fail(item, sourcePath, finalPath.toString(), "BFGIO0006E: File \"" + finalPath
                        + "\" already exists.", seq);
                return false;
            }
            Files.createDirectories(finalPath.getParent());
            Path part = engine.config().doNotUseTempOutputFile() ? finalPath : DestinationPaths.partFile(finalPath);
            // A .part left by anyone is overwritten: it must not be a link that leads out of the
            // sandbox, and it is never followed (without a sandbox too), so that a link planted as
            // <name>.part cannot make the agent write to whatever it points at.
            engine.pathResolver().sandbox().check(part, Access.WRITE);
            creating = part;
            channel = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
            partPath = part;
            md5 = "MD5".equals(m.getStringProperty(Wire.CHECKSUM_METHOD)) ? newMd5() : null;
            written = 0;
            return true;
        } catch (PathRefusedException e) {
            fail(item, sourcePath, requestedDestination, "BFGSS0021E: " + e.getMessage(), seq);
        } catch (IOException e) {
            discardItem();
            // Name the file that failed: a directory on the way, or the .part file, may be what is wrong.
            Object failed = e instanceof java.nio.file.FileSystemException fse && fse.getFile() != null
                    ? fse.getFile() : creating != null ? creating : finalPath;
            fail(item, sourcePath, String.valueOf(finalPath), "BFGIO0005E: The destination file \"" + failed
                    + "\" could not be created: " + describe(e), seq);
        }
        return false;
    }

    private void finishItem(Message m, int item, long seq) throws JMSException {
        long expectedBytes = m.getLongProperty(Wire.ITEM_BYTES);
        String theirs = m.getStringProperty(Wire.MD5);
        String ours = md5 == null ? null : HexFormat.of().formatHex(md5.digest());
        Path target = finalPath;
        try {
            if (written != expectedBytes) {
                throw new ItemFailure("BFGTR0061E: The destination file \"" + target + "\" has " + written
                        + " bytes but the source sent " + expectedBytes);
            }
            if (ours != null && !ours.equalsIgnoreCase(String.valueOf(theirs))) {
                throw new ItemFailure("BFGTR0062E: The checksum of \"" + target + "\" does not match the source's"
                        + " (MD5 " + ours + " at the destination, " + theirs + " at the source)");
            }
            channel.force(true);
            channel.close();
            channel = null;
            if (!partPath.equals(target)) {
                if (!overwrite && Files.exists(target)) {
                    throw new ItemFailure("BFGIO0006E: File \"" + target + "\" already exists.");
                }
                if (overwrite) {
                    Files.move(partPath, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } else {
                    moveNoReplace(partPath, target);
                }
            }
        } catch (ItemFailure e) {
            discardItem();
            fail(item, sourcePath, target.toString(), e.getMessage(), seq);
            return;
        } catch (IOException e) {
            discardItem();
            fail(item, sourcePath, target.toString(), "BFGIO0341E: The temporary file \"" + partPath
                    + "\" could not be renamed to \"" + target + "\": " + describe(e), seq);
            return;
        }
        ItemOutcome outcome = new ItemOutcome(item, sourcePath, target.toString(), written, ItemOutcome.SUCCESS, null,
                ours);
        itemIndex = -1;
        partPath = null;
        record(outcome, seq);
    }

    /** Renames without replacing: a file that appeared meanwhile is never overwritten. */
    private static void moveNoReplace(Path from, Path to) throws IOException, ItemFailure {
        try {
            Files.createLink(to, from);
            Files.delete(from);
        } catch (FileAlreadyExistsException e) {
            throw new ItemFailure("BFGIO0006E: File \"" + to + "\" already exists.");
        } catch (UnsupportedOperationException | AccessDeniedException e) {
            // File systems without hard links: check then move (a tiny window remains).
            if (Files.exists(to)) {
                throw new ItemFailure("BFGIO0006E: File \"" + to + "\" already exists.");
            }
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private static final class ItemFailure extends Exception {
        private static final long serialVersionUID = 1L;

        ItemFailure(String message) {
            super(message, null, false, false);
        }
    }

    private void fail(int item, String source, String destination, String reason, long seq) throws JMSException {
        log.warn("Transfer {}: item {} failed: {}", id, item, reason);
        if (item == itemIndex) {
            itemIndex = -1;
        }
        record(new ItemOutcome(item, source, destination, 0, ItemOutcome.FAILED, reason, null), seq);
    }

    private void record(ItemOutcome outcome, long seq) throws JMSException {
        results.put(outcome.index(), outcome);
        engine.listener().itemCompleted(engine.agentName(), Role.DESTINATION, id, outcome);
        sendItemDone(outcome.index(), outcome, seq);
        // The item's result acknowledges its last chunk; a checkpoint due at that chunk is still due.
        if ((seq + 1) % checkpointChunks == 0) {
            checkpoint(seq);
        }
        if (results.size() == itemCount) {
            complete();
        }
    }

    private void complete() {
        List<ItemOutcome> items = new ArrayList<>(results.values());
        long failed = items.stream().filter(o -> o.resultCode() == ItemOutcome.FAILED).count();
        int code = failed == 0 ? 0 : failed == items.size() ? 40 : 20;
        engine.listener().transferEnded(engine.agentName(), Role.DESTINATION,
                new TransferOutcome(id, code, null, items, started, Instant.now()));
    }

    /** Acknowledges a window, or makes a checkpoint span durable first. */
    private void acknowledge(long seq) throws JMSException {
        if ((seq + 1) % checkpointChunks == 0) {
            checkpoint(seq);
        } else if ((seq + 1) % window == 0) {
            sendAck(seq, false);
        }
    }

    /**
     * Acknowledges {@code seq} now, so the source keeps sending, and asks the checkpointer to make
     * the data durable and record the checkpoint; it acknowledges again, marked as a checkpoint,
     * once both are done.
     */
    private void checkpoint(long seq) throws JMSException {
        sendAck(seq, false);
        Map<String, Object> state = new LinkedHashMap<>();
        state.put(Wire.SOURCE_AGENT, sourceAgent);
        state.put(Wire.INCARNATION, incarnation);
        state.put(Wire.NEXT_SEQ, seq + 1);
        state.put(Wire.ITEM_COUNT, itemCount);
        state.put(Wire.ITEM, itemIndex);
        state.put(Wire.OFFSET, written);
        if (partPath != null) {
            state.put(Wire.DEST_FILE, partPath.toString());
        }
        try {
            engine.checkpointer().submit(new Checkpointer.Job(id, sourceAgent, incarnation, seq, channel, state, false));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void sendAck(long seq, boolean checkpointed) throws JMSException {
        Message ack = engine.replyMessage(this, Wire.ACK);
        ack.setLongProperty(Wire.SEQ, seq);
        ack.setBooleanProperty(Wire.CHECKPOINT, checkpointed);
        engine.sendToSource(this, ack);
    }

    private void sendItemDone(int item, ItemOutcome o, long seq) throws JMSException {
        Message done = engine.replyMessage(this, Wire.ITEM_DONE);
        done.setIntProperty(Wire.ITEM, item);
        done.setLongProperty(Wire.SEQ, seq);
        done.setIntProperty(Wire.RESULT_CODE, o.resultCode());
        if (o.supplement() != null) {
            done.setStringProperty(Wire.SUPPLEMENT, o.supplement());
        }
        if (o.destination() != null) {
            done.setStringProperty(Wire.DEST_FILE, o.destination());
        }
        if (o.md5() != null) {
            done.setStringProperty(Wire.MD5, o.md5());
        }
        done.setLongProperty(Wire.ITEM_BYTES, o.bytes());
        engine.sendToSource(this, done);
    }

    /** The source cancelled: partial files go, finished ones stay. */
    void cancel(String reason) throws JMSException {
        discardItem();
        if (!ended) {
            ended = true;
            List<ItemOutcome> items = new ArrayList<>(results.values());
            engine.listener().transferEnded(engine.agentName(), Role.DESTINATION,
                    new TransferOutcome(id, 41, reason, items, started, Instant.now()));
        }
        engine.sendToSource(this, engine.replyMessage(this, Wire.CANCELLED));
    }

    /** Forgets the transfer: closes and removes any partial file. */
    void close() {
        ended = true;
        discardItem();
    }

    private void discardItem() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("Closing {}: {}", partPath, e.getMessage());
            }
            channel = null;
        }
        if (partPath != null && !partPath.equals(finalPath)) {
            try {
                Files.deleteIfExists(partPath);
            } catch (IOException e) {
                log.warn("Transfer {}: could not remove the partial file {}: {}", id, partPath, describe(e));
            }
        } else if (partPath != null && itemIndex >= 0) {
            // Written straight to the final name (doNotUseTempOutputFile): an unfinished file goes.
            try {
                Files.deleteIfExists(partPath);
            } catch (IOException e) {
                log.warn("Transfer {}: could not remove the unfinished file {}: {}", id, partPath, describe(e));
            }
        }
        partPath = null;
    }

    private static String describe(IOException e) {
        String what = e.getClass().getSimpleName().replace("Exception", "");
        String msg = e.getMessage();
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            msg = fse.getReason();
        }
        return msg == null ? what : what.isEmpty() ? msg : msg + " (" + what + ")";
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no MD5", e);
        }
    }
}
