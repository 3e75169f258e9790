package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.channel.ChannelAlias;
import org.openmft.agent.qmgr.channel.InboundRouter;
import org.openmft.xml.AgentRef;
import org.openmft.xml.DestinationType;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.PingAgentRequest;
import org.openmft.xml.Reply;
import org.openmft.xml.ReplyTo;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferRequest;

/**
 * A multi-hop route: three embedded queue managers in a line, QMA — QMC — QMB, with channels only
 * between neighbours and a queue manager alias on each end (IBM's QREMOTE with a blank RNAME: on
 * QMA, QMB via QMC; on QMB, QMA via QMC). A transfer from QMA's agent to QMB's and a ping of QMB's
 * agent from a requester of QMA go through QMC both ways; the file arrives with its source's MD5.
 * With QMA's alias removed, QMB cannot be reached from QMA any more, and a transfer there fails at
 * once (49) instead of waiting in a queue nothing forwards. The alias survives a restart of QMA with
 * the messages waiting on its route; a chain of aliases (a fourth queue manager beyond QMB) resolves
 * hop by hop, and a missing hop or a loop of aliases dead-letters the message with the reason.
 * (That a channel with aliases through it is not deleted before them: QmgrChannelAliasCommandsTest.)
 */
class ChannelAliasIT {
    @TempDir
    Path dir;
    TransferHarness qma;
    TransferHarness qmb;
    TransferHarness qmc;
    /** A fourth queue manager, beyond QMB, at the end of a chain of aliases. */
    TransferHarness qmd;

    @BeforeEach
    void threeQueueManagersInALine() throws Exception {
        qma = new TransferHarness(dir.resolve("a"), false, "QMA");
        qmb = new TransferHarness(dir.resolve("b"), false, "QMB");
        qmc = new TransferHarness(dir.resolve("c"), false, "QMC");
        // A 2 s heartbeat caps the channels' backoff at 6 s: they find a restarted queue manager soon.
        ChannelIT.joinWithHeartbeat(qma, qmc, 2);
        ChannelIT.joinWithHeartbeat(qmc, qma, 2);
        ChannelIT.joinWithHeartbeat(qmb, qmc, 2);
        ChannelIT.joinWithHeartbeat(qmc, qmb, 2);
        new ChannelAlias("QMB", "QMC").store(qma.root.resolve("qm"));
        new ChannelAlias("QMA", "QMC").store(qmb.root.resolve("qm"));
        ChannelIT.awaitRunning(qma, "QMC");
        ChannelIT.awaitRunning(qmb, "QMC");
        ChannelIT.awaitRunning(qmc, "QMA");
        ChannelIT.awaitRunning(qmc, "QMB");
    }

    @AfterEach
    void close() {
        for (TransferHarness h : new TransferHarness[] {qma, qmb, qmc, qmd}) {
            if (h != null) {
                h.close();
            }
        }
    }

    private TransferRequest aToB(Path src, Path out) {
        return new TransferRequest("6.00", TransferHarness.ME, new AgentRef("SRC", "QMA"), new AgentRef("DST", "QMB"),
                new ReplyTo("WMQFTE.TEST.REPLY", "QMA", true), new org.openmft.xml.TransferSet(0, null, Map.of(),
                        java.util.List.of(TransferHarness.item(src.toString(), out.toString(), DestinationType.FILE))),
                null);
    }

    /**
     * One test, to set up the queue managers once (each set-up costs seconds of CI): a restart of QMA
     * with messages waiting on the alias's route, then a transfer and a ping through the alias applied
     * again, a chain of aliases to QMD and a missing hop and a loop on the way, and last the alias
     * removed.
     */
    @Test
    void queueManagerBIsReachedThroughCAcrossARestartAndAlongAChainAndNotWithoutTheAlias() throws Exception {
        qmd = new TransferHarness(dir.resolve("d"), false, "QMD");
        ChannelIT.joinWithHeartbeat(qmb, qmd, 2);
        makeQueue(qmb, "APP.IN");
        makeQueue(qmd, "APP.IN");
        // The chain (QMD), a hop missing at QMC (QMY) and two aliases leading to each other (QMZ).
        for (String remote : java.util.List.of("QMD", "QMY", "QMZ")) {
            new ChannelAlias(remote, "QMC").store(qma.root.resolve("qm"));
        }
        new ChannelAlias("QMD", "QMB").store(qmc.root.resolve("qm"));
        new ChannelAlias("QMZ", "QMA").store(qmc.root.resolve("qm"));
        awaitRoute(qma, "QMB", true);
        awaitRoute(qmb, "QMA", true);

        messagesWaitingOnTheAliasRouteSurviveARestartOfQma();
        aTransferAndAPingReachQmbThroughQmc();
        aChainOfAliasesIsResolvedHopByHopAndAMissingHopOrALoopIsNamed();
        TransferHarness.await("nothing left waiting on any channel", 30, () -> {
            try {
                return "0".equals(ChannelIT.status(qma).getProperty("QMC.waiting"))
                        && "0".equals(ChannelIT.status(qmc).getProperty("QMB.waiting"))
                        && "0".equals(ChannelIT.status(qmc).getProperty("QMA.waiting"))
                        && "0".equals(ChannelIT.status(qmb).getProperty("QMC.waiting"));
            } catch (Exception e) {
                return false;
            }
        });
        assertThat(bodies(qmb, "APP.IN")).as("what waited across QMA's restart: each message once, none lost")
                .containsExactlyInAnyOrder("message 0", "message 1", "message 2", "message 3", "message 4");

        // The alias removed, the route is gone.
        Files.delete(ChannelAlias.file(qma.root.resolve("qm"), "QMB"));
        awaitRoute(qma, "QMB", false);
        Path after = dir.resolve("out/b.bin");
        Reply refused = qma.transfer(aToB(TransferHarness.randomFile(dir.resolve("in/b.bin"), 1000, 4), after), 60);
        assertThat(refused.resultCode()).as("%s", refused.supplements()).isEqualTo(49);
        assertThat(String.join(" ", refused.supplements())).contains("has no channel to queue manager QMB");
        assertThat(after).doesNotExist();
    }

    /**
     * The alias is kept with the queue manager that holds it: QMA stops while QMC is down, and the
     * messages for QMB waiting in QMA's transmission queue to QMC reach QMB when both are back (each
     * once: checked when nothing is left on the way).
     * (That the alias is applied again the transfer that follows shows: without it, the transfer
     * would wait in the alias's queue, which nothing forwards.)
     */
    private void messagesWaitingOnTheAliasRouteSurviveARestartOfQma() throws Exception {
        qmc.stopQueueManager();
        send(qma, "APP.IN", "QMB", 0, 5);
        assertThat(bodies(qma, Routing.transmissionQueue("QMC"))).as("waiting on QMA for the channel to QMC")
                .hasSize(5);
        qma.stopQueueManager();
        // QMC first: QMA's channel then finds it at once, without waiting out a backoff.
        qmc.startQueueManager();
        qma.startQueueManager();
        TransferHarness.await("five messages on QMB", 60, () -> {
            try {
                return bodies(qmb, "APP.IN").size() >= 5;
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** A transfer from QMA's agent to QMB's, and a requester of QMA pinging QMB's agent. */
    private void aTransferAndAPingReachQmbThroughQmc() throws Exception {
        qma.agent("SRC", Map.of("transferRoot", dir.toString()));
        qmb.agent("DST", Map.of("transferRoot", dir.toString()));
        Path src = TransferHarness.randomFile(dir.resolve("in/a.bin"), 3L << 20, 7);
        Path out = Files.createDirectories(dir.resolve("out")).resolve("a.bin");
        Reply r = qma.transfer(aToB(src, out), 120);
        assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
        assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
        assertThat(qmb.destinationOutcomes).hasSize(1);

        // As ftePingAgent -m QMB does from QMA.
        try (Connection c = qma.requester.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            jakarta.jms.TemporaryQueue replies = s.createTemporaryQueue();
            c.start();
            Routing routing = new Routing(MessagingProvider.ARTEMIS, "QMA");
            Message m = s.createTextMessage(new DocumentWriter().write(new PingAgentRequest("6.00",
                    TransferHarness.ME, "DST", "QMB", new ReplyTo(replies.getQueueName(), "QMA", false))));
            m.setJMSReplyTo(replies);
            m.setStringProperty(Routing.REPLY_TO_QMGR, "QMA");
            routing.address(m, "SYSTEM.FTE.COMMAND.DST", "QMB");
            try (MessageProducer p = s.createProducer(routing.destination(s, "SYSTEM.FTE.COMMAND.DST", "QMB"));
                    MessageConsumer in = s.createConsumer(replies)) {
                p.send(m);
                Message pong = in.receive(60_000);
                assertThat(pong).as("DST's answer, through QMB's alias and QMC").isNotNull();
                Reply answer = new RequestParser().parseReply(((TextMessage) pong).getText());
                assertThat(answer.resultCode()).as("%s", answer.supplements()).isZero();
            }
        }
    }

    /**
     * A chain of aliases, QMA — QMC — QMB — QMD: QMA's alias for QMD goes via QMC, where QMC's own alias
     * for QMD goes via QMB, the only one with a channel to QMD. Each queue manager resolves the next hop
     * where it is, as IBM MQ does. A message for QMY, for which QMC has no route, stops at QMC,
     * dead-lettered with the reason rather than waiting unseen; one for QMZ, for which QMA's and QMC's
     * aliases lead to each other, is dead-lettered after {@value InboundRouter#MAX_HOPS} hops instead of
     * going round for ever.
     */
    private void aChainOfAliasesIsResolvedHopByHopAndAMissingHopOrALoopIsNamed() throws Exception {
        awaitRoute(qmc, "QMD", true);
        awaitRoute(qmc, "QMZ", true);
        ChannelIT.awaitRunning(qmb, "QMD");
        send(qma, "APP.IN", "QMD", 0, 3);
        send(qma, "APP.IN", "QMY", 0, 1);
        send(qma, "APP.IN", "QMZ", 0, 1);
        try (Connection c = qmd.admin.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            java.util.List<String> got = new java.util.ArrayList<>();
            try (MessageConsumer in = s.createConsumer(s.createQueue("APP.IN"))) {
                for (int i = 0; i < 3; i++) {
                    Message m = in.receive(30_000);
                    assertThat(m).as("on QMD, through QMC's alias and QMB: %s so far", got).isNotNull();
                    got.add(((TextMessage) m).getText());
                }
            }
            assertThat(got).containsExactlyInAnyOrder("message 0", "message 1", "message 2");
        }
        try (Connection c = qmc.admin.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            try (MessageConsumer dead = s.createConsumer(s.createQueue(EmbeddedQueueManager.DEAD_LETTER_QUEUE))) {
                java.util.List<String> reasons = new java.util.ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    Message m = dead.receive(30_000);
                    assertThat(m).as("dead-lettered at QMC: %s so far", reasons).isNotNull();
                    reasons.add(m.getStringProperty(InboundRouter.ERROR));
                }
                assertThat(reasons).containsExactlyInAnyOrder("queue manager QMC has no channel to QMY",
                        "passed through 16 queue managers without reaching QMZ: do queue manager aliases on the way"
                                + " lead to each other?");
            }
        }
    }

    /** Makes an application queue on {@code h}'s queue manager. */
    private static void makeQueue(TransferHarness h, String queue) throws Exception {
        try (Connection c = h.admin.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createConsumer(s.createQueue(queue)).close();
        }
    }

    /** Sends persistent messages "message first" to "message end - 1", as a requester of {@code from}. */
    private static void send(TransferHarness from, String queue, String qmgr, int first, int end) throws Exception {
        try (Connection c = from.requester.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Routing routing = new Routing(MessagingProvider.ARTEMIS, from.qmName);
            try (MessageProducer p = s.createProducer(routing.destination(s, queue, qmgr))) {
                for (int i = first; i < end; i++) {
                    Message m = s.createTextMessage("message " + i);
                    routing.address(m, queue, qmgr);
                    p.send(m);
                }
            }
        }
    }

    /** The texts of the messages on a queue of {@code h}'s queue manager, browsed. */
    private static java.util.List<String> bodies(TransferHarness h, String queue) throws Exception {
        try (Connection c = h.admin.connect()) {
            c.start();
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            java.util.List<String> out = new java.util.ArrayList<>();
            try (jakarta.jms.QueueBrowser b = s.createBrowser(s.createQueue(queue))) {
                for (var e = b.getEnumeration(); e.hasMoreElements();) {
                    out.add(((TextMessage) e.nextElement()).getText());
                }
            }
            return out;
        }
    }

    /**
     * Waits until {@code h}'s queue manager has (or no longer has) a route to {@code qmgr}: its
     * transmission queue, as agents and commands look for it before they send.
     */
    private static void awaitRoute(TransferHarness h, String qmgr, boolean exists) throws Exception {
        TransferHarness.await("a route from " + h.qmName + " to " + qmgr + (exists ? "" : " gone"), 30, () -> {
            try (Connection c = h.admin.connect()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                s.createBrowser(s.createQueue(Routing.transmissionQueue(qmgr))).getEnumeration();
                return exists;
            } catch (jakarta.jms.InvalidDestinationException e) {
                return !exists;
            } catch (jakarta.jms.JMSException | org.openmft.agent.qmgr.QueueManagerException e) {
                return false;
            }
        });
    }
}
