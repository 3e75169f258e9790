package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

import javax.jms.BytesMessage;
import javax.jms.Connection;
import javax.jms.Message;
import javax.jms.MessageProducer;
import javax.jms.QueueBrowser;
import javax.jms.Session;
import javax.jms.TextMessage;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.qmgr.security.Permissions;
import org.openmft.agent.transfer.queue.QueueWriter;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.QueueSource;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;

/**
 * Message to file between two in-JVM agents on one embedded queue manager: a queue's messages
 * become one file with delimiters; one complete group of several ({@code -sqgi}); a wait for a
 * message that comes later ({@code -sqwt}); and the messages stay on the queue whenever the file
 * is not delivered: an empty queue without a wait, a producer's cancel ({@code usr.UserReturnCode}),
 * a destination that fails the file, a source agent without {@code enableQueueInputOutput} (59).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MessageToFileIT {
    @TempDir
    static Path dir;
    TransferHarness h;
    Connection admin;
    Session session;
    Path out;

    @BeforeAll
    void start() throws Exception {
        h = new TransferHarness(dir, false);
        Map<String, String> queues = Map.of("enableQueueInputOutput", "true");
        h.agent("SRC", queues);
        h.agent("DST");
        h.agent("OFF");
        // Reading an application queue is the queue manager's to allow: the source agents get the
        // role applications have (queues outside SYSTEM.*), as an administrator would grant it; the
        // queue manager closes the sessions of a user whose roles change, so they start again.
        h.qm.users().grant("SRC", Permissions.REQUESTER);
        h.qm.users().grant("OFF", Permissions.REQUESTER);
        h.qm.applySecurityChanges();
        h.stopImmediately("SRC");
        h.stopImmediately("OFF");
        h.agent("SRC", queues);
        h.agent("OFF");
        admin = h.admin.connect();
        session = admin.createSession(false, Session.AUTO_ACKNOWLEDGE);
        for (String q : List.of("APP.PLAIN", "APP.BIN", "APP.GROUPS", "APP.WAIT", "APP.EMPTY", "APP.CANCEL",
                "APP.FAIL", "APP.OFF")) {
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
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, fromQueue("APP.PLAIN",
                Map.of("delimiter", "\\n", "delimiterType", "text"), file, ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        assertThat(Files.readString(file)).isEqualTo("alpha\nbeta\ngamma\n");
        assertThat(r.items().get(0).source()).as("the log names the queue").isEqualTo("APP.PLAIN");
        TransferHarness.await("the messages removed once the file is there", 10,
                () -> uncheckedOnQueue("APP.PLAIN").isEmpty());
        try (var spool = Files.walk(dir.resolve("state-SRC"))) {
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
        Reply b = h.transfer(TransferHarness.request("SRC", "DST", 0, fromQueue("APP.BIN",
                Map.of("delimiter", "x2C2C", "delimiterType", "binary", "delimiterPosition", "prefix"), bin,
                ExistAction.ERROR)), 60);
        assertThat(b.resultCode()).as("%s", TransferHarness.failedSupplements(b)).isZero();
        assertThat(Files.readString(bin, StandardCharsets.US_ASCII)).isEqualTo(",,ab,,cd");
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
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, fromQueue("APP.GROUPS",
                Map.of("useGroups", "true"), file, ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        assertThat(Files.readString(file)).isEqualTo("g-1,g-2,g-3");
        TransferHarness.await("the group removed", 10, () -> uncheckedOnQueue("APP.GROUPS").size() == 2);
        assertThat(onQueue("APP.GROUPS")).containsExactly("open-1", "later-1");
    }

    @Test
    void aWaitTimeWaitsForAMessageThatArrivesLater() throws Exception {
        Path file = out.resolve("waited.txt");
        try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
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
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, fromQueue("APP.EMPTY", Map.of(), file,
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
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, fromQueue("APP.CANCEL",
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
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, fromQueue("APP.FAIL", Map.of(), file,
                ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).isEqualTo(40);
        assertThat(TransferHarness.failedSupplements(r)).anySatisfy(s -> assertThat(s).contains("BFGIO0006E"));
        assertThat(Files.readString(file)).isEqualTo("already here");
        assertThat(onQueue("APP.FAIL")).containsExactly("one", "two");
    }

    @Test
    void aSourceAgentWithoutEnableQueueInputOutputRefusesWith59AndTheMessagesStay() throws Exception {
        put("APP.OFF", "kept");
        Path file = out.resolve("off.txt");
        Reply r = h.transfer(TransferHarness.request("OFF", "DST", 0, fromQueue("APP.OFF", Map.of(), file,
                ExistAction.ERROR)), 60);
        assertThat(r.resultCode()).isEqualTo(59);
        assertThat(String.join(" ", r.supplements()) + TransferHarness.failedSupplements(r))
                .contains("enableQueueInputOutput");
        assertThat(file).doesNotExist();
        assertThat(onQueue("APP.OFF")).containsExactly("kept");
    }
}
