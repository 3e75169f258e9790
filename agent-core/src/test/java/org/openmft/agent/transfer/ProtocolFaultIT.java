package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;

/**
 * A real destination agent against a scripted fake source speaking protocol version 1, for the
 * faults a real source does not produce on demand: a corrupted chunk, a gap, duplicates, messages
 * of an old incarnation or another protocol version.
 */
class ProtocolFaultIT {
    @TempDir
    Path dir;
    TransferHarness h;
    Connection connection;
    Session session;
    MessageProducer toDestination;
    MessageConsumer fromDestination;
    final String id = TransferIds.newId("QMT");

    @BeforeEach
    void setUp() throws Exception {
        h = new TransferHarness(dir, false);
        h.agent("DST");
        new ArtemisQueueAdmin(h.connectors.get("DST")).createQueues(List.of(QueueNames.reply("FAKE")));
        connection = h.connectors.get("DST").connect();
        session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        connection.start();
        toDestination = session.createProducer(session.createQueue(QueueNames.data("DST")));
        fromDestination = session.createConsumer(session.createQueue(QueueNames.reply("FAKE")));
        Files.createDirectories(dir.resolve("out"));
    }

    @AfterEach
    void tearDown() throws Exception {
        connection.close();
        h.close();
    }

    Message stamp(Message m, String type, int incarnation) throws Exception {
        m.setIntProperty(Wire.PROTOCOL, Wire.VERSION);
        m.setStringProperty(Wire.TYPE, type);
        m.setStringProperty(Wire.TRANSFER_ID, id);
        m.setIntProperty(Wire.INCARNATION, incarnation);
        return m;
    }

    void start(int items, int incarnation) throws Exception {
        Message m = stamp(session.createMessage(), Wire.START, incarnation);
        m.setStringProperty(Wire.SOURCE_AGENT, "FAKE");
        m.setStringProperty(Wire.DESTINATION_AGENT, "DST");
        m.setIntProperty(Wire.ITEM_COUNT, items);
        m.setIntProperty(Wire.WINDOW, 2);
        m.setIntProperty(Wire.CHECKPOINT_CHUNKS, 4);
        toDestination.send(m);
    }

    void chunk(long seq, int incarnation, long offset, byte[] data, boolean first, boolean last, String md5,
            long itemBytes) throws Exception {
        BytesMessage m = (BytesMessage) stamp(session.createBytesMessage(), Wire.DATA, incarnation);
        m.setLongProperty(Wire.SEQ, seq);
        m.setIntProperty(Wire.ITEM, 0);
        m.setLongProperty(Wire.OFFSET, offset);
        m.setBooleanProperty(Wire.FIRST, first);
        m.setBooleanProperty(Wire.LAST, last);
        if (first) {
            m.setStringProperty(Wire.DEST_PATH, dir.resolve("out/file.bin").toString());
            m.setStringProperty(Wire.DEST_TYPE, "file");
            m.setStringProperty(Wire.RELATIVE_PATH, "file.bin");
            m.setStringProperty(Wire.EXIST, "error");
            m.setStringProperty(Wire.CHECKSUM_METHOD, "MD5");
            m.setStringProperty(Wire.MODE, "binary");
            m.setStringProperty(Wire.SOURCE_PATH, "/fake/file.bin");
        }
        if (last) {
            m.setStringProperty(Wire.MD5, md5);
            m.setLongProperty(Wire.ITEM_BYTES, itemBytes);
        }
        m.writeBytes(data);
        toDestination.send(m);
    }

    /** The next answer of the given type, skipping acknowledgements of other kinds. */
    Message next(String type) throws Exception {
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline) {
            Message m = fromDestination.receive(1000);
            if (m != null && type.equals(m.getStringProperty(Wire.TYPE))) {
                return m;
            }
        }
        throw new AssertionError("no " + type + " from the destination within 20 s");
    }

    static String md5(byte[]... parts) throws Exception {
        MessageDigest d = MessageDigest.getInstance("MD5");
        for (byte[] p : parts) {
            d.update(p);
        }
        return HexFormat.of().formatHex(d.digest());
    }

    @Test
    void aCorruptedChunkIsCaughtByMd5AndNothingGetsTheFinalName() throws Exception {
        start(1, 1);
        assertThat(next(Wire.START_OK).getLongProperty(Wire.NEXT_SEQ)).isZero();
        byte[] sent = "the bytes the source read".getBytes();
        byte[] corrupted = sent.clone();
        corrupted[3] ^= 0x40;
        chunk(0, 1, 0, corrupted, true, true, md5(sent), sent.length);
        Message done = next(Wire.ITEM_DONE);
        assertThat(done.getIntProperty(Wire.RESULT_CODE)).isEqualTo(1);
        assertThat(done.getStringProperty(Wire.SUPPLEMENT)).contains("checksum");
        assertThat(dir.resolve("out/file.bin")).doesNotExist();
        assertThat(dir.resolve("out/file.bin.part")).doesNotExist();
    }

    @Test
    void aGapIsReportedAndDuplicatesAndStaleIncarnationsAreIgnored() throws Exception {
        start(1, 1);
        next(Wire.START_OK);
        byte[] a = new byte[100];
        byte[] b = new byte[100];
        byte[] c = new byte[50];
        java.util.Arrays.fill(a, (byte) 'a');
        java.util.Arrays.fill(b, (byte) 'b');
        java.util.Arrays.fill(c, (byte) 'c');
        String sum = md5(a, b, c);
        chunk(0, 1, 0, a, true, false, null, 0);
        // Chunk 1 is "lost": chunk 2 arrives first.
        chunk(2, 1, 200, c, false, true, sum, 250);
        assertThat(next(Wire.NACK).getLongProperty(Wire.NEXT_SEQ)).isEqualTo(1);
        // A message of an older incarnation, even with the right sequence number, is not written.
        chunk(1, 0, 100, new byte[100], false, false, null, 0);
        // The resend, with a duplicate of chunk 0 first.
        chunk(0, 1, 0, a, true, false, null, 0);
        chunk(1, 1, 100, b, false, false, null, 0);
        chunk(2, 1, 200, c, false, true, sum, 250);
        Message done = next(Wire.ITEM_DONE);
        assertThat(done.getIntProperty(Wire.RESULT_CODE)).as(done.getStringProperty(Wire.SUPPLEMENT)).isZero();
        byte[] written = Files.readAllBytes(dir.resolve("out/file.bin"));
        assertThat(md5(written)).isEqualTo(sum);
        // A resent last chunk is answered with the item's result again.
        chunk(2, 1, 200, c, false, true, sum, 250);
        assertThat(next(Wire.ITEM_DONE).getIntProperty(Wire.RESULT_CODE)).isZero();
    }

    @Test
    void aRestartWithANewIncarnationResumesWhereTheDestinationIs() throws Exception {
        start(1, 1);
        next(Wire.START_OK);
        byte[] a = new byte[10];
        chunk(0, 1, 0, a, true, false, null, 0);
        chunk(1, 1, 10, a, false, false, null, 0);
        // The source resynchronises: the destination says it has chunks 0 and 1.
        start(1, 2);
        assertThat(next(Wire.START_OK).getLongProperty(Wire.NEXT_SEQ)).isEqualTo(2);
        chunk(2, 2, 20, a, false, true, md5(a, a, a), 30);
        assertThat(next(Wire.ITEM_DONE).getIntProperty(Wire.RESULT_CODE)).isZero();
        assertThat(Files.size(dir.resolve("out/file.bin"))).isEqualTo(30);
    }

    @Test
    void aLateStartOfAnOlderIncarnationIsIgnoredAndAnAckRequestIsAnsweredWithWhatIsThere() throws Exception {
        start(1, 1);
        next(Wire.START_OK);
        byte[] a = new byte[10];
        chunk(0, 1, 0, a, true, false, null, 0);
        chunk(1, 1, 10, a, false, false, null, 0);
        start(1, 3);
        assertThat(next(Wire.START_OK).getIntProperty(Wire.INCARNATION)).isEqualTo(3);
        // A START from before the resynchronisation arrives late: it must not take the transfer back.
        start(1, 2);
        // The source asks where the destination is, having sent chunks 0 to 3: chunks 2 and 3 are missing.
        Message ask = stamp(session.createMessage(), Wire.ACK_REQUEST, 3);
        ask.setLongProperty(Wire.NEXT_SEQ, 4);
        toDestination.send(ask);
        Message nack = next(Wire.NACK);
        assertThat(nack.getIntProperty(Wire.INCARNATION)).as("still the newest incarnation").isEqualTo(3);
        assertThat(nack.getLongProperty(Wire.NEXT_SEQ)).isEqualTo(2);
        // Everything there: the answer is an acknowledgement of it all.
        ask = stamp(session.createMessage(), Wire.ACK_REQUEST, 3);
        ask.setLongProperty(Wire.NEXT_SEQ, 2);
        toDestination.send(ask);
        assertThat(next(Wire.ACK).getLongProperty(Wire.SEQ)).isEqualTo(1);
        chunk(2, 3, 20, a, false, true, md5(a, a, a), 30);
        assertThat(next(Wire.ITEM_DONE).getIntProperty(Wire.RESULT_CODE)).isZero();
        assertThat(Files.size(dir.resolve("out/file.bin"))).isEqualTo(30);
    }

    @Test
    void messagesOfAnotherProtocolVersionAreDroppedAndTheAgentKeepsServing() throws Exception {
        Message alien = session.createMessage();
        alien.setIntProperty(Wire.PROTOCOL, 99);
        alien.setStringProperty(Wire.TYPE, Wire.START);
        toDestination.send(alien);
        toDestination.send(session.createTextMessage("not a protocol message at all"));
        start(1, 1);
        assertThat(next(Wire.START_OK).getStringProperty(Wire.TRANSFER_ID)).isEqualTo(id);
    }
}
