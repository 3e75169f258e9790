package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.Session;
import javax.jms.TextMessage;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.transfer.queue.QueueOptions;
import org.openmft.agent.transfer.queue.QueueWriter;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.Disposition;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.QueueDestination;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;

/**
 * File to message between two in-JVM agents on one embedded queue manager: files split by length
 * and by delimiter into groups with IBM's properties and the asked persistence, all of a file or
 * nothing on the queue; refusals (the destination's {@code enableQueueInputOutput} off: 56; an
 * agent's own queue; a queue that does not exist).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueueTransferIT {
    @TempDir
    static Path dir;
    TransferHarness h;
    Connection admin;
    Session session;

    @BeforeAll
    void start() throws Exception {
        h = new TransferHarness(dir, false);
        h.agent("SRC", Map.of("agentChunkSize", "1024"));
        h.agent("DST", Map.of("enableQueueInputOutput", "true"));
        h.agent("OFF");
        admin = h.admin.connect();
        session = admin.createSession(false, Session.AUTO_ACKNOWLEDGE);
        for (String q : List.of("APP.SIZE", "APP.LINES", "APP.OFF", "APP.AGAIN", "APP.EVEN", "APP.ODD")) {
            session.createConsumer(session.createQueue(q)).close(); // makes the application queue
        }
        admin.start();
    }

    @AfterAll
    void stop() throws Exception {
        admin.close();
        h.close();
    }

    private static TransferItem toQueue(Path source, Mode mode, QueueDestination q) {
        return new TransferItem(mode, ChecksumMethod.MD5, new ItemSource(false, Disposition.LEAVE, source.toString(),
                null), new ItemDestination(q, null));
    }

    private List<Message> drain(String queue, int expected) throws Exception {
        List<Message> out = new ArrayList<>();
        try (MessageConsumer c = session.createConsumer(session.createQueue(queue))) {
            for (int i = 0; i < expected; i++) {
                Message m = c.receive(10_000);
                assertThat(m).as("message %d of %d on %s", i + 1, expected, queue).isNotNull();
                out.add(m);
            }
            assertThat(c.receive(200)).as("no more messages on %s", queue).isNull();
        }
        return out;
    }

    @Test
    void aFileSplitByLengthArrivesAsOneGroupWithIbmsPropertiesOnTheFirst() throws Exception {
        Path src = TransferHarness.randomFile(dir.resolve("in/batch.dat"), 2 * 1024 + 500, 7);
        QueueDestination q = QueueDestination.of("APP.SIZE", Map.of("messageLength", "1024", "setMqProps", "true",
                "persistent", "false"));
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, toQueue(src, Mode.BINARY, q)), 60);
        assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        assertThat(r.items().get(0).destination()).isEqualTo("APP.SIZE");

        List<Message> messages = drain("APP.SIZE", 3);
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        String group = messages.get(0).getStringProperty("JMSXGroupID");
        assertThat(group).startsWith("ID:");
        for (int i = 0; i < 3; i++) {
            Message m = messages.get(i);
            assertThat(m.getStringProperty("JMSXGroupID")).isEqualTo(group);
            assertThat(m.getIntProperty("JMSXGroupSeq")).isEqualTo(i + 1);
            assertThat(m.propertyExists(QueueWriter.LAST_IN_GROUP)).isEqualTo(i == 2);
            assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
            byte[] body = new byte[(int) ((BytesMessage) m).getBodyLength()];
            ((BytesMessage) m).readBytes(body);
            assertThat(body.length).isEqualTo(i < 2 ? 1024 : 500);
            whole.write(body);
        }
        assertThat(whole.toByteArray()).isEqualTo(Files.readAllBytes(src));
        Message first = messages.get(0);
        assertThat(first.getStringProperty("WMQFTETransferId")).isEqualTo(r.requestId());
        assertThat(first.getStringProperty("WMQFTESourceAgent")).isEqualTo("SRC");
        assertThat(first.getStringProperty("WMQFTEDestinationAgent")).isEqualTo("DST");
        assertThat(first.getStringProperty("WMQFTEFileName")).isEqualTo(src.toString());
        assertThat(first.getLongProperty("WMQFTEFileSize")).isEqualTo(2 * 1024 + 500);
        assertThat(first.getLongProperty("WMQFTEFileLastModified")).isEqualTo(Files.getLastModifiedTime(src)
                .toMillis());
        assertThat(first.getIntProperty("WMQFTEFileIndex")).isZero();
        assertThat(messages.get(1).propertyExists("WMQFTETransferId")).isFalse();
        try (var spool = Files.list(dir.resolve("state-DST"))) {
            assertThat(spool.map(Path::toString)).noneMatch(n -> n.endsWith(".spool"));
        }
    }

    @Test
    void aTextFileSplitAtARegularExpressionGivesPersistentTextMessages() throws Exception {
        Path src = dir.resolve("in/lines.txt");
        Files.createDirectories(src.getParent());
        Files.writeString(src, "alpha\nbeta\r\ngamma\n", StandardCharsets.UTF_8);
        QueueDestination q = QueueDestination.of("APP.LINES", Map.of("delimiter", "\\r?\\n", "delimiterType", "text"));
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, toQueue(src, Mode.BINARY, q)), 60);
        assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        List<Message> messages = drain("APP.LINES", 3);
        List<String> bodies = new ArrayList<>();
        for (Message m : messages) {
            byte[] body = new byte[(int) ((BytesMessage) m).getBodyLength()];
            ((BytesMessage) m).readBytes(body);
            bodies.add(new String(body, StandardCharsets.UTF_8));
            assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
        }
        assertThat(bodies).containsExactly("alpha", "beta", "gamma");

        // A text-mode item becomes text messages.
        Reply t = h.transfer(TransferHarness.request("SRC", "DST", 0, toQueue(src, Mode.TEXT, q)), 60);
        assertThat(t.resultCode()).as("%s", TransferHarness.failedSupplements(t)).isZero();
        List<Message> text = drain("APP.LINES", 3);
        assertThat(((TextMessage) text.get(2)).getText()).isEqualTo("gamma");
    }

    @Test
    void aDestinationWithoutEnableQueueInputOutputRefusesWith56AndPutsNothing() throws Exception {
        Path src = TransferHarness.randomFile(dir.resolve("in/off.dat"), 100, 3);
        Reply r = h.transfer(TransferHarness.request("SRC", "OFF", 0, toQueue(src, Mode.BINARY,
                QueueDestination.of("APP.OFF", Map.of()))), 60);
        assertThat(r.resultCode()).isEqualTo(56);
        assertThat(String.join(" ", r.supplements()) + TransferHarness.failedSupplements(r))
                .contains("enableQueueInputOutput");
        drain("APP.OFF", 0);
    }

    @Test
    void anAgentsOwnQueueAndAnUnknownQueueFailTheirItemsAndTheAgentGoesOn() throws Exception {
        Path src = TransferHarness.randomFile(dir.resolve("in/bad.dat"), 100, 4);
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                toQueue(src, Mode.BINARY, QueueDestination.of("SYSTEM.FTE.COMMAND.DST", Map.of())),
                toQueue(src, Mode.BINARY, QueueDestination.of("NO.SUCH.QUEUE", Map.of()))), 60);
        assertThat(r.resultCode()).isEqualTo(40);
        assertThat(TransferHarness.failedSupplements(r)).anySatisfy(s -> assertThat(s).contains("BFGTR0076E"))
                .anySatisfy(s -> assertThat(s).contains("BFGTR0074E", "NO.SUCH.QUEUE"));
        // The agent still writes to queues.
        Reply ok = h.transfer(TransferHarness.request("SRC", "DST", 0,
                toQueue(src, Mode.BINARY, QueueDestination.of("APP.OFF", Map.of()))), 60);
        assertThat(ok.resultCode()).as("%s", TransferHarness.failedSupplements(ok)).isZero();
        drain("APP.OFF", 1);
    }

    @Test
    void theSamePutAgainAfterARestartIsDroppedWhole() throws Exception {
        Path spool = dir.resolve("again/item.spool");
        Files.createDirectories(spool.getParent());
        Files.writeString(spool, "abc");
        try (Connection c = h.admin.connect()) {
            QueueWriter w = new QueueWriter(true, 1 << 20, 5, spool.getParent(),
                    () -> c.createSession(true, Session.SESSION_TRANSACTED), h.admin::queueExists,
                    new Routing(MessagingProvider.ARTEMIS, "QMT"), true);
            QueueOptions o = new QueueOptions(QueueDestination.of("APP.AGAIN", Map.of("messageLength", "1")), null, -1);
            var info = new QueueWriter.PutInfo("414d5120514d5420202020202020202000000000000000ab", 0, "binary", "SRC",
                    "DST", "/in/item", 3, null);
            assertThat(w.put(spool, o, info)).isEqualTo(new QueueWriter.Put(3, false));
            assertThat(w.put(spool, o, info).repeated()).as("the second put of the same item").isTrue();
        }
        assertThat(drain("APP.AGAIN", 3)).hasSize(3);
    }

    @Test
    void oneWriterPutsItemAfterItemOnTheirOwnQueuesAndStillDropsARepeat() throws Exception {
        // The writer keeps its session, producer and destinations from put to put: each item still
        // goes to its own queue with its own persistence, and a repeat is still dropped whole.
        Path spool = dir.resolve("many/item.spool");
        Files.createDirectories(spool.getParent());
        Files.writeString(spool, "abcd");
        String id = "414d5120514d5420202020202020202000000000000000cd";
        try (Connection c = h.admin.connect()) {
            QueueWriter w = new QueueWriter(true, 1 << 20, 5, spool.getParent(),
                    () -> c.createSession(true, Session.SESSION_TRANSACTED), h.admin::queueExists,
                    new Routing(MessagingProvider.ARTEMIS, "QMT"), true);
            for (int item = 0; item <= 6; item++) {
                if (item == 6) {
                    assertThat(put(w, spool, id, 0).repeated()).as("item 0 again").isTrue();
                }
                assertThat(put(w, spool, id, item)).as("item %d", item).isEqualTo(new QueueWriter.Put(1, false));
            }
        }
        List<Message> even = drain("APP.EVEN", 4);
        for (int i = 0; i < 4; i++) {
            Message m = even.get(i);
            assertThat(m.getStringProperty("_AMQ_DUPL_ID")).isEqualTo("openmft:" + id + ":" + 2 * i);
            assertThat(m.getJMSDeliveryMode()).isEqualTo(DeliveryMode.PERSISTENT);
            assertThat(((BytesMessage) m).getBodyLength()).isEqualTo(4);
        }
        List<Message> odd = drain("APP.ODD", 3);
        for (int i = 0; i < 3; i++) {
            assertThat(odd.get(i).getStringProperty("_AMQ_DUPL_ID")).isEqualTo("openmft:" + id + ":" + (2 * i + 1));
            assertThat(odd.get(i).getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
        }
    }

    /** Puts item {@code item} of transfer {@code id}: even items persistent on APP.EVEN, odd ones not on APP.ODD. */
    private static QueueWriter.Put put(QueueWriter w, Path spool, String id, int item) throws Exception {
        boolean even = item % 2 == 0;
        QueueOptions o = new QueueOptions(QueueDestination.of(even ? "APP.EVEN" : "APP.ODD",
                Map.of("persistent", String.valueOf(even))), null, -1);
        return w.put(spool, o, new QueueWriter.PutInfo(id, item, "binary", "SRC", "DST", "/in/item", 4, null));
    }
}
