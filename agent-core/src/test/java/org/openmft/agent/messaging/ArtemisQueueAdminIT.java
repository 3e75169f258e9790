package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * Purging queues on a real embedded queue manager, over TCP as a command reaches it: what
 * fteCleanAgent relies on.
 */
class ArtemisQueueAdminIT {
    @TempDir
    Path dir;

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void purgeEmptiesTheQueuesThatExistAndCountsWhatItRemoved() throws Exception {
        int port = freePort();
        QueueManagerSettings settings = new QueueManagerSettings("QMPURGE", dir.resolve("qm"), "127.0.0.1", port);
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings)) {
            assertThat(qm.inVmId()).isPositive();
            QueueManagerConnector connector = QueueManagerConnector.forCommand(new QueueManagerEndpoint(
                    MessagingProvider.ARTEMIS, "QMPURGE", "127.0.0.1", port, "SYSTEM.DEF.SVRCONN"), null,
                    qm.administrator().orElseThrow());
            ArtemisQueueAdmin admin = new ArtemisQueueAdmin(connector);
            String state = "SYSTEM.FTE.STATE.PURGE";
            String rejected = "SYSTEM.FTE.CMD.RJCT.PURGE";
            String empty = "SYSTEM.FTE.EVENT.PURGE";
            String missing = "SYSTEM.FTE.DATA.NOBODY";
            admin.createQueues(List.of(state, rejected, empty));
            try (Connection c = connector.connect()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                MessageProducer p = s.createProducer(null);
                for (int i = 0; i < 250; i++) {
                    p.send(s.createQueue(state), s.createTextMessage("record " + i), DeliveryMode.PERSISTENT, 4, 0);
                }
                BytesMessage big = s.createBytesMessage();
                big.writeBytes(new byte[512 * 1024]);
                p.send(s.createQueue(rejected), big, DeliveryMode.NON_PERSISTENT, 4, 0);
                p.send(s.createQueue(rejected), s.createTextMessage("<garbage"), DeliveryMode.PERSISTENT, 4, 0);
            }
            assertThat(admin.depths(List.of(state, rejected))).containsEntry(state, 250L).containsEntry(rejected, 2L);

            Map<String, Long> removed = admin.purge(List.of(state, rejected, empty, missing));

            assertThat(removed).containsExactly(Map.entry(state, 250L), Map.entry(rejected, 2L), Map.entry(empty, 0L));
            assertThat(admin.depths(List.of(state, rejected, empty, missing))).containsEntry(state, 0L)
                    .containsEntry(rejected, 0L).containsEntry(empty, 0L).containsEntry(missing, -1L);
            assertThat(admin.purge(List.of(state))).containsExactly(Map.entry(state, 0L));
        }
    }

    @Test
    void purgeOnAQueueManagerThatIsDownFailsWithExitCode75() throws Exception {
        QueueManagerConnector connector = QueueManagerConnector.forCommand(new QueueManagerEndpoint(
                MessagingProvider.ARTEMIS, "QMDOWN", "127.0.0.1", freePort(), "SYSTEM.DEF.SVRCONN"), null, null);
        assertThatThrownBy(() -> new ArtemisQueueAdmin(connector).purge(List.of("SYSTEM.FTE.STATE.X")))
                .isInstanceOf(QueueManagerException.class)
                .hasMessageContaining("purge queues on queue manager QMDOWN")
                .satisfies(e -> assertThat(((QueueManagerException) e).exitCode())
                        .isEqualTo(QueueManagerException.UNAVAILABLE));
    }
}
