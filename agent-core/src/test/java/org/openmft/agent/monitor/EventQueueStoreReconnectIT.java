package org.openmft.agent.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import javax.jms.Connection;
import javax.jms.QueueBrowser;
import javax.jms.Session;
import javax.jms.TextMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.qmgr.security.Permissions;
import org.openmft.agent.transfer.state.StateTag;

/**
 * An administrator grants the agent's user a role while its monitors run: the queue manager closes
 * the agent's connections, and with them the EVENT queue store's session. The next save opens a new
 * session and succeeds; the EVENT queue then holds exactly the new record and the COMMAND queue
 * exactly the tasks of both saves, nothing lost, nothing twice.
 */
class EventQueueStoreReconnectIT {
    @TempDir
    Path dir;

    @Test
    void aSaveAfterTheQueueManagerClosedTheSessionSucceedsOnANewOne() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(new QueueManagerSettings("QMRC", dir.resolve("qm"),
                "127.0.0.1", port))) {
            var ep = new org.openmft.agent.config.QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QMRC", null, port,
                    "SYSTEM.DEF.SVRCONN");
            QueueManagerConnector admin = QueueManagerConnector.forAgent(ep, qm.administrator().orElseThrow());
            new ArtemisQueueAdmin(admin).createQueues(QueueNames.agentQueues("MONA"));
            Credentials agent = qm.users().addAgent("MONA", dir.resolve("credentials.xml"));
            qm.applySecurityChanges();
            StateTag tag = StateTag.of(new byte[32]);
            EventQueueMonitorStore store = new EventQueueMonitorStore(QueueManagerConnector.forAgent(ep, agent), "MONA",
                    tag);
            try {
                store.save(record(Map.of("/in/a", new FileHistory(1, 1, 0, true))), List.of("<task>1</task>"));

                qm.users().grant(agent.user(), Permissions.REQUESTER);
                qm.applySecurityChanges(); // closes the agent's connections

                Map<String, FileHistory> both = Map.of("/in/a", new FileHistory(1, 1, 0, true),
                        "/in/b", new FileHistory(2, 2, 0, true));
                store.save(record(both), List.of("<task>2</task>"));
            } finally {
                store.close();
            }

            EventQueueMonitorStore reader = new EventQueueMonitorStore(QueueManagerConnector.forAgent(ep, agent),
                    "MONA", tag);
            try {
                List<MonitorRecord> records = reader.load();
                assertThat(records).hasSize(1);
                assertThat(records.get(0).history()).containsOnlyKeys("/in/a", "/in/b");
            } finally {
                reader.close();
            }
            assertThat(browse(admin, QueueNames.event("MONA"))).as("one record on the EVENT queue").hasSize(1);
            assertThat(texts(admin, QueueNames.command("MONA"))).containsExactly("<task>1</task>", "<task>2</task>");
        }
    }

    private static MonitorRecord record(Map<String, FileHistory> history) {
        return new MonitorRecord("M", "<monitor/>", true, "u", "id", true, history);
    }

    private static List<Object> browse(QueueManagerConnector admin, String queue) throws Exception {
        List<Object> out = new ArrayList<>();
        try (Connection c = admin.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            try (QueueBrowser b = s.createBrowser(s.createQueue(queue))) {
                for (Enumeration<?> e = b.getEnumeration(); e.hasMoreElements();) {
                    out.add(e.nextElement());
                }
            }
        }
        return out;
    }

    private static List<String> texts(QueueManagerConnector admin, String queue) throws Exception {
        List<String> out = new ArrayList<>();
        for (Object m : browse(admin, queue)) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }
}
