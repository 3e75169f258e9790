package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.credentials.Credentials;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.channel.ChannelDefinition;
import org.openmft.agent.qmgr.channel.Channels;
import org.openmft.agent.qmgr.channel.InboundRouter;
import org.openmft.agent.qmgr.security.Permissions;
import org.openmft.xml.AgentRef;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferRequest;

/**
 * Two embedded queue managers joined by channels both ways (Artemis core bridges), each with an
 * agent: a transfer whose destination agent is on the other queue manager goes through them
 * (IBM's QUEUE@QMGR), its answers come back through them; a message routed to a queue a channel may
 * not feed lands in the dead-letter queue with the reason; a message keeps the user its first queue
 * manager validated; a publication routed to the other's {@code SYSTEM.FTE} is published there;
 * without a channel, a transfer to the other queue manager fails at once (49).
 */
class ChannelIT {
    @TempDir
    Path dir;
    TransferHarness qm1;
    TransferHarness qm2;

    @BeforeEach
    void twoQueueManagers() throws Exception {
        qm1 = new TransferHarness(dir.resolve("one"), false, "QM1");
        qm2 = new TransferHarness(dir.resolve("two"), false, "QM2");
        join(qm1, qm2);
        join(qm2, qm1);
        awaitRunning(qm1, "QM2");
        awaitRunning(qm2, "QM1");
    }

    @AfterEach
    void close() {
        qm1.close();
        qm2.close();
    }

    /** A channel from {@code from} to {@code to}: a channel user on {@code to}, a definition on {@code from}. */
    static void join(TransferHarness from, TransferHarness to) throws Exception {
        join(from, to, 1, to.port);
    }

    /** {@code channels} parallel channels from {@code from} to {@code to}. */
    static void join(TransferHarness from, TransferHarness to, int channels) throws Exception {
        join(from, to, channels, to.port);
    }

    /** As {@link #join(TransferHarness, TransferHarness)}, the channel going to {@code port} (a relay's). */
    static void joinThrough(TransferHarness from, TransferHarness to, int port) throws Exception {
        join(from, to, 1, port);
    }

    /**
     * As {@link #join(TransferHarness, TransferHarness)}, with IBM's HBINT of {@code heartbeatSeconds}:
     * a short one also caps the backoff, so the channel finds a restarted queue manager within seconds.
     */
    static void joinWithHeartbeat(TransferHarness from, TransferHarness to, int heartbeatSeconds) throws Exception {
        join(from, to, 1, to.port, heartbeatSeconds);
    }

    private static void join(TransferHarness from, TransferHarness to, int channels, int port) throws Exception {
        join(from, to, channels, port, ChannelDefinition.DEFAULT_HEARTBEAT_SECONDS);
    }

    private static void join(TransferHarness from, TransferHarness to, int channels, int port, int heartbeatSeconds)
            throws Exception {
        Credentials login = to.qm.users().add("channel." + from.qmName, Set.of(Permissions.CHANNEL), true);
        to.qm.applySecurityChanges();
        Path credentials = from.root.resolve("channel-" + to.qmName + ".xml");
        to.qm.users().writeCredentials(credentials, login, false);
        new ChannelDefinition(to.qmName, "127.0.0.1", port, credentials, null, null, false, channels,
                heartbeatSeconds).store(from.root.resolve("qm"));
    }

    /** The channel statuses {@code h}'s queue manager wrote last. */
    static Properties status(TransferHarness h) throws Exception {
        Properties p = new Properties();
        Path f = h.root.resolve("qm").resolve(ChannelDefinition.DIRECTORY).resolve(Channels.STATUS_FILE);
        if (Files.exists(f)) {
            try (var in = Files.newInputStream(f)) {
                p.load(in);
            }
        }
        return p;
    }

    /** Waits until the channel whose status key is {@code remote} runs. */
    static void awaitRunning(TransferHarness h, String remote) throws InterruptedException {
        TransferHarness.await("channel " + h.qmName + ".TO." + remote + " running", 30, () -> {
            try {
                return "RUNNING".equals(status(h).getProperty(remote + ".state"));
            } catch (Exception e) {
                return false;
            }
        });
    }

    static TransferRequest across(Path src, Path out) {
        return new TransferRequest("6.00", TransferHarness.ME, new AgentRef("SRC", "QM1"), new AgentRef("DST", "QM2"),
                new org.openmft.xml.ReplyTo("WMQFTE.TEST.REPLY", "QM1", true),
                new org.openmft.xml.TransferSet(0, null, Map.of(), java.util.List.of(TransferHarness.item(
                        src.toString(), out.toString(), DestinationType.FILE))), null);
    }

    @Test
    void aTransferToAnAgentOnAnotherQueueManagerGoesThroughTheChannels() throws Exception {
        qm1.agent("SRC", Map.of("transferRoot", dir.toString()));
        qm2.agent("DST", Map.of("transferRoot", dir.toString()));
        Path src = TransferHarness.randomFile(dir.resolve("in/a.bin"), 5L << 20, 3);
        Files.createDirectories(dir.resolve("out"));
        Path out = dir.resolve("out/a.bin");
        Reply r = qm1.transfer(across(src, out), 120);
        assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
        assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
        assertThat(qm2.destinationOutcomes).hasSize(1);
        TransferHarness.await("nothing waiting on either channel", 30, () -> {
            try {
                return "0".equals(status(qm1).getProperty("QM2.waiting"))
                        && "0".equals(status(qm2).getProperty("QM1.waiting"));
            } catch (Exception e) {
                return false;
            }
        });
    }

    @Test
    void aRequestFromAnotherQueueManagerIsAnsweredThroughTheChannels() throws Exception {
        qm1.agent("SRC", Map.of("transferRoot", dir.toString()));
        qm2.agent("DST", Map.of("transferRoot", dir.toString()));
        Path src = TransferHarness.randomFile(dir.resolve("in/c.bin"), 300_000, 5);
        Files.createDirectories(dir.resolve("out"));
        Path out = dir.resolve("out/c.bin");
        // A requester of QM2 (the command queue manager) asks SRC on QM1, as fteCreateTransfer -sm QM1 -w does.
        try (Connection c = qm2.requester.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            jakarta.jms.TemporaryQueue replies = s.createTemporaryQueue();
            c.start();
            TransferRequest base = across(src, out);
            TransferRequest request = new TransferRequest(base.version(), base.originator(), base.sourceAgent(),
                    base.destinationAgent(), new org.openmft.xml.ReplyTo(replies.getQueueName(), "QM2", true),
                    base.transferSet(), null);
            Routing routing = new Routing(MessagingProvider.ARTEMIS, "QM2");
            Message m = s.createTextMessage(new org.openmft.xml.DocumentWriter().write(request));
            m.setJMSReplyTo(replies);
            m.setStringProperty(Routing.REPLY_TO_QMGR, "QM2");
            routing.address(m, "SYSTEM.FTE.COMMAND.SRC", "QM1");
            try (MessageProducer p = s.createProducer(routing.destination(s, "SYSTEM.FTE.COMMAND.SRC", "QM1"))) {
                p.send(m);
            }
            try (MessageConsumer in = s.createConsumer(replies)) {
                Message ack = in.receive(60_000);
                assertThat(ack).as("the acknowledgement, through QM1's channel to QM2").isNotNull();
                Reply a = new org.openmft.xml.RequestParser().parseReply(((jakarta.jms.TextMessage) ack).getText());
                assertThat(a.resultCode()).as("%s", a.supplements()).isZero();
                Message fin = in.receive(120_000);
                assertThat(fin).as("the final reply").isNotNull();
                Reply f = new org.openmft.xml.RequestParser().parseReply(((jakarta.jms.TextMessage) fin).getText());
                assertThat(f.resultCode()).as("%s", f.supplements()).isZero();
            }
        }
        assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
    }

    @Test
    void aRoutedMessageKeepsItsUserAndAForbiddenQueueGetsNothing() throws Exception {
        try (Connection c2 = qm2.admin.connect(); Connection c1 = qm1.requester.connect()) {
            Session s2 = c2.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s2.createConsumer(s2.createQueue("APP.IN")).close(); // makes the application queue
            c2.start();
            Session s1 = c1.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Routing routing = new Routing(MessagingProvider.ARTEMIS, "QM1");
            try (MessageProducer p = s1.createProducer(null)) {
                Message m = s1.createTextMessage("hello from QM1");
                routing.address(m, "APP.IN", "QM2");
                m.setStringProperty(Routing.ORIGIN_USER, "admin"); // a client's claim: overwritten
                p.send(routing.destination(s1, "APP.IN", "QM2"), m);
                Message evil = s1.createTextMessage("plant a state record");
                routing.address(evil, "SYSTEM.FTE.STATE.DST", "QM2");
                p.send(routing.destination(s1, "SYSTEM.FTE.STATE.DST", "QM2"), evil);
            }
            try (MessageConsumer in = s2.createConsumer(s2.createQueue("APP.IN"));
                    MessageConsumer dead = s2.createConsumer(s2.createQueue(EmbeddedQueueManager.DEAD_LETTER_QUEUE))) {
                Message got = in.receive(30_000);
                assertThat(got).as("the routed message").isNotNull();
                assertThat(got.getStringProperty("JMSXUserID")).as("the user QM1 validated")
                        .isEqualTo(TransferHarness.REQUESTER);
                assertThat(got.getStringProperty(Routing.ORIGIN_QMGR)).isEqualTo("QM1");
                Message refused = dead.receive(30_000);
                assertThat(refused).as("the forbidden one, dead-lettered").isNotNull();
                assertThat(refused.getStringProperty(InboundRouter.ERROR))
                        .contains("may not put to queue SYSTEM.FTE.STATE.DST");
            }
        }
    }

    /**
     * How an agent publishes to a coordination queue manager that is not its own: a message routed to
     * {@code SYSTEM.FTE} on the other queue manager is published there, to the subscriptions that
     * exist and, when retained, to those made later; behind the first one, in the channel's order.
     */
    @Test
    void aPublicationRoutedToSystemFteIsPublishedOnTheOtherQueueManager() throws Exception {
        String status = Publications.agentStatus("SRC");
        String log = Publications.log("SRC", "414d5120514d31202020202020202020a1b2c3d4e5f60708");
        try (Connection c2 = qm2.admin.connect(); Connection c1 = qm1.requester.connect()) {
            Session s2 = c2.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer logs = Publications.subscribe(s2, MessagingProvider.ARTEMIS, "SYSTEM.FTE/Log/#");
            c2.start();
            Session s1 = c1.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Routing routing = new Routing(MessagingProvider.ARTEMIS, "QM1");
            try (MessageProducer p = s1.createProducer(routing.destination(s1, Publications.TOPIC, "QM2"))) {
                for (String topic : java.util.List.of(status, log)) {
                    Message m = s1.createTextMessage("<publication of " + topic + "/>");
                    m.setStringProperty(Publications.TOPIC_STRING_PROPERTY, topic);
                    m.setBooleanProperty(Publications.RETAINED_PROPERTY, topic.equals(status));
                    routing.address(m, Publications.TOPIC, "QM2");
                    p.send(m);
                }
            }
            Message got = logs.receive(30_000);
            assertThat(got).as("the log publication, through the channel").isNotNull();
            assertThat(got.getStringProperty(Publications.TOPIC_STRING_PROPERTY)).isEqualTo(log);
            assertThat(got.getStringProperty("JMSXUserID")).as("the user QM1 validated")
                    .isEqualTo(TransferHarness.REQUESTER);
            try (MessageConsumer later = Publications.subscribe(s2, MessagingProvider.ARTEMIS, status)) {
                Message retained = later.receive(30_000);
                assertThat(retained).as("the retained status, for a subscriber that came later").isNotNull();
                assertThat(((jakarta.jms.TextMessage) retained).getText()).contains(status);
            }
        }
    }

    @Test
    void withoutAChannelATransferToAnotherQueueManagerFailsAtOnce() throws Exception {
        Files.delete(ChannelDefinition.file(qm1.root.resolve("qm"), "QM2"));
        TransferHarness.await("the channel removed", 30, () -> {
            try {
                return status(qm1).getProperty("QM2.state") == null;
            } catch (Exception e) {
                return false;
            }
        });
        qm1.agent("SRC", Map.of("transferRoot", dir.toString()));
        Path src = TransferHarness.randomFile(dir.resolve("in/b.bin"), 1000, 4);
        Files.createDirectories(dir.resolve("out"));
        // The transmission queue stays (with whatever it holds), so the route exists but nothing
        // forwards it: the transfer waits; a queue manager never named gets 49 at once.
        Reply r = qm1.transfer(new TransferRequest("6.00", TransferHarness.ME, new AgentRef("SRC", "QM1"),
                new AgentRef("DST", "QM9"), new org.openmft.xml.ReplyTo("WMQFTE.TEST.REPLY", "QM1", true),
                new org.openmft.xml.TransferSet(0, null, Map.of(), java.util.List.of(TransferHarness.item(
                        src.toString(), dir.resolve("out/b.bin").toString(), DestinationType.FILE))), null), 60);
        assertThat(r.resultCode()).isEqualTo(49);
        assertThat(String.join(" ", r.supplements())).contains("has no channel to queue manager QM9");
    }

    @Test
    void aQueueManagerWithChannelsRestartsWithThem() throws Exception {
        // The bridge and the inbound divert are kept in the journal: the broker makes their transformers
        // again from their class names at the next start.
        Path dirX = dir.resolve("x");
        int port = TransferHarness.freePort();
        org.openmft.agent.qmgr.QueueManagerSettings settings = new org.openmft.agent.qmgr.QueueManagerSettings("QMX",
                dirX, "127.0.0.1", port);
        Credentials login = qm2.qm.users().add("channel.QMX", Set.of(Permissions.CHANNEL), true);
        qm2.qm.applySecurityChanges();
        Path credentials = dir.resolve("qmx-to-qm2.xml");
        qm2.qm.users().writeCredentials(credentials, login, false);
        for (int run = 1; run <= 2; run++) {
            try (EmbeddedQueueManager qmx = EmbeddedQueueManager.start(settings)) {
                assertThat(qmx.isRunning()).isTrue();
                if (run == 1) {
                    new ChannelDefinition("QM2", "127.0.0.1", qm2.port, credentials, null, null, false).store(dirX);
                }
                Path status = dirX.resolve(ChannelDefinition.DIRECTORY).resolve(Channels.STATUS_FILE);
                TransferHarness.await("channel QMX.TO.QM2 running, start " + run, 30, () -> {
                    try {
                        return Files.exists(status) && Files.readString(status).contains("QM2.state=RUNNING");
                    } catch (java.io.IOException e) {
                        return false;
                    }
                });
            }
        }
    }
}
