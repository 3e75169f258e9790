package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.Routing;
import org.openmft.xml.AgentRef;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferRequest;

/**
 * {@code agentMultipleChannelsEnabled}: two embedded queue managers joined by two parallel channels
 * (two bridges, two connections, two transmission queues; the second is what the alias
 * {@code SYSTEM.FTE.QM2_2} resolves to). A transfer's DATA goes over both, chunk by chunk in turn,
 * and arrives whole; with the second channel held back, the chunks of the first overtake it and
 * are held at the destination until their turn, so the file is still written in order, and nothing
 * is asked for again. A channel taken away takes its alias along, and what its transmission queue
 * held goes on over the first.
 *
 * <p>The two queue managers and agents are shared by the tests (they cost most of the time); the
 * first test counts what each channel forwarded from their start.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MultipleChannelsIT {
    private static final int CHUNK = 64 * 1024;
    private static final String SECOND = Routing.alias("QM2", 2);

    Path dir;
    TransferHarness qm1;
    TransferHarness qm2;

    @BeforeAll
    void twoQueueManagersJoinedByTwoChannels(@TempDir Path dir) throws Exception {
        this.dir = dir;
        qm1 = new TransferHarness(dir.resolve("one"), false, "QM1");
        qm2 = new TransferHarness(dir.resolve("two"), false, "QM2");
        ChannelIT.join(qm1, qm2, 2);
        ChannelIT.join(qm2, qm1);
        ChannelIT.awaitRunning(qm1, "QM2");
        ChannelIT.awaitRunning(qm1, SECOND);
        ChannelIT.awaitRunning(qm2, "QM1");
        qm1.agent("SRC", Map.of("transferRoot", dir.toString(), "agentMultipleChannelsEnabled", "true",
                "agentChunkSize", String.valueOf(CHUNK)));
        qm2.agent("DST", Map.of("transferRoot", dir.toString()));
        Files.createDirectories(dir.resolve("out"));
    }

    @AfterAll
    void close() {
        if (qm1 != null) {
            qm1.close();
        }
        if (qm2 != null) {
            qm2.close();
        }
    }

    private TransferRequest across(Path src, Path out) {
        return new TransferRequest("6.00", TransferHarness.ME, new AgentRef("SRC", "QM1"), new AgentRef("DST", "QM2"),
                new org.openmft.xml.ReplyTo("WMQFTE.TEST.REPLY", "QM1", true),
                new org.openmft.xml.TransferSet(0, null, Map.of(), List.of(TransferHarness.item(src.toString(),
                        out.toString(), DestinationType.FILE))), null);
    }

    private long sent(String route) throws Exception {
        return Long.parseLong(ChannelIT.status(qm1).getProperty(route + ".sent", "0"));
    }

    @Test
    @Order(1)
    void theDataGoesOverBothChannelsAndArrivesWhole() throws Exception {
        Path src = TransferHarness.randomFile(dir.resolve("in/a.bin"), 64L * CHUNK, 7);
        Path out = dir.resolve("out/a.bin");
        Reply r = qm1.transfer(across(src, out), 60);
        assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
        assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
        // 64 chunks, every other one over each channel (the first also carries the START).
        TransferHarness.await("each channel forwarded its half of the chunks", 20, () -> {
            try {
                return sent("QM2") >= 32 && sent(SECOND) >= 32;
            } catch (Exception e) {
                return false;
            }
        });
        assertThat(qm1.events).noneMatch(e -> e.startsWith("resend "));
    }

    @Test
    @Order(2)
    void chunksThatOvertakeAHeldBackChannelWaitForTheirTurn() throws Exception {
        Path src = TransferHarness.randomFile(dir.resolve("in/b.bin"), 64L * CHUNK, 8);
        Path out = dir.resolve("out/b.bin");
        String secondQueue = Routing.aliasTransmissionQueue("QM2", 2);
        pause(secondQueue, true);
        CompletableFuture<Reply> reply = CompletableFuture.supplyAsync(() -> {
            try {
                return qm1.transfer(across(src, out), 60);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ArtemisQueueAdmin admin = new ArtemisQueueAdmin(qm1.admin);
        // The odd chunks wait on the second channel; the even ones reach the destination first.
        TransferHarness.await("chunks held back on the second channel", 20, () -> {
            try {
                return admin.depths(List.of(secondQueue)).get(secondQueue) >= 10;
            } catch (Exception e) {
                return false;
            }
        });
        pause(secondQueue, false);
        Reply r = reply.get(60, TimeUnit.SECONDS);
        assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
        assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
        assertThat(qm1.events).as("the chunks that came early were held, not asked for again")
                .noneMatch(e -> e.startsWith("resend "));
        assertThat(qm2.destinationOutcomes).hasSize(2);
    }

    @Test
    @Order(3)
    void aChannelTakenAwayTakesItsAliasAlongAndHandsOnWhatItHeld() throws Exception {
        String secondQueue = Routing.aliasTransmissionQueue("QM2", 2);
        try (jakarta.jms.Connection c2 = qm2.admin.connect(); jakarta.jms.Connection c1 = qm1.requester.connect()) {
            jakarta.jms.Session s2 = c2.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE);
            s2.createConsumer(s2.createQueue("APP.IN")).close(); // makes the application queue
            c2.start();
            pause(secondQueue, true);
            jakarta.jms.Session s1 = c1.createSession(false, jakarta.jms.Session.AUTO_ACKNOWLEDGE);
            Routing routing = new Routing(org.openmft.agent.config.MessagingProvider.ARTEMIS, "QM1");
            try (jakarta.jms.MessageProducer p = s1.createProducer(
                    routing.aliasDestination(s1, "APP.IN", "QM2", 2))) {
                jakarta.jms.Message m = s1.createTextMessage("sent over the second channel");
                routing.address(m, "APP.IN", "QM2");
                p.send(m);
            }
            ArtemisQueueAdmin admin = new ArtemisQueueAdmin(qm1.admin);
            assertThat(admin.depths(List.of(secondQueue)).get(secondQueue)).isEqualTo(1);
            Path qm = qm1.root.resolve("qm");
            var d = org.openmft.agent.qmgr.channel.ChannelDefinition.loadAll(qm).get("QM2");
            new org.openmft.agent.qmgr.channel.ChannelDefinition(d.remoteQMgr(), d.host(), d.port(),
                    d.credentialsFile(), d.trustStore(), d.trustStorePasswordFile(), d.allowPlaintext(), 1).store(qm);
            TransferHarness.await("the second channel's transmission queue gone", 20, () -> {
                try {
                    return admin.depths(List.of(secondQueue)).get(secondQueue) == -1
                            && ChannelIT.status(qm1).getProperty(SECOND + ".state") == null;
                } catch (Exception e) {
                    return false;
                }
            });
            try (jakarta.jms.MessageConsumer in = s2.createConsumer(s2.createQueue("APP.IN"))) {
                jakarta.jms.Message got = in.receive(30_000);
                assertThat(got).as("what the second channel held, sent on by the first").isNotNull();
                assertThat(((jakarta.jms.TextMessage) got).getText()).isEqualTo("sent over the second channel");
            }
        }
    }

    /** Pauses (or resumes) delivery from a queue of QM1, as its administrator would with the management API. */
    private void pause(String queue, boolean pause) throws Exception {
        Management.invoke(qm1, ResourceNames.QUEUE + queue, pause ? "pause" : "resume");
    }
}
