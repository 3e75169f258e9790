package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.credentials.CredentialsFile;
import org.openmft.agent.host.HostRequests;
import org.openmft.agent.host.QueueManagerHost;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.Originator;
import org.openmft.xml.Reply;
import org.openmft.xml.RequestParser;
import org.openmft.xml.StopAgentRequest;

/**
 * A hostile tenant against a queue manager and two agents set up with the commands an administrator
 * uses ({@code mft qmgr create}, {@code fteCreateAgent -ac}, {@code mft qmgr user}), running as
 * processes of their own: a broker user without roles, a requester without authorities, and a second
 * local user of the machine each try what the issue lists. Every attempt is refused with a message
 * that says why, nothing is moved, written or read, the agents run on, and the same requester once
 * granted the transfer authority moves what its sandbox allows and nothing more.
 */
class HostileTenantIT {
    private static final String JVM_OPTIONS = "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    private static final String SECRET = "PRIVATE KEY 5f1c";

    @TempDir
    Path tmp;
    Distribution mft;

    @AfterEach
    void tearDown() throws Exception {
        if (mft != null) {
            mft.close();
        }
    }

    @Test
    void everyAttemptOfAHostileTenantIsRefusedAndNothingMoves() throws Exception {
        // Others may enter the test's directory, so that what keeps them out is OpenMFT's doing.
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path data = tmp.resolve("data");
        Path in = Files.createDirectories(tmp.resolve("in"));
        Path out = Files.createDirectories(tmp.resolve("out"));
        Path home = Files.createDirectories(tmp.resolve("home/.ssh"));
        Files.writeString(in.resolve("payroll.csv"), "name,amount\n");
        Files.writeString(home.resolve("id_rsa"), SECRET);
        mft = new Distribution(data).jvmOptions(JVM_OPTIONS);
        int port = mft.createQueueManager("QM1");
        mft.run("fteCreateAgent", "-agentName", "AGENT1", "-agentQMgr", "QM1", "-ac", "--sandbox-dir", in.toString())
                .expect(0);
        mft.run("fteCreateAgent", "-agentName", "AGENT2", "-agentQMgr", "QM1", "-ac", "--sandbox-dir", out.toString())
                .expect(0);
        // AGENT1's own credentials are encrypted with fteObfuscate, and it reads them with the key file.
        Path agentCredentials = data.resolve("config/QM1/agents/AGENT1/MQMFTCredentials.xml");
        Path key = tmp.resolve("mft.key");
        Files.writeString(key, "a-key-of-more-than-sixteen-bytes\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        String clear = Files.readString(agentCredentials);
        assertThat(mft.run("fteObfuscate", "-credentialsFile", agentCredentials.toString()).expect(1).output())
                .contains("needs -credentialsKeyFile");
        assertThat(Files.readString(agentCredentials)).isEqualTo(clear);
        assertThat(mft.run("fteObfuscate", "-credentialsFile", agentCredentials.toString(), "-credentialsKeyFile",
                key.toString()).expect(0).output()).contains("2 value(s) in " + agentCredentials + " are encrypted");
        assertThat(Files.readString(agentCredentials)).doesNotContain("mqPassword=").contains("mqPasswordCipher=");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(agentCredentials))).isEqualTo("rw-------");
        Files.writeString(data.resolve("config/QM1/agents/AGENT1/agent.properties"), "agentCredentialsKeyFile=" + key
                + "\n", java.nio.file.StandardOpenOption.APPEND);
        mft.mft("qmgr", "user", "grant", "QM1", "AGENT1", "SYSTEM.FTE.AUTHAGT1.AGENT2+put").expect(0);
        mft.mft("qmgr", "user", "grant", "QM1", "AGENT2", "SYSTEM.FTE.AUTHAGT1.AGENT1+browse").expect(0);
        mft.mft("qmgr", "user", "add", "QM1", "mallory").expect(0);
        mft.mft("qmgr", "user", "add", "QM1", "eve", "--role", "requester").expect(0);
        mft.mft("qmgr", "start", "QM1").expect(0);
        mft.run("fteStartAgent", "AGENT1").expect(0);
        mft.run("fteStartAgent", "AGENT2").expect(0);

        QueueManagerEndpoint endpoint = new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QM1", "127.0.0.1", port,
                "SYSTEM.DEF.SVRCONN");
        Path credentials = data.resolve("qmgrs/QM1/security/credentials");
        QueueManagerConnector mallory = connector(endpoint, credentials.resolve("mallory.xml"));
        QueueManagerConnector eve = connector(endpoint, credentials.resolve("eve.xml"));

        // A broker user without roles logs in and can do nothing.
        try (Connection c = mallory.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            refused(() -> send(s, s.createQueue("SYSTEM.FTE.COMMAND.AGENT1"), transferXml(in.resolve("payroll.csv"),
                    out.resolve("m.csv"))), "send");
            refused(() -> s.createConsumer(s.createQueue("SYSTEM.FTE.DATA.AGENT2")).close(), "consume");
        }

        // A requester: may put requests, nothing else; its requests need the transfer authority.
        try (Connection c = eve.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            refused(() -> s.createConsumer(s.createQueue("SYSTEM.FTE.DATA.AGENT2")).close(), "consume");
            refused(() -> s.createBrowser(s.createQueue("SYSTEM.FTE.STATE.AGENT1")).getEnumeration(), "browse");
            refused(() -> send(s, s.createTopic("SYSTEM.FTE"), "<agent status forged by eve/>"), "send");
            refused(() -> {
                Message m = s.createMessage();
                m.setStringProperty(HostRequests.OPERATION, HostRequests.START_AGENT);
                m.setStringProperty(HostRequests.AGENT_NAME, "AGENT1");
                m.setStringProperty(HostRequests.COORDINATION_QMGR, "QM1");
                try (MessageProducer p = s.createProducer(s.createQueue(QueueManagerHost.HOST_QUEUE))) {
                    p.send(m);
                }
            }, "send");
            Reply noAuthority = request(c, "AGENT1", transferXml(in.resolve("payroll.csv"), out.resolve("e.csv")));
            assertThat(noAuthority.resultCode()).isEqualTo(53);
            assertThat(noAuthority.supplements()).singleElement().asString()
                    .contains("User eve does not have the authority (TRANSFER)");
            Reply noStop = request(c, "AGENT1", new DocumentWriter().write(new StopAgentRequest("6.00",
                    new Originator("it", "mftadmin"), "AGENT1", true, null)));
            assertThat(noStop.resultCode()).as("%s", noStop.supplements()).isEqualTo(53);
        }

        // Granted the transfer authority, eve moves what the agents' sandboxes allow, and nothing else.
        mft.mft("qmgr", "user", "grant", "QM1", "eve", "SYSTEM.FTE.AUTHTRN1.AGENT1+browse").expect(0);
        try (Connection c = eve.connect()) {
            Reply stolen = requestFinal(c, "AGENT1", transferXml(home.resolve("id_rsa"), out.resolve("id_rsa")));
            assertThat(stolen.resultCode()).as("%s", stolen.supplements()).isNotZero();
            Reply planted = requestFinal(c, "AGENT1", transferXml(in.resolve("payroll.csv"),
                    home.resolve("authorized_keys")));
            assertThat(planted.resultCode()).as("%s", planted.supplements()).isNotZero();
            Reply allowed = requestFinal(c, "AGENT1", transferXml(in.resolve("payroll.csv"), out.resolve("ok.csv")));
            assertThat(allowed.resultCode()).as("%s", allowed.supplements()).isZero();
        }
        assertThat(out.resolve("ok.csv")).hasContent("name,amount");
        try (var files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("ok.csv");
        }
        try (var files = Files.list(home)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("id_rsa");
        }
        assertThat(mft.run("ftePingAgent", "AGENT1").expect(0).output()).contains("AGENT1");
        Path agentLog = data.resolve("logs/QM1/agents/AGENT1/logs/output0.log");
        Distribution.await("the refusal in " + agentLog, Duration.ofSeconds(10),
                () -> read(agentLog).contains("BFGCH0083E: User eve"));

        // Another local user reads none of the secrets.
        String other = LocalUsers.otherUser();
        List<Path> secrets = new ArrayList<>(List.of(data.resolve("qmgrs/QM1/security/users.properties"),
                data.resolve("qmgrs/QM1/security/roles.properties"),
                data.resolve("qmgrs/QM1/security/MQMFTCredentials.xml"), credentials.resolve("eve.xml"),
                data.resolve("config/QM1/agents/AGENT1/MQMFTCredentials.xml")));
        for (Path p : secrets) {
            assertThat(p).exists();
            Distribution.Result r = LocalUsers.runAs(other, "cat", p.toString());
            assertThat(r.exitCode()).as("%s read by %s: %s", p, other, r.output()).isNotZero();
            assertThat(r.output()).contains("Permission denied");
        }
        Distribution.Result journal = LocalUsers.runAs(other, "ls", data.resolve("qmgrs/QM1").toString());
        assertThat(journal.output()).contains("Permission denied");
    }

    private static QueueManagerConnector connector(QueueManagerEndpoint endpoint, Path file) throws Exception {
        Credentials c = CredentialsFile.read(file).queueManager("QM1", CredentialsFile.localUser()).orElseThrow();
        return QueueManagerConnector.forAgent(endpoint, c);
    }

    @FunctionalInterface
    private interface Attempt {
        void run() throws Exception;
    }

    /** The queue manager refuses the attempt, naming the permission it lacks. */
    private static void refused(Attempt attempt, String permission) {
        JMSException e = assertThrows(JMSException.class, attempt::run);
        assertThat(e).as("%s", e).isInstanceOf(JMSSecurityException.class);
        assertThat(e.getMessage()).containsIgnoringCase(permission);
    }

    private static void send(Session s, jakarta.jms.Destination to, String body) throws JMSException {
        try (MessageProducer p = s.createProducer(to)) {
            p.send(s.createTextMessage(body));
        }
    }

    private static String transferXml(Path source, Path destination) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <request version="6.00">
                  <managedTransfer>
                    <originator><hostName>it</hostName><userID>mftadmin</userID></originator>
                    <sourceAgent agent="AGENT1" QMgr="QM1"/>
                    <destinationAgent agent="AGENT2" QMgr="QM1"/>
                    <reply QMGR="QM1">WMQFTE.HOSTILE.REPLY</reply>
                    <transferSet>
                      <item mode="binary" checksumMethod="MD5">
                        <source><file>%s</file></source>
                        <destination type="file" exist="overwrite"><file>%s</file></destination>
                      </item>
                    </transferSet>
                  </managedTransfer>
                </request>
                """.formatted(source, destination);
    }

    /** Puts a request and returns the agent's first reply. */
    private Reply request(Connection c, String agent, String xml) throws Exception {
        return replies(c, agent, xml, 1).get(0);
    }

    /** Puts a request and returns its final reply: the outcome of an accepted transfer. */
    private Reply requestFinal(Connection c, String agent, String xml) throws Exception {
        List<Reply> r = replies(c, agent, xml, 2);
        assertThat(r.get(0).resultCode()).as("acknowledgement: %s", r.get(0).supplements()).isZero();
        return r.get(1);
    }

    private List<Reply> replies(Connection c, String agent, String xml, int count) throws Exception {
        Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
        TemporaryQueue replies = s.createTemporaryQueue();
        c.start();
        TextMessage m = s.createTextMessage(xml);
        m.setJMSReplyTo(replies);
        try (MessageProducer p = s.createProducer(s.createQueue("SYSTEM.FTE.COMMAND." + agent))) {
            p.send(m);
        }
        List<Reply> out = new ArrayList<>();
        try (MessageConsumer consumer = s.createConsumer(replies)) {
            while (out.size() < count) {
                Message r = consumer.receive(60_000);
                assertThat(r).as("reply %d of %d; agent logs:%n%s", out.size() + 1, count, agentLogs()).isNotNull();
                out.add(new RequestParser().parseReply(((TextMessage) r).getText()));
            }
        }
        s.close();
        return out;
    }

    /** The last lines of both agents' logs, for a failure's message. */
    private String agentLogs() {
        StringBuilder b = new StringBuilder();
        for (String agent : List.of("AGENT1", "AGENT2")) {
            String log = read(tmp.resolve("data/logs/QM1/agents/" + agent + "/logs/output0.log"));
            String[] lines = log.split("\n");
            b.append("--- ").append(agent).append('\n');
            for (int i = Math.max(0, lines.length - 40); i < lines.length; i++) {
                b.append(lines[i]).append('\n');
            }
        }
        return b.toString();
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
