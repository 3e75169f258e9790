package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

import jakarta.jms.Message;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openmft.agent.transfer.protocol.Wire;

/**
 * A real destination agent against a {@link ScriptedPeer} playing the source, for the faults a
 * real source does not produce on demand: a corrupted chunk, a gap, duplicates, messages of an old
 * incarnation or another protocol version.
 */
class ProtocolFaultIT {
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

    static String md5(byte[]... parts) throws Exception {
        return digest("MD5", parts);
    }

    static String sha256(byte[]... parts) throws Exception {
        return digest("SHA-256", parts);
    }

    /** The hex digest of the parts by {@code algorithm}, which the JDK names as the protocol does. */
    static String digest(String algorithm, byte[]... parts) throws Exception {
        MessageDigest d = MessageDigest.getInstance(algorithm);
        for (byte[] p : parts) {
            d.update(p);
        }
        return HexFormat.of().formatHex(d.digest());
    }

    /**
     * Plays a source that sends one item in one chunk, naming {@code method} and sending {@code checksum}
     * as its digest.
     *
     * @return the destination's ITEM_DONE
     */
    private Message oneChunkItem(String method, byte[] body, String checksum) throws Exception {
        source.checksumMethod(method).start(1, 1);
        assertThat(source.expect(Wire.START_OK).getLongProperty(Wire.NEXT_SEQ)).isZero();
        source.chunk(0, 1, 0, body, true, true, checksum, body.length, out);
        return source.expect(Wire.ITEM_DONE);
    }

    /** The item failed, and neither its file nor its partial file is there. */
    private void failedLeavingNothing(Message done) throws Exception {
        assertThat(done.getIntProperty(Wire.RESULT_CODE)).isEqualTo(1);
        assertThat(done.propertyExists(Wire.CHECKSUM)).as("a failed item has no checksum").isFalse();
        assertThat(dir.resolve("out/file.bin")).doesNotExist();
        assertThat(dir.resolve("out/file.bin.part")).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"MD5", "SHA-256"})
    void aCorruptedChunkIsCaughtByTheItemsChecksumAndNothingGetsTheFinalName(String method) throws Exception {
        byte[] sent = "the bytes the source read".getBytes();
        byte[] corrupted = sent.clone();
        corrupted[3] ^= 0x40;
        Message done = oneChunkItem(method, corrupted, digest(method, sent));
        failedLeavingNothing(done);
        assertThat(done.getStringProperty(Wire.SUPPLEMENT)).startsWith("BFGTR0062E: The checksum of").contains("("
                + method + " " + digest(method, corrupted) + " at the destination, " + digest(method, sent)
                + " at the source)");
    }

    @Test
    void anItemNamingSha256IsNotPassedByAnMd5OfTheRightBytes() throws Exception {
        byte[] sent = "the bytes the source read".getBytes();
        Message done = oneChunkItem("SHA-256", sent, md5(sent));
        failedLeavingNothing(done);
        assertThat(done.getStringProperty(Wire.SUPPLEMENT)).startsWith("BFGTR0062E").contains("SHA-256");
    }

    @Test
    void aChecksumMethodTheDestinationDoesNotKnowFailsTheItem() throws Exception {
        byte[] sent = "the bytes the source read".getBytes();
        Message done = oneChunkItem("SHA-1", sent, "a9993e364706816aba3e25717850c26c9cd0d89d");
        failedLeavingNothing(done);
        assertThat(done.getStringProperty(Wire.SUPPLEMENT)).startsWith("BFGTR0003E").contains("\"SHA-1\"");
    }

    @Test
    void aSha256ItemIsVerifiedAndItsDigestAnswered() throws Exception {
        source.checksumMethod("sha256").start(1, 1);
        source.expect(Wire.START_OK);
        byte[] a = "first chunk ".getBytes();
        byte[] b = "and the last".getBytes();
        source.chunk(0, 1, 0, a, true, false, null, 0, out);
        source.chunk(1, 1, a.length, b, false, true, sha256(a, b).toUpperCase(java.util.Locale.ROOT),
                a.length + b.length, out);
        Message done = source.expect(Wire.ITEM_DONE);
        assertThat(done.getIntProperty(Wire.RESULT_CODE)).as(done.getStringProperty(Wire.SUPPLEMENT)).isZero();
        assertThat(done.getStringProperty(Wire.CHECKSUM)).isEqualTo(sha256(a, b));
        assertThat(Files.readString(dir.resolve("out/file.bin"))).isEqualTo("first chunk and the last");
    }

    @Test
    void aGapIsReportedAndDuplicatesAndStaleIncarnationsAreIgnored() throws Exception {
        source.start(1, 1);
        source.expect(Wire.START_OK);
        byte[] a = new byte[100];
        byte[] b = new byte[100];
        byte[] c = new byte[50];
        java.util.Arrays.fill(a, (byte) 'a');
        java.util.Arrays.fill(b, (byte) 'b');
        java.util.Arrays.fill(c, (byte) 'c');
        String sum = md5(a, b, c);
        source.chunk(0, 1, 0, a, true, false, null, 0, out);
        // Chunk 1 is "lost": chunk 2 arrives first.
        source.chunk(2, 1, 200, c, false, true, sum, 250, out);
        assertThat(source.expect(Wire.NACK).getLongProperty(Wire.NEXT_SEQ)).isEqualTo(1);
        // A message of an older incarnation, even with the right sequence number, is not written.
        source.chunk(1, 0, 100, new byte[100], false, false, null, 0, out);
        // The resend, with a duplicate of chunk 0 first.
        source.chunk(0, 1, 0, a, true, false, null, 0, out).duplicateLast();
        source.chunk(1, 1, 100, b, false, false, null, 0, out);
        source.chunk(2, 1, 200, c, false, true, sum, 250, out);
        Message done = source.expect(Wire.ITEM_DONE);
        assertThat(done.getIntProperty(Wire.RESULT_CODE)).as(done.getStringProperty(Wire.SUPPLEMENT)).isZero();
        byte[] written = Files.readAllBytes(dir.resolve("out/file.bin"));
        assertThat(md5(written)).isEqualTo(sum);
        // A resent last chunk is answered with the item's result again.
        source.duplicateLast();
        assertThat(source.expect(Wire.ITEM_DONE).getIntProperty(Wire.RESULT_CODE)).isZero();
    }

    @Test
    void aRestartWithANewIncarnationResumesWhereTheDestinationIs() throws Exception {
        source.start(1, 1);
        source.expect(Wire.START_OK);
        byte[] a = new byte[10];
        source.chunk(0, 1, 0, a, true, false, null, 0, out);
        source.chunk(1, 1, 10, a, false, false, null, 0, out);
        // The source resynchronises: the destination says it has chunks 0 and 1.
        source.start(1, 2);
        assertThat(source.expectMatching(Wire.START_OK, ScriptedPeer.where(Wire.INCARNATION, 2))
                .getLongProperty(Wire.NEXT_SEQ)).isEqualTo(2);
        source.chunk(2, 2, 20, a, false, true, md5(a, a, a), 30, out);
        assertThat(source.expect(Wire.ITEM_DONE).getIntProperty(Wire.RESULT_CODE)).isZero();
        assertThat(Files.size(dir.resolve("out/file.bin"))).isEqualTo(30);
    }

    @Test
    void aLateStartOfAnOlderIncarnationIsIgnoredAndAnAckRequestIsAnsweredWithWhatIsThere() throws Exception {
        source.start(1, 1);
        source.expect(Wire.START_OK);
        byte[] a = new byte[10];
        source.chunk(0, 1, 0, a, true, false, null, 0, out);
        source.chunk(1, 1, 10, a, false, false, null, 0, out);
        source.start(1, 3);
        assertThat(source.expectMatching(Wire.START_OK, ScriptedPeer.where(Wire.INCARNATION, 3))).isNotNull();
        // A START from before the resynchronisation arrives late: it must not take the transfer back.
        source.start(1, 2);
        // The source asks where the destination is, having sent chunks 0 to 3: chunks 2 and 3 are missing.
        source.ackRequest(3, 4);
        Message nack = source.expect(Wire.NACK);
        assertThat(nack.getIntProperty(Wire.INCARNATION)).as("still the newest incarnation").isEqualTo(3);
        assertThat(nack.getLongProperty(Wire.NEXT_SEQ)).isEqualTo(2);
        // Everything there: the answer is an acknowledgement of it all.
        source.ackRequest(3, 2);
        assertThat(source.expect(Wire.ACK).getLongProperty(Wire.SEQ)).isEqualTo(1);
        source.chunk(2, 3, 20, a, false, true, md5(a, a, a), 30, out);
        assertThat(source.expect(Wire.ITEM_DONE).getIntProperty(Wire.RESULT_CODE)).isZero();
        assertThat(Files.size(dir.resolve("out/file.bin"))).isEqualTo(30);
    }

    /**
     * An ITEM_DONE is not persistent: the queue manager may refuse or drop it, and the source, which
     * has sent everything, hears nothing more. Its ACK_REQUEST names the first item it has no result
     * for, and the destination, whose transfer has ended, sends that item's result again.
     */
    @Test
    void aLostItemDoneIsSentAgainWhenTheSourceAsksForTheResultsItLacks() throws Exception {
        byte[] body = "one item in one chunk".getBytes();
        Message lost = oneChunkItem("MD5", body, md5(body));
        assertThat(lost.getIntProperty(Wire.RESULT_CODE)).as(lost.getStringProperty(Wire.SUPPLEMENT)).isZero();
        // The script took the ITEM_DONE and acts as if it never came: it asks, naming item 0 as open.
        source.ackRequest(1, 1, 0);
        assertThat(source.expect(Wire.ACK).getLongProperty(Wire.SEQ)).isZero();
        Message again = source.expect(Wire.ITEM_DONE);
        assertThat(again.getIntProperty(Wire.ITEM)).isZero();
        assertThat(again.getIntProperty(Wire.RESULT_CODE)).isZero();
        assertThat(again.getStringProperty(Wire.CHECKSUM)).isEqualTo(lost.getStringProperty(Wire.CHECKSUM))
                .isEqualTo(md5(body));
        assertThat(again.getLongProperty(Wire.SEQ)).isEqualTo(lost.getLongProperty(Wire.SEQ));
        assertThat(Files.readAllBytes(dir.resolve("out/file.bin"))).isEqualTo(body);
    }

    @Test
    void messagesOfAnotherProtocolVersionAreDroppedAndTheAgentKeepsServing() throws Exception {
        Message alien = source.session().createMessage();
        alien.setIntProperty(Wire.PROTOCOL, 99);
        alien.setStringProperty(Wire.TYPE, Wire.START);
        source.send(alien);
        source.send(source.session().createTextMessage("not a protocol message at all"));
        source.start(1, 1);
        assertThat(source.expect(Wire.START_OK).getStringProperty(Wire.TRANSFER_ID)).isEqualTo(source.id);
    }

    @Test
    void aSourceThatDiesLeavesTheDestinationServingOthers() throws Exception {
        source.start(1, 1);
        source.expect(Wire.START_OK);
        source.chunk(0, 1, 0, new byte[10], true, false, null, 0, out);
        source.die();
        try (ScriptedPeer other = ScriptedPeer.source(h.peer("FAKE2"), "FAKE2", "DST")) {
            byte[] data = "another transfer".getBytes();
            String second = dir.resolve("out/second.bin").toString();
            other.start(1, 1);
            other.expect(Wire.START_OK);
            other.chunk(0, 1, 0, data, true, true, md5(data), data.length, second);
            assertThat(other.expect(Wire.ITEM_DONE).getIntProperty(Wire.RESULT_CODE)).isZero();
            assertThat(Files.readAllBytes(Path.of(second))).isEqualTo(data);
        }
        assertThat(dir.resolve("out/file.bin")).as("the dead source's item never got its final name")
                .doesNotExist();
    }
}
