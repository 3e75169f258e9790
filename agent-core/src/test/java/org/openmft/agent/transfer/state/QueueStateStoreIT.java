package org.openmft.agent.transfer.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.xml.ChecksumMethod;

/**
 * The state store on a real embedded queue manager's STATE queue and a real state directory;
 * "reopened" is a new store on a new connection, as the agent's next run has. Records put there by
 * someone else, of the right shape but without this agent's tag, are not used.
 */
class QueueStateStoreIT extends TransferStateStoreContract {
    @TempDir
    Path dir;
    EmbeddedQueueManager qm;
    QueueManagerConnector connector;
    final List<Connection> connections = new ArrayList<>();

    @Override
    TransferStateStore store() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        qm = EmbeddedQueueManager.start(new QueueManagerSettings("QMSTATE", dir.resolve("qm"), "127.0.0.1", port));
        connector = QueueManagerConnector.forAgent(new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QMSTATE",
                null, port, "SYSTEM.DEF.SVRCONN"), null);
        new ArtemisQueueAdmin(connector).createQueues(List.of(QueueNames.state("AGT")));
        return open();
    }

    @Override
    TransferStateStore reopened() throws Exception {
        return open();
    }

    private QueueStateStore open() throws Exception {
        return open(dir.resolve("state"));
    }

    private QueueStateStore open(Path stateDirectory) throws Exception {
        Connection c = connector.connect();
        connections.add(c);
        c.start();
        return new QueueStateStore(c, "AGT", stateDirectory);
    }

    // ------------------------------------------------------------------------------------------
    // Records this agent did not write

    static final String ID2 = "414d5120514d31202020202020202020bbbbbbbbbbbbbbbb";
    static final String ID3 = "414d5120514d31202020202020202020cccccccccccccccc";
    static final DestinationRecord.Partial PART = new DestinationRecord.Partial("/out/f.part", "/out/f", 8, true,
            ChecksumMethod.NONE, "/in/f", "/out");
    static final DestinationRecord GENUINE = new DestinationRecord(ID, "SRC", "QM1", null, 2, 32, 2, 4, 16, 1, 4096,
            PART, null, null);

    /**
     * Puts a copy of the first record on the queue, as anyone allowed to put messages there could:
     * with {@code changes} applied (a null value removes the property), the tag too.
     */
    private void plant(Map<String, Object> changes) throws Exception {
        try (Connection c = connector.connect()) {
            c.start();
            Session session = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Queue q = session.createQueue(QueueNames.state("AGT"));
            Message original;
            try (QueueBrowser b = session.createBrowser(q)) {
                original = (Message) b.getEnumeration().nextElement();
            }
            Message copy = session.createMessage();
            for (Enumeration<?> names = original.getPropertyNames(); names.hasMoreElements();) {
                String name = (String) names.nextElement();
                if (!changes.containsKey(name)) {
                    copy.setObjectProperty(name, original.getObjectProperty(name));
                } else if (changes.get(name) != null) {
                    copy.setObjectProperty(name, changes.get(name));
                }
            }
            for (Map.Entry<String, Object> e : changes.entrySet()) {
                if (e.getValue() != null && !copy.propertyExists(e.getKey())) {
                    copy.setObjectProperty(e.getKey(), e.getValue());
                }
            }
            MessageProducer p = session.createProducer(q);
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            p.send(copy);
        }
    }

    private int depth() throws Exception {
        try (Connection c = connector.connect()) {
            c.start();
            Session session = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (QueueBrowser b = session.createBrowser(session.createQueue(QueueNames.state("AGT")))) {
                int n = 0;
                for (Enumeration<?> e = b.getEnumeration(); e.hasMoreElements(); e.nextElement()) {
                    n++;
                }
                return n;
            }
        }
    }

    private static Map<String, Object> changes(Object... keysAndValues) {
        Map<String, Object> m = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    @Test
    void recordsThisAgentDidNotWriteAreNotUsedCountedAndLeftOnTheQueue() throws Exception {
        TransferStateStore s = store();
        s.saveDestination(GENUINE);
        String evil = "/root/.ssh/authorized_keys";
        // Of the right shape: without a tag, with a made-up tag, and a copy of the genuine record with
        // its rename target changed (the tag kept), the last one with the genuine record's id.
        plant(changes(StateQueue.TAG, null, Wire.TRANSFER_ID, ID2, QueueStateStore.FINAL_PATH, evil));
        plant(changes(StateQueue.TAG, "00".repeat(32), Wire.TRANSFER_ID, ID3, QueueStateStore.FINAL_PATH, evil));
        plant(changes(QueueStateStore.FINAL_PATH, evil));
        // And one whose id would inject into a selector, tagged or not.
        plant(changes(StateQueue.TAG, null, Wire.TRANSFER_ID, "' OR mftRole='D"));

        QueueStateStore r = open();
        assertThat(r.loadDestinations()).containsExactly(GENUINE);
        assertThat(r.refusedState()).isEqualTo(4);
        assertThat(depth()).as("refused records are left where they are").isEqualTo(5);

        // The genuine record is the one replaced, never the forged copy with its transfer id.
        DestinationRecord later = new DestinationRecord(ID, "SRC", "QM1", null, 3, 40, 2, 4, 16, -1, 0, null, null, null);
        r.saveDestination(later);
        assertThat(open().loadDestinations()).containsExactly(later);
        assertThat(depth()).isEqualTo(5);
        r.removeDestination(ID);
        assertThat(open().loadDestinations()).isEmpty();
        assertThat(depth()).isEqualTo(4);
    }

    @Test
    void untaggedRecordsOlderThanTheKeyAreAdoptedOnceAndLaterOnesRefused() throws Exception {
        TransferStateStore s = store();
        s.saveDestination(GENUINE);
        // As the version before tags left a record: the same without a tag (its partial item verified
        // with MD5, as "MD5" or "none" was all a record of then could name).
        plant(changes(StateQueue.TAG, null, Wire.TRANSFER_ID, ID2, Wire.CHECKSUM_METHOD, "MD5"));
        Path upgraded = dir.resolve("upgraded");
        Files.createDirectories(upgraded);
        Path legacyJournal = StateFiles.destinationResults(upgraded, ID2);
        Files.writeString(legacyJournal, "R\t0\t0\t5\t0\t3\t%2Fin%2Fa\t%2Fout%2Fa\t-\t-\n");

        // The upgraded agent's first start: no key yet, so what is untagged now predates it.
        QueueStateStore first = open(upgraded);
        DestinationRecord adopted = new DestinationRecord(ID2, "SRC", "QM1", null, 2, 32, 2, 4, 16, 1, 4096,
                new DestinationRecord.Partial(PART.partFile(), PART.finalPath(), PART.itemFirstSeq(), true,
                        ChecksumMethod.MD5, PART.sourcePath(), PART.destPath()), null, null);
        assertThat(first.loadDestinations()).as("the record another key tagged is not adopted")
                .containsExactly(adopted);
        assertThat(first.readDestinationJournal(ID2).results()).containsOnlyKeys(0);
        assertThat(upgraded.resolve(StateTag.ADOPT_FILE)).doesNotExist();

        plant(changes(StateQueue.TAG, null, Wire.TRANSFER_ID, ID3));
        QueueStateStore next = open(upgraded);
        assertThat(next.loadDestinations()).as("untagged after the key: refused").containsExactly(adopted);
        assertThat(next.refusedState()).isEqualTo(2);
    }

    @Test
    void aPartialItemsChecksumMethodIsRecordedAsTheRequestSpellsIt() throws Exception {
        TransferStateStore s = store();
        s.saveDestination(new DestinationRecord(ID, "SRC", "QM1", null, 2, 32, 2, 4, 16, 1, 4096,
                new DestinationRecord.Partial("/out/f.part", "/out/f", 8, true, ChecksumMethod.SHA_256, "/in/f",
                        "/out"), null, null));
        assertThat(recorded(Wire.CHECKSUM_METHOD)).isEqualTo("SHA-256");
        s.saveDestination(GENUINE);
        assertThat(recorded(Wire.CHECKSUM_METHOD)).as("as every version wrote it").isEqualTo("none");
    }

    /** A property of the (one) record on the STATE queue. */
    private Object recorded(String property) throws Exception {
        try (Connection c = connector.connect()) {
            c.start();
            Session session = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (QueueBrowser b = session.createBrowser(session.createQueue(QueueNames.state("AGT")))) {
                return ((Message) b.getEnumeration().nextElement()).getObjectProperty(property);
            }
        }
    }

    @Test
    void hostileIdsReadAndDeleteNothingOutsideTheStateDirectory() throws Exception {
        TransferStateStore s = store();
        Path victim = Files.createDirectories(dir.resolve("victim"));
        for (String suffix : List.of(".request.xml", ".items", ".src-results", ".dst-results")) {
            Files.writeString(victim.resolve("x" + suffix), "keep");
        }
        for (String id : List.of(victim.resolve("x").toString(), "../victim/x", "../victim/x ", "x' OR '1'='1")) {
            assertThatThrownBy(() -> s.removeSource(id)).isInstanceOf(StateException.class);
            assertThatThrownBy(() -> s.removeDestination(id)).isInstanceOf(StateException.class);
            assertThatThrownBy(() -> s.readRequest(id)).isInstanceOf(StateException.class);
        }
        try (var files = Files.list(victim)) {
            assertThat(files).hasSize(4).allSatisfy(f -> assertThat(f).hasContent("keep"));
        }
    }

    @AfterEach
    void tearDown() throws IOException {
        for (Connection c : connections) {
            try {
                c.close();
            } catch (jakarta.jms.JMSException e) {
                // closing anyway
            }
        }
        if (qm != null) {
            qm.close();
        }
    }
}
