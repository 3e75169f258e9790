package org.openmft.agent.qmgr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;

/**
 * One producer cannot hurt a queue manager: a message over its address's size limit is refused to
 * its sender, an address over its disk limit refuses further puts, and both leave the queue
 * manager serving everything else.
 */
class QueueManagerLimitsIT {
    private static final long SMALL = 64L << 10;

    @TempDir
    Path dir;

    @Test
    void aMessageOverTheCommandQueueLimitIsRefusedToItsProducer() throws Exception {
        int port = EmbeddedQueueManagerIT.freePort();
        QueueManagerSettings settings = new QueueManagerSettings("QMLIMIT", dir.resolve("qm"), "127.0.0.1", port)
                .withLimits(new QueueManagerLimits(SMALL, QueueManagerLimits.DEFAULT_DATA_MESSAGE_MAX_BYTES,
                        QueueManagerLimits.DEFAULT_MESSAGE_MAX_BYTES, QueueManagerLimits.PAGE_SIZE_BYTES));
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings)) {
            QueueManagerConnector connector = QueueManagerConnector.forAgent(new QueueManagerEndpoint(
                    MessagingProvider.ARTEMIS, "QMLIMIT", "127.0.0.1", port, "SYSTEM.DEF.SVRCONN"),
                    qm.administrator().orElseThrow());
            String command = QueueNames.command("AGENT1");
            new ArtemisQueueAdmin(connector).createQueues(List.of(command));
            try (Connection c = connector.connect()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                c.start();
                MessageProducer p = s.createProducer(s.createQueue(command));
                TextMessage tooBig = s.createTextMessage("x".repeat((int) SMALL));

                assertThatThrownBy(() -> p.send(tooBig)).isInstanceOf(JMSException.class)
                        .hasMessageContaining("to address " + command + " is refused")
                        .hasMessageContaining("limits.commandMessageMaxBytes")
                        .hasMessageContaining("is " + SMALL + " bytes");

                // A large message (streamed to the broker's disk first) is refused as well.
                BytesMessage large = s.createBytesMessage();
                large.writeBytes(new byte[6 << 20]);
                assertThatThrownBy(() -> p.send(large)).isInstanceOf(JMSException.class)
                        .hasMessageContaining("is refused");

                // The queue, and the connection, still serve.
                p.send(s.createTextMessage("<ping/>"));
                MessageConsumer consumer = s.createConsumer(s.createQueue(command));
                assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("<ping/>");
            }
            assertThat(qm.isRunning()).isTrue();
        }
    }

    @Test
    void anAddressOverItsDiskLimitRefusesPutsAndTheOthersGoOn() throws Exception {
        int port = EmbeddedQueueManagerIT.freePort();
        QueueManagerSettings settings = new QueueManagerSettings("QMDISK", dir.resolve("qm"), "127.0.0.1", port)
                .withLimits(QueueManagerLimits.DEFAULTS.withAddressDiskMaxBytes(QueueManagerLimits.PAGE_SIZE_BYTES));
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings)) {
            QueueManagerConnector connector = QueueManagerConnector.forAgent(new QueueManagerEndpoint(
                    MessagingProvider.ARTEMIS, "QMDISK", null, port, "SYSTEM.DEF.SVRCONN"),
                    qm.administrator().orElseThrow());
            String rejects = QueueNames.rejected("AGENT1");
            String command = QueueNames.command("AGENT1");
            new ArtemisQueueAdmin(connector).createQueues(List.of(rejects, command));
            try (Connection c = connector.connect()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                c.start();
                MessageProducer p = s.createProducer(s.createQueue(rejects));
                byte[] mebibyte = new byte[1 << 20];
                // 32 MiB in memory, then 10 MiB of pages: the next put fails (persistent puts, so
                // that the producer hears of it).
                long limit = EmbeddedQueueManager.DEFAULT_ADDRESS_MAX_BYTES + QueueManagerLimits.PAGE_SIZE_BYTES;
                int sent = 0;
                JMSException refused = null;
                while (refused == null && sent < 2 * limit / mebibyte.length) {
                    BytesMessage m = s.createBytesMessage();
                    m.writeBytes(mebibyte);
                    try {
                        p.send(m);
                        sent++;
                    } catch (JMSException e) {
                        refused = e;
                    }
                }
                assertThat(refused).as("a put beyond %d bytes on disk fails", limit).isNotNull();
                assertThat(refused.getMessage()).contains(rejects);
                assertThat((long) sent << 20).isBetween(limit - (4L << 20), limit + (4L << 20));

                // Another queue takes puts as before.
                MessageProducer other = s.createProducer(s.createQueue(command));
                other.send(s.createTextMessage("<ping/>"));
                MessageConsumer consumer = s.createConsumer(s.createQueue(command));
                assertThat(((TextMessage) consumer.receive(5_000)).getText()).isEqualTo("<ping/>");
            }
            assertThat(qm.isRunning()).isTrue();
        }
    }
}
