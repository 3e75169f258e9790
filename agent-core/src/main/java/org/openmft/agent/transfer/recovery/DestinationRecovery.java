package org.openmft.agent.transfer.recovery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.openmft.agent.Checksum;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.destination.DestinationContext;
import org.openmft.agent.transfer.destination.DestinationTransfer;
import org.openmft.agent.transfer.queue.QueueWriter;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.DestinationPaths;
import org.openmft.agent.transfer.files.PathRefusedException;
import org.openmft.agent.transfer.files.Sandbox;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.state.DestinationRecord;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes back, after a start or a reconnect, the destination transfers an earlier run left
 * checkpoints of. Each waits, as recovering, for its source to resynchronise, and tells it to
 * continue from the checkpoint. The item being written then continues from the checkpoint's
 * offset (the partial file cut back to it, its checksum rebuilt from the bytes kept), unless:
 * it was verified and renamed just before the agent went down (its result is recorded now); its
 * partial file is gone or shorter than the checkpoint, or is refused by the sandbox (it is
 * written again from its first chunk).
 *
 * <p>The checkpoint's paths are judged again as the item's start judged them: its final name by
 * the requester's sandbox, its partial file as that name's temporary file. A checkpoint naming a
 * final path the sandbox refuses, or a partial file that is not the final name's, fails its item
 * with the sandbox's refusal: nothing is renamed, cut or deleted. (A record the agent did not
 * write never gets here, see {@code StateTag}; these checks hold should a bug or an adopted
 * record of an earlier version name such a path.)
 */
public final class DestinationRecovery {
    private static final Logger log = LoggerFactory.getLogger(DestinationRecovery.class);

    private DestinationRecovery() {
    }

    /** The transfers taken back; one that cannot be is logged and left out. */
    public static List<DestinationTransfer> recover(DestinationContext context) throws StateException {
        List<DestinationTransfer> out = new ArrayList<>();
        for (DestinationRecord record : context.state().loadDestinations()) {
            if (!TransferIds.isValid(record.transferId())) {
                log.warn("A destination record with the invalid transfer id {} is refused and left alone",
                        TransferIds.printable(record.transferId()));
                continue;
            }
            try {
                out.add(recover(context, record));
            } catch (IOException | StateException | RuntimeException e) {
                log.error("Transfer {}: cannot resume as destination: {}", record.transferId(), e.toString());
            }
        }
        return out;
    }

    private static DestinationTransfer recover(DestinationContext context, DestinationRecord r)
            throws IOException, StateException {
        String id = r.transferId();
        StateFiles.Journal journal = context.state().readDestinationJournal(id);
        DestinationTransfer t = DestinationTransfer.fromRecord(context, r, journal);
        int item = r.item();
        DestinationRecord.Partial p = r.partial();
        if (item < 0 || t.hasResult(item) || p == null) {
            log.info("Transfer {}: resumed as destination at chunk {}, {} of {} items done", id, t.expectedSeq(),
                    t.resultCount(), t.itemCount());
            return t;
        }
        if (p.finalPath().startsWith(QueueWriter.SPOOLED)) {
            // A file for a queue is put whole or not at all: it is received again from its start
            // (and a put the queue manager committed before the restart is not repeated).
            log.info("Transfer {}: item {} for a queue is received again from its start", id, item);
            t.redoItem(p.itemFirstSeq());
            return t;
        }
        long offset = r.offset();
        Path part = Path.of(p.partFile());
        Path target = Path.of(p.finalPath());
        Sandbox sandbox = context.paths().forRequester(r.requesterUser()).sandbox();
        try {
            checkPaths(sandbox, part, target);
        } catch (PathRefusedException e) {
            log.warn("Transfer {}: item {} fails: its checkpoint names {} and {}, refused ({}); nothing of it is"
                    + " renamed or deleted", id, item, part, target, e.supplement());
            t.itemSettledAtResume(new ItemOutcome(item, p.sourcePath(), target.toString(), 0, ItemOutcome.FAILED,
                    e.supplement(), null), p.itemFirstSeq());
            return t;
        }
        StateFiles.Rename rename = journal.renames().get(item);
        if (rename != null && target.toString().equals(rename.finalPath()) && !part.equals(target)
                && !Files.exists(part) && Files.isRegularFile(target) && Files.size(target) == rename.bytes()) {
            t.itemSettledAtResume(new ItemOutcome(item, p.sourcePath(), target.toString(), rename.bytes(),
                    ItemOutcome.SUCCESS, null, Checksum.of(p.checksumMethod(), rename.checksum())), p.itemFirstSeq());
            log.info("Transfer {}: item {} was complete before the restart ({})", id, item, target);
            return t;
        }
        long have = Files.isRegularFile(part) ? Files.size(part) : -1;
        if (have < offset) {
            log.warn("Transfer {}: the partial file {} of item {} is {}; the item restarts from its beginning", id,
                    part, item, have < 0 ? "missing" : "shorter than its checkpoint (" + have + " < " + offset + ")");
            t.redoItem(p.itemFirstSeq());
            return t;
        }
        try {
            sandbox.checkPartFile(part, target);
        } catch (PathRefusedException e) {
            // Replaced by a link meanwhile: the item starts again, and its start checks everything.
            log.warn("Transfer {}: the partial file {} is refused ({}); the item restarts from its beginning", id,
                    part, e.getMessage());
            t.redoItem(p.itemFirstSeq());
            return t;
        }
        t.resumeItem(item, p, offset);
        log.info("BFGTR0091I: Transfer {}: resumed as destination at chunk {}, item {} ({}) at byte {}; {} bytes"
                + " written after the last checkpoint are discarded and will be sent again", id, t.expectedSeq(), item,
                target, offset, t.discardedAtResume());
        return t;
    }

    /**
     * The final name as any destination file ({@link Access#WRITE}), and the partial file as its
     * temporary file: the final name itself ({@code doNotUseTempOutputFile}) or
     * {@code <name>.part[N]} beside it.
     */
    private static void checkPaths(Sandbox sandbox, Path part, Path target) throws PathRefusedException {
        sandbox.check(target, Access.WRITE);
        Path name = target.getFileName();
        String partName = part.getFileName() == null ? "" : part.getFileName().toString();
        String prefix = DestinationPaths.partFile(target).getFileName().toString();
        if (!part.equals(target) && !(java.util.Objects.equals(part.getParent(), target.getParent())
                && partName.startsWith(prefix) && partName.substring(prefix.length()).chars()
                        .allMatch(Character::isDigit))) {
            throw new PathRefusedException("The partial file \"" + part + "\" is not a temporary file of \""
                    + name + "\".", part.toString());
        }
    }
}
