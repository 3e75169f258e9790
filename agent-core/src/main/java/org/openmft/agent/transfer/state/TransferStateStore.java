package org.openmft.agent.transfer.state;

import java.util.List;

/**
 * Where an agent keeps what it needs to take its transfers back after a restart: a bounded
 * record per transfer and role (a checkpoint), and beside it what grows with the number of files
 * (the request, the source's plan, the journals of item results). The port the transfer core
 * writes through; {@link QueueStateStore} keeps records on the agent's
 * {@code SYSTEM.FTE.STATE.<AGENT>} queue and the rest in its state directory,
 * {@link InMemoryStateStore} is its twin for unit tests.
 *
 * <p>Durability: a method returns once what it wrote survives a crash of the agent (records: a
 * committed persistent message; files: written to the operating system). A record is replaced
 * atomically: a crash leaves the old or the new one, never none.
 *
 * <p>A store replaces and removes the records it wrote or loaded: a new store (the agent's next
 * run) loads the records first ({@link #loadSources()}, {@link #loadDestinations()}), as recovery
 * does before anything else.
 *
 * <p>Thread-safety: implementations are safe for use by several threads.
 */
public interface TransferStateStore {

    // ------------------------------------------------------------------------------------------
    // Source side

    /** The source records an earlier run left (they are this store's to replace and remove). */
    List<SourceRecord> loadSources() throws StateException;

    /** Writes an accepted transfer's request document and plan. */
    void saveRequest(String transferId, byte[] requestXml, StateFiles.Plan plan) throws StateException;

    /** The request document saved for {@code transferId}. */
    byte[] readRequest(String transferId) throws StateException;

    /** The plan saved for {@code transferId}. */
    StateFiles.Plan readPlan(String transferId) throws StateException;

    /** Replaces the source record of its transfer. */
    void saveSource(SourceRecord record) throws StateException;

    /** Appends an item's result to the source's journal of {@code transferId}. */
    void appendSourceResult(String transferId, StateFiles.Result result) throws StateException;

    /** Appends a program call's start or end to the source's journal of {@code transferId}. */
    void appendSourceCall(String transferId, StateFiles.CallRecord call) throws StateException;

    /** The source's journal of {@code transferId} (empty when there is none). */
    StateFiles.Journal readSourceJournal(String transferId) throws StateException;

    /** Removes a source transfer's record, request, plan and journal. */
    void removeSource(String transferId) throws StateException;

    // ------------------------------------------------------------------------------------------
    // Destination side

    /** The destination records an earlier run left. */
    List<DestinationRecord> loadDestinations() throws StateException;

    /** Replaces the destination record (checkpoint) of its transfer. */
    void saveDestination(DestinationRecord record) throws StateException;

    /** Appends an item's result to the destination's journal of {@code transferId}. */
    void appendDestinationResult(String transferId, StateFiles.Result result) throws StateException;

    /** Records the intent to rename a verified partial file, before the rename. */
    void appendRename(String transferId, StateFiles.Rename rename) throws StateException;

    /** The destination's journal of {@code transferId} (empty when there is none). */
    StateFiles.Journal readDestinationJournal(String transferId) throws StateException;

    /** Removes a destination transfer's record and journal. */
    void removeDestination(String transferId) throws StateException;
}
