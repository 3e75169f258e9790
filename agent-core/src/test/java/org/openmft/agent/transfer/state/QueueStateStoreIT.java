package org.openmft.agent.transfer.state;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.jms.Connection;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * The state store on a real embedded queue manager's STATE queue and a real state directory;
 * "reopened" is a new store on a new connection, as the agent's next run has.
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

    private TransferStateStore open() throws Exception {
        Connection c = connector.connect();
        connections.add(c);
        c.start();
        return new QueueStateStore(c, "AGT", dir.resolve("state"));
    }

    @AfterEach
    void tearDown() throws IOException {
        for (Connection c : connections) {
            try {
                c.close();
            } catch (javax.jms.JMSException e) {
                // closing anyway
            }
        }
        if (qm != null) {
            qm.close();
        }
    }
}
