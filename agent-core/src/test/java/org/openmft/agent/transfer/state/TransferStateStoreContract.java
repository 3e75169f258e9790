package org.openmft.agent.transfer.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.openmft.agent.Checksum;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.files.SelectedFile;
import org.openmft.xml.ChecksumMethod;

/**
 * What every {@link TransferStateStore} does: the JMS + files implementation and its in-memory
 * twin pass the same tests, so unit tests that use the twin test what the agent does.
 */
abstract class TransferStateStoreContract {
    static final String ID = "414d5120514d31202020202020202020aaaaaaaaaaaaaaaa";

    /** A new, empty store. */
    abstract TransferStateStore store() throws Exception;

    /** The same store as another run of the agent would see it (what is durable). */
    abstract TransferStateStore reopened() throws Exception;

    @Test
    void aSourceRecordIsReplacedNotDuplicatedAndSurvivesAReopen() throws Exception {
        TransferStateStore s = store();
        s.saveSource(new SourceRecord(ID, "DST", 3, 0, 0, "REPLY.Q", null));
        s.saveSource(new SourceRecord(ID, "DST", 3, 2, 17, "REPLY.Q", "alice"));
        List<SourceRecord> back = reopened().loadSources();
        assertThat(back).containsExactly(new SourceRecord(ID, "DST", 3, 2, 17, "REPLY.Q", "alice"));
    }

    @Test
    void requestPlanAndJournalComeBackAndGoWithTheSource() throws Exception {
        TransferStateStore s = store();
        StateFiles.Plan plan = new StateFiles.Plan(List.of(new StateFiles.Planned(0,
                new SelectedFile(Path.of("/data/a b.txt"), "a b.txt", 12, 1000))),
                List.of(new StateFiles.PreFailed("/data/missing", "/out", "BFGIO0001E: gone")));
        s.saveRequest(ID, "<request/>".getBytes(StandardCharsets.UTF_8), plan);
        s.saveSource(new SourceRecord(ID, "DST", 1, 1, 0, null, null));
        ItemOutcome ok = new ItemOutcome(0, "/data/a b.txt", "/out/a b.txt", 12, ItemOutcome.SUCCESS, null,
                new Checksum(ChecksumMethod.SHA_256, "ab"));
        s.appendSourceResult(ID, new StateFiles.Result(ok, 0, 4));
        // Program calls: a start, then an end wins; a start alone stays a start.
        s.appendSourceCall(ID, StateFiles.CallRecord.started("preSourceCall"));
        StateFiles.CallRecord ended = new StateFiles.CallRecord("preSourceCall", true, "failure", 2, 7, null);
        s.appendSourceCall(ID, ended);
        s.appendSourceCall(ID, StateFiles.CallRecord.started("postSourceCall"));
        TransferStateStore r = reopened();
        // As the agent's next run does: records are taken back before they are replaced or removed.
        assertThat(r.loadSources()).hasSize(1);
        assertThat(new String(r.readRequest(ID), StandardCharsets.UTF_8)).isEqualTo("<request/>");
        assertThat(r.readPlan(ID)).isEqualTo(plan);
        assertThat(r.readSourceJournal(ID).results().get(0)).isEqualTo(new StateFiles.Result(ok, 0, 4));
        assertThat(r.readSourceJournal(ID).calls()).containsOnlyKeys("preSourceCall", "postSourceCall");
        assertThat(r.readSourceJournal(ID).calls().get("preSourceCall")).isEqualTo(ended);
        assertThat(r.readSourceJournal(ID).calls().get("postSourceCall").ended()).isFalse();
        r.removeSource(ID);
        TransferStateStore after = reopened();
        assertThat(after.loadSources()).isEmpty();
        assertThat(after.readSourceJournal(ID).results()).isEmpty();
        assertThat(after.readSourceJournal(ID).calls()).isEmpty();
        assertThatThrownBy(() -> after.readRequest(ID)).isInstanceOf(StateException.class).hasMessageContaining(ID);
    }

    @Test
    void aDestinationCheckpointWithItsPartialItemComesBackWhole() throws Exception {
        TransferStateStore s = store();
        DestinationRecord.Partial p = new DestinationRecord.Partial("/out/f.part", "/out/f", 8, true,
                ChecksumMethod.SHA_256, "/in/f", "/out");
        DestinationRecord first = new DestinationRecord(ID, "SRC", "QM1", "job", 1, 0, 2, 4, 16, -1, 0, null, "bob",
                "a2V5");
        DestinationRecord later = new DestinationRecord(ID, "SRC", "QM1", "job", 2, 32, 2, 4, 16, 1, 1 << 20, p,
                "bob", "a2V5");
        s.saveDestination(first);
        s.saveDestination(later);
        assertThat(reopened().loadDestinations()).containsExactly(later);
        ItemOutcome failed = new ItemOutcome(0, "/in/e", "/out/e", 0, ItemOutcome.FAILED, "BFGIO0006E: x", null);
        s.appendDestinationResult(ID, new StateFiles.Result(failed, -1, 7));
        s.appendRename(ID, new StateFiles.Rename(1, "/out/f", 1 << 20, "cd"));
        StateFiles.Journal j = reopened().readDestinationJournal(ID);
        assertThat(j.results().get(0).outcome()).isEqualTo(failed);
        assertThat(j.renames().get(1)).isEqualTo(new StateFiles.Rename(1, "/out/f", 1 << 20, "cd"));
        s.removeDestination(ID);
        assertThat(reopened().loadDestinations()).isEmpty();
        assertThat(reopened().readDestinationJournal(ID).results()).isEmpty();
    }

    @Test
    void recordsOfTheTwoRolesAreKeptApart() throws Exception {
        TransferStateStore s = store();
        s.saveSource(new SourceRecord(ID, "DST", 1, 0, 0, null, null));
        s.saveDestination(new DestinationRecord(ID, "SRC", null, null, 1, 0, 1, 1, 1, -1, 0, null, null, null));
        s.removeSource(ID);
        TransferStateStore r = reopened();
        assertThat(r.loadSources()).isEmpty();
        assertThat(r.loadDestinations()).hasSize(1);
    }

    /** Ids such as a path, a selector's injection or spaces never reach a file name or a selector. */
    static final List<String> HOSTILE_IDS = List.of("/tmp/openmft-victim/x", "../../x", "x/../../y",
            "' OR mftRole='S", "a b", ID.toUpperCase(java.util.Locale.ROOT), ID + " ", "");

    @Test
    void idsThatAreNotTransferIdsAreRefusedByEveryMethod() throws Exception {
        TransferStateStore s = store();
        StateFiles.Plan plan = new StateFiles.Plan(List.of(), List.of());
        StateFiles.Result result = new StateFiles.Result(new ItemOutcome(0, "/in/a", "/out/a", 1,
                ItemOutcome.SUCCESS, null, null), 0, 0);
        for (String id : HOSTILE_IDS) {
            List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> calls = List.of(
                    () -> s.saveRequest(id, "<request/>".getBytes(StandardCharsets.UTF_8), plan),
                    () -> s.readRequest(id), () -> s.readPlan(id),
                    () -> s.saveSource(new SourceRecord(id, "DST", 1, 0, 0, null, null)),
                    () -> s.appendSourceResult(id, result), () -> s.readSourceJournal(id), () -> s.removeSource(id),
                    () -> s.appendSourceCall(id, StateFiles.CallRecord.started("preSourceCall")),
                    () -> s.saveDestination(new DestinationRecord(id, "SRC", null, null, 1, 0, 1, 1, 1, -1, 0, null,
                            null, null)),
                    () -> s.appendDestinationResult(id, result),
                    () -> s.appendRename(id, new StateFiles.Rename(0, "/out/a", 1, null)),
                    () -> s.readDestinationJournal(id), () -> s.removeDestination(id));
            for (var call : calls) {
                assertThatThrownBy(call).as("id %s", id).isInstanceOf(StateException.class)
                        .hasMessageContaining("transfer id");
            }
        }
        assertThat(reopened().loadSources()).isEmpty();
        assertThat(reopened().loadDestinations()).isEmpty();
    }
}
