package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.agent.metrics.PrometheusScrapes.value;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentListener;
import org.openmft.agent.AgentService;
import org.openmft.agent.ForwardingAgentListener;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.metrics.AgentMetrics;
import org.openmft.agent.metrics.MetricsSettings;
import org.openmft.agent.metrics.PrometheusScrapes;
import org.openmft.agent.metrics.PrometheusScrapes.Sample;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.xml.DestinationType;

/**
 * Prometheus metrics end to end: a real embedded queue manager and two real agents serving their
 * metrics ({@code openmft.metrics.port}), a transfer one of whose chunks the test takes off the
 * destination's DATA queue, then each endpoint scraped over HTTP and parsed by a real Prometheus
 * parser ({@link PrometheusScrapes}); the values must be the true ones: bytes equal to the file's
 * size on both sides although chunks went twice, the chunks the lost one made the source send
 * again, the transfer counted under its result, the depth of a queue the test put messages on.
 */
class MetricsIT {
    /** Small chunks, so that the file is a few of them. */
    private static final int CHUNK = 16_384;

    @TempDir
    Path dir;

    @Test
    void aTransferIsSeenInTheAgentsAndTheQueueManagersMetricsThroughARealParser() throws Exception {
        PrometheusScrapes parser = PrometheusScrapes.in(dir);
        List<AgentService> services = new CopyOnWriteArrayList<>();
        try (TransferHarness h = new TransferHarness(dir.resolve("h"), false)) {
            h.listenerFor = (config, next) -> {
                try {
                    AgentService service = AgentMetrics.wrap(config, forwardingTo(next));
                    services.add(service);
                    return service;
                } catch (org.openmft.agent.config.ConfigurationException e) {
                    throw new IllegalStateException(e);
                }
            };
            int srcPort = TransferHarness.freePort();
            int dstPort = TransferHarness.freePort();
            h.agent("SRC", Map.of("openmft.metrics.port", String.valueOf(srcPort), "agentChunkSize",
                    String.valueOf(CHUNK)));
            h.agent("DST", Map.of("openmft.metrics.port", String.valueOf(dstPort)));
            h.qm.serveMetrics(new MetricsSettings(MetricsSettings.QMGR_PREFIX, "qmgr.properties", 0, "127.0.0.1",
                    null, "jks", null, null));
            int qmPort = h.qm.metricsPort().orElseThrow();

            // Chunks 0 to 3, the last one short. Chunk 2 is taken away: the destination sees the gap
            // when chunk 3, the last, arrives, so the source has sent everything by then and goes back
            // to send exactly chunks 2 and 3 again.
            long size = 3L * CHUNK + 1000;
            long resentBytes = CHUNK + 1000;
            Path src = TransferHarness.randomFile(dir.resolve("in/m.bin"), size, 7);
            Files.createDirectories(dir.resolve("out"));
            // The thief takes one message at a time (no consumer window), and is already waiting in
            // receive when the transfer starts: so it takes the first chunk 2 and can never hold a
            // resent chunk 2 in a buffer and give it back late (behind the resent chunk 3, which the
            // destination would then wait for until the source's acknowledgement timeout).
            var admin = h.qm.administrator().orElseThrow();
            String url = h.admin.artemisUrl();
            try (var oneAtATime = new org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory(url
                    + (url.contains("?") ? "&" : "?") + "consumerWindowSize=0");
                    Connection c = oneAtATime.createConnection(admin.user(), admin.password())) {
                Session s = c.createSession(false, Session.CLIENT_ACKNOWLEDGE);
                MessageConsumer thief = s.createConsumer(s.createQueue(QueueNames.data("DST")),
                        Wire.TYPE + " = '" + Wire.DATA + "' AND " + Wire.SEQ + " = 2");
                c.start();
                CompletableFuture<Message> taken = new CompletableFuture<>();
                Thread thiefThread = new Thread(() -> {
                    try {
                        Message m = thief.receive(TimeUnit.SECONDS.toMillis(60));
                        if (m != null) {
                            m.acknowledge();
                        }
                        thief.close();
                        taken.complete(m);
                    } catch (jakarta.jms.JMSException | RuntimeException e) {
                        taken.completeExceptionally(e);
                    }
                }, "chunk-thief");
                thiefThread.setDaemon(true);
                thiefThread.start();
                TransferHarness.await("the thief to wait for chunk 2", 30,
                        () -> thiefThread.getState() == Thread.State.TIMED_WAITING);
                var reply = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(src.toString(),
                        dir.resolve("out/m.bin").toString(), DestinationType.FILE)), 120);
                assertThat(reply.resultCode()).as("%s", TransferHarness.failedSupplements(reply)).isZero();
                assertThat(taken.get(60, TimeUnit.SECONDS)).as("chunk 2, taken off the DATA queue").isNotNull();
            }
            assertThat(Files.mismatch(src, dir.resolve("out/m.bin"))).isEqualTo(-1L);

            try (Connection c = h.admin.connect()) {
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                try (MessageProducer p = s.createProducer(s.createQueue("APP.METRICS.DEPTH"))) {
                    p.setDeliveryMode(DeliveryMode.PERSISTENT);
                    for (int i = 0; i < 3; i++) {
                        p.send(s.createTextMessage("message " + i));
                    }
                }
            }

            // The destination may still be finishing when the source's reply comes: poll with a deadline.
            List<Sample> source = parser.await(srcPort, "SRC ended", samples ->
                    value(samples, "openmft_agent_transfers_ended_total", "agent=SRC,outcome=success,result=0,role=source")
                            == 1.0);
            assertThat(value(source, "openmft_agent_sent_bytes_total", "agent=SRC")).as("each byte once")
                    .isEqualTo(size);
            assertThat(value(source, "openmft_agent_chunk_resends_total", "agent=SRC")).isEqualTo(2.0);
            assertThat(value(source, "openmft_agent_resent_bytes_total", "agent=SRC")).isEqualTo(resentBytes);
            assertThat(value(source, "openmft_agent_rewinds_total", "agent=SRC")).isEqualTo(1.0);
            assertThat(value(source, "openmft_agent_transfers_running", "agent=SRC,role=source")).isZero();
            assertThat(value(source, "openmft_agent_transfers_queued", "agent=SRC")).isZero();
            assertThat(value(source, "openmft_agent_queue_manager_connected", "agent=SRC")).isEqualTo(1.0);
            assertThat(value(source, "openmft_agent_queue_manager_reconnects_total", "agent=SRC")).isZero();
            assertThat(source).anySatisfy(x -> assertThat(x.name()).isEqualTo("jvm_memory_used_bytes"));

            List<Sample> destination = parser.await(dstPort, "DST ended", samples ->
                    value(samples, "openmft_agent_transfers_ended_total",
                            "agent=DST,outcome=success,result=0,role=destination") == 1.0);
            assertThat(value(destination, "openmft_agent_received_bytes_total", "agent=DST"))
                    .as("each byte written once").isEqualTo(size);
            assertThat(value(destination, "openmft_agent_checkpoint_lag_seconds", "agent=DST")).isZero();
            assertThat(value(destination, "openmft_agent_chunk_resends_total", "agent=DST")).isZero();

            List<Sample> qmgr = parser.await(qmPort, "the depth of APP.METRICS.DEPTH", samples ->
                    value(samples, "openmft_qmgr_queue_depth_messages", "qmgr=QMT,queue=APP.METRICS.DEPTH") == 3.0);
            assertThat(value(qmgr, "openmft_qmgr_queue_depth_messages", "qmgr=QMT,queue=SYSTEM.FTE.COMMAND.SRC"))
                    .isZero();
        } finally {
            services.forEach(AgentService::close);
        }
    }

    private static AgentService forwardingTo(AgentListener next) {
        class Forward extends ForwardingAgentListener implements AgentService {
            @Override
            protected AgentListener delegate() {
                return next;
            }

            @Override
            public void start() {
            }

            @Override
            public void close() {
            }
        }
        return new Forward();
    }
}
