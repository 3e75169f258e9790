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
import org.openmft.agent.qmgr.channel.ChannelAlias;
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
 * once (49) instead of waiting in a queue nothing forwards.
 */
class ChannelAliasIT {
    @TempDir
    Path dir;
    TransferHarness qma;
    TransferHarness qmb;
    TransferHarness qmc;

    @BeforeEach
    void threeQueueManagersInALine() throws Exception {
        qma = new TransferHarness(dir.resolve("a"), false, "QMA");
        qmb = new TransferHarness(dir.resolve("b"), false, "QMB");
        qmc = new TransferHarness(dir.resolve("c"), false, "QMC");
        ChannelIT.join(qma, qmc);
        ChannelIT.join(qmc, qma);
        ChannelIT.join(qmb, qmc);
        ChannelIT.join(qmc, qmb);
        new ChannelAlias("QMB", "QMC").store(qma.root.resolve("qm"));
        new ChannelAlias("QMA", "QMC").store(qmb.root.resolve("qm"));
        ChannelIT.awaitRunning(qma, "QMC");
        ChannelIT.awaitRunning(qmb, "QMC");
        ChannelIT.awaitRunning(qmc, "QMA");
        ChannelIT.awaitRunning(qmc, "QMB");
    }

    @AfterEach
    void close() {
        for (TransferHarness h : new TransferHarness[] {qma, qmb, qmc}) {
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

    @Test
    void aTransferAndAPingReachQueueManagerBThroughCAndWithoutTheAliasBIsUnreachable() throws Exception {
        qma.agent("SRC", Map.of("transferRoot", dir.toString()));
        qmb.agent("DST", Map.of("transferRoot", dir.toString()));
        Path src = TransferHarness.randomFile(dir.resolve("in/a.bin"), 3L << 20, 7);
        Path out = Files.createDirectories(dir.resolve("out")).resolve("a.bin");
        awaitRoute(qma, "QMB", true);
        awaitRoute(qmb, "QMA", true);
        Reply r = qma.transfer(aToB(src, out), 120);
        assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
        assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
        assertThat(qmb.destinationOutcomes).hasSize(1);

        // A requester of QMA pings DST@QMB, as ftePingAgent -m QMB does from QMA.
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

        // In the same test, to set up three queue managers once: the alias removed, the route is gone.
        Files.delete(ChannelAlias.file(qma.root.resolve("qm"), "QMB"));
        awaitRoute(qma, "QMB", false);
        Path after = dir.resolve("out/b.bin");
        Reply refused = qma.transfer(aToB(TransferHarness.randomFile(dir.resolve("in/b.bin"), 1000, 4), after), 60);
        assertThat(refused.resultCode()).as("%s", refused.supplements()).isEqualTo(49);
        assertThat(String.join(" ", refused.supplements())).contains("has no channel to queue manager QMB");
        assertThat(after).doesNotExist();
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
