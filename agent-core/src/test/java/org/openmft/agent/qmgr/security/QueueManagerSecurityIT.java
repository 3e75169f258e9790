package org.openmft.agent.qmgr.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.jms.Connection;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.host.QueueManagerHost;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * The embedded queue manager's security against a real broker over TCP, as a process on another
 * host would meet it: logins are checked, every role may do what {@link Permissions} says and
 * nothing else, the broker vouches for the sender of every message, and a removed user is out
 * within seconds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueueManagerSecurityIT {
    static final String QM = "QMSEC";

    @TempDir
    static Path dir;
    EmbeddedQueueManager qm;
    int port;
    Credentials alpha;
    Credentials beta;
    Credentials app;
    Credentials nobody;

    @BeforeAll
    void start() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        qm = EmbeddedQueueManager.start(new QueueManagerSettings(QM, dir.resolve("qm"), "127.0.0.1", port));
        QueueManagerUsers users = qm.users();
        alpha = users.addAgent("ALPHA", dir.resolve("alpha.xml"));
        beta = users.addAgent("BETA", dir.resolve("beta.xml"));
        app = users.add("app", Set.of(Permissions.REQUESTER), false);
        nobody = users.add("nobody", Set.of(), false);
        qm.applySecurityChanges();
        ArtemisQueueAdmin admin = new ArtemisQueueAdmin(connector(qm.administrator().orElseThrow()));
        admin.createQueues(QueueNames.agentQueues("ALPHA"));
        admin.createQueues(QueueNames.agentQueues("BETA"));
    }

    @AfterAll
    void stop() {
        qm.close();
    }

    QueueManagerConnector connector(Credentials credentials) throws QueueManagerException {
        return QueueManagerConnector.forAgent(new QueueManagerEndpoint(MessagingProvider.ARTEMIS, QM, "127.0.0.1", port,
                "SYSTEM.DEF.SVRCONN"), credentials);
    }

    @Test
    void aNewQueueManagerHasAnAdministratorWhoseFilesOnlyItsOwnerReads() throws Exception {
        QueueManagerUsers users = qm.users();
        assertThat(users.users()).containsEntry(QueueManagerUsers.ADMINISTRATOR, Set.of(Permissions.ADMIN));
        for (Path f : new Path[] {users.usersFile(), users.rolesFile(), users.administratorCredentialsFile()}) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as("%s", f)
                    .isEqualTo("rw-------");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(users.directory())))
                .isEqualTo("rwx------");
        String hashes = Files.readString(users.usersFile());
        assertThat(hashes).contains("app=ENC(").doesNotContain(app.password());
        assertThat(Files.readString(users.administratorCredentialsFile()))
                .contains("<tns:mqmftCredentials xmlns:tns=\"http://wmqfte.ibm.com/MQMFTCredentials\"")
                .contains("<tns:qmgr name=\"" + QM + "\" mqUserId=\"mftadmin\"");
    }

    @Test
    void aWrongPasswordAnUnknownUserAndNoUserAreRefusedSayingWhich() {
        assertThatThrownBy(() -> connector(new Credentials("app", "wrong")).connect().close())
                .isInstanceOfSatisfying(QueueManagerException.class, e -> assertThat(e.exitCode()).isEqualTo(78))
                .hasMessageContaining("refused the login of user 'app'")
                .hasMessageContaining("unknown to it or the password is wrong");
        assertThatThrownBy(() -> connector(new Credentials("stranger", "x")).connect().close())
                .hasMessageContaining("refused the login of user 'stranger'");
        assertThatThrownBy(() -> connector(null).connect().close())
                .hasMessageContaining("refused a connection without a user")
                .hasMessageContaining("QMgrAuthenticationCredentialsFile");
    }

    @Test
    void aUserWithoutRolesLogsInButMayDoNothing() throws Exception {
        try (Connection c = connector(nobody).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThatThrownBy(() -> send(s, QueueNames.command("ALPHA")))
                    .isInstanceOf(JMSSecurityException.class)
                    .hasMessageContaining("User: nobody does not have permission='SEND'");
        }
    }

    @Test
    void anAgentConsumesFromItsOwnQueuesAndSendsToOthersButConsumesNoOtherAgentsQueue() throws Exception {
        try (Connection c = connector(alpha).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            send(s, QueueNames.data("BETA"));
            s.createConsumer(s.createQueue(QueueNames.data("ALPHA"))).close();
            s.createConsumer(s.createQueue(QueueNames.state("ALPHA"))).close();
            for (String other : new String[] {QueueNames.data("BETA"), QueueNames.command("BETA"),
                    QueueNames.state("BETA"), QueueNames.reply("BETA")}) {
                assertThatThrownBy(() -> s.createConsumer(s.createQueue(other)).close()).as(other)
                        .isInstanceOf(JMSSecurityException.class)
                        .hasMessageContaining("User: ALPHA does not have permission='CONSUME'");
            }
            send(s, Publications.TOPIC, true);
            assertThatThrownBy(() -> send(s, QueueManagerHost.HOST_QUEUE)).isInstanceOf(JMSSecurityException.class);
        }
        try (Connection c = connector(beta).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            try (MessageConsumer mine = s.createConsumer(s.createQueue(QueueNames.data("BETA")))) {
                assertThat(mine.receive(5000)).as("ALPHA's chunk on BETA's DATA queue").isNotNull();
            }
        }
    }

    @Test
    void aRequesterPutsRequestsButNeitherReadsAgentQueuesNorPublishesNorStartsAgents() throws Exception {
        try (Connection c = connector(app).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            send(s, QueueNames.command("BETA"));
            s.createConsumer(s.createTemporaryQueue()).close();
            for (String q : new String[] {QueueNames.data("ALPHA"), QueueNames.command("ALPHA"),
                    QueueNames.reply("ALPHA"), QueueNames.state("ALPHA")}) {
                assertThatThrownBy(() -> s.createConsumer(s.createQueue(q)).close()).as(q)
                        .isInstanceOf(JMSSecurityException.class).hasMessageContaining("permission='CONSUME'");
            }
            assertThatThrownBy(() -> send(s, QueueNames.data("ALPHA"))).isInstanceOf(JMSSecurityException.class);
            assertThatThrownBy(() -> send(s, Publications.TOPIC, true)).as("publishing status")
                    .isInstanceOf(JMSSecurityException.class).hasMessageContaining("permission='SEND'");
            assertThatThrownBy(() -> send(s, QueueManagerHost.HOST_QUEUE)).as("asking to start an agent")
                    .isInstanceOf(JMSSecurityException.class).hasMessageContaining("User: app does not have");
        }
        drain(beta, QueueNames.command("BETA"));
    }

    @Test
    void theSenderAnAgentSeesIsTheBrokersWordNotTheSendersClaim() throws Exception {
        try (Connection c = connector(app).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createQueue(QueueNames.command("ALPHA")))) {
                Message m = s.createTextMessage("<ping/>");
                m.setStringProperty("JMSXUserID", "mallory");
                p.send(m);
            }
        }
        try (Connection c = connector(alpha).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            try (MessageConsumer consumer = s.createConsumer(s.createQueue(QueueNames.command("ALPHA")))) {
                Message m = consumer.receive(5000);
                assertThat(m).isNotNull();
                assertThat(m.getStringProperty("JMSXUserID")).isEqualTo("app");
            }
        }
    }

    @Test
    void aRemovedUserLosesItsConnectionAndCannotLogInAgainWithinSeconds() throws Exception {
        Credentials leaver = qm.users().add("leaver", Set.of(Permissions.REQUESTER), false);
        qm.applySecurityChanges();
        CountDownLatch lost = new CountDownLatch(1);
        try (Connection c = connector(leaver).connect()) {
            c.setExceptionListener(e -> lost.countDown());
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            send(s, QueueNames.command("BETA"));
            long removed = System.nanoTime();
            assertThat(qm.users().remove("leaver")).isTrue();
            // Nothing here tells the queue manager: its own scan finds the change.
            assertThat(lost.await(10, TimeUnit.SECONDS)).as("the connection of the removed user closed").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - removed)).isLessThan(Duration.ofSeconds(5));
        }
        assertThatThrownBy(() -> connector(leaver).connect().close())
                .hasMessageContaining("refused the login of user 'leaver'");
        drain(beta, QueueNames.command("BETA"));
    }

    @Test
    void aCredentialsFileOthersMayReadIsRefusedNamingTheFile() throws Exception {
        Path open = dir.resolve("open.xml");
        qm.users().writeCredentials(open, app, true);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> AgentConfig.from(Map.of("agentName", "ALPHA", "agentQMgr", QM,
                "agentQMgrAuthenticationCredentialsFile", open.toString()), Map.of()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("agentQMgrAuthenticationCredentialsFile=" + open)
                .hasMessageContaining("may be read or changed by other users")
                .hasMessageContaining("chmod 600 " + open);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-------"));
        AgentConfig ok = AgentConfig.from(Map.of("agentName", "ALPHA", "agentQMgr", QM,
                "agentQMgrAuthenticationCredentialsFile", open.toString()), Map.of());
        assertThat(ok.endpoint().credentials()).isEqualTo(app);
    }

    private static void send(Session s, String queue) throws Exception {
        send(s, queue, false);
    }

    private static void send(Session s, String address, boolean topic) throws Exception {
        try (MessageProducer p = s.createProducer(topic ? s.createTopic(address) : s.createQueue(address))) {
            p.send(s.createTextMessage("x"));
        }
    }

    private void drain(Credentials owner, String queue) throws Exception {
        try (Connection c = connector(owner).connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            try (MessageConsumer consumer = s.createConsumer(s.createQueue(queue))) {
                while (consumer.receive(200) != null) {
                    // drop
                }
            }
        }
    }
}
