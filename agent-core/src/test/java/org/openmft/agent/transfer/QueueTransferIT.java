package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.security.Permissions;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.agent.transfer.queue.QueueOptions;
import org.openmft.agent.transfer.queue.QueueWriter;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.QueueDestination;
import org.openmft.xml.QueueSource;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;

/**
 * File to message and message to file between in-JVM agents on one embedded queue manager (one
 * class, so that both directions share its start).
 *
 * <p>File to message: files split by length and by delimiter into groups with IBM's properties and
 * the asked persistence, all of a file or nothing on the queue; refusals (the destination's
 * {@code enableQueueInputOutput} off: 56; an agent's own queue; a queue that does not exist).
 *
 * <p>Message to file (DST, which reads queues, is the source): a queue's messages become one file
 * with delimiters; one complete group of several ({@code -sqgi}); a wait for a message that comes
 * later ({@code -sqwt}); and the messages stay on the queue whenever the file is not delivered: an
 * empty queue without a wait, a producer's cancel ({@code usr.UserReturnCode}), a destination that
 * fails the file, a source agent without {@code enableQueueInputOutput} (59).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueueTransferIT {
    @TempDir
    static Path dir;
    TransferHarness h;
    Connection admin;
    Session session;
    Path out;

    @BeforeAll
    void start() throws Exception {
        h = new TransferHarness(dir, false);
        // SRC sends files of one chunk inline (maxInlineFileSize), the other tests' too.
        h.agent("SRC", Map.of("agentChunkSize", "1024", "maxInlineFileSize", "1024"));
        Map<String, String> queues = Map.of("enableQueueInputOutput", "true");
        h.agent("DST", queues);
        h.agent("OFF");
        // Reading an application queue (message to file) is the queue manager's to allow: DST gets
        // the role applications have (queues outside SYSTEM.*), as an administrator would grant it;
        // the queue manager closes the sessions of a user whose roles change, so DST starts again.
        h.qm.users().grant("DST", Permissions.REQUESTER);
        h.qm.applySecurityChanges();
        h.stopImmediately("DST");
        h.agent("DST", queues);
        admin = h.admin.connect();
        session = admin.createSession(false, Session.AUTO_ACKNOWLEDGE);
        for (String q : List.of("APP.SIZE", "APP.LINES", "APP.OFF", "APP.AGAIN", "APP.EVEN", "APP.ODD", "APP.PLAIN",
                "APP.BIN", "APP.GROUPS", "APP.WAIT", "APP.EMPTY", "APP.CANCEL", "APP.FAIL", "APP.M2F.OFF",
                "APP.INLINE", "APP.TWICE")) {
            session.createConsumer(session.createQueue(q)).close(); // makes the application queue
        }
        admin.start();
        out = Files.createDirectories(dir.resolve("out"));
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

    /**
     * {@code maxInlineFileSize}: the file's data goes with the start of the transfer, before the
     * destination answers. Seen while the destination agent is down: its DATA queue holds the START
     * and, behind it, the file's only chunk; once it runs, the file is on the queue, once.
     */
    @Test
    void aSmallFileGoesInlineBehindTheStartAndIsPutOnce() throws Exception {
        Map<String, String> queues = Map.of("enableQueueInputOutput", "true");
        h.agent("LATE", queues);
        h.stopImmediately("LATE");
        Path src = TransferHarness.randomFile(dir.resolve("in/inline.dat"), 700, 17);
        QueueDestination q = QueueDestination.of("APP.INLINE", Map.of());
        try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "LATE", 0,
                toQueue(src, Mode.BINARY, q)))) {
            assertThat(s.ack.resultCode()).isZero();
            List<Message> waiting = new ArrayList<>();
            TransferHarness.await("the START and a chunk on LATE's DATA queue", 30, () -> {
                waiting.clear();
                try (QueueBrowser b = session.createBrowser(session.createQueue("SYSTEM.FTE.DATA.LATE"))) {
                    for (Enumeration<?> e = b.getEnumeration(); e.hasMoreElements();) {
                        waiting.add((Message) e.nextElement());
                    }
                } catch (jakarta.jms.JMSException e) {
                    throw new IllegalStateException(e);
                }
                return waiting.size() >= 2;
            });
            assertThat(waiting.get(0).getStringProperty(Wire.TYPE)).isEqualTo(Wire.START);
            assertThat(waiting.get(1).getStringProperty(Wire.TYPE)).isEqualTo(Wire.DATA);
            assertThat(waiting.get(1).getLongProperty(Wire.SEQ)).isZero();
            assertThat(waiting.get(1).getBooleanProperty(Wire.LAST)).isTrue();
            h.agent("LATE", queues);
            Reply r = s.awaitFinal(60);
            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        }
        BytesMessage m = (BytesMessage) drain("APP.INLINE", 1).get(0);
        byte[] body = new byte[(int) m.getBodyLength()];
        m.readBytes(body);
        assertThat(body).isEqualTo(Files.readAllBytes(src));
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

    // ---------------------------------------------------------------- message to file

    private static TransferItem fromQueue(String queue, Map<String, String> attributes, Path file, ExistAction exist) {
        return new TransferItem(Mode.BINARY, ChecksumMethod.MD5, new ItemSource(QueueSource.of(queue, attributes),
                Disposition.LEAVE, null), new ItemDestination(DestinationType.FILE, exist, file.toString(), null, null));
    }

    private void put(String queue, String text, String group, int seq, boolean last, Map<String, Object> props)
            throws Exception {
        try (MessageProducer p = session.createProducer(session.createQueue(queue))) {
            TextMessage m = session.createTextMessage(text);
            if (group != null) {
                m.setStringProperty("JMSXGroupID", group);
                m.setIntProperty("JMSXGroupSeq", seq);
                if (last) {
                    m.setBooleanProperty(QueueWriter.LAST_IN_GROUP, true);
                }
            }
            for (Map.Entry<String, Object> e : props.entrySet()) {
                m.setObjectProperty(e.getKey(), e.getValue());
            }
            p.send(m);
        }
    }

    private void put(String queue, String text) throws Exception {
        put(queue, text, null, 0, false, Map.of());
    }

    /** The bodies of the messages on a queue, in order, without taking them. */
    private List<String> onQueue(String queue) throws Exception {
        List<String> bodies = new ArrayList<>();
        try (QueueBrowser b = session.createBrowser(session.createQueue(queue))) {
            for (Enumeration<?> e = b.getEnumeration(); e.hasMoreElements();) {
                Message m = (Message) e.nextElement();
                if (m instanceof TextMessage t) {
                    bodies.add(t.getText());
                } else {
                    byte[] data = new byte[(int) ((BytesMessage) m).getBodyLength()];
                    ((BytesMessage) m).readBytes(data);
                    bodies.add(new String(data, StandardCharsets.UTF_8));
                }
            }
        }
        return bodies;
    }

    @Test
    void everyMessageOnTheQueueMakesOneFileWithTheDelimiterAfterEachAndTheQueueIsEmptied() throws Exception {
        put("APP.PLAIN", "alpha");
        put("APP.PLAIN", "beta");
        put("APP.PLAIN", "gamma");
        Path file = out.resolve("plain.txt");
        Reply r = h.transfer(TransferHarness.request("DST", "SRC", 0, fromQueue("APP.PLAIN",
                Map.of("delimiter", "\\n", "delimiterType", "text"), file, ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        assertThat(Files.readString(file)).isEqualTo("alpha\nbeta\ngamma\n");
        assertThat(r.items().get(0).source()).as("the log names the queue").isEqualTo("APP.PLAIN");
        assertThat(queueRead(r)).as("the log's <queue size messageCount>: what was read, not the planned 0")
                .isEqualTo(new ItemOutcome.QueueRead(17, 3, null));
        TransferHarness.await("the messages removed once the file is there", 10,
                () -> uncheckedOnQueue("APP.PLAIN").isEmpty());
        try (var spool = Files.walk(dir.resolve("state-DST"))) {
            assertThat(spool.map(Path::toString)).noneMatch(n -> n.contains(".m2f"));
        }

        // A binary delimiter before each message.
        try (MessageProducer p = session.createProducer(session.createQueue("APP.BIN"))) {
            for (String s : List.of("ab", "cd")) {
                BytesMessage m = session.createBytesMessage();
                m.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
                p.send(m);
            }
        }
        Path bin = out.resolve("bin.dat");
        Reply b = h.transfer(TransferHarness.request("DST", "SRC", 0, fromQueue("APP.BIN",
                Map.of("delimiter", "x2C2C", "delimiterType", "binary", "delimiterPosition", "prefix"), bin,
                ExistAction.ERROR)), 60);
        assertThat(b.resultCode()).as("%s", TransferHarness.failedSupplements(b)).isZero();
        assertThat(Files.readString(bin, StandardCharsets.US_ASCII)).isEqualTo(",,ab,,cd");
    }

    /** What the source agent's item outcome (which the transfer log is written from) says it read. */
    private ItemOutcome.QueueRead queueRead(Reply r) throws InterruptedException {
        TransferHarness.await("the source's outcome", 10, () -> h.sourceOutcomes.stream()
                .anyMatch(o -> o.transferId().equals(r.requestId())));
        return h.sourceOutcomes.stream().filter(o -> o.transferId().equals(r.requestId())).findFirst().orElseThrow()
                .items().get(0).queueRead();
    }

    private List<String> uncheckedOnQueue(String queue) {
        try {
            return onQueue(queue);
        } catch (Exception e) {
            return Collections.singletonList("unreadable: " + e);
        }
    }

    @Test
    void withUseGroupsOnlyTheFirstCompleteGroupMakesTheFileAndTheRestStays() throws Exception {
        put("APP.GROUPS", "open-1", "OPEN", 1, false, Map.of()); // a group whose last message never came
        put("APP.GROUPS", "g-1,", "DONE", 1, false, Map.of());
        put("APP.GROUPS", "g-2,", "DONE", 2, false, Map.of());
        put("APP.GROUPS", "g-3", "DONE", 3, true, Map.of());
        put("APP.GROUPS", "later-1", "LATER", 1, true, Map.of());
        Path file = out.resolve("group.txt");
        Reply r = h.transfer(TransferHarness.request("DST", "SRC", 0, fromQueue("APP.GROUPS",
                Map.of("useGroups", "true"), file, ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        assertThat(Files.readString(file)).isEqualTo("g-1,g-2,g-3");
        assertThat(queueRead(r)).as("the log's <queue groupId messageCount>").isEqualTo(new ItemOutcome.QueueRead(11, 3,
                "DONE"));
        TransferHarness.await("the group removed", 10, () -> uncheckedOnQueue("APP.GROUPS").size() == 2);
        assertThat(onQueue("APP.GROUPS")).containsExactly("open-1", "later-1");
    }

    /**
     * Two transfers reading one queue at the same time: each message goes into one file only, and
     * none is lost (as IBM's readers, which get under syncpoint). The second finds the messages the
     * first holds taken: it reads what is left, or fails with "no message" when nothing is.
     */
    @Test
    void twoTransfersReadingOneQueueAtOnceWriteEachMessageOnceAndLoseNone() throws Exception {
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            sent.add(String.format("m%02d", i));
            put("APP.TWICE", sent.get(i));
        }
        Map<String, String> lines = Map.of("delimiter", "\\n", "delimiterType", "text");
        Path a = out.resolve("twice-a.txt");
        Path b = out.resolve("twice-b.txt");
        List<String> written = new ArrayList<>();
        try (TransferHarness.Submission first = h.submit("DST", TransferHarness.request("DST", "SRC", 0,
                fromQueue("APP.TWICE", lines, a, ExistAction.ERROR)));
                TransferHarness.Submission second = h.submit("DST", TransferHarness.request("DST", "SRC", 0,
                        fromQueue("APP.TWICE", lines, b, ExistAction.ERROR)))) {
            for (Map.Entry<TransferHarness.Submission, Path> s : Map.of(first, a, second, b).entrySet()) {
                Reply r = s.getKey().awaitFinal(60);
                if (r.resultCode() == 0) {
                    written.addAll(Files.readAllLines(s.getValue()));
                } else {
                    assertThat(r.resultCode()).as("nothing left for it: %s", r.supplements()).isEqualTo(40);
                    assertThat(s.getValue()).doesNotExist();
                }
            }
        }
        assertThat(written).as("each message in one file, none lost").containsExactlyInAnyOrderElementsOf(sent);
        TransferHarness.await("the messages removed", 10, () -> uncheckedOnQueue("APP.TWICE").isEmpty());
    }

    /**
     * A queue holding more than its address may keep in memory pages the rest to disk (Artemis
     * paging; an address setting made low here, 64 KiB, as an administrator may): every message is
     * read into the file, in order, and then removed.
     */
    @Test
    void aQueuePagedToDiskIsReadWholeAndEmptied() throws Exception {
        Management.invoke(h, ResourceNames.BROKER, "addAddressSettings", "APP.PAGED",
                "{\"maxSizeBytes\":65536,\"pageSizeBytes\":32768,\"addressFullMessagePolicy\":\"PAGE\"}");
        session.createConsumer(session.createQueue("APP.PAGED")).close();
        int count = 200;
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try (Session puts = admin.createSession(true, Session.SESSION_TRANSACTED);
                MessageProducer p = puts.createProducer(puts.createQueue("APP.PAGED"))) {
            for (int i = 0; i < count; i++) {
                byte[] body = new byte[1000];
                java.util.Arrays.fill(body, (byte) ('a' + i % 26));
                System.arraycopy(String.format("%04d", i).getBytes(StandardCharsets.US_ASCII), 0, body, 0, 4);
                BytesMessage m = puts.createBytesMessage();
                m.writeBytes(body);
                p.send(m);
                all.write(body);
            }
            puts.commit(); // one commit: 200 KB, beyond the 64 KiB the address keeps in memory
        }
        Path file = out.resolve("paged.bin");
        Reply r = h.transfer(TransferHarness.request("DST", "SRC", 0, fromQueue("APP.PAGED", Map.of(), file,
                ExistAction.ERROR)), 120);
        assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        assertThat(queueRead(r).messageCount()).as("every message, paged ones too").isEqualTo(count);
        assertThat(Files.readAllBytes(file)).isEqualTo(all.toByteArray());
        TransferHarness.await("the messages removed", 30, () -> uncheckedOnQueue("APP.PAGED").isEmpty());
    }

    @Test
    void aWaitTimeWaitsForAMessageThatArrivesLater() throws Exception {
        Path file = out.resolve("waited.txt");
        try (TransferHarness.Submission s = h.submit("DST", TransferHarness.request("DST", "SRC", 0,
                fromQueue("APP.WAIT", Map.of("waitTime", "30"), file, ExistAction.ERROR)))) {
            assertThat(s.ack.resultCode()).isZero();
            TransferHarness.await("the transfer started", 10, () -> h.events.contains("started SOURCE " + s.id()));
            put("APP.WAIT", "late");
            Reply r = s.awaitFinal(60);
            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        }
        assertThat(Files.readString(file)).isEqualTo("late");
    }

    @Test
    void anEmptyQueueWithoutAWaitFailsAtOnceAndWritesNothing() throws Exception {
        Path file = out.resolve("empty.txt");
        Reply r = h.transfer(TransferHarness.request("DST", "SRC", 0, fromQueue("APP.EMPTY", Map.of(), file,
                ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).isEqualTo(40);
        assertThat(String.join(" ", r.supplements()) + TransferHarness.failedSupplements(r))
                .contains("no message on queue APP.EMPTY");
        assertThat(file).doesNotExist();
    }

    @Test
    void aProducerCancelsWithUserReturnCodeOnTheLastMessageAndTheMessagesStay() throws Exception {
        put("APP.CANCEL", "part-1", "BATCH", 1, false, Map.of());
        put("APP.CANCEL", "part-2", "BATCH", 2, true, Map.of("UserReturnCode", 7, "UserSupplement",
                "batch withdrawn"));
        Path file = out.resolve("cancelled.txt");
        Reply r = h.transfer(TransferHarness.request("DST", "SRC", 0, fromQueue("APP.CANCEL",
                Map.of("useGroups", "true"), file, ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).isEqualTo(40);
        assertThat(String.join(" ", r.supplements()) + TransferHarness.failedSupplements(r))
                .contains("usr.UserReturnCode=7", "batch withdrawn");
        assertThat(file).doesNotExist();
        assertThat(onQueue("APP.CANCEL")).containsExactly("part-1", "part-2");
    }

    @Test
    void aFileTheDestinationRefusesLeavesEveryMessageOnTheQueue() throws Exception {
        Path file = Files.writeString(out.resolve("exists.txt"), "already here");
        put("APP.FAIL", "one");
        put("APP.FAIL", "two");
        Reply r = h.transfer(TransferHarness.request("DST", "SRC", 0, fromQueue("APP.FAIL", Map.of(), file,
                ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).isEqualTo(40);
        assertThat(TransferHarness.failedSupplements(r)).anySatisfy(s -> assertThat(s).contains("BFGIO0006E"));
        assertThat(Files.readString(file)).isEqualTo("already here");
        assertThat(onQueue("APP.FAIL")).containsExactly("one", "two");
    }

    @Test
    void aSourceAgentWithoutEnableQueueInputOutputRefusesWith59AndTheMessagesStay() throws Exception {
        put("APP.M2F.OFF", "kept");
        Path file = out.resolve("off.txt");
        Reply r = h.transfer(TransferHarness.request("OFF", "SRC", 0, fromQueue("APP.M2F.OFF", Map.of(), file,
                ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).isEqualTo(59);
        assertThat(String.join(" ", r.supplements()) + TransferHarness.failedSupplements(r))
                .contains("enableQueueInputOutput");
        assertThat(file).doesNotExist();
        assertThat(onQueue("APP.M2F.OFF")).containsExactly("kept");
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
