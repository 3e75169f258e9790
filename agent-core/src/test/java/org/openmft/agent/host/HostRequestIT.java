package org.openmft.agent.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentService;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.lifecycle.AgentLogs;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * The queue manager's host starts agents by name only, from its own data directory: a request that
 * names paths (an agent.properties of the sender's making, a log directory anywhere) or a name that
 * is a path is refused with a message saying why, and nothing is started.
 */
class HostRequestIT {
    @TempDir
    Path dir;

    @Test
    void requestsThatNamePathsOrPathLikeNamesAreRefusedAndNothingStarts() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // A configuration the sender controls, outside the data directory.
        Path planted = dir.resolve("elsewhere/agent.properties");
        Files.createDirectories(planted.getParent());
        Files.writeString(planted, "agentName=EVIL\nagentQMgr=QMH\n");
        Path written = dir.resolve("elsewhere/logs");
        DataDirectory dd = DataDirectory.of(dir.resolve("data"));
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(new QueueManagerSettings("QMH", dir.resolve("qm"),
                "127.0.0.1", port));
                QueueManagerHost host = new QueueManagerHost(qm, dd, AgentLogs.NONE, AgentService.Factory.NONE)) {
            QueueManagerConnector c = QueueManagerConnector.forAgent(new QueueManagerEndpoint(
                    MessagingProvider.ARTEMIS, "QMH", "127.0.0.1", port, "SYSTEM.DEF.SVRCONN"), qm.administrator().orElseThrow());
            try (Connection connection = c.connect()) {
                Session s = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
                connection.start();
                Message paths = s.createMessage();
                paths.setStringProperty(HostRequests.OPERATION, HostRequests.START_AGENT);
                paths.setStringProperty("OPENMFT_AGENT_PROPERTIES", planted.toString());
                paths.setStringProperty("OPENMFT_AGENT_LOG_DIRECTORY", written.toString());
                TextMessage r1 = ask(s, paths);
                assertThat(r1.getIntProperty(HostRequests.EXIT_CODE)).isEqualTo(1);
                assertThat(r1.getText()).contains("never a path").contains("OPENMFT_AGENT_PROPERTIES");

                Message traversal = s.createMessage();
                traversal.setStringProperty(HostRequests.OPERATION, HostRequests.START_AGENT);
                traversal.setStringProperty(HostRequests.AGENT_NAME, "../../elsewhere");
                traversal.setStringProperty(HostRequests.COORDINATION_QMGR, "QMH");
                TextMessage r2 = ask(s, traversal);
                assertThat(r2.getIntProperty(HostRequests.EXIT_CODE)).isEqualTo(1);
                assertThat(r2.getText()).contains("agent name '../../elsewhere' is not valid");

                Message unknown = s.createMessage();
                unknown.setStringProperty(HostRequests.OPERATION, HostRequests.START_AGENT);
                unknown.setStringProperty(HostRequests.AGENT_NAME, "NOSUCH");
                unknown.setStringProperty(HostRequests.COORDINATION_QMGR, "QMH");
                TextMessage r3 = ask(s, unknown);
                assertThat(r3.getIntProperty(HostRequests.EXIT_CODE)).as(r3.getText()).isEqualTo(78);
                assertThat(r3.getText()).contains(dd.agentProperties("QMH", "NOSUCH").toString());
            }
            assertThat(host.agentNames()).as("nothing was started").isEmpty();
        }
        assertThat(written).as("no log was written where the request said").doesNotExist();
    }

    private static TextMessage ask(Session s, Message request) throws Exception {
        TemporaryQueue replies = s.createTemporaryQueue();
        request.setJMSReplyTo(replies);
        try (MessageProducer p = s.createProducer(s.createQueue(QueueManagerHost.HOST_QUEUE));
                MessageConsumer consumer = s.createConsumer(replies)) {
            p.send(request);
            Message reply = consumer.receive(30_000);
            assertThat(reply).as("the host's answer").isInstanceOf(TextMessage.class);
            return (TextMessage) reply;
        }
    }
}
