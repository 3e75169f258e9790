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
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import javax.jms.JMSException;
import javax.jms.Message;

import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.DestinationPaths;
import org.openmft.agent.transfer.files.DestinationType;
import org.openmft.agent.transfer.files.FileErrors;
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

    /** Record property: the sequence number of the first message of the item being written. */
    static final String ITEM_FIRST_SEQ = "mftItemFirstSeq";
    /** Record property: the final name of the item being written. */
    static final String FINAL_PATH = "mftFinalPath";

    final String id;
    final String sourceAgent;
    private final String sourceQMgr;
    private final String jobName;
    private final Path journal;
    private final TransferEngine engine;
    private final int itemCount;
    private final int window;
    private final int checkpointChunks;
    private final Map<Integer, ItemOutcome> results = new TreeMap<>();
    /** The sequence number each result answered (-1 when not known after a restart). */
    private final Map<Integer, Long> resultSeq = new HashMap<>();
    private final Instant started = Instant.now();
    private final TransferInfo info;
    int incarnation;
    long expectedSeq;
    private long nackedFor = -1;
    private boolean ended;
    private static final int DURABILITY_WAIT_SECONDS = 60;
    private final Object durability = new Object();
    /** The last checkpoint the checkpointer has handled (guarded by {@link #durability}). */
    private long durableThrough = -1;
    /** The last checkpoint handed to the checkpointer and not yet waited for, or -1. */
    private long pendingCheckpoint = -1;
    /** Bytes of chunks received again that were already written (dropped as duplicates). */
    private long duplicateBytes;
    /** Bytes written before a restart after the last checkpoint, cut off and so received again. */
    private long discardedAtResume;

    // The item being written.
    private int itemIndex = -1;
    private long itemFirstSeq;
    private Path finalPath;
    private Path partPath;
    private FileChannel channel;
    private MessageDigest md5;
    private long written;
    private boolean overwrite;
    private String sourcePath;
    private String requestedDestination;

    private DestinationTransfer(TransferEngine engine, String id, String sourceAgent, String sourceQMgr,
            String jobName, int itemCount, int window, int checkpointChunks, int incarnation) {
        this.engine = engine;
        this.id = id;
        this.sourceAgent = sourceAgent;
        this.sourceQMgr = sourceQMgr;
        this.jobName = jobName;
        this.itemCount = itemCount;
        this.window = Math.max(1, window);
        this.checkpointChunks = Math.max(this.window, checkpointChunks);
        this.incarnation = incarnation;
        this.journal = StateFiles.destinationResults(engine.stateDirectory(), id);
        this.info = new TransferInfo(id, new AgentRef(sourceAgent, sourceQMgr),
                new AgentRef(engine.agentName(), engine.config().agentQMgr()), null, jobName, 0, Map.of(), started,
                List.of(), itemCount);
    }

    /** A transfer the source has just started. */
    static DestinationTransfer fromStart(TransferEngine engine, Message start) throws JMSException {
        return new DestinationTransfer(engine, start.getStringProperty(Wire.TRANSFER_ID),
                start.getStringProperty(Wire.SOURCE_AGENT), start.getStringProperty(Wire.SOURCE_QMGR),
                start.getStringProperty(Wire.JOB_NAME), start.getIntProperty(Wire.ITEM_COUNT),
                start.getIntProperty(Wire.WINDOW), start.getIntProperty(Wire.CHECKPOINT_CHUNKS),
                start.getIntProperty(Wire.INCARNATION));
    }

    /**
     * Takes the results a journal of this transfer already holds: the agent journaled items of it
     * before a restart, but the transfer's record was never written (it is written off the data
     * path, and the connection went first), so the source's resynchronisation arrives as a new
     * start. Items finished then are not written again.
     */
    void adoptJournal() throws IOException {
        for (StateFiles.Result r : StateFiles.readJournal(journal).results().values()) {
            results.put(r.outcome().index(), r.outcome());
            resultSeq.put(r.outcome().index(), r.lastSeq());
        }
        if (!results.isEmpty()) {
            log.info("Transfer {}: started again without a record; {} of {} items were done before", id,
                    results.size(), itemCount);
        }
    }

    /**
     * A transfer this agent was running when it stopped or died, from its last checkpoint record
     * and its results journal: the item being written continues from the checkpoint's offset (the
     * partial file is cut back to it and its checksum rebuilt from the bytes kept), and the source,
     * when it resynchronises, is told to continue from the checkpoint's sequence number.
     */
    static DestinationTransfer resume(TransferEngine engine, Map<String, Object> record) throws IOException {
        DestinationTransfer t = new DestinationTransfer(engine, (String) record.get(Wire.TRANSFER_ID),
                (String) record.get(Wire.SOURCE_AGENT), (String) record.get(Wire.SOURCE_QMGR),
                (String) record.get(Wire.JOB_NAME), intOf(record, Wire.ITEM_COUNT, 0), intOf(record, Wire.WINDOW, 1),
                intOf(record, Wire.CHECKPOINT_CHUNKS, 1), intOf(record, Wire.INCARNATION, 0));
        t.resumeFrom(record);
        return t;
    }

    private void resumeFrom(Map<String, Object> record) throws IOException {
        expectedSeq = longOf(record, Wire.NEXT_SEQ, 0);
        StateFiles.Journal j = StateFiles.readJournal(journal);
        for (StateFiles.Result r : j.results().values()) {
            results.put(r.outcome().index(), r.outcome());
            resultSeq.put(r.outcome().index(), r.lastSeq());
        }
        int item = intOf(record, Wire.ITEM, -1);
        if (item < 0 || results.containsKey(item) || record.get(Wire.DEST_FILE) == null) {
            log.info("Transfer {}: resumed as destination at chunk {}, {} of {} items done", id, expectedSeq,
                    results.size(), itemCount);
            return;
        }
        long offset = longOf(record, Wire.OFFSET, 0);
        long itemFirst = longOf(record, ITEM_FIRST_SEQ, expectedSeq);
        Path part = Path.of((String) record.get(Wire.DEST_FILE));
        Path target = Path.of((String) record.get(FINAL_PATH));
        StateFiles.Rename rename = j.renames().get(item);
        sourcePath = (String) record.get(Wire.SOURCE_PATH);
        requestedDestination = (String) record.get(Wire.DEST_PATH);
        if (rename != null && !part.equals(target) && !Files.exists(part) && Files.isRegularFile(target)
                && Files.size(target) == rename.bytes()) {
            // Verified and renamed just before the agent went down; the result was not yet written.
            ItemOutcome done = new ItemOutcome(item, sourcePath, target.toString(), rename.bytes(),
                    ItemOutcome.SUCCESS, null, rename.md5());
            results.put(item, done);
            resultSeq.put(item, -1L);
            appendResult(done, itemFirst, -1);
            log.info("Transfer {}: item {} was complete before the restart ({})", id, item, target);
            return;
        }
        long have = Files.isRegularFile(part) ? Files.size(part) : -1;
        if (have < offset) {
            // The partial file is gone or shorter than the checkpoint says: redo the item.
            log.warn("Transfer {}: the partial file {} of item {} is {}; the item restarts from its beginning", id,
                    part, item, have < 0 ? "missing" : "shorter than its checkpoint (" + have + " < " + offset + ")");
            expectedSeq = itemFirst;
            return;
        }
        itemIndex = item;
        itemFirstSeq = itemFirst;
        partPath = part;
        finalPath = target;
        overwrite = "overwrite".equals(record.get(Wire.EXIST));
        try {
            engine.pathResolver().sandbox().check(part, Access.WRITE);
        } catch (PathRefusedException e) {
            // Replaced by a link meanwhile: the item starts again, and its start checks everything.
            log.warn("Transfer {}: the partial file {} is refused ({}); the item restarts from its beginning", id,
                    part, e.getMessage());
            expectedSeq = itemFirst;
            return;
        }
        channel = FileChannel.open(part, StandardOpenOption.WRITE, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        channel.truncate(offset);
        written = offset;
        discardedAtResume = have - offset;
        if ("MD5".equals(record.get(Wire.CHECKSUM_METHOD))) {
            md5 = newMd5();
            ByteBuffer bb = ByteBuffer.allocate(1 << 20);
            long at = 0;
            while (at < offset) {
                bb.clear().limit((int) Math.min(bb.capacity(), offset - at));
                int n = channel.read(bb, at);
                if (n < 0) {
                    throw new IOException("partial file " + part + " ended at " + at + " of " + offset);
                }
                md5.update(bb.array(), 0, n);
                at += n;
            }
        }
        log.info("BFGTR0091I: Transfer {}: resumed as destination at chunk {}, item {} ({}) at byte {}; {} bytes"
                + " written after the last checkpoint are discarded and will be sent again", id, expectedSeq, item,
                target, offset, discardedAtResume);
    }

    private static int intOf(Map<String, Object> record, String key, int dflt) {
        return record.get(key) instanceof Number n ? n.intValue() : dflt;
    }

    private static long longOf(Map<String, Object> record, String key, long dflt) {
        return record.get(key) instanceof Number n ? n.longValue() : dflt;
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

    /**
     * A (re)start from the source: adopt its incarnation and say where to continue. A start of an
     * older incarnation than the one adopted (a late message) is ignored. A resynchronising source
     * names the first item it has no result for; the results of that item and later ones are sent
     * again, since answers sent before a restart may be lost.
     *
     * @param firstOpenItem the lowest item index the source has no result for, or -1
     */
    void restart(int newIncarnation, int firstOpenItem) throws JMSException {
        if (newIncarnation < incarnation) {
            log.info("Transfer {}: ignored a start of incarnation {} (now {})", id, newIncarnation, incarnation);
            return;
        }
        if (newIncarnation != incarnation && suspendedSinceStart) {
            suspendedSinceStart = false;
            engine.listener().recovered(engine.agentName(), id);
        }
        incarnation = newIncarnation;
        nackedFor = -1;
        Message ok = engine.replyMessage(this, Wire.START_OK);
        ok.setLongProperty(Wire.NEXT_SEQ, expectedSeq);
        engine.sendToSource(this, ok);
        if (firstOpenItem >= 0) {
            for (Map.Entry<Integer, ItemOutcome> e : results.entrySet()) {
                if (e.getKey() >= firstOpenItem) {
                    sendItemDone(e.getKey(), e.getValue(), resultSeq.getOrDefault(e.getKey(), -1L));
                }
            }
        }
    }

    /** Whether this transfer was resumed from its record and its source has not resynchronised yet. */
    private boolean suspendedSinceStart;

    /** Marks a transfer resumed after a restart: it waits for its source to resynchronise. */
    void awaitSource() {
        suspendedSinceStart = true;
    }

    /**
     * The source heard nothing in time and asks where we are: an acknowledgement of everything
     * when we have all it sent (ours was lost), else a NACK naming the first chunk we lack.
     */
    void onAckRequest(int requestIncarnation, long sourceNextSeq) throws JMSException {
        if (requestIncarnation != incarnation || ended) {
            return;
        }
        if (expectedSeq >= sourceNextSeq) {
            sendAck(expectedSeq - 1, false);
        } else {
            nackedFor = expectedSeq;
            Message nack = engine.replyMessage(this, Wire.NACK);
            nack.setLongProperty(Wire.NEXT_SEQ, expectedSeq);
            engine.sendToSource(this, nack);
        }
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
        if (seq < expectedSeq && Wire.ITEM_ABORT.equals(m.getStringProperty(Wire.TYPE)) && item == itemIndex
                && !results.containsKey(item)) {
            // The source gave up the item we are writing at an earlier number than we reached: its
            // file changed (shrank) since it was sent. What we hold of it is void; what follows
            // is numbered from the abort on.
            log.warn("Transfer {}: item {} aborted by the source at chunk {} (we had reached {})", id, item, seq,
                    expectedSeq);
            expectedSeq = seq + 1;
            nackedFor = expectedSeq;
            discardItem();
            fail(item, m.getStringProperty(Wire.SOURCE_PATH), m.getStringProperty(Wire.DEST_PATH),
                    m.getStringProperty(Wire.SUPPLEMENT), seq);
            Message nack = engine.replyMessage(this, Wire.NACK);
            nack.setLongProperty(Wire.NEXT_SEQ, expectedSeq);
            engine.sendToSource(this, nack);
            return;
        }
        if (seq < expectedSeq) {
            duplicateBytes += length;
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
            duplicateBytes += length;
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
        itemFirstSeq = seq;
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
                StateFiles.appendRename(journal, new StateFiles.Rename(item, target.toString(), written, ours));
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
        resultSeq.put(outcome.index(), seq);
        appendResult(outcome, outcome.index() == itemIndex ? itemFirstSeq : -1, seq);
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

    private void appendResult(ItemOutcome outcome, long firstSeq, long lastSeq) {
        try {
            StateFiles.appendResult(journal, new StateFiles.Result(outcome, firstSeq, lastSeq));
        } catch (IOException e) {
            // The transfer goes on; after a restart the item would be done again.
            log.warn("Transfer {}: could not record the result of item {} in {}: {}", id, outcome.index(), journal,
                    describe(e));
        }
    }

    private void complete() {
        List<ItemOutcome> items = new ArrayList<>(results.values());
        long failed = items.stream().filter(o -> o.resultCode() == ItemOutcome.FAILED).count();
        int code = failed == 0 ? 0 : failed == items.size() ? 40 : 20;
        if (duplicateBytes > 0 || discardedAtResume > 0) {
            log.info("Transfer {}: {} bytes were received twice (duplicates dropped) and {} bytes written before a"
                    + " restart were discarded", id, duplicateBytes, discardedAtResume);
        }
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
        pendingCheckpoint = seq;
        submitRecord(seq, channel);
    }

    /**
     * Hands the checkpointer this transfer's record as of chunk {@code seq} (-1: accepted, nothing
     * written yet): at most a fixed set of small properties, whatever the number of files.
     */
    void submitRecord(long seq, FileChannel toForce) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put(Wire.SOURCE_AGENT, sourceAgent);
        if (sourceQMgr != null) {
            state.put(Wire.SOURCE_QMGR, sourceQMgr);
        }
        if (jobName != null) {
            state.put(Wire.JOB_NAME, jobName);
        }
        state.put(Wire.INCARNATION, incarnation);
        state.put(Wire.NEXT_SEQ, seq + 1);
        state.put(Wire.ITEM_COUNT, itemCount);
        state.put(Wire.WINDOW, window);
        state.put(Wire.CHECKPOINT_CHUNKS, checkpointChunks);
        state.put(Wire.ITEM, itemIndex);
        state.put(Wire.OFFSET, written);
        if (partPath != null && itemIndex >= 0) {
            state.put(Wire.DEST_FILE, partPath.toString());
            state.put(FINAL_PATH, finalPath.toString());
            state.put(ITEM_FIRST_SEQ, itemFirstSeq);
            state.put(Wire.EXIST, overwrite ? "overwrite" : "error");
            state.put(Wire.CHECKSUM_METHOD, md5 != null ? "MD5" : "none");
            if (sourcePath != null) {
                state.put(Wire.SOURCE_PATH, sourcePath);
            }
            if (requestedDestination != null) {
                state.put(Wire.DEST_PATH, requestedDestination);
            }
        }
        try {
            engine.checkpointer().submit(new Checkpointer.Job(id, sourceAgent, incarnation, seq, toForce, state,
                    false, null, this::checkpointDone));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Bounds what a crash can cost: an acknowledgement a window past the last checkpoint waits
     * until that checkpoint is durable. The source never has more than its window unacknowledged,
     * so what is written beyond the last durable checkpoint, and would be sent again after a
     * crash, stays within one checkpoint span plus the window. The checkpointer usually finishes
     * within the window's time, so this rarely waits.
     */
    private void holdForDurability(long seq) {
        if (pendingCheckpoint < 0 || seq < pendingCheckpoint + window) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DURABILITY_WAIT_SECONDS);
        synchronized (durability) {
            while (durableThrough < pendingCheckpoint) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    log.warn("Transfer {}: checkpoint {} not durable after {} s; going on", id, pendingCheckpoint,
                            DURABILITY_WAIT_SECONDS);
                    break;
                }
                try {
                    durability.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        pendingCheckpoint = -1;
    }

    /** Called by the checkpointer once the checkpoint at {@code seq} is handled (durable or not). */
    void checkpointDone(long seq) {
        synchronized (durability) {
            durableThrough = Math.max(durableThrough, seq);
            durability.notifyAll();
        }
    }

    private void sendAck(long seq, boolean checkpointed) throws JMSException {
        holdForDurability(seq);
        Message ack = engine.replyMessage(this, Wire.ACK);
        ack.setLongProperty(Wire.SEQ, seq);
        ack.setBooleanProperty(Wire.CHECKPOINT, checkpointed);
        engine.sendToSource(this, ack);
    }

    private void sendItemDone(int item, ItemOutcome o, long seq) throws JMSException {
        holdForDurability(seq);
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

    /**
     * The agent is stopping (immediately) or lost its queue manager: closes the partial file and
     * keeps it, with the transfer's record, for the agent's next start.
     */
    void suspend() {
        ended = true;
        closeChannel();
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                log.debug("Closing {}: {}", partPath, e.getMessage());
            }
            channel = null;
        }
    }

    /** The journal of this transfer's item results (removed with the transfer's record). */
    Path journal() {
        return journal;
    }

    /** Forgets the transfer: closes and removes any partial file. */
    void close() {
        ended = true;
        discardItem();
    }

    private void discardItem() {
        closeChannel();
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
        return FileErrors.reason(e);
    }

    private static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no MD5", e);
        }
    }
}
