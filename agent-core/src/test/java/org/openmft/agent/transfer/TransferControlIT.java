package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.xml.CancelRequest;
import org.openmft.xml.DestinationType;
import org.openmft.xml.TransferItem;
import org.openmft.xml.Reply;

/**
 * Cancel, priorities, capacity and limits, with real agents. A transfer to an agent whose queues
 * exist but which is not running stays in negotiation: that is how a test holds a source slot
 * without racing a clock.
 */
class TransferControlIT {
    @TempDir
    Path dir;

    /** Defines the queues (and the user) of an agent that never starts. */
    static void sleepingAgent(TransferHarness h, String name) throws Exception {
        new ArtemisQueueAdmin(h.peer(name)).createQueues(QueueNames.agentQueues(name));
    }

    static int startIndex(TransferHarness h, String id) {
        return h.events.indexOf("started SOURCE " + id);
    }

    @Test
    void cancelMidTransferLeavesNoPartialFileAndAnswers41() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            // A small window and chunk keep a 64 MiB transfer going long enough to cancel it.
            h.agent("SRC", Map.of("agentChunkSize", "16384", "agentWindowSize", "2", "agentFrameSize", "2"));
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 64L << 20, 1);
            Path out = dir.resolve("out/big.bin");
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), out.toString(), DestinationType.FILE)))) {
                String id = s.id();
                TransferHarness.await("a first checkpoint", 60,
                        () -> h.events.stream().anyMatch(e -> e.startsWith("checkpoint " + id)));
                try (TransferHarness.Submission c = h.submit("SRC",
                        new CancelRequest("6.00", TransferHarness.ME, id, null))) {
                    assertThat(c.ack.resultCode()).isZero();
                }
                Reply fin = s.awaitFinal(60);
                assertThat(fin.resultCode()).isEqualTo(41);
            }
            TransferHarness.await("the destination to clean up", 30, () -> !Files.exists(dir.resolve("out/big.bin.part")));
            assertThat(out).doesNotExist();
            TransferHarness.await("the destination outcome", 30, () -> !h.destinationOutcomes.isEmpty());
            assertThat(h.destinationOutcomes.get(0).resultCode()).isEqualTo(41);
            assertThat(src).as("a cancelled transfer never deletes or changes its source").exists();
        }
    }

    @Test
    void aCancelSentToTheDestinationAgentCancelsTheTransferToo() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("agentChunkSize", "16384", "agentWindowSize", "2", "agentFrameSize", "2"));
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 64L << 20, 2);
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), dir.resolve("out/big.bin").toString(), DestinationType.FILE)))) {
                String id = s.id();
                TransferHarness.await("a first checkpoint", 60,
                        () -> h.events.stream().anyMatch(e -> e.startsWith("checkpoint " + id)));
                try (TransferHarness.Submission c = h.submit("DST",
                        new CancelRequest("6.00", TransferHarness.ME, id, null))) {
                    assertThat(c.ack.resultCode()).isZero();
                }
                assertThat(s.awaitFinal(60).resultCode()).isEqualTo(41);
            }
            TransferHarness.await("the destination to clean up", 30, () -> !Files.exists(dir.resolve("out/big.bin.part")));
            assertThat(dir.resolve("out/big.bin")).doesNotExist();
        }
    }

    @Test
    void cancellingAnUnknownTransferAnswers26() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            try (TransferHarness.Submission c = h.submit("SRC",
                    new CancelRequest("6.00", TransferHarness.ME, "0".repeat(48), null))) {
                assertThat(c.ack.resultCode()).isEqualTo(26);
            }
        }
    }

    @Test
    void queuedTransfersStartByPriorityAndAFullQueueIsRefusedWith44() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("maxSourceTransfers", "1", "maxQueuedTransfers", "2"));
            h.agent("DST");
            sleepingAgent(h, "ASLEEP");
            Files.createDirectories(dir.resolve("out"));
            Path f = TransferHarness.randomFile(dir.resolve("in/f.bin"), 1000, 1);
            TransferHarness.Submission blocker = h.submit("SRC", TransferHarness.request("SRC", "ASLEEP", 0,
                    TransferHarness.item(f.toString(), dir.resolve("out/never.bin").toString(), DestinationType.FILE)));
            TransferHarness.await("the blocker to hold the only slot", 30,
                    () -> startIndex(h, blocker.id()) >= 0);
            TransferHarness.Submission low = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(f.toString(), dir.resolve("out/low.bin").toString(), DestinationType.FILE)));
            TransferHarness.Submission high = h.submit("SRC", TransferHarness.request("SRC", "DST", 9,
                    TransferHarness.item(f.toString(), dir.resolve("out/high.bin").toString(), DestinationType.FILE)));
            assertThat(low.ack.resultCode()).isZero();
            assertThat(high.ack.resultCode()).isZero();
            try (TransferHarness.Submission refused = h.submit("SRC", TransferHarness.request("SRC", "DST", 5,
                    TransferHarness.item(f.toString(), dir.resolve("out/x.bin").toString(), DestinationType.FILE)))) {
                assertThat(refused.ack.resultCode()).isEqualTo(44);
                assertThat(refused.ack.supplements()).anySatisfy(s -> assertThat(s).contains("maxQueuedTransfers"));
            }
            assertThat(startIndex(h, low.id())).as("nothing starts while the slot is taken").isNegative();

            try (TransferHarness.Submission c = h.submit("SRC",
                    new CancelRequest("6.00", TransferHarness.ME, blocker.id(), null))) {
                assertThat(c.ack.resultCode()).isZero();
            }
            assertThat(blocker.awaitFinal(60).resultCode()).isEqualTo(41);
            assertThat(high.awaitFinal(60).resultCode()).isZero();
            assertThat(low.awaitFinal(60).resultCode()).isZero();
            assertThat(startIndex(h, high.id())).as("priority 9 starts before priority 0")
                    .isLessThan(startIndex(h, low.id()));
            for (var s : List.of(blocker, low, high)) {
                s.close();
            }
        }
    }

    @Test
    void agentsThatTakeNoTransfersRefuseWith51And52() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            h.agent("NOSRC", Map.of("maxSourceTransfers", "0"));
            h.agent("NODST", Map.of("maxDestinationTransfers", "0"));
            Path f = TransferHarness.randomFile(dir.resolve("in/f.bin"), 10, 1);
            try (TransferHarness.Submission s = h.submit("NOSRC", TransferHarness.request("NOSRC", "SRC", 0,
                    TransferHarness.item(f.toString(), dir.resolve("out/f.bin").toString(), DestinationType.FILE)))) {
                assertThat(s.ack.resultCode()).isEqualTo(51);
            }
            Reply r = h.transfer(TransferHarness.request("SRC", "NODST", 0,
                    TransferHarness.item(f.toString(), dir.resolve("out/f.bin").toString(), DestinationType.FILE)), 60);
            assertThat(r.resultCode()).isEqualTo(52);
            assertThat(dir.resolve("out/f.bin")).doesNotExist();
        }
    }

    @Test
    void aBusyDestinationMakesTheSourceWaitAndThenRun() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("agentChunkSize", "16384", "agentWindowSize", "2", "agentFrameSize", "2"));
            h.agent("SRC2");
            h.agent("DST", Map.of("maxDestinationTransfers", "1"));
            Files.createDirectories(dir.resolve("out"));
            Path big = TransferHarness.randomFile(dir.resolve("in/big.bin"), 16L << 20, 1);
            Path small = TransferHarness.randomFile(dir.resolve("in/small.bin"), 100, 2);
            // The first transfer is held at its first acknowledgement until the second has started at
            // its source, so the second certainly asks while the destination is full.
            java.util.concurrent.CountDownLatch secondStarted = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicReference<String> firstId = new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.atomic.AtomicBoolean held = new java.util.concurrent.atomic.AtomicBoolean();
            h.progressTap = new org.openmft.agent.AgentListener() {
                @Override
                public void progress(String agent, String transferId, int item, long itemBytesSent, long bytesSent) {
                    if (transferId.equals(firstId.get()) && held.compareAndSet(false, true)) {
                        try {
                            secondStarted.await(60, java.util.concurrent.TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            };
            TransferHarness.Submission first = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(big.toString(), dir.resolve("out/big.bin").toString(), DestinationType.FILE)));
            firstId.set(first.id());
            TransferHarness.await("the first transfer to occupy the destination", 30,
                    () -> h.events.contains("started DESTINATION " + first.id()));
            TransferHarness.Submission second = h.submit("SRC2", TransferHarness.request("SRC2", "DST", 0,
                    TransferHarness.item(small.toString(), dir.resolve("out/small.bin").toString(),
                            DestinationType.FILE)));
            TransferHarness.await("the second transfer to start at its source", 30,
                    () -> h.events.contains("started SOURCE " + second.id()));
            secondStarted.countDown();
            assertThat(second.awaitFinal(120).resultCode()).isZero();
            assertThat(first.awaitFinal(120).resultCode()).isZero();
            assertThat(held).as("the first transfer was held while the second started").isTrue();
            // The destination ends its side (event) before it frees the transfer's place, and starts
            // the next one (event) only in a free place: so the order of the events shows the wait.
            List<String> events = List.copyOf(h.events);
            int secondAtSource = events.indexOf("started SOURCE " + second.id());
            int firstEnded = events.indexOf("ended DESTINATION " + first.id() + " 0");
            int secondAtDestination = events.indexOf("started DESTINATION " + second.id());
            assertThat(secondAtSource).as("events: %s", events).isNotNegative();
            assertThat(firstEnded).as("the second was running while the first held the destination; events: %s",
                    events).isGreaterThan(secondAtSource);
            assertThat(secondAtDestination).as("the destination took the second only after the first ended;"
                    + " events: %s", events).isGreaterThan(firstEnded);
            assertThat(TransferHarness.md5(dir.resolve("out/big.bin"))).isEqualTo(TransferHarness.md5(big));
            first.close();
            second.close();
        }
    }

    @Test
    void unansweredTransfersRetryThenRecoverThenGiveUpWith69() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("transferAckTimeout", "1000", "transferAckTimeoutRetries", "1",
                    "transferRecoveryTimeout", "2"));
            sleepingAgent(h, "ASLEEP");
            Path f = TransferHarness.randomFile(dir.resolve("in/f.bin"), 10, 1);
            Reply r = h.transfer(TransferHarness.request("SRC", "ASLEEP", 0,
                    TransferHarness.item(f.toString(), dir.resolve("out/f.bin").toString(), DestinationType.FILE)), 60);
            assertThat(r.resultCode()).isEqualTo(69);
            assertThat(r.supplements()).anySatisfy(s -> assertThat(s).contains("recovery timed out"));
            assertThat(f).exists();

            // A per-transfer recoveryTimeout of 0 fails as soon as recovery starts.
            TransferItem item = TransferHarness.item(f.toString(), dir.resolve("out/g.bin").toString(),
                    DestinationType.FILE);
            var request = new org.openmft.xml.TransferRequest("6.00", TransferHarness.ME,
                    new org.openmft.xml.AgentRef("SRC", "QMT"), new org.openmft.xml.AgentRef("ASLEEP", "QMT"),
                    new org.openmft.xml.ReplyTo("R", "QMT", true),
                    new org.openmft.xml.TransferSet(0, 0L, Map.of(), List.of(item)), null);
            assertThat(h.transfer(request, 60).resultCode()).isEqualTo(69);
        }
    }

    @Test
    void aControlledStopLetsTheRunningTransferFinish() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            var source = h.agent("SRC", Map.of("agentChunkSize", "16384", "agentWindowSize", "2",
                    "agentFrameSize", "2"));
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 3);
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), dir.resolve("out/big.bin").toString(), DestinationType.FILE)))) {
                TransferHarness.await("a first checkpoint", 60,
                        () -> h.events.stream().anyMatch(e -> e.startsWith("checkpoint " + s.id())));
                h.send("SRC", new org.openmft.xml.StopAgentRequest("1.00", TransferHarness.ME, "SRC", false, null));
                assertThat(s.awaitFinal(120).resultCode()).isZero();
            }
            assertThat(source.awaitStopped(java.time.Duration.ofSeconds(30))).isTrue();
            assertThat(TransferHarness.md5(dir.resolve("out/big.bin"))).isEqualTo(TransferHarness.md5(src));
        }
    }

    @Test
    void aStoppingAgentStillAnswersRefusesNewTransfersAndObeysAnImmediateStop() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            var source = h.agent("SRC");
            sleepingAgent(h, "ASLEEP");
            Path f = TransferHarness.randomFile(dir.resolve("in/f.bin"), 10, 1);
            try (TransferHarness.Submission stuck = h.submit("SRC", TransferHarness.request("SRC", "ASLEEP", 0,
                    TransferHarness.item(f.toString(), dir.resolve("out/f.bin").toString(), DestinationType.FILE)))) {
                TransferHarness.await("the transfer to run", 30, () -> startIndex(h, stuck.id()) >= 0);
                h.send("SRC", new org.openmft.xml.StopAgentRequest("1.00", TransferHarness.ME, "SRC", false, null));
                TransferHarness.await("the agent to be stopping", 30,
                        () -> source.state() == org.openmft.agent.AgentState.STOPPING);
                try (TransferHarness.Submission ping = h.submit("SRC",
                        new org.openmft.xml.PingAgentRequest("6.00", TransferHarness.ME, "SRC", null, null))) {
                    assertThat(ping.ack.resultCode()).as("a stopping agent still answers").isZero();
                }
                try (TransferHarness.Submission late = h.submit("SRC", TransferHarness.request("SRC", "ASLEEP", 0,
                        TransferHarness.item(f.toString(), dir.resolve("out/late.bin").toString(),
                                DestinationType.FILE)))) {
                    assertThat(late.ack.resultCode()).isEqualTo(1);
                    assertThat(late.ack.supplements()).anySatisfy(x -> assertThat(x).contains("stopping"));
                }
                assertThat(source.state()).isEqualTo(org.openmft.agent.AgentState.STOPPING);
                h.send("SRC", new org.openmft.xml.StopAgentRequest("1.00", TransferHarness.ME, "SRC", true, null));
                assertThat(source.awaitStopped(java.time.Duration.ofSeconds(30))).isTrue();
                assertThat(h.sourceOutcomes).as("an immediate stop suspends the transfer, it does not end it")
                        .isEmpty();
                // It resumes with the agent, and its final reply still reaches the requester.
                h.agents.remove("SRC");
                h.agent("SRC");
                TransferHarness.await("the transfer to resume", 30,
                        () -> h.events.contains("resumed SOURCE " + stuck.id()));
                try (TransferHarness.Submission c = h.submit("SRC",
                        new org.openmft.xml.CancelRequest("6.00", TransferHarness.ME, stuck.id(), null))) {
                    assertThat(c.ack.resultCode()).isZero();
                }
                assertThat(stuck.awaitFinal(30).resultCode()).isEqualTo(41);
            }
        }
    }

    /**
     * A destination that stays at {@code maxDestinationTransfers} longer than a transfer's
     * recovery timeout ends that transfer with 45 (IBM's "destination agent capacity exceeded"),
     * naming the busy agent; the transfer occupying it is held mid-file so the destination is
     * certainly busy for the whole time, and finishes afterwards.
     */
    @Test
    void aDestinationBusyPastTheRecoveryTimeoutEndsTheWaitingTransferWith45() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("agentChunkSize", "16384", "agentWindowSize", "2", "agentFrameSize", "2"));
            h.agent("SRC2");
            h.agent("DST", Map.of("maxDestinationTransfers", "1"));
            Files.createDirectories(dir.resolve("out"));
            Path big = TransferHarness.randomFile(dir.resolve("in/big.bin"), 4L << 20, 1);
            Path small = TransferHarness.randomFile(dir.resolve("in/small.bin"), 100, 2);
            EdgeFaultIT.Hold hold = new EdgeFaultIT.Hold(0);
            h.progressTap = hold;
            try (TransferHarness.Submission first = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(big.toString(), dir.resolve("out/big.bin").toString(),
                            DestinationType.FILE)))) {
                hold.awaitReached();
                TransferItem item = TransferHarness.item(small.toString(), dir.resolve("out/small.bin").toString(),
                        DestinationType.FILE);
                var request = new org.openmft.xml.TransferRequest("6.00", TransferHarness.ME,
                        new org.openmft.xml.AgentRef("SRC2", "QMT"), new org.openmft.xml.AgentRef("DST", "QMT"),
                        new org.openmft.xml.ReplyTo("R", "QMT", true),
                        new org.openmft.xml.TransferSet(0, 2L, Map.of(), List.of(item)), null);
                Reply second = h.transfer(request, 60);
                assertThat(second.resultCode()).as("%s", second.supplements()).isEqualTo(45);
                assertThat(second.supplements()).anySatisfy(s -> assertThat(s).contains("BFGCH0044I")
                        .contains("DST").contains("recovery timeout"));
                assertThat(dir.resolve("out/small.bin")).doesNotExist();
                assertThat(h.events).as("the destination never started the refused transfer")
                        .noneMatch(e -> e.equals("started DESTINATION " + second.requestId()));
                hold.release();
                assertThat(first.awaitFinal(120).resultCode()).isZero();
            } finally {
                hold.release();
            }
            assertThat(TransferHarness.md5(dir.resolve("out/big.bin"))).isEqualTo(TransferHarness.md5(big));
        }
    }
    @Test
    void requestsArePlannedOffTheCommandThreadWhichAnswersPingsAndCancelsMeanwhile() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            h.agent("DST");
            Path f = TransferHarness.randomFile(dir.resolve("in/held.bin"), 1000, 7);
            java.util.concurrent.CountDownLatch planning = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            h.planningTap = new org.openmft.agent.AgentListener() {
                @Override
                public void transferPlanning(String agent, String transferId) {
                    planning.countDown();
                    try {
                        release.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            try (TransferHarness.Submission held = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(f.toString(), dir.resolve("out/held.bin").toString(), DestinationType.FILE)))) {
                assertThat(held.ack.resultCode()).as("acknowledged before it is planned").isZero();
                assertThat(planning.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                try (TransferHarness.Submission ping = h.submit("SRC", new org.openmft.xml.PingAgentRequest("6.00",
                        TransferHarness.ME, "SRC", "QMT", null))) {
                    assertThat(ping.ack.resultCode()).as("the command thread answers while the planner is busy")
                            .isZero();
                }
                try (TransferHarness.Submission c = h.submit("SRC",
                        new CancelRequest("6.00", TransferHarness.ME, held.id(), null))) {
                    assertThat(c.ack.resultCode()).isZero();
                }
                release.countDown();
                assertThat(held.awaitFinal(60).resultCode()).isEqualTo(41);
            }
            assertThat(dir.resolve("out/held.bin")).doesNotExist();
        }
    }

    @Test
    void aRequestAcknowledgedButNotPlannedWhenTheAgentStopsIsPlannedAtItsNextStart() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            h.agent("DST");
            Path f = TransferHarness.randomFile(dir.resolve("in/later.bin"), 100_000, 8);
            Files.createDirectories(dir.resolve("out"));
            java.util.concurrent.CountDownLatch planning = new java.util.concurrent.CountDownLatch(1);
            h.planningTap = new org.openmft.agent.AgentListener() {
                @Override
                public void transferPlanning(String agent, String transferId) {
                    planning.countDown();
                    try {
                        new java.util.concurrent.CountDownLatch(1).await(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt(); // the agent stops: planning gives up
                    }
                }
            };
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(f.toString(), dir.resolve("out/later.bin").toString(), DestinationType.FILE)))) {
                assertThat(s.ack.resultCode()).isZero();
                assertThat(planning.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
                h.stopImmediately("SRC");
                assertThat(h.sourceOutcomes).as("not ended: it stays accepted").isEmpty();
                h.planningTap = org.openmft.agent.AgentListener.NONE;
                h.agent("SRC");
                Reply r = s.awaitFinal(60);
                assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
            }
            assertThat(TransferHarness.md5(dir.resolve("out/later.bin"))).isEqualTo(TransferHarness.md5(f));
        }
    }
}
