package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.agent.transfer.ProtocolFaultIT.md5;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.protocol.ItemHeader;
import org.openmft.agent.transfer.protocol.MessageTag;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.Start;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.agent.transfer.state.StateTag;
import org.openmft.xml.Reply;

/**
 * The agent-to-agent protocol against an attacker: a scripted peer on the real queue manager sends
 * what a third party could put on an agent's DATA or REPLY queue (messages tagged with another key
 * than the transfer's, a START for a running transfer with another key, transfer ids with path and
 * quote characters) and what a faulty source could (a chunk at the wrong offset, a damaged chunk).
 * Each is dropped (or fails its item) before it changes anything, reported to the listener, and
 * nothing is written, renamed or deleted that the real transfer did not ask for.
 */
class ForgedMessageIT {
    @TempDir
    Path dir;
    TransferHarness h;
    ScriptedPeer source;
    String out;

    @BeforeEach
    void setUp() throws Exception {
        h = new TransferHarness(dir, false);
        h.agent("DST");
        source = ScriptedPeer.source(h.peer("FAKE"), "FAKE", "DST");
        Files.createDirectories(dir.resolve("out"));
        out = dir.resolve("out/file.bin").toString();
    }

    @AfterEach
    void tearDown() throws Exception {
        source.close();
        h.close();
    }

    private static ItemHeader header(String destination, long bytes) {
        return new ItemHeader(destination, "file", "file.bin", "error", "MD5", "binary", "/fake/file.bin", bytes);
    }

    private void awaitRejection(String reason) throws InterruptedException {
        TransferHarness.await("a dropped message: " + reason, 20, () -> h.protocolRejections.stream()
                .anyMatch(r -> r.reason().contains(reason)));
    }

    @Test
    void chunksAndCancelsTaggedWithAnotherKeyAreDroppedAndTheTransferGoesOn() throws Exception {
        source.start(1, 1);
        source.expect(Wire.START_OK);
        byte[] real = "the payroll as the source read it".getBytes();
        ProtocolCodec forger = source.forger();
        byte[] evil = "attacker's bytes, same length as it".getBytes();
        source.send(forger.data(source.id, 1, 0, 0, 0, true, true, header(out, evil.length), evil.length, md5(evil),
                evil, evil.length));
        source.send(forger.control(Wire.CANCEL, source.id, 1, "cancelled by nobody"));
        TransferHarness.await("both forged messages dropped", 20, () -> h.protocolRejections.size() == 2);
        assertThat(h.protocolRejections).extracting(TransferHarness.ProtocolRejection::type)
                .containsExactlyInAnyOrder(Wire.DATA, Wire.CANCEL);
        assertThat(h.protocolRejections).allSatisfy(r -> assertThat(r.reason())
                .contains("does not come from the transfer's source agent"));
        assertThat(h.protocolRejections).allSatisfy(r -> assertThat(r.transferId()).isEqualTo(source.id));
        assertThat(dir.resolve("out")).isEmptyDirectory();

        source.chunk(0, 1, 0, real, true, true, md5(real), real.length, out);
        Message done = source.expect(Wire.ITEM_DONE);
        assertThat(done.getIntProperty(Wire.RESULT_CODE)).as(done.getStringProperty(Wire.SUPPLEMENT)).isZero();
        assertThat(Files.readAllBytes(Path.of(out))).isEqualTo(real);
    }

    @Test
    void aStartForARunningTransferWithAnotherKeyCannotTakeItOver() throws Exception {
        source.start(1, 1);
        source.expect(Wire.START_OK);
        byte[] a = new byte[10];
        source.chunk(0, 1, 0, a, true, false, null, 0, out);
        // A third party that read the id on the progress topic "resynchronises" the transfer.
        source.send(source.forger().start(new Start(source.id, 5, "FAKE", "QMT", "DST", 1, 2, 4, "tester", null,
                null, 0, false)));
        awaitRejection("another key");
        source.chunk(1, 1, 10, a, false, true, md5(a, a), 20, out);
        Message done = source.expect(Wire.ITEM_DONE);
        assertThat(done.getIntProperty(Wire.INCARNATION)).as("the incarnation is still the source's").isEqualTo(1);
        assertThat(done.getIntProperty(Wire.RESULT_CODE)).isZero();
    }

    @Test
    void aChunkAtAnotherOffsetFailsItsItemAndWritesNothing() throws Exception {
        source.start(1, 1);
        source.expect(Wire.START_OK);
        byte[] a = new byte[100];
        source.chunk(0, 1, 0, a, true, false, null, 0, out);
        // Chunk 1 claims offset 1 GiB: a sparse file of any size, or data written anywhere.
        source.chunk(1, 1, 1L << 30, a, false, true, md5(a, a), 200, out);
        Message done = source.expect(Wire.ITEM_DONE);
        assertThat(done.getIntProperty(Wire.RESULT_CODE)).isEqualTo(ItemOutcome.FAILED);
        assertThat(done.getStringProperty(Wire.SUPPLEMENT)).startsWith("BFGTR0003E")
                .contains("offset " + (1L << 30)).contains("100 bytes");
        assertThat(dir.resolve("out")).isEmptyDirectory();
    }

    @Test
    void aDamagedChunkIsDroppedAndAskedForAgainAtOnce() throws Exception {
        source.start(1, 1);
        source.expect(Wire.START_OK);
        byte[] real = "sixteen bytes ok".getBytes();
        // A chunk whose body no longer matches its CRC32C, tagged correctly (damage, not forgery).
        BytesMessage damaged = source.codec().data(source.id, 1, 0, 0, 0, true, true, header(out, real.length),
                real.length, md5(real), real, real.length);
        damaged.setLongProperty(Wire.CRC32C, damaged.getLongProperty(Wire.CRC32C) ^ 1);
        MessageTag.seal(damaged, source.key());
        source.send(damaged);
        assertThat(source.expect(Wire.NACK).getLongProperty(Wire.NEXT_SEQ)).isZero();
        awaitRejection("CRC32C");
        assertThat(dir.resolve("out")).isEmptyDirectory();

        source.chunk(0, 1, 0, real, true, true, md5(real), real.length, out);
        assertThat(source.expect(Wire.ITEM_DONE).getIntProperty(Wire.RESULT_CODE)).isZero();
        assertThat(Files.readAllBytes(Path.of(out))).isEqualTo(real);
    }

    @Test
    void transferIdsWithPathAndQuoteCharactersNeverReachAFileOrSelector() throws Exception {
        Path stateDirectory = dir.resolve("state-DST");
        List<String> hostile = List.of("../../../../tmp/x", "' OR mftRole='S", dir.resolve("victim").toString(),
                "0123456789abcdef0123456789abcdef0123456789abcdeF", "a".repeat(49));
        Files.writeString(dir.resolve("victim.dst-results"), "must survive");
        for (String id : hostile) {
            Message start = source.codec().start(new Start(id, 1, "FAKE", "QMT", "DST", 1, 2, 4, "tester", null,
                    null, -1, false));
            source.send(start);
        }
        TransferHarness.await("every hostile START dropped", 20, () -> h.protocolRejections.stream()
                .filter(r -> r.reason().contains("not a transfer id")).count() == hostile.size());
        assertThat(h.protocolRejections).extracting(TransferHarness.ProtocolRejection::transferId)
                .containsExactlyInAnyOrderElementsOf(hostile);
        assertThat(dir.resolve("victim.dst-results")).hasContent("must survive");
        try (Stream<Path> files = Files.list(stateDirectory)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("the agent's state directory")
                    .allMatch(name -> name.startsWith(StateTag.KEY_FILE) || name.matches("[0-9a-f]{48}\\..*"));
        }
        // The agent still serves its real sources.
        source.start(1, 1);
        assertThat(source.expect(Wire.START_OK).getStringProperty(Wire.TRANSFER_ID)).isEqualTo(source.id);
    }

    /**
     * A source that goes silent for good (or a START nobody follows) does not hold the destination's
     * slot, partial file and record for ever: past {@code openmft.sourceSilenceTimeout} the
     * destination ends the transfer with 69 and removes them.
     */
    @Test
    void aTransferWhoseSourceFellSilentIsEndedAtTheDestinationAndItsPartialFileRemoved() throws Exception {
        h.agent("QUIET", Map.of("openmft.sourceSilenceTimeout", "2"));
        String part = dir.resolve("out/quiet.bin").toString();
        try (ScriptedPeer gone = ScriptedPeer.source(h.peer("GONE"), "GONE", "QUIET")) {
            gone.start(1, 1);
            gone.expect(Wire.START_OK);
            gone.chunk(0, 1, 0, new byte[100], true, false, null, 0, part);
            TransferHarness.await("the partial file", 20, () -> Files.exists(Path.of(part + ".part")));
            gone.die();
            TransferHarness.await("the destination to end the silent transfer", 30, () -> h.destinationOutcomes
                    .stream().anyMatch(o -> o.transferId().equals(gone.id)));
            var outcome = h.destinationOutcomes.stream().filter(o -> o.transferId().equals(gone.id)).findFirst()
                    .orElseThrow();
            assertThat(outcome.resultCode()).isEqualTo(69);
            assertThat(outcome.supplement()).startsWith("BFGTR0096E").contains("openmft.sourceSilenceTimeout");
            assertThat(Path.of(part + ".part")).doesNotExist();
            TransferHarness.awaitNoTransferState("the destination forgot the silent transfer",
                    dir.resolve("state-QUIET"));
        }
    }

    /**
     * The other direction: a third party puts on the real source's REPLY queue an ITEM_DONE with
     * result 0 for an item whose disposition is delete. It is dropped: the source is not deleted
     * and the transfer is not reported successful; the real destination's answers still count, and
     * an answer of an older incarnation is not taken.
     */
    @Test
    void aForgedItemDoneNeverDeletesTheSourceNorEndsTheTransfer() throws Exception {
        h.agent("SRC");
        Path src = TransferHarness.randomFile(dir.resolve("in/pay.bin"), 3000, 7);
        try (ScriptedPeer fake = ScriptedPeer.destination(h.peer("FAKE2"), "FAKE2", "SRC");
                TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "FAKE2", 0,
                        EdgeFaultIT.move(src, Path.of("/fake/pay.bin"))))) {
            Message start = fake.acceptStart();
            String id = start.getStringProperty(Wire.TRANSFER_ID);
            int incarnation = start.getIntProperty(Wire.INCARNATION);
            Message last = fake.expectMatching(Wire.DATA, ScriptedPeer.where(Wire.LAST, true));
            int item = last.getIntProperty(Wire.ITEM);
            long seq = last.getLongProperty(Wire.SEQ);
            fake.send(fake.forger().itemDone(id, incarnation, item, seq,
                    new ItemOutcome(0, null, "/fake/pay.bin", 3000, ItemOutcome.SUCCESS, null, null)));
            awaitRejection("does not come from the transfer's destination agent");
            assertThat(src).as("the source after a forged ITEM_DONE").exists();
            // The right key, but sent by another user than the destination's: not taken either.
            try (ScriptedPeer other = ScriptedPeer.destination(h.peer("OTHER"), "OTHER", "SRC")) {
                other.withKey(fake.key()).send(other.codec().itemDone(id, incarnation, item, seq,
                        new ItemOutcome(0, null, "/fake/pay.bin", 3000, ItemOutcome.SUCCESS, null, null)));
            }
            awaitRejection("the transfer's destination answered as user FAKE2");
            assertThat(src).as("the source after an ITEM_DONE from another user").exists();
            // The right key but an older incarnation: a late (or replayed) answer is not taken either.
            fake.send(fake.codec().itemDone(id, incarnation - 1, item, seq,
                    new ItemOutcome(0, null, "/fake/pay.bin", 3000, ItemOutcome.SUCCESS, null, null)));
            fake.send(fake.codec().itemDone(id, incarnation, item, seq,
                    new ItemOutcome(0, null, "/fake/pay.bin", 3000, ItemOutcome.FAILED, "BFGTR0062E: refused", null)));
            fake.expect(Wire.COMPLETE_ACK);
            Reply r = s.awaitFinal(30);
            assertThat(r.resultCode()).as("the real destination's answer counts").isEqualTo(40);
        }
        assertThat(src).as("the source of a failed item").exists();
    }
}
