package org.openmft.agent.transfer.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentListener;
import org.openmft.agent.Checksum;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.destination.DestinationContext;
import org.openmft.agent.transfer.destination.DestinationSettings;
import org.openmft.agent.transfer.destination.DestinationTransfer;
import org.openmft.agent.transfer.failure.EngineStatus;
import org.openmft.agent.transfer.files.PathResolver;
import org.openmft.agent.transfer.files.SandboxRules;
import org.openmft.agent.transfer.files.SelectedFile;
import org.openmft.agent.transfer.source.FakeClock;
import org.openmft.agent.transfer.source.QueuedTransfer;
import org.openmft.agent.transfer.state.DestinationRecord;
import org.openmft.agent.transfer.state.InMemoryStateStore;
import org.openmft.agent.transfer.state.SourceRecord;
import org.openmft.agent.transfer.state.StateFiles;
import org.openmft.agent.transfer.state.TransferStateStore;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * Recovery from what the state store holds, without a queue manager: the in-memory twin of the
 * STATE queue and real partial files.
 */
class RecoveryTest {
    static final String A = "414d5120514d31202020202020202020aaaaaaaaaaaaaaaa";
    static final String B = "414d5120514d31202020202020202020bbbbbbbbbbbbbbbb";
    static final String C = "414d5120514d31202020202020202020cccccccccccccccc";

    @TempDir
    Path dir;
    final InMemoryStateStore state = new InMemoryStateStore();
    final FakeClock clock = new FakeClock();

    static final EngineStatus RUNNING = new EngineStatus() {
        @Override
        public boolean stopping() {
            return false;
        }

        @Override
        public boolean connectionLost() {
            return false;
        }
    };

    TransferRequest request(String source) {
        TransferItem item = new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                new ItemSource(false, Disposition.LEAVE, source, null),
                new ItemDestination(DestinationType.FILE, ExistAction.ERROR, "/out/x", null, null));
        return new TransferRequest("6.00", new Originator("h", "u", null), new AgentRef("SRC", "QM1"),
                new AgentRef("DST", "QM1"), null, new TransferSet(0, null, Map.of(), List.of(item)), null);
    }

    @Test
    void queuedTransfersComeBackQueuedAndStartedOnesWithTheirJournalAndIncarnation() throws Exception {
        DocumentWriter writer = new DocumentWriter();
        StateFiles.Plan plan = new StateFiles.Plan(List.of(new StateFiles.Planned(0,
                new SelectedFile(Path.of("/in/a"), "a", 10, 1))), List.of());
        state.saveRequest(A, writer.writeBytes(request("/in/a")), plan);
        state.saveSource(new SourceRecord(A, "DST", 1, 0, 0, null, null));
        state.saveRequest(B, writer.writeBytes(request("/in/a")), plan);
        state.saveSource(new SourceRecord(B, "DST", 1, 3, 40, "REPLY.Q", null));
        ItemOutcome done = new ItemOutcome(0, "/in/a", "/out/x", 10, 0, null, null);
        state.appendSourceResult(B, new StateFiles.Result(done, 0, 0));
        // Accepted and acknowledged, not planned yet when the agent went: it is planned again.
        state.saveRequest(C, writer.writeBytes(request("/in/c")), new StateFiles.Plan(List.of(), List.of()));
        state.saveSource(new SourceRecord(C, "DST", SourceRecord.UNPLANNED, 0, 0, "REPLY.C", "alice"));

        SourceRecovery.Recovered recovered = SourceRecovery.recover(state, clock, new AtomicLong());
        List<QueuedTransfer> back = recovered.queued();
        assertThat(recovered.unplanned()).singleElement().satisfies(p -> {
            assertThat(p.id()).isEqualTo(C);
            assertThat(p.request().transferSet().items().get(0).source().path()).isEqualTo("/in/c");
            assertThat(p.replyQueue()).isEqualTo("REPLY.C");
            assertThat(p.requesterUser()).isEqualTo("alice");
        });

        assertThat(back).extracting(QueuedTransfer::id).containsExactly(A, B);
        assertThat(back.get(0).resume()).as("never started: queued again").isNull();
        assertThat(back.get(0).items()).hasSize(1);
        assertThat(back.get(1).resume().incarnation()).isEqualTo(3);
        assertThat(back.get(1).resume().results().get(0).outcome()).isEqualTo(done);
        assertThat(back.get(1).replyQueue()).isEqualTo("REPLY.Q");
        assertThat(back.get(0).arrival()).isLessThan(back.get(1).arrival());
    }

    @Test
    void aTransferWhoseSavedStateIsUnusableIsAbandonedAndItsStateRemoved() throws Exception {
        state.saveRequest(A, "<not a request".getBytes(), new StateFiles.Plan(List.of(), List.of()));
        state.saveSource(new SourceRecord(A, "DST", 0, 0, 0, null, null));

        assertThat(SourceRecovery.recover(state, clock, new AtomicLong()).queued()).isEmpty();
        assertThat(state.loadSources()).as("BFGTR0092E: abandoned, and its state gone").isEmpty();
    }

    DestinationContext destination() {
        return new DestinationContext(new DestinationSettings("DST", "QM1", false, 25, 1000), AgentListener.NONE,
                new PathResolver(dir, SandboxRules.unrestricted()), state, clock, null, null, RUNNING);
    }

    @Test
    void thePartialFileIsCutBackToTheCheckpointAndTheTransferWaitsForItsSource() throws Exception {
        Path part = dir.resolve("f.part");
        byte[] written = new byte[3000];
        java.util.Arrays.fill(written, (byte) 7);
        Files.write(part, written);
        state.saveDestination(new DestinationRecord(A, "SRC", "QM1", null, 2, 12, 1, 2, 4, 0, 2048,
                new DestinationRecord.Partial(part.toString(), dir.resolve("f").toString(), 0, false,
                        ChecksumMethod.MD5, "/in/f", dir.resolve("f").toString()), null, null));

        List<DestinationTransfer> back = DestinationRecovery.recover(destination());

        assertThat(back).hasSize(1);
        DestinationTransfer t = back.get(0);
        assertThat(t.expectedSeq()).as("the source resumes from the checkpoint").isEqualTo(12);
        assertThat(t.incarnation()).isEqualTo(2);
        assertThat(Files.size(part)).as("cut back to the durable offset").isEqualTo(2048);
        assertThat(t.discardedAtResume()).isEqualTo(3000 - 2048);
    }

    @Test
    void aPartialFileShorterThanItsCheckpointMakesTheItemStartAgain() throws Exception {
        Path part = dir.resolve("f.part");
        Files.write(part, new byte[100]);
        state.saveDestination(new DestinationRecord(A, "SRC", null, null, 1, 12, 1, 2, 4, 0, 2048,
                new DestinationRecord.Partial(part.toString(), dir.resolve("f").toString(), 4, false,
                        ChecksumMethod.NONE, null, null), null, null));

        DestinationTransfer t = DestinationRecovery.recover(destination()).get(0);

        assertThat(t.expectedSeq()).as("from the item's first chunk").isEqualTo(4);
        assertThat(Files.size(part)).as("left for the item's start to replace").isEqualTo(100);
    }

    @Test
    void aFileSpooledForAQueueIsReceivedAgainFromItsStartNeverResumed() throws Exception {
        // A file for a queue is put whole or not at all: its spool (outside any sandbox) is not
        // resumed from the checkpoint, and the repeated put is dropped by duplicate detection.
        Path spool = dir.resolve("spool/" + A + ".0.spool");
        Files.createDirectories(spool.getParent());
        Files.write(spool, new byte[3000]);
        state.saveDestination(new DestinationRecord(A, "SRC", null, null, 1, 12, 1, 2, 4, 0, 2048,
                new DestinationRecord.Partial(spool.toString(), "queue:" + spool, 4, false, ChecksumMethod.MD5,
                        "/in/f", "APP.IN"), null, null));

        DestinationTransfer t = DestinationRecovery.recover(sandboxed(Files.createDirectories(dir.resolve("box"))))
                .get(0);

        assertThat(t.expectedSeq()).as("from the item's first chunk").isEqualTo(4);
        assertThat(t.hasResult(0)).as("not failed by the sandbox").isFalse();
        assertThat(t.discardedAtResume()).isZero();
    }

    @Test
    void anItemRenamedJustBeforeTheCrashIsDoneAndItsResultJournaled() throws Exception {
        Path target = dir.resolve("f");
        Files.write(target, new byte[500]);
        state.appendRename(A, new StateFiles.Rename(0, target.toString(), 500, "aa"));
        state.saveDestination(new DestinationRecord(A, "SRC", null, null, 1, 12, 2, 2, 4, 0, 400,
                new DestinationRecord.Partial(dir.resolve("f.part").toString(), target.toString(), 8, false,
                        ChecksumMethod.SHA_256, "/in/f", target.toString()), null, null));

        DestinationTransfer t = DestinationRecovery.recover(destination()).get(0);

        assertThat(t.hasResult(0)).isTrue();
        ItemOutcome done = state.readDestinationJournal(A).results().get(0).outcome();
        assertThat(done.resultCode()).isEqualTo(ItemOutcome.SUCCESS);
        assertThat(done.checksum()).as("the journaled digest, by the checkpoint's method")
                .isEqualTo(new Checksum(ChecksumMethod.SHA_256, "aa"));
    }

    // ------------------------------------------------------------------------------------------
    // Paths a checkpoint names are judged again

    DestinationContext sandboxed(Path root) {
        return new DestinationContext(new DestinationSettings("DST", "QM1", false, 25, 1000), AgentListener.NONE,
                new PathResolver(dir, SandboxRules.parse(root.toString())), state, clock, null, null, RUNNING);
    }

    @Test
    void aCheckpointRenamingOutsideTheSandboxFailsItsItemAndTouchesNothing() throws Exception {
        Path inside = Files.createDirectories(dir.resolve("in-sandbox"));
        Path part = inside.resolve("f.part");
        Files.write(part, new byte[3000]);
        Path target = Files.writeString(Files.createDirectories(dir.resolve("home/.ssh")).resolve("authorized_keys"),
                "ssh-ed25519 AAAA mine");
        state.saveDestination(new DestinationRecord(A, "SRC", null, null, 1, 12, 1, 2, 4, 0, 2048,
                new DestinationRecord.Partial(part.toString(), target.toString(), 4, true, ChecksumMethod.NONE, "/in/f",
                        null), null, null));
        // A rename journaled for it too: it must not count as done either.
        state.appendRename(A, new StateFiles.Rename(0, target.toString(), Files.size(target), null));

        DestinationTransfer t = DestinationRecovery.recover(sandboxed(inside)).get(0);

        ItemOutcome failed = state.readDestinationJournal(A).results().get(0).outcome();
        assertThat(failed.resultCode()).isEqualTo(ItemOutcome.FAILED);
        assertThat(failed.supplement()).startsWith("BFGSS0021E").contains(target.toString());
        assertThat(t.hasResult(0)).isTrue();
        assertThat(target).hasContent("ssh-ed25519 AAAA mine");
        assertThat(Files.size(part)).as("not even cut back").isEqualTo(3000);
    }

    @Test
    void aPartialFileThatIsNotItsTargetsTemporaryFileFailsItsItem() throws Exception {
        Path victim = Files.write(dir.resolve("victim.db"), new byte[3000]);
        Path target = dir.resolve("out/f");
        state.saveDestination(new DestinationRecord(A, "SRC", null, null, 1, 12, 1, 2, 4, 0, 2048,
                new DestinationRecord.Partial(victim.toString(), target.toString(), 4, true, ChecksumMethod.NONE,
                        "/in/f", null), null, null));

        DestinationRecovery.recover(destination());

        assertThat(state.readDestinationJournal(A).results().get(0).outcome().supplement())
                .contains("not a temporary file");
        assertThat(Files.size(victim)).as("not cut back to the checkpoint").isEqualTo(3000);
    }

    @Test
    void recordsWithIdsThatAreNotTransferIdsAreLeftAlone() throws Exception {
        Path outside = Files.writeString(dir.resolve("x.dst-results"), "keep");
        // A store that hands out whatever its queue holds, as one without id checks would.
        List<DestinationRecord> destinations = List.of(new DestinationRecord(dir.resolve("x").toString(), "SRC", null,
                null, 1, 0, 1, 1, 1, -1, 0, null, null, null));
        List<SourceRecord> sources = List.of(new SourceRecord("' OR mftRole='S", "DST", 1, 0, 0, null, null));
        TransferStateStore unchecked = (TransferStateStore) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {TransferStateStore.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "loadDestinations":
                            return destinations;
                        case "loadSources":
                            return sources;
                        default:
                            throw new AssertionError(method.getName() + " with an id that is not one");
                    }
                });
        DestinationContext context = new DestinationContext(new DestinationSettings("DST", "QM1", false, 25, 1000),
                AgentListener.NONE, new PathResolver(dir, SandboxRules.unrestricted()), unchecked, clock, null, null,
                RUNNING);

        assertThat(DestinationRecovery.recover(context)).isEmpty();
        SourceRecovery.Recovered back = SourceRecovery.recover(unchecked, clock, new AtomicLong());
        assertThat(back.queued()).isEmpty();
        assertThat(back.unplanned()).isEmpty();
        assertThat(outside).hasContent("keep");
    }
}
