package org.openmft.agent.qmgr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.messaging.QueueManagerConnector;

/**
 * The embedded queue manager carries file chunks as normal messages (never on Artemis's
 * large-message path), in both connection modes, and refuses a second start on the same journal.
 */
class EmbeddedQueueManagerIT {
    @TempDir
    Path dir;

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @ParameterizedTest(name = "client mode: {0}")
    @ValueSource(booleans = {false, true})
    void oneMebibyteChunksTravelAsNormalMessages(boolean client) throws Exception {
        int port = freePort();
        QueueManagerSettings settings = new QueueManagerSettings("QMCHUNK", dir.resolve("qm"), "127.0.0.1", port);
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings)) {
            assertThat(qm.inVmId()).isPositive();
            QueueManagerEndpoint ep = new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QMCHUNK",
                    client ? "127.0.0.1" : null, port, "SYSTEM.DEF.SVRCONN");
            QueueManagerConnector connector = QueueManagerConnector.forAgent(ep, qm.administrator().orElseThrow());
            assertThat(connector.artemisUrl()).startsWith(client ? "tcp://" : "vm://");
            byte[] chunk = new byte[1 << 20];
            for (int i = 0; i < chunk.length; i++) {
                chunk[i] = (byte) (i ^ (i >>> 8));
            }
            try (Connection c = connector.connect()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                c.start();
                MessageProducer p = s.createProducer(s.createQueue("SYSTEM.FTE.DATA.TEST"));
                p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
                MessageConsumer consumer = s.createConsumer(s.createQueue("SYSTEM.FTE.DATA.TEST"));
                for (int n = 0; n < 8; n++) {
                    BytesMessage m = s.createBytesMessage();
                    m.writeBytes(chunk);
                    p.send(m);
                    Message r = consumer.receive(10_000);
                    assertThat(r).isNotNull();
                    assertThat(r.propertyExists("_AMQ_LARGE_SIZE")).as("large-message marker").isFalse();
                    byte[] back = new byte[chunk.length];
                    assertThat(((BytesMessage) r).readBytes(back)).isEqualTo(chunk.length);
                    assertThat(back).isEqualTo(chunk);
                }
            }
            try (Stream<Path> large = Files.list(dir.resolve("qm/largemessages"))) {
                assertThat(large).as("files on the large-message path").isEmpty();
            } catch (java.nio.file.NoSuchFileException none) {
                // Not even created: nothing took the large-message path.
            }
        }
    }

    @Test
    void aSecondStartOnTheSameDirectoryFailsClearly() throws Exception {
        QueueManagerSettings settings = new QueueManagerSettings("QMTWICE", dir.resolve("qm"), "127.0.0.1", freePort());
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings)) {
            assertThat(qm.isRunning()).isTrue();
            assertThatThrownBy(() -> EmbeddedQueueManager.start(settings))
                    .isInstanceOf(QueueManagerException.class)
                    .hasMessageContaining("QMTWICE is already running")
                    .hasMessageContaining(dir.resolve("qm").toString());
        }
        // Released on close: it starts again.
        try (EmbeddedQueueManager again = EmbeddedQueueManager.start(settings)) {
            assertThat(again.isRunning()).isTrue();
        }
    }

    @Test
    void aTakenPortIsReportedWithoutLeavingTheDirectoryLocked() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            QueueManagerSettings settings = new QueueManagerSettings("QMPORT", dir.resolve("qm"), "127.0.0.1",
                    taken.getLocalPort());
            assertThatThrownBy(() -> EmbeddedQueueManager.start(settings))
                    .isInstanceOf(QueueManagerException.class).hasMessageContaining("QMPORT");
            assertThat(DirectoryLock.isHeld(dir.resolve("qm"), EmbeddedQueueManager.LOCK_NAME)).isFalse();
        }
    }
}
