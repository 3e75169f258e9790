package org.openmft.agent.transfer.state;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link TransferStateStore}'s twin in memory, for unit tests of the transfer core: what it holds
 * survives as long as the object, and {@link #failWrites(String)} makes every later write fail,
 * as a full or broken store would. Transfer ids are checked as {@link QueueStateStore} checks them.
 */
public final class InMemoryStateStore implements TransferStateStore {
    private final Map<String, SourceRecord> sources = new LinkedHashMap<>();
    private final Map<String, DestinationRecord> destinations = new LinkedHashMap<>();
    private final Map<String, byte[]> requests = new LinkedHashMap<>();
    private final Map<String, StateFiles.Plan> plans = new LinkedHashMap<>();
    private final Map<String, Journal> sourceJournals = new LinkedHashMap<>();
    private final Map<String, Journal> destinationJournals = new LinkedHashMap<>();
    private String failure;

    private static final class Journal {
        final Map<Integer, StateFiles.Result> results = new TreeMap<>();
        final Map<Integer, StateFiles.Rename> renames = new TreeMap<>();
        final Map<String, StateFiles.CallRecord> calls = new TreeMap<>();

        StateFiles.Journal copy() {
            return new StateFiles.Journal(new TreeMap<>(results), new TreeMap<>(renames), new TreeMap<>(calls));
        }
    }

    /** From now on every write fails with this reason (null: writes work again). */
    public synchronized void failWrites(String reason) {
        this.failure = reason;
    }

    private void check(String id) throws StateException {
        StateIds.require(id, "write state");
        if (failure != null) {
            throw new StateException("transfer " + id + ": " + failure, null);
        }
    }

    @Override
    public synchronized List<SourceRecord> loadSources() {
        return new ArrayList<>(sources.values());
    }

    @Override
    public synchronized void saveRequest(String transferId, byte[] requestXml, StateFiles.Plan plan)
            throws StateException {
        check(transferId);
        requests.put(transferId, requestXml.clone());
        plans.put(transferId, plan);
    }

    @Override
    public synchronized byte[] readRequest(String transferId) throws StateException {
        StateIds.require(transferId, "read state");
        byte[] r = requests.get(transferId);
        if (r == null) {
            throw new StateException("transfer " + transferId + ": no saved request", null);
        }
        return r.clone();
    }

    @Override
    public synchronized StateFiles.Plan readPlan(String transferId) throws StateException {
        StateIds.require(transferId, "read state");
        StateFiles.Plan p = plans.get(transferId);
        if (p == null) {
            throw new StateException("transfer " + transferId + ": no saved plan", null);
        }
        return p;
    }

    @Override
    public synchronized void saveSource(SourceRecord record) throws StateException {
        check(record.transferId());
        sources.put(record.transferId(), record);
    }

    @Override
    public synchronized void appendSourceResult(String transferId, StateFiles.Result result) throws StateException {
        check(transferId);
        sourceJournals.computeIfAbsent(transferId, k -> new Journal()).results.put(result.outcome().index(), result);
    }

    @Override
    public synchronized void appendSourceCall(String transferId, StateFiles.CallRecord call) throws StateException {
        check(transferId);
        Map<String, StateFiles.CallRecord> calls = sourceJournals.computeIfAbsent(transferId, k -> new Journal()).calls;
        StateFiles.CallRecord known = calls.get(call.phase());
        if (call.ended() || known == null || !known.ended()) {
            calls.put(call.phase(), call);
        }
    }

    @Override
    public synchronized StateFiles.Journal readSourceJournal(String transferId) throws StateException {
        StateIds.require(transferId, "read state");
        return sourceJournals.getOrDefault(transferId, new Journal()).copy();
    }

    @Override
    public synchronized void removeSource(String transferId) throws StateException {
        check(transferId);
        sources.remove(transferId);
        requests.remove(transferId);
        plans.remove(transferId);
        sourceJournals.remove(transferId);
    }

    @Override
    public synchronized List<DestinationRecord> loadDestinations() {
        return new ArrayList<>(destinations.values());
    }

    @Override
    public synchronized void saveDestination(DestinationRecord record) throws StateException {
        check(record.transferId());
        destinations.put(record.transferId(), record);
    }

    @Override
    public synchronized void appendDestinationResult(String transferId, StateFiles.Result result)
            throws StateException {
        check(transferId);
        destinationJournals.computeIfAbsent(transferId, k -> new Journal()).results.put(result.outcome().index(),
                result);
    }

    @Override
    public synchronized void appendRename(String transferId, StateFiles.Rename rename) throws StateException {
        check(transferId);
        destinationJournals.computeIfAbsent(transferId, k -> new Journal()).renames.put(rename.item(), rename);
    }

    @Override
    public synchronized StateFiles.Journal readDestinationJournal(String transferId) throws StateException {
        StateIds.require(transferId, "read state");
        return destinationJournals.getOrDefault(transferId, new Journal()).copy();
    }

    @Override
    public synchronized void removeDestination(String transferId) throws StateException {
        check(transferId);
        destinations.remove(transferId);
        destinationJournals.remove(transferId);
    }
}
