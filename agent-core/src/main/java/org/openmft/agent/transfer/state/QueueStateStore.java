package org.openmft.agent.transfer.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Session;

import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.xml.ChecksumMethod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transfer state of one agent: records as persistent messages on
 * {@code SYSTEM.FTE.STATE.<AGENT>} (one per transfer and role, replaced in one transaction, see
 * {@link StateQueue}), and the files that grow with the number of files in the agent's state
 * directory ({@link StateFiles}). Record properties keep their names across versions, so records
 * an earlier version wrote are read back.
 *
 * <p>Only state this agent wrote is used: records and files carry a {@link StateTag}, keyed in the
 * state directory. What an earlier version wrote without one is adopted (tagged) once, when the
 * store first opens after the key was made; from then on untagged state is refused. Transfer ids
 * are checked ({@link StateIds}) before they name a file or enter a selector.
 *
 * <p>Each role has its own transacted session, used under that role's lock: source transfers'
 * threads share the source session, the destination's checkpointer uses the other.
 */
public final class QueueStateStore implements TransferStateStore {
    private static final Logger log = LoggerFactory.getLogger(QueueStateStore.class);
    /** Message property naming the role of a record: "S" source, "D" destination. */
    public static final String ROLE = StateQueue.ROLE;
    /** Source record property: the queue of the request's JMSReplyTo. */
    static final String REPLY_QUEUE = "mftReplyQueue";
    /** Source record property: where the request document is, for people reading the queue. */
    static final String REQUEST_FILE = "mftRequestFile";
    /** Destination record property: the number of the first message of the item being written. */
    static final String ITEM_FIRST_SEQ = "mftItemFirstSeq";
    /** Destination record property: the final name of the item being written. */
    static final String FINAL_PATH = "mftFinalPath";
    private static final String SOURCE = "S";
    private static final String DESTINATION = "D";

    private final String queue;
    private final Path directory;
    private final StateTag tag;
    private final StateQueue sources;
    private final StateQueue destinations;

    /**
     * @param connection the agent's connection; two transacted sessions are opened on it
     * @param directory  the agent's state directory (created {@code rwx------} if missing), which
     *                   holds the key of its tags
     * @throws StateException when the queue cannot be opened, or the key cannot be used (see
     *                        {@link StateTag#open})
     */
    public QueueStateStore(Connection connection, String agentName, Path directory) throws StateException {
        this.queue = QueueNames.state(agentName);
        this.directory = directory;
        this.tag = StateTag.open(directory);
        try {
            this.sources = new StateQueue(connection.createSession(true, Session.SESSION_TRANSACTED), queue, tag);
            this.destinations = new StateQueue(connection.createSession(true, Session.SESSION_TRANSACTED), queue,
                    tag);
        } catch (JMSException e) {
            throw new StateException("cannot open " + queue + ": " + ProviderErrors.describe(e), e);
        }
        if (tag.adopting()) {
            adoptUntagged();
        }
    }

    /**
     * Tags what an earlier version left without tags, then removes the marker: with transfers in
     * flight across an upgrade they resume, and untagged state put there later is refused.
     */
    private void adoptUntagged() throws StateException {
        synchronized (sources) {
            try {
                int records = sources.adoptUntagged();
                int files = StateFiles.adoptUntagged(tag, directory);
                tag.adopted();
                if (records + files > 0) {
                    log.warn("Transfer state of an earlier version, without tags, was adopted: {} record(s) on {}"
                            + " and {} file(s) in {}; from now on untagged state is refused", records, queue, files,
                            directory);
                }
            } catch (JMSException e) {
                throw new StateException("the records on " + queue + " cannot be adopted: "
                        + ProviderErrors.describe(e), e);
            } catch (IOException e) {
                throw new StateException("the files in " + directory + " cannot be adopted: " + e, e);
            }
        }
    }

    /** The records, files and journal lines refused since this store opened: not written by this agent. */
    public long refusedState() {
        return tag.refusedCount();
    }

    // ------------------------------------------------------------------------------------------
    // Source side

    @Override
    public List<SourceRecord> loadSources() throws StateException {
        List<SourceRecord> out = new ArrayList<>();
        for (Map<String, Object> r : load(sources, SOURCE)) {
            out.add(new SourceRecord((String) r.get(Wire.TRANSFER_ID), (String) r.get(Wire.DESTINATION_AGENT),
                    intOf(r, Wire.ITEM_COUNT, 0), intOf(r, Wire.INCARNATION, 0), longOf(r, Wire.NEXT_SEQ, 0),
                    (String) r.get(REPLY_QUEUE), (String) r.get(Wire.REQUESTER_USER)));
        }
        return out;
    }

    @Override
    public void saveRequest(String transferId, byte[] requestXml, StateFiles.Plan plan) throws StateException {
        StateIds.require(transferId, "save a request");
        try {
            StateFiles.writeRequest(tag, directory, transferId, requestXml);
            StateFiles.writePlan(tag, StateFiles.items(directory, transferId), plan);
        } catch (IOException e) {
            throw fileFailure(transferId, "write its request and plan", e);
        }
    }

    @Override
    public byte[] readRequest(String transferId) throws StateException {
        StateIds.require(transferId, "read a request");
        try {
            return StateFiles.readRequest(tag, directory, transferId);
        } catch (IOException e) {
            throw fileFailure(transferId, "read its request", e);
        }
    }

    @Override
    public StateFiles.Plan readPlan(String transferId) throws StateException {
        StateIds.require(transferId, "read a plan");
        try {
            return StateFiles.readPlan(tag, StateFiles.items(directory, transferId), transferId);
        } catch (IOException | RuntimeException e) {
            throw fileFailure(transferId, "read its plan", e);
        }
    }

    @Override
    public void saveSource(SourceRecord r) throws StateException {
        StateIds.require(r.transferId(), "save a record");
        Map<String, Object> state = new LinkedHashMap<>();
        if (r.replyQueue() != null) {
            state.put(REPLY_QUEUE, r.replyQueue());
        }
        if (r.requesterUser() != null) {
            state.put(Wire.REQUESTER_USER, r.requesterUser());
        }
        state.put(Wire.DESTINATION_AGENT, r.destinationAgent());
        state.put(Wire.ITEM_COUNT, r.itemCount());
        state.put(Wire.INCARNATION, r.incarnation());
        state.put(Wire.NEXT_SEQ, r.nextSeq());
        state.put(REQUEST_FILE, StateFiles.request(directory, r.transferId()).toString());
        replace(sources, r.transferId(), SOURCE, state);
    }

    @Override
    public void appendSourceResult(String transferId, StateFiles.Result result) throws StateException {
        appendLine(transferId, "journal the result of item " + result.outcome().index(),
                () -> StateFiles.appendResult(tag, StateFiles.sourceResults(directory, transferId), result));
    }

    /** A journal append: one line to a transfer's file. */
    @FunctionalInterface
    private interface Append {
        void run() throws IOException;
    }

    /** Appends a line to a journal of {@code transferId}, its id checked first; {@code what} names it in a failure. */
    private void appendLine(String transferId, String what, Append append) throws StateException {
        StateIds.require(transferId, what);
        try {
            append.run();
        } catch (IOException e) {
            throw fileFailure(transferId, what, e);
        }
    }

    @Override
    public void appendSourceCall(String transferId, StateFiles.CallRecord call) throws StateException {
        appendLine(transferId, "journal its " + call.phase(),
                () -> StateFiles.appendCall(tag, StateFiles.sourceResults(directory, transferId), call));
    }

    @Override
    public StateFiles.Journal readSourceJournal(String transferId) throws StateException {
        StateIds.require(transferId, "read a journal");
        return journal(transferId, StateFiles.sourceResults(directory, transferId));
    }

    @Override
    public void removeSource(String transferId) throws StateException {
        StateIds.require(transferId, "remove a transfer's state");
        remove(sources, transferId, SOURCE);
        try {
            StateFiles.deleteSource(directory, transferId);
        } catch (IOException e) {
            throw fileFailure(transferId, "remove its files", e);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Destination side

    @Override
    public List<DestinationRecord> loadDestinations() throws StateException {
        List<DestinationRecord> out = new ArrayList<>();
        for (Map<String, Object> r : load(destinations, DESTINATION)) {
            DestinationRecord.Partial partial = null;
            if (r.get(Wire.DEST_FILE) instanceof String part && r.get(FINAL_PATH) instanceof String target) {
                ChecksumMethod method = checksumMethod(r);
                if (method == null) {
                    continue;
                }
                partial = new DestinationRecord.Partial(part, target,
                        longOf(r, ITEM_FIRST_SEQ, longOf(r, Wire.NEXT_SEQ, 0)), "overwrite".equals(r.get(Wire.EXIST)),
                        method, (String) r.get(Wire.SOURCE_PATH), (String) r.get(Wire.DEST_PATH));
            }
            out.add(new DestinationRecord((String) r.get(Wire.TRANSFER_ID), (String) r.get(Wire.SOURCE_AGENT),
                    (String) r.get(Wire.SOURCE_QMGR), (String) r.get(Wire.JOB_NAME), intOf(r, Wire.INCARNATION, 0),
                    longOf(r, Wire.NEXT_SEQ, 0), intOf(r, Wire.ITEM_COUNT, 0), intOf(r, Wire.WINDOW, 1),
                    intOf(r, Wire.CHECKPOINT_CHUNKS, 1), intOf(r, Wire.ITEM, -1), longOf(r, Wire.OFFSET, 0), partial,
                    (String) r.get(Wire.REQUESTER_USER), tag.open((String) r.get(Wire.TRANSFER_KEY))));
        }
        return out;
    }

    @Override
    public void saveDestination(DestinationRecord r) throws StateException {
        StateIds.require(r.transferId(), "save a record");
        Map<String, Object> state = new LinkedHashMap<>();
        state.put(Wire.SOURCE_AGENT, r.sourceAgent());
        if (r.sourceQMgr() != null) {
            state.put(Wire.SOURCE_QMGR, r.sourceQMgr());
        }
        if (r.jobName() != null) {
            state.put(Wire.JOB_NAME, r.jobName());
        }
        if (r.requesterUser() != null) {
            state.put(Wire.REQUESTER_USER, r.requesterUser());
        }
        if (r.transferKey() != null) {
            // Sealed: the record lies on the queue manager, whose administrators must not read the key.
            state.put(Wire.TRANSFER_KEY, tag.seal(r.transferKey()));
        }
        state.put(Wire.INCARNATION, r.incarnation());
        state.put(Wire.NEXT_SEQ, r.nextSeq());
        state.put(Wire.ITEM_COUNT, r.itemCount());
        state.put(Wire.WINDOW, r.window());
        state.put(Wire.CHECKPOINT_CHUNKS, r.checkpointChunks());
        state.put(Wire.ITEM, r.item());
        state.put(Wire.OFFSET, r.offset());
        DestinationRecord.Partial p = r.partial();
        if (p != null) {
            state.put(Wire.DEST_FILE, p.partFile());
            state.put(FINAL_PATH, p.finalPath());
            state.put(ITEM_FIRST_SEQ, p.itemFirstSeq());
            state.put(Wire.EXIST, p.overwrite() ? "overwrite" : "error");
            state.put(Wire.CHECKSUM_METHOD, p.checksumMethod().xmlValue());
            if (p.sourcePath() != null) {
                state.put(Wire.SOURCE_PATH, p.sourcePath());
            }
            if (p.destPath() != null) {
                state.put(Wire.DEST_PATH, p.destPath());
            }
        }
        replace(destinations, r.transferId(), DESTINATION, state);
    }

    @Override
    public void appendDestinationResult(String transferId, StateFiles.Result result) throws StateException {
        appendLine(transferId, "journal the result of item " + result.outcome().index(),
                () -> StateFiles.appendResult(tag, StateFiles.destinationResults(directory, transferId), result));
    }

    @Override
    public void appendRename(String transferId, StateFiles.Rename rename) throws StateException {
        appendLine(transferId, "journal the rename of item " + rename.item(),
                () -> StateFiles.appendRename(tag, StateFiles.destinationResults(directory, transferId), rename));
    }

    @Override
    public StateFiles.Journal readDestinationJournal(String transferId) throws StateException {
        StateIds.require(transferId, "read a journal");
        return journal(transferId, StateFiles.destinationResults(directory, transferId));
    }

    @Override
    public void removeDestination(String transferId) throws StateException {
        StateIds.require(transferId, "remove a transfer's state");
        remove(destinations, transferId, DESTINATION);
        try {
            Files.deleteIfExists(StateFiles.destinationResults(directory, transferId));
        } catch (IOException e) {
            throw fileFailure(transferId, "remove its results journal", e);
        }
    }

    // ------------------------------------------------------------------------------------------

    private List<Map<String, Object>> load(StateQueue q, String role) throws StateException {
        synchronized (q) {
            try {
                return q.load(role);
            } catch (JMSException e) {
                throw new StateException("the records on " + queue + " cannot be read: " + ProviderErrors.describe(e),
                        e);
            }
        }
    }

    private void replace(StateQueue q, String id, String role, Map<String, Object> state) throws StateException {
        synchronized (q) {
            try {
                q.replace(id, role, state);
            } catch (JMSException | RuntimeException e) {
                throw new StateException("transfer " + id + ": its record on " + queue + " could not be written: "
                        + (e instanceof JMSException j ? ProviderErrors.describe(j) : e.toString()), e);
            }
        }
    }

    private void remove(StateQueue q, String id, String role) throws StateException {
        synchronized (q) {
            try {
                q.remove(id, role);
            } catch (JMSException | RuntimeException e) {
                throw new StateException("transfer " + id + ": its record on " + queue + " could not be removed: "
                        + (e instanceof JMSException j ? ProviderErrors.describe(j) : e.toString()), e);
            }
        }
    }

    private StateFiles.Journal journal(String id, Path file) throws StateException {
        try {
            return StateFiles.readJournal(tag, file, id);
        } catch (NoSuchFileException e) {
            return new StateFiles.Journal(Map.of(), Map.of());
        } catch (IOException | RuntimeException e) {
            throw fileFailure(id, "read its results journal " + file.getFileName(), e);
        }
    }

    private StateException fileFailure(String id, String what, Exception e) {
        return new StateException("transfer " + id + ": could not " + what + " in " + directory + ": "
                + (e instanceof IOException io ? io.getMessage() : e.toString()), e);
    }

    /**
     * The checksum method of a record's partial item: "MD5" or "none" as every version wrote it,
     * "SHA-256" since; none when absent, as before. One this agent does not know (a later
     * version's) is logged and gives null: the record is left alone, since its item could not be
     * verified as its source asked.
     */
    private static ChecksumMethod checksumMethod(Map<String, Object> record) {
        Object value = record.get(Wire.CHECKSUM_METHOD);
        try {
            return value == null ? ChecksumMethod.NONE : ChecksumMethod.fromXml(value.toString());
        } catch (IllegalArgumentException e) {
            log.warn("The destination record of transfer {} names the checksum method {}, which this agent does not"
                    + " know; the transfer is not resumed", TransferIds.printable(String.valueOf(
                            record.get(Wire.TRANSFER_ID))), TransferIds.printable(value.toString()));
            return null;
        }
    }

    private static int intOf(Map<String, Object> record, String key, int dflt) {
        return record.get(key) instanceof Number n ? n.intValue() : dflt;
    }

    private static long longOf(Map<String, Object> record, String key, long dflt) {
        return record.get(key) instanceof Number n ? n.longValue() : dflt;
    }
}
