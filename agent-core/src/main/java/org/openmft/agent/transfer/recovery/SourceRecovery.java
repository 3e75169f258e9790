package org.openmft.agent.transfer.recovery;

import java.nio.charset.Charset;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.source.ManagedCalls;
import org.openmft.agent.transfer.source.PlannedItem;
import org.openmft.agent.transfer.source.QueuedTransfer;
import org.openmft.agent.transfer.source.RequestAdmission;
import org.openmft.agent.transfer.source.SourcePlanner;
import org.openmft.agent.transfer.source.SourceTransfer;
import org.openmft.agent.transfer.state.SourceRecord;
import org.openmft.agent.transfer.state.StateException;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.agent.transfer.state.TransferStateStore;
import org.openmft.agent.transfer.text.Encodings;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.ManagedCallRequest;
import org.openmft.xml.Mode;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes back, after a start or a reconnect, the source transfers an earlier run accepted: from
 * their record, request, planned files and results journal. Started ones resynchronise with
 * their destination and continue from where it is; the others are queued again. A transfer whose
 * saved state is unusable is abandoned, said so (BFGTR0092E), and its state removed.
 */
public final class SourceRecovery {
    private static final Logger log = LoggerFactory.getLogger(SourceRecovery.class);

    private SourceRecovery() {
    }

    /**
     * What an earlier run left.
     *
     * @param queued    the transfers to queue again, resumed ones carrying what they had
     * @param unplanned the requests accepted and not planned yet, to plan again
     * @param calls     the managed calls accepted and not reported yet
     */
    public record Recovered(List<QueuedTransfer> queued, List<SourcePlanner.Pending> unplanned,
            List<Call> calls) {
    }

    /**
     * A managed call an earlier run accepted ({@link org.openmft.agent.transfer.source.ManagedCalls}).
     *
     * @param journaled its journal's last line, or null when its program never started
     */
    public record Call(String id, ManagedCallRequest request, StateFiles.CallRecord journaled, String replyQueue) {
    }

    /**
     * @param arrival numbers the transfers taken back in their order on the STATE queue
     * @return the transfers to queue again and the requests to plan again
     */
    public static Recovered recover(TransferStateStore state, Clock clock, AtomicLong arrival)
            throws StateException {
        List<QueuedTransfer> out = new ArrayList<>();
        List<SourcePlanner.Pending> unplanned = new ArrayList<>();
        List<Call> calls = new ArrayList<>();
        RequestParser parser = new RequestParser();
        for (SourceRecord record : state.loadSources()) {
            String id = record.transferId();
            if (!TransferIds.isValid(id)) {
                // Neither resumed nor removed: its id names no file of this agent's.
                log.warn("A source record with the invalid transfer id {} is refused and left alone",
                        TransferIds.printable(id));
                continue;
            }
            try {
                org.openmft.xml.CommandDocument document = parser.parse(state.readRequest(id));
                if (document instanceof ManagedCallRequest call) {
                    calls.add(new Call(id, call, state.readSourceJournal(id).calls().get(ManagedCalls.journalPhase()),
                            record.replyQueue()));
                    continue;
                }
                if (!(document instanceof TransferRequest request)) {
                    throw new StateException("the saved request is not a transfer request", null);
                }
                if (record.unplanned()) {
                    unplanned.add(new SourcePlanner.Pending(id, request, null, record.replyQueue(),
                            record.requesterUser()));
                    log.info("Transfer {}: accepted before a restart and not planned then; planning it now", id);
                    continue;
                }
                StateFiles.Plan plan = state.readPlan(id);
                List<PlannedItem> items = new ArrayList<>();
                for (StateFiles.Planned p : plan.files()) {
                    TransferItem item = request.transferSet().items().get(p.requestItem());
                    Charset from = item.mode() == Mode.TEXT ? Encodings.forName(item.source().encoding()) : null;
                    Charset to = item.mode() == Mode.TEXT ? Encodings.forName(item.destination().encoding()) : null;
                    items.add(new PlannedItem(items.size(), p.file(), item, from, to));
                }
                List<ItemOutcome> preFailed = new ArrayList<>();
                for (StateFiles.PreFailed f : plan.preFailed()) {
                    preFailed.add(new ItemOutcome(-1, f.source(), f.destination(), 0, ItemOutcome.FAILED,
                            f.supplement(), null));
                }
                SourceTransfer.Resume resume = record.incarnation() == 0 ? null
                        : new SourceTransfer.Resume(record.incarnation(), state.readSourceJournal(id).results());
                out.add(new QueuedTransfer(id, request, items, preFailed, null, arrival.incrementAndGet(),
                        RequestAdmission.info(id, request, items, preFailed.size(), clock), resume,
                        record.replyQueue(), record.requesterUser()));
                log.info("Transfer {}: {} after a restart ({} files to {})", id,
                        resume == null ? "queued again" : "resuming", items.size(), request.destinationAgent().agent());
            } catch (StateException | MalformedRequestException | RuntimeException e) {
                log.error("BFGTR0092E: Transfer {} cannot be resumed: its saved state is unusable ({}); it is"
                        + " abandoned", id, e.getMessage() != null ? e.getMessage() : e.toString());
                try {
                    state.removeSource(id);
                } catch (StateException removal) {
                    log.error("Transfer {}: its unusable state could not be removed either: {}", id,
                            removal.getMessage());
                }
            }
        }
        return new Recovered(out, unplanned, calls);
    }
}
