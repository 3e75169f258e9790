package org.openmft.agent.transfer.destination;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.jms.JMSException;

import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.exits.TransferExitContext;
import org.openmft.agent.transfer.failure.FailurePolicy;
import org.openmft.agent.protection.ProtectionLevel;
import org.openmft.agent.transfer.protocol.Sequenced;
import org.openmft.agent.transfer.protocol.Start;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.agent.transfer.state.DestinationRecord;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.xml.AgentRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The destination side of one transfer: takes the source's messages strictly in sequence
 * ({@link Sequencer}; those of a transfer spread over several channels that overtake others wait
 * in a bounded {@link ReorderBuffer} for their turn), writes each item ({@link ItemWriter}), acknowledges every window, has a
 * checkpoint made durable every checkpoint span ({@link Checkpointer}), reports each item's
 * outcome, and keeps those outcomes until the source acknowledges completion so that a resent
 * last chunk is answered again.
 *
 * <p>An item whose last chunk comes between checkpoints is verified and handed over
 * ({@link FinishingItem}): its file is forced on the checkpointer's forcing threads while the next
 * items are written, and it is settled (rename journaled, renamed, result journaled,
 * {@code ITEM_DONE} sent) in item order once forced. Every item handed over is settled before a
 * checkpoint record is handed to the checkpointer, before any other result is journaled and before
 * the transfer ends, so a record never passes an item without its result, and a crash loses at
 * most what it lost before: items after the last record, received again.
 *
 * <p>State that cannot be made durable (a checkpoint, an item's result) ends the transfer here
 * through {@link FailurePolicy}: suspended when the agent lost its queue manager, else given up
 * with an ABORT that tells the source why (result 40); the partial file goes.
 *
 * <p>Who may speak for the transfer is bound here too: the key its START carried (which tags every
 * later message, checked by the dispatcher), the START's validated user, and when the source was
 * last heard ({@link #expire} past {@code openmft.sourceSilenceTimeout}).
 *
 * <p>Why this file stays whole (about 900 lines): it is the one state machine of a received
 * transfer (start and resynchronisation, sequence, items, acknowledgements and checkpoints, end),
 * whose steps share the transfer's fields; ordering, reordering, writing, finishing, checkpointing
 * and failure decisions are already rooms of their own ({@link Sequencer}, {@link ReorderBuffer},
 * {@link ItemWriter}, {@link FinishingItem}, {@link Checkpointer}, {@link DurabilityGate},
 * {@link FailurePolicy}), and
 * splitting the rest would pass that state around (when an item is settled decides what a
 * checkpoint record may say).
 *
 * <p>Called only by the agent's DATA dispatcher thread, except the checkpointer's reports (its
 * {@link DurabilityGate#done} and its failure report).
 */
public final class DestinationTransfer {
    private static final Logger log = LoggerFactory.getLogger(DestinationTransfer.class);
    /** Items handed over and not yet settled, per transfer, at most. */
    static final int MAX_FINISHING = 8;

    private final DestinationContext context;
    private final String id;
    private final String sourceAgent;
    private final String sourceQMgr;
    private final String jobName;
    /** The user the source's queue manager validated for the request, or null: writes use its sandbox. */
    private final String requesterUser;
    private final int itemCount;
    private final Sequencer sequencer;
    /** Messages of a transfer spread over several channels that came before their turn. */
    private final ReorderBuffer reorder = new ReorderBuffer();
    private final ItemWriter writer;
    /**
     * File items verified and handed over to be forced, oldest first (at most
     * {@value #MAX_FINISHING}): their renames, results and {@code ITEM_DONE}s follow in item order.
     */
    private final ArrayDeque<FinishingItem> finishing = new ArrayDeque<>();
    private final Map<Integer, ItemOutcome> results = new TreeMap<>();
    /** The sequence number each result answered (-1 when not known after a restart). */
    private final Map<Integer, Long> resultSeq = new HashMap<>();
    private final Instant started;
    private final TransferInfo info;
    private boolean ended;
    /** Whether the transfer's end was reported (every item has its result). */
    private boolean reported;
    /** Whether the transfer was given up here (the dispatcher forgets it). */
    private boolean gaveUp;
    /** Whether this transfer was resumed from its record and its source has not resynchronised yet. */
    private boolean suspendedSinceStart;

    /** The checkpoint not yet durable and the acknowledgement waiting for it. */
    private final DurabilityGate durability;
    /** Why a checkpoint could not be made durable, reported by the checkpointer; null if none. */
    private volatile StateException durabilityFailure;
    /** Bytes of chunks received again that were already written (dropped as duplicates). */
    private long duplicateBytes;
    /** Bytes written before a restart after the last checkpoint, cut off and so received again. */
    private long discardedAtResume;
    /**
     * The transfer's key from its START, which every message of the transfer must be tagged with;
     * null only for a transfer resumed from a record written before keys existed, until its
     * source's next START.
     */
    private volatile byte[] key;
    /** What its source's START declared; the dispatcher's thread only. */
    private ProtectionLevel protection = ProtectionLevel.NONE;
    /** The user the queue manager validated for the START (the source agent's), or null. */
    private volatile String sourceUser;
    /** When the source last sent a message of this transfer that counted (or the transfer was taken back). */
    private Instant lastHeard;

    private DestinationTransfer(DestinationContext context, String id, String sourceAgent, String sourceQMgr,
            String jobName, String requesterUser, int itemCount, int window, int checkpointChunks, int incarnation) {
        this.context = context;
        this.id = id;
        this.sourceAgent = sourceAgent;
        this.sourceQMgr = sourceQMgr;
        this.jobName = jobName;
        this.requesterUser = requesterUser;
        this.itemCount = itemCount;
        this.sequencer = new Sequencer(window, checkpointChunks, incarnation);
        this.durability = new DurabilityGate(id, sequencer.window());
        this.writer = new ItemWriter(id, context.paths(), requesterUser, context.settings().doNotUseTempOutputFile())
                .toQueues(context.queues(), sourceAgent, context.settings().agentName());
        this.started = context.clock().instant();
        this.lastHeard = started;
        var s = context.settings();
        this.info = new TransferInfo(id, new AgentRef(sourceAgent, sourceQMgr), new AgentRef(s.agentName(),
                s.agentQMgr()), null, jobName, 0, Map.of(), started, List.of(), itemCount);
    }

    /**
     * A transfer the source has just started.
     *
     * @param key        the key the START carries
     * @param senderUser the user the queue manager validated for the START, or null
     */
    public static DestinationTransfer fromStart(DestinationContext context, Start start, byte[] key,
            String senderUser) {
        DestinationTransfer t = new DestinationTransfer(context, start.transferId(), start.sourceAgent(),
                start.sourceQMgr(), start.jobName(), start.requesterUser(), start.itemCount(), start.window(),
                start.checkpointChunks(), start.incarnation());
        t.key = key.clone();
        t.sourceUser = senderUser;
        return t;
    }

    /**
     * A transfer this agent was running when it stopped or died, from its last checkpoint record
     * and its results journal; it waits, as recovering, for its source to resynchronise, which
     * is told to continue from the checkpoint. The item being written, if any, is taken back by
     * {@code recovery} with {@link #resumeItem} or {@link #itemSettledAtResume}.
     */
    public static DestinationTransfer fromRecord(DestinationContext context, DestinationRecord r,
            StateFiles.Journal journal) {
        DestinationTransfer t = new DestinationTransfer(context, r.transferId(), r.sourceAgent(), r.sourceQMgr(),
                r.jobName(), r.requesterUser(), r.itemCount(), r.window(), r.checkpointChunks(), r.incarnation());
        t.sequencer.resumeAt(r.nextSeq());
        t.key = decodeKey(r.transferKey());
        t.adopt(journal);
        t.suspendedSinceStart = true;
        return t;
    }

    /**
     * Takes the results a journal of this transfer already holds: the agent journaled items of it
     * before a restart, but the transfer's record was never written (it is written off the data
     * path, and the connection went first), so the source's resynchronisation arrives as a new
     * start. Items finished then are not written again.
     */
    public void adoptJournal() throws StateException {
        adopt(context.state().readDestinationJournal(id));
        if (!results.isEmpty()) {
            log.info("Transfer {}: started again without a record; {} of {} items were done before", id,
                    results.size(), itemCount);
        }
    }

    private void adopt(StateFiles.Journal journal) {
        for (StateFiles.Result r : journal.results().values()) {
            results.put(r.outcome().index(), r.outcome());
            resultSeq.put(r.outcome().index(), r.lastSeq());
        }
    }

    private static byte[] decodeKey(String base64) {
        try {
            return base64 == null ? null : Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The key this transfer's messages are tagged with, or null while none is known. */
    public byte[] key() {
        return key;
    }

    /**
     * The protection its source's START declared ({@code NONE} for a transfer resumed after a
     * restart until its source's next START): its DATA must carry at least this.
     */
    public ProtectionLevel protection() {
        return protection;
    }

    /** Its source's START declared {@code level}. */
    void protectedAt(ProtectionLevel level) {
        this.protection = level;
    }

    /**
     * Whether a START for this transfer comes from its source: it carries the transfer's key (a
     * transfer resumed from a record without one takes the key of its source's first START), and,
     * when both are known, from the same user as the first.
     *
     * @param offered    the key the START carries
     * @param senderUser the user the queue manager validated for it, or null
     */
    public boolean startFromSource(byte[] offered, String senderUser) {
        if (offered == null) {
            return false;
        }
        if (key == null) {
            log.warn("Transfer {}: resumed from a record without a transfer key; the key of this START is taken",
                    id);
            key = offered.clone();
        } else if (!MessageDigest.isEqual(key, offered)) {
            return false;
        }
        if (sourceUser == null) {
            sourceUser = senderUser;
        }
        return fromSourceUser(senderUser);
    }

    /**
     * Whether a message's validated user is the one that started the transfer (true when either
     * is not known: a queue manager without users).
     */
    public boolean fromSourceUser(String senderUser) {
        String expected = sourceUser;
        return expected == null || senderUser == null || expected.equals(senderUser);
    }

    /** The transfer id. */
    public String id() {
        return id;
    }

    /** The source agent's queue manager, or null when its START named none. */
    public String sourceQMgr() {
        return sourceQMgr;
    }

    /** The source agent, whose REPLY queue gets the answers. */
    public String sourceAgent() {
        return sourceAgent;
    }

    /** The incarnation followed. */
    public int incarnation() {
        return sequencer.incarnation();
    }

    /** The next message expected. */
    public long expectedSeq() {
        return sequencer.expected();
    }

    /** Whether item {@code index} has a result here. */
    public boolean hasResult(int index) {
        return results.containsKey(index);
    }

    /** Items with a result here. */
    public int resultCount() {
        return results.size();
    }

    /** What this destination knows of the transfer. */
    public TransferInfo info() {
        return info;
    }

    /** Files in the transfer. */
    public int itemCount() {
        return itemCount;
    }

    /** Whether the transfer has ended here (finished, cancelled, suspended or given up). */
    public boolean ended() {
        return ended;
    }

    /** Whether the transfer was given up here: the dispatcher forgets it. */
    public boolean gaveUp() {
        return gaveUp;
    }

    // ------------------------------------------------------------------------------------------
    // Taken back after a restart (called by recovery before the dispatcher starts)

    /**
     * The item being written at the checkpoint continues from {@code offset} bytes of its
     * partial file (cut back to it, its checksum rebuilt).
     */
    public void resumeItem(int item, DestinationRecord.Partial p, long offset) throws java.io.IOException {
        discardedAtResume = writer.resume(item, p.itemFirstSeq(), Path.of(p.partFile()), Path.of(p.finalPath()),
                p.overwrite(), p.checksumMethod(), offset, p.sourcePath(), p.destPath());
    }

    /** The item being written at the checkpoint restarts from its first message. */
    public void redoItem(long itemFirstSeq) {
        sequencer.resumeAt(itemFirstSeq);
    }

    /** Bytes written after the last checkpoint before the restart, discarded. */
    public long discardedAtResume() {
        return discardedAtResume;
    }

    /**
     * The item being written at the checkpoint has its result at resume, which is journaled now: it
     * was verified and renamed just before the agent went down (its result was not yet written), or
     * the paths its checkpoint names are refused (it fails, nothing of it is renamed or deleted).
     */
    public void itemSettledAtResume(ItemOutcome done, long itemFirstSeq) throws StateException {
        results.put(done.index(), done);
        resultSeq.put(done.index(), -1L);
        context.state().appendDestinationResult(id, new StateFiles.Result(done, itemFirstSeq, -1));
    }

    // ------------------------------------------------------------------------------------------
    // Messages from the source

    /**
     * A (re)start from the source: adopt its incarnation and say where to continue. A start of an
     * older incarnation than the one adopted (a late message) is ignored. A resynchronising source
     * names the first item it has no result for; the results of that item and later ones are sent
     * again, since answers sent before a restart may be lost.
     *
     * @param firstOpenItem the lowest item index the source has no result for, or -1
     */
    public void restart(int newIncarnation, int firstOpenItem) throws JMSException {
        if (durabilityLost()) {
            return;
        }
        settle(true);
        int before = sequencer.incarnation();
        if (!sequencer.restart(newIncarnation)) {
            log.info("Transfer {}: ignored a start of incarnation {} (now {})", id, newIncarnation, before);
            return;
        }
        if (newIncarnation != before) {
            // The source resends from where we say; what is held is of the old numbering's run.
            reorder.clear();
            // An acknowledgement the checkpointer sends later would carry the old incarnation.
            durability.await();
        }
        if (newIncarnation != before && suspendedSinceStart) {
            suspendedSinceStart = false;
            context.listener().recovered(context.settings().agentName(), id);
        }
        send(context.replies().codec().startOk(id, incarnation(), sequencer.expected()));
        resendResults(firstOpenItem);
    }

    /** Sends again the result of every finished item from {@code firstOpenItem} on (none when it is -1). */
    private void resendResults(int firstOpenItem) throws JMSException {
        if (firstOpenItem < 0) {
            return;
        }
        for (Map.Entry<Integer, ItemOutcome> e : results.entrySet()) {
            if (e.getKey() >= firstOpenItem) {
                sendItemDone(e.getKey(), e.getValue(), resultSeq.getOrDefault(e.getKey(), -1L));
            }
        }
    }

    /** The source sent a message of this transfer that counted: its silence starts again. */
    public void heard() {
        lastHeard = context.clock().instant();
    }

    /** When the source was last heard (or the transfer was taken back after a restart). */
    public Instant lastHeard() {
        return lastHeard;
    }

    /**
     * The source has said nothing for longer than this agent waits ({@code openmft.sourceSilenceTimeout}):
     * the transfer ends here with result 69, its partial file goes; items finished here stay. The
     * caller forgets it (its record and journal go too). Nothing is sent: nobody listens.
     *
     * @param reason why, for the transfer's outcome
     */
    public void expire(String reason) {
        writer.discard();
        abandonFinishing(false);
        if (!ended && !reported) {
            ended = true;
            context.listener().transferEnded(context.settings().agentName(), Role.DESTINATION,
                    new TransferOutcome(id, ResultCode.RECOVERY_TIMED_OUT.code(), reason,
                            new ArrayList<>(results.values()), started, context.clock().instant()));
        }
        ended = true;
    }

    /**
     * A DATA message whose body failed its CRC32C was dropped: when it is the chunk expected next,
     * the source is asked at once to send again from it (a NACK) instead of after a timeout.
     */
    public void onDamagedChunk(int chunkIncarnation, long seq) throws JMSException {
        if (!ended && !durabilityLost() && chunkIncarnation == incarnation() && seq == sequencer.expected()) {
            sendNack();
        }
    }

    /**
     * The source heard nothing in time and asks where we are: an acknowledgement of everything
     * when we have all it sent (ours was lost), else a NACK naming the first chunk we lack; then
     * the results it lacks of the items we finished, from {@code firstOpenItem} on (-1: none).
     */
    public void onAckRequest(int requestIncarnation, long sourceNextSeq, int firstOpenItem) throws JMSException {
        if (durabilityLost()) {
            return;
        }
        // The source waited: what is verified is settled, so that it hears every result it can.
        settle(true);
        switch (sequencer.ackRequest(requestIncarnation, sourceNextSeq, ended)) {
            case ACK_ALL -> sendAck(sequencer.expected() - 1);
            case NACK -> sendNack();
            case NONE -> {
                return;
            }
        }
        // The source lacks these results: their ITEM_DONE was lost (a refused or dropped send), and
        // an acknowledgement alone would leave it waiting for them until it resynchronises.
        resendResults(firstOpenItem);
    }

    /**
     * Handles a sequenced message (DATA or ITEM_ABORT).
     *
     * @param body the chunk's bytes (DATA), valid until the next call
     */
    public void onSequenced(Sequenced m, byte[] body, int length) throws JMSException {
        if (durabilityLost()) {
            return;
        }
        long seq = m.seq();
        int item = m.item();
        if (m.abort() && !ended && m.incarnation() == incarnation() && seq < sequencer.expected()
                && item == writer.item() && !results.containsKey(item)) {
            // The source gave up the item we are writing at an earlier number than we reached: its
            // file changed (shrank) since it was sent. What we hold of it is void; what follows
            // is numbered from the abort on.
            log.warn("Transfer {}: item {} aborted by the source at chunk {} (we had reached {})", id, item, seq,
                    sequencer.expected());
            sequencer.voidFrom(seq);
            reorder.clear();
            writer.abandon();
            fail(item, m.header().sourcePath(), m.header().destPath(), m.supplement(), seq);
            sendNack();
            return;
        }
        Sequencer.Verdict verdict = sequencer.accept(m.incarnation(), seq, ended, m.channels());
        switch (verdict) {
            case STALE, GAP -> {
                return;
            }
            case DUPLICATE -> {
                duplicateBytes += length;
                // A resend of something we have: answer again what the source may have missed.
                if (m.last() && results.containsKey(item)) {
                    sendItemDone(item, results.get(item), seq);
                } else if (sequencer.windowEnds(seq)) {
                    sendAck(sequencer.expected() - 1);
                }
                return;
            }
            case GAP_NACK -> {
                log.info("Transfer {}: expected chunk {} but got {}; asking the source to resend", id,
                        sequencer.expected(), seq);
                sendNack();
                return;
            }
            case AHEAD, AHEAD_NACK -> {
                if (reorder.hold(m, body, length) == ReorderBuffer.Outcome.FULL) {
                    log.debug("Transfer {}: chunk {} dropped, {} bytes held already", id, seq, reorder.heldBytes());
                }
                if (verdict == Sequencer.Verdict.AHEAD_NACK) {
                    log.info("Transfer {}: chunk {} came over its channel before chunk {}, which is lost; asking the"
                            + " source to resend", id, seq, sequencer.expected());
                    sendNack();
                }
                return;
            }
            case NEXT -> {
            }
        }
        handleNext(m, body, length);
        // What came before its turn over the other channels follows, in order.
        ReorderBuffer.Held h;
        while (!ended && !gaveUp && (h = reorder.take(sequencer.expected())) != null) {
            try {
                if (sequencer.accept(h.message().incarnation(), h.message().seq(), ended) == Sequencer.Verdict.NEXT) {
                    handleNext(h.message(), h.body(), h.length());
                }
            } finally {
                reorder.release(h);
            }
        }
        // The next one may be lost already (dropped as damaged, or as past the buffer's bytes): a
        // later one of its channel is held.
        if (!ended && !gaveUp && reorder.holdsLaterOnChannelOf(sequencer.expected(), m.channels())
                && sequencer.lost()) {
            log.info("Transfer {}: chunk {} is lost on its channel; asking the source to resend", id,
                    sequencer.expected());
            sendNack();
        }
        if (!finishing.isEmpty()) {
            settle(false);
        }
    }

    /** Handles message {@code m}, the one expected (the sequencer has moved past it). */
    private void handleNext(Sequenced m, byte[] body, int length) throws JMSException {
        long seq = m.seq();
        int item = m.item();
        if (results.containsKey(item)) {
            duplicateBytes += length;
            // The item is finished (or failed): nothing to write; a repeated last chunk gets its answer.
            if (m.last()) {
                sendItemDone(item, results.get(item), seq);
            } else {
                acknowledge(seq);
            }
            return;
        }
        if (m.abort()) {
            writer.abandon();
            fail(item, m.header().sourcePath(), m.header().destPath(), m.supplement(), seq);
            return;
        }
        if (m.first() && m.header().toQueue() && (context.queues() == null || !context.queues().enabled())) {
            endWith(ResultCode.DESTINATION_NO_FILE_TO_MESSAGE, "BFGTR0071E: The destination agent "
                    + context.settings().agentName() + " does not write files to queues: its"
                    + " enableQueueInputOutput property is not true.");
            return;
        }
        try {
            if (m.first()) {
                if (!writer.start(item, seq, m.header(), this::finishingAt)) {
                    // An item still finishing has its name: it goes first (its rename, then this).
                    settle(true);
                    if (ended) {
                        return;
                    }
                    writer.start(item, seq, m.header(), p -> false);
                }
            } else if (!writer.open(item)) {
                log.warn("Transfer {}: chunk {} for item {} arrived without its start; the item fails", id, seq, item);
                fail(item, null, null, "BFGTR0002E: Chunk " + seq + " arrived out of order for item " + item, seq);
                return;
            }
            if (m.offset() != writer.written()) {
                // The source writes each item from its start, chunk after chunk: any other offset is
                // not the source's, and would leave holes or overwrite what was verified.
                String reason = "BFGTR0003E: Chunk " + seq + " of item " + item + " is for offset " + m.offset()
                        + " but " + writer.written() + " bytes of it were received";
                String source = writer.sourcePath();
                writer.abandon();
                fail(item, source, null, reason, seq);
                return;
            }
            writer.write(body, length, m.offset());
            context.listener().chunkWritten(context.settings().agentName(), id, item, length);
            if (m.last()) {
                finishItem(m, seq);
            } else {
                acknowledge(seq);
            }
        } catch (ItemWriter.ItemFailure e) {
            fail(item, m.first() ? m.header().sourcePath() : writer.sourcePath(), e.destination, e.getMessage(), seq);
        } catch (StateException e) {
            giveUp(e);
        }
    }

    /**
     * Item {@code m.item()}'s last chunk is written: between checkpoints a file item is verified and
     * handed over (its window acknowledged as any other); at a checkpoint, at the transfer's last
     * item, or for a queue, the items handed over are settled and this one is finished here.
     */
    private void finishItem(Sequenced m, long seq) throws ItemWriter.ItemFailure, StateException, JMSException {
        boolean lastOfTransfer = results.size() + finishing.size() + 1 >= itemCount;
        if (context.checkpointer() != null && writer.canHandOver() && !sequencer.checkpointDue(seq)
                && !lastOfTransfer) {
            FinishingItem f = writer.handOver(m.itemBytes(), m.checksum(), seq);
            f.forceWith(context.checkpointer().forcer());
            finishing.add(f);
            settle(false);
            if (!ended && sequencer.windowEnds(seq)) {
                sendAck(seq);
            }
            return;
        }
        settle(true);
        if (ended) {
            return;
        }
        if (writer.canHandOver()) {
            // Finished here: forced on this thread, and settled as any item handed over.
            finishing.add(writer.handOver(m.itemBytes(), m.checksum(), seq));
            settle(true);
            return;
        }
        String source = writer.sourcePath();
        ItemWriter.Finished done = writer.finishQueueItem(m.itemBytes(), m.checksum());
        record(new ItemOutcome(m.item(), source, done.destination(), done.bytes(), ItemOutcome.SUCCESS, null,
                done.checksum()), seq);
    }

    /** Whether an item handed over and not yet settled will have the final name {@code target}. */
    private boolean finishingAt(Path target) {
        for (FinishingItem f : finishing) {
            if (f.writesTo(target)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Settles the items handed over, oldest first: those already forced (and, past
     * {@value #MAX_FINISHING}, the oldest whatever it takes), or with {@code all} every one,
     * waiting for their forces.
     */
    private void settle(boolean all) throws JMSException {
        FinishingItem f;
        while (!ended && (f = finishing.peek()) != null
                && (all || f.forced() || finishing.size() > MAX_FINISHING)) {
            finishing.poll();
            try {
                ItemWriter.Finished done = f.complete(r -> context.state().appendRename(id, r));
                record(new ItemOutcome(f.item(), f.sourcePath(), done.destination(), done.bytes(),
                        ItemOutcome.SUCCESS, null, done.checksum()), f.lastSeq());
            } catch (ItemWriter.ItemFailure e) {
                log.warn("Transfer {}: item {} failed: {}", id, f.item(), e.getMessage());
                record(new ItemOutcome(f.item(), f.sourcePath(), e.destination, 0, ItemOutcome.FAILED, e.getMessage(),
                        null), f.lastSeq());
            } catch (StateException e) {
                giveUp(e);
            }
        }
    }

    /** The dispatcher's tick: settles what is forced, so results do not wait for the next message. */
    public void settleForced() throws JMSException {
        if (!finishing.isEmpty() && !durabilityLost()) {
            settle(false);
        }
    }

    /** Items handed over will not be settled: their files close and, unless {@code keep}, go. */
    private void abandonFinishing(boolean keep) {
        FinishingItem f;
        while ((f = finishing.poll()) != null) {
            f.abandon(keep);
        }
    }

    private void fail(int item, String source, String destination, String reason, long seq) throws JMSException {
        settle(true);
        if (ended) {
            return;
        }
        log.warn("Transfer {}: item {} failed: {}", id, item, reason);
        record(new ItemOutcome(item, source, destination, 0, ItemOutcome.FAILED, reason, null), seq);
    }

    private void record(ItemOutcome outcome, long seq) throws JMSException {
        try {
            context.state().appendDestinationResult(id, new StateFiles.Result(outcome, -1, seq));
        } catch (StateException e) {
            giveUp(e);
            return;
        }
        results.put(outcome.index(), outcome);
        resultSeq.put(outcome.index(), seq);
        context.listener().itemCompleted(context.settings().agentName(), Role.DESTINATION, id, outcome);
        sendItemDone(outcome.index(), outcome, seq);
        // The item's result acknowledges its last chunk; a checkpoint due at that chunk is still due.
        if (sequencer.checkpointDue(seq)) {
            checkpoint(seq);
        }
        if (results.size() == itemCount) {
            complete();
        }
    }

    private void complete() {
        reported = true;
        List<ItemOutcome> items = new ArrayList<>(results.values());
        if (duplicateBytes > 0 || discardedAtResume > 0) {
            log.info("Transfer {}: {} bytes were received twice (duplicates dropped) and {} bytes written before a"
                    + " restart were discarded", id, duplicateBytes, discardedAtResume);
        }
        ResultCode code = ResultCode.fromItems(items);
        if (code != ResultCode.FAILED && context.exits().any()) {
            context.exits().destinationEnd(new TransferExitContext(id, sourceAgent, context.settings().agentName(),
                    context.exits().environment(), Map.of(), items.stream().map(i -> new TransferExitContext.File(
                            i.source(), i.destination())).toList()), code.code(), null);
        }
        context.listener().transferEnded(context.settings().agentName(), Role.DESTINATION,
                new TransferOutcome(id, code.code(), null, items, started, context.clock().instant()));
    }

    // ------------------------------------------------------------------------------------------
    // Acknowledgements and checkpoints

    /** Acknowledges a window, or makes a checkpoint span durable first. */
    private void acknowledge(long seq) throws JMSException {
        if (sequencer.checkpointDue(seq)) {
            checkpoint(seq);
        } else if (sequencer.windowEnds(seq)) {
            sendAck(seq);
        }
    }

    /**
     * Acknowledges {@code seq} now, so the source keeps sending, and asks the checkpointer to make
     * the data durable and record the checkpoint; it acknowledges again, marked as a checkpoint,
     * once both are done.
     */
    private void checkpoint(long seq) throws JMSException {
        settle(true);
        if (ended) {
            return;
        }
        // One checkpoint at a time is not yet durable: this one's acknowledgement lets the source
        // go a window past it.
        durability.await();
        sendAck(seq);
        durability.submitted(seq);
        submitRecord(seq, writer.channel());
    }

    /**
     * Hands the checkpointer this transfer's record as of message {@code seq} (-1: accepted,
     * nothing written yet): at most a fixed set of small properties, whatever the number of files.
     */
    public void submitRecord(long seq, FileChannel toForce) {
        var s = sequencer;
        DestinationRecord record = new DestinationRecord(id, sourceAgent, sourceQMgr, jobName, s.incarnation(),
                seq + 1, itemCount, s.window(), s.checkpointChunks(), writer.item(), writer.written(),
                writer.partial(), requesterUser, key == null ? null : Base64.getEncoder().encodeToString(key));
        try {
            context.checkpointer().submit(new Checkpointer.Job(id, sourceAgent, s.incarnation(), seq, toForce, record,
                    false, durability::done, this::durabilityFailed));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Called by the checkpointer: a checkpoint could not be made durable. */
    private void durabilityFailed(StateException e) {
        durabilityFailure = e;
    }

    /**
     * Whether a checkpoint failed to become durable: then the transfer ends here (on this, the
     * dispatcher's, thread) and the message at hand is not handled.
     */
    private boolean durabilityLost() throws JMSException {
        StateException e = durabilityFailure;
        if (e == null || gaveUp) {
            return gaveUp;
        }
        giveUp(e);
        return true;
    }

    /**
     * State could not be made durable: suspended (the connection is gone: the transfer resumes
     * with the agent's next engine) or given up, telling the source why.
     */
    private void giveUp(StateException e) throws JMSException {
        durabilityFailure = e;
        FailurePolicy.Decision decision = FailurePolicy.decide(e, context.status(), sourceAgent);
        if (decision instanceof FailurePolicy.Fail f) {
            endWith(f.resultCode(), f.supplement());
        } else {
            log.info("Transfer {}: suspended ({}): {}", id, ((FailurePolicy.Suspend) decision).why(), e.getMessage());
            suspend();
        }
    }

    /** Ends the transfer here with {@code code}, telling the source why; the partial file goes. */
    private void endWith(ResultCode code, String supplement) throws JMSException {
        log.error("Transfer {}: given up at the destination: {}", id, supplement);
        writer.abandon();
        abandonFinishing(false);
        ended = true;
        gaveUp = true;
        List<ItemOutcome> items = new ArrayList<>(results.values());
        context.listener().transferEnded(context.settings().agentName(), Role.DESTINATION,
                new TransferOutcome(id, code.code(), supplement, items, started, context.clock().instant()));
        send(context.replies().codec().abort(id, incarnation(), code.code(), supplement));
    }

    /**
     * Acknowledges {@code seq}, or, when it must wait for the pending checkpoint, leaves it to the
     * checkpointer to send once the checkpoint is durable: the acknowledgement waits, not this
     * thread, which goes on writing what the source has already sent (a later acknowledgement
     * replaces a waiting one).
     */
    private void sendAck(long seq) throws JMSException {
        if (durability.hold(seq)) {
            return;
        }
        send(context.replies().codec().ack(id, incarnation(), seq, false));
    }

    private void sendNack() throws JMSException {
        send(context.replies().codec().nack(id, incarnation(), sequencer.expected()));
    }

    private void sendItemDone(int item, ItemOutcome o, long seq) throws JMSException {
        durability.awaitPast(seq);
        send(context.replies().codec().itemDone(id, incarnation(), item, seq, o));
    }

    private void send(jakarta.jms.Message m) throws JMSException {
        context.replies().send(sourceAgent, sourceQMgr, m);
    }

    // ------------------------------------------------------------------------------------------
    // Ending

    /** The source cancelled: partial files go, finished ones stay. */
    public void cancel(String reason) throws JMSException {
        // Items verified before the cancel are finished, and count in its outcome.
        if (!durabilityLost()) {
            settle(true);
        }
        abandonFinishing(false);
        writer.discard();
        if (!ended && !reported) {
            ended = true;
            List<ItemOutcome> items = new ArrayList<>(results.values());
            context.listener().transferEnded(context.settings().agentName(), Role.DESTINATION,
                    new TransferOutcome(id, ResultCode.CANCELLED.code(), reason, items, started,
                            context.clock().instant()));
        }
        send(context.replies().codec().control(Wire.CANCELLED, id, incarnation(), null));
    }

    /**
     * The agent is stopping (immediately) or lost its queue manager: closes the partial file and
     * keeps it, with the transfer's record, for the agent's next start.
     */
    public void suspend() {
        ended = true;
        reorder.clear();
        writer.closeChannel();
        // After the last record: received again when the transfer resumes.
        abandonFinishing(true);
    }

    /** Forgets the transfer: closes and removes any partial file. */
    public void close() {
        ended = true;
        reorder.clear();
        writer.discard();
        abandonFinishing(false);
    }
}
