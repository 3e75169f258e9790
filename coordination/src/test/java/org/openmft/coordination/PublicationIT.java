package org.openmft.coordination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.coordination.CoordinationHarness.file;
import static org.openmft.coordination.CoordinationHarness.item;
import static org.openmft.coordination.CoordinationHarness.receive;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.messaging.Publications;
import org.openmft.xml.Reply;
import org.openmft.xml.log.AgentStatus;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.PublicationReader;
import org.openmft.xml.log.TransferLog;

/**
 * Agents on one queue manager publish status and the transfer log to a separate coordination queue
 * manager, with IBM's topic strings and documents; publications survive the coordination queue
 * manager being down, and arrive in order once it is back; where the agents' queue manager has a
 * channel to the coordination queue manager, they go through it.
 */
class PublicationIT {
    @TempDir
    Path dir;
    CoordinationHarness h;
    final PublicationReader reader = new PublicationReader();

    @BeforeEach
    void start() throws Exception {
        java.nio.file.Files.createDirectories(dir.resolve("out"));
        h = new CoordinationHarness(dir);
    }

    @AfterEach
    void stop() {
        h.close();
    }

    private AgentStatus latestStatus(String agent) throws Exception {
        TextMessage status = h.retainedStatus(agent);
        assertThat(status.getStringProperty(Publications.TOPIC_STRING_PROPERTY))
                .isEqualTo("SYSTEM.FTE/Agents/" + agent);
        return reader.readAgentStatus(status.getText());
    }

    @Test
    void statusIsRetainedForLateSubscribersAndAControlledStopPublishesStopped() throws Exception {
        h.agent("SRC", Map.of("agentDesc", "payments source", "maxSourceTransfers", "7"));
        CoordinationHarness.await("READY published", 20, () -> {
            try {
                return latestStatus("SRC").status().equals("READY");
            } catch (Exception | AssertionError e) {
                return false;
            }
        });
        AgentStatus ready = latestStatus("SRC");
        assertThat(ready.agentName()).isEqualTo("SRC");
        assertThat(ready.description()).isEqualTo("payments source");
        assertThat(ready.queueManager()).isEqualTo("QMA");
        assertThat(ready.maxSourceTransfers()).isEqualTo(7);
        assertThat(ready.publishRateMinSeconds()).isEqualTo(2);
        // Published again at least every agentStatusPublishRateMin, even with nothing new.
        java.time.Instant first = ready.publishTime();
        CoordinationHarness.await("a periodic status", 10, () -> {
            try {
                return latestStatus("SRC").publishTime().isAfter(first);
            } catch (Exception | AssertionError e) {
                return false;
            }
        });
        h.stopAgent("SRC");
        assertThat(latestStatus("SRC").status()).isEqualTo("STOPPED");
    }

    private List<TransferLog> logs(List<TextMessage> messages) throws Exception {
        List<TransferLog> out = new ArrayList<>();
        for (TextMessage m : messages) {
            out.add(reader.readLog(m.getText()));
        }
        return out;
    }

    @Test
    void aTransferPublishesStartedProgressAndCompletedInOrderWithIbmDocuments() throws Exception {
        h.agent("SRC");
        h.agent("DST");
        try (Connection c = h.coordinationConnection()) {
            c.setClientID("PUBLICATION-IT");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = s.createTopic(Publications.TOPIC);
            MessageConsumer log = s.createDurableSubscriber(topic, "LOG", Publications.selector("SYSTEM.FTE/Log/#"),
                    false);
            c.start();
            Path a = file(dir.resolve("in/a.bin"), 300_000);
            Path b = file(dir.resolve("in/b.bin"), 10);
            Reply r = h.transfer("SRC", "DST", "NIGHTLY", item(a, dir.resolve("out/a.bin")),
                    item(b, dir.resolve("out/b.bin")), item(dir.resolve("in/missing"), dir.resolve("out/m")));
            assertThat(r.resultCode()).isEqualTo(20);
            List<TextMessage> got = receive(log, 3, 20);
            List<TransferLog> entries = logs(got);
            assertThat(entries).extracting(TransferLog::action).first().isEqualTo(LogAction.STARTED);
            assertThat(entries).extracting(TransferLog::action).last().isEqualTo(LogAction.COMPLETED);
            for (int i = 0; i < got.size(); i++) {
                assertThat(got.get(i).getStringProperty(Publications.TOPIC_STRING_PROPERTY))
                        .isEqualTo("SYSTEM.FTE/Log/SRC/" + r.requestId());
            }
            TransferLog started = entries.get(0);
            assertThat(started.transferId()).isEqualTo(r.requestId());
            assertThat(started.agentRole()).isEqualTo("sourceAgent");
            assertThat(started.sourceAgent().agent()).isEqualTo("SRC");
            assertThat(started.destinationAgent().agent()).isEqualTo("DST");
            assertThat(started.originator().userId()).isEqualTo("tester");
            assertThat(started.jobName()).isEqualTo("NIGHTLY");
            assertThat(started.totalItems()).isEqualTo(3);
            var items = entries.stream().filter(e -> e.action() == LogAction.PROGRESS)
                    .flatMap(e -> e.items().stream()).toList();
            assertThat(items).hasSize(3);
            var okA = items.stream().filter(i -> i.source().endsWith("a.bin")).findFirst().orElseThrow();
            assertThat(okA.resultCode()).isZero();
            assertThat(okA.sourceSize()).isEqualTo(300_000);
            assertThat(okA.destinationSize()).isEqualTo(300_000);
            assertThat(okA.checksumMethod()).isEqualTo("MD5");
            assertThat(okA.checksum()).isEqualTo(TestFiles.md5(a));
            var missing = items.stream().filter(i -> i.source().endsWith("missing")).findFirst().orElseThrow();
            assertThat(missing.resultCode()).isEqualTo(1);
            assertThat(missing.supplement()).isNotBlank();
            TransferLog completed = entries.get(entries.size() - 1);
            assertThat(completed.resultCode()).isEqualTo(20);
            assertThat(completed.supplements()).isNotEmpty();
            assertThat(completed.statistics().numFileFailures()).isEqualTo(1);
            assertThat(completed.bytesSent()).isEqualTo(300_010);
            assertThat(completed.metadata()).containsEntry("team", "payments");
        }
    }

    @Test
    void publicationsWaitWhileTheCoordinationQueueManagerIsDownAndArriveInOrderAfterwards() throws Exception {
        try (Connection c = h.coordinationConnection()) {
            c.setClientID("OUTAGE-IT");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            s.createDurableSubscriber(s.createTopic(Publications.TOPIC), "LOG",
                    Publications.selector("SYSTEM.FTE/Log/#"), false).close();
        }
        h.agent("SRC");
        h.agent("DST");
        // The coordination queue manager stops in the middle of a transfer.
        Path big = file(dir.resolve("in/big"), 48 << 20);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        List<String> ids = new ArrayList<>();
        try {
            java.util.concurrent.Future<Reply> running = pool.submit(
                    () -> h.transfer("SRC", "DST", null, item(big, dir.resolve("out/big"))));
            CoordinationHarness.await("the transfer writing its destination", 30, () -> {
                try (var files = java.nio.file.Files.list(dir.resolve("out"))) {
                    return files.findAny().isPresent();
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            h.stopCoordination();
            Reply first = running.get(120, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(first.resultCode()).as("a transfer outlives the coordination queue manager").isZero();
            ids.add(first.requestId());
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < 2; i++) {
            Path src = file(dir.resolve("in/f" + i), 1000 + i);
            Reply r = h.transfer("SRC", "DST", null, item(src, dir.resolve("out/f" + i)));
            assertThat(r.resultCode()).as("transfers run without the coordination queue manager").isZero();
            ids.add(r.requestId());
        }
        h.startCoordination();
        try (Connection c = h.coordinationConnection()) {
            c.setClientID("OUTAGE-IT");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer log = s.createDurableSubscriber(s.createTopic(Publications.TOPIC), "LOG",
                    Publications.selector("SYSTEM.FTE/Log/#"), false);
            c.start();
            List<TransferLog> entries = logs(receive(log, 9, 90));
            assertThat(entries).extracting(e -> e.transferId() + " " + e.action().xml()).containsExactly(
                    ids.get(0) + " started", ids.get(0) + " progress", ids.get(0) + " completed",
                    ids.get(1) + " started", ids.get(1) + " progress", ids.get(1) + " completed",
                    ids.get(2) + " started", ids.get(2) + " progress", ids.get(2) + " completed");
            // Nothing twice: a transfer run now publishes through the same agent's outbox, in order,
            // so a second copy of an earlier record would arrive before its records.
            Path src = file(dir.resolve("in/after"), 1000);
            Reply after = h.transfer("SRC", "DST", null, item(src, dir.resolve("out/after")));
            assertThat(after.resultCode()).isZero();
            assertThat(logs(receive(log, 3, 60))).as("nothing twice").extracting(e -> e.transferId() + " "
                    + e.action().xml()).containsExactly(after.requestId() + " started", after.requestId() + " progress",
                            after.requestId() + " completed");
        }
    }

    @Test
    void anAgentWhoseQueueManagerHasAChannelToTheCoordinationQueueManagerPublishesThroughIt() throws Exception {
        h.channelToCoordination();
        // Nothing listens there: the channel is the agents' only way to QMC.
        h.agentsCoordinationPort = CoordinationHarness.freePort();
        try (Connection c = h.coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer log = s.createConsumer(s.createTopic(Publications.TOPIC),
                    Publications.selector("SYSTEM.FTE/Log/#"));
            c.start();
            h.agent("SRC");
            h.agent("DST");
            Reply r = h.transfer("SRC", "DST", null, item(file(dir.resolve("in/c"), 5000), dir.resolve("out/c")));
            assertThat(r.resultCode()).isZero();
            assertThat(logs(receive(log, 3, 30))).extracting(e -> e.transferId() + " " + e.action().xml())
                    .containsExactly(r.requestId() + " started", r.requestId() + " progress",
                            r.requestId() + " completed");
        }
        assertThat(latestStatus("SRC").agentName()).isEqualTo("SRC");
    }

    @Test
    void liveProgressIsPublishedWhileDataMoves() throws Exception {
        h.agent("SRC");
        h.agent("DST");
        try (Connection c = h.coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer progress = s.createConsumer(s.createTopic(Publications.TOPIC),
                    Publications.selector("SYSTEM.FTE/Transfers/#"));
            c.start();
            Path src = file(dir.resolve("in/p"), 8 << 20);
            Reply r = h.transfer("SRC", "DST", null, item(src, dir.resolve("out/p")));
            assertThat(r.resultCode()).isZero();
            List<TextMessage> got = receive(progress, 1, 10);
            assertThat(got).isNotEmpty();
            assertThat(got.get(0).getStringProperty(Publications.TOPIC_STRING_PROPERTY))
                    .isEqualTo("SYSTEM.FTE/Transfers/SRC/" + r.requestId());
            var p = reader.readProgress(got.get(0).getText());
            assertThat(p.transferId()).isEqualTo(r.requestId());
            assertThat(p.bytes()).isPositive().isLessThanOrEqualTo(8 << 20);
            assertThat(p.totalItems()).isEqualTo(1);
            assertThat(p.currentSource()).endsWith("in/p");
            assertThat(p.currentSize()).isEqualTo(8 << 20);
        }
    }

    @Test
    void aMalformedRequestIsLoggedWithResult43() throws Exception {
        h.agent("SRC");
        try (Connection c = h.coordinationConnection()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer log = s.createConsumer(s.createTopic(Publications.TOPIC),
                    Publications.selector("SYSTEM.FTE/Log/SRC/#"));
            c.start();
            h.sendRaw("SRC", "<request><not-closed>");
            List<TransferLog> entries = logs(receive(log, 1, 20));
            assertThat(entries).hasSize(1);
            assertThat(entries.get(0).action()).isEqualTo(LogAction.MALFORMED);
            assertThat(entries.get(0).resultCode()).isEqualTo(43);
            assertThat(entries.get(0).supplements()).isNotEmpty();
        }
    }
}
