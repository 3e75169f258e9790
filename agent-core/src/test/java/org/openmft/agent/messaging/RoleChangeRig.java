package org.openmft.agent.messaging;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.qmgr.security.Permissions;

/**
 * An embedded queue manager with one agent's queues and user, for tests of the EVENT queue's stores:
 * {@link #grantRole} does what an administrator's {@code mft qmgr user grant} does, and the queue
 * manager closes the agent's connections.
 */
public final class RoleChangeRig implements AutoCloseable {
    private final EmbeddedQueueManager qm;
    private final QueueManagerEndpoint endpoint;
    private final Credentials agentUser;
    private final QueueManagerConnector admin;

    /**
     * @param dir where the queue manager keeps its data
     * @param agent the agent whose queues and user are made
     */
    public RoleChangeRig(Path dir, String agent) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        qm = EmbeddedQueueManager.start(new QueueManagerSettings("QMRC", dir.resolve("qm"), "127.0.0.1", port));
        endpoint = new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QMRC", null, port, "SYSTEM.DEF.SVRCONN");
        admin = QueueManagerConnector.forAgent(endpoint, qm.administrator().orElseThrow());
        new ArtemisQueueAdmin(admin).createQueues(QueueNames.agentQueues(agent));
        agentUser = qm.users().addAgent(agent, dir.resolve("credentials.xml"));
        qm.applySecurityChanges();
    }

    /** @return a connector logged in as the agent's user */
    public QueueManagerConnector agentConnector() throws Exception {
        return QueueManagerConnector.forAgent(endpoint, agentUser);
    }

    /** Grants the agent's user the requester role: the queue manager closes its connections. */
    public void grantRole() throws Exception {
        qm.users().grant(agentUser.user(), Permissions.REQUESTER);
        qm.applySecurityChanges();
    }

    /** @return the messages on {@code queue}, browsed as the administrator */
    public List<Message> browse(String queue) throws Exception {
        List<Message> out = new ArrayList<>();
        try (Connection c = admin.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            try (QueueBrowser b = s.createBrowser(s.createQueue(queue))) {
                for (Enumeration<?> e = b.getEnumeration(); e.hasMoreElements();) {
                    out.add((Message) e.nextElement());
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        qm.close();
    }
}
