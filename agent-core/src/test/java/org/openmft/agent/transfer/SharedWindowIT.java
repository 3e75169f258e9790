package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentListener;
import org.openmft.agent.ForwardingAgentListener;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.transfer.source.InFlightBudget;
import org.openmft.xml.DestinationType;

/**
 * Transfers running together at one source share one budget of chunks in flight
 * ({@link InFlightBudget}): each has its own window, and only one transfer's worth beyond it is
 * lent out across all of them, so a destination that reads slowly finds no more chunks queued for
 * three transfers than for one (plus a window each). A destination's DATA thread is held in the
 * middle of its transfers, so the sources send until their windows close; what was put on the
 * DATA queue and not yet read is then counted.
 */
class SharedWindowIT {
    static final int CHUNK = 16384;
    static final int WINDOW = 2;
    static final int FRAME = 5;
    /** What the budget lends in all: one transfer's window beyond its own. */
    static final int LENT = WINDOW * FRAME - WINDOW;

    @TempDir
    Path dir;

    @Test
    void transfersRunningTogetherHaveOneTransfersWindowInFlightPlusAWindowEach() throws Exception {
        int transfers = 3;
        try (TransferHarness h = new TransferHarness(dir, false)) {
            HeldDestination dst = new HeldDestination(transfers);
            h.listenerFor = (config, next) -> config.agentName().equals("DST") ? dst.listener(next) : next;
            h.agent("SRC", source(Map.of()));
            h.agent("DST");
            List<Path> sources = new ArrayList<>();
            List<TransferHarness.Submission> submissions = new ArrayList<>();
            try {
                for (int i = 0; i < transfers; i++) {
                    sources.add(TransferHarness.randomFile(dir.resolve("in/f" + i), 4L << 20, i + 1));
                    submissions.add(submit(h, sources.get(i), "DST", "f" + i));
                }
                dst.awaitHeld();
                TransferHarness.await("every source transfer waiting for its window", 30,
                        () -> threadsAwaitingAnAcknowledgement("") == transfers);

                // Sends are asynchronous: the last chunks sent may reach the queue a little after
                // their senders wait. All of them are there once every transfer's window is, less
                // the one chunk of each that the destination read and has not acknowledged.
                int atLeast = transfers * WINDOW + LENT - transfers;
                TransferHarness.await("the chunks sent on the DATA queue", 30, () -> dst.unread(h, "DST") >= atLeast);
                long unread = dst.unread(h, "DST");
                assertThat(unread).as("chunks queued for the held destination: a window of each transfer's own"
                        + " and one transfer's window lent (without the budget each would have %d)", WINDOW * FRAME)
                        .isLessThanOrEqualTo(transfers * WINDOW + LENT)
                        .as("the lent chunks are used").isGreaterThan(transfers * WINDOW);
            } finally {
                dst.release();
            }
            for (int i = 0; i < transfers; i++) {
                assertThat(submissions.get(i).awaitFinal(120).resultCode()).isZero();
                assertThat(TransferHarness.md5(dir.resolve("out/f" + i))).isEqualTo(TransferHarness.md5(sources.get(i)));
                submissions.get(i).close();
            }
        }
    }

    @Test
    void aTransferWhoseDestinationDoesNotAnswerLendsItsChunksToTheOthers() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            HeldDestination deaf = new HeldDestination(1);
            HeldDestination dst = new HeldDestination(1);
            h.listenerFor = (config, next) -> switch (config.agentName()) {
                case "DEAF" -> deaf.listener(next);
                case "DST" -> dst.listener(next);
                default -> next;
            };
            // One second without an acknowledgement, and the transfer is recovering at once.
            h.agent("SRC", source(Map.of("transferAckTimeout", "1000", "transferAckTimeoutRetries", "0")));
            h.agent("DEAF");
            h.agent("DST");
            Path a = TransferHarness.randomFile(dir.resolve("in/a"), 4L << 20, 1);
            Path b = TransferHarness.randomFile(dir.resolve("in/b"), 4L << 20, 2);
            try (TransferHarness.Submission toDeaf = submit(h, a, "DEAF", "a")) {
                deaf.awaitHeld();
                TransferHarness.await("the unanswered transfer recovering", 30,
                        () -> h.events.stream().anyMatch(e -> e.startsWith("recovering SRC " + toDeaf.id())));
                try (TransferHarness.Submission toDst = submit(h, b, "DST", "b")) {
                    dst.awaitHeld();
                    String suffix = toDst.id().substring(toDst.id().length() - 8);
                    TransferHarness.await("the second transfer waiting for its window", 30,
                            () -> threadsAwaitingAnAcknowledgement(suffix) == 1);

                    // Its first chunk is read, and not yet acknowledged (a window is two); sends are
                    // asynchronous, so the count is awaited.
                    TransferHarness.await("the borrowed chunks on the DATA queue", 30,
                            () -> dst.unread(h, "DST") >= WINDOW + LENT - 1);
                    assertThat(dst.unread(h, "DST")).as("the second transfer borrows beside its own window: the"
                            + " first, unanswered, gave back what it had borrowed")
                            .isGreaterThan(WINDOW).isLessThanOrEqualTo(WINDOW + LENT);
                    dst.release();
                    deaf.release();
                    assertThat(toDst.awaitFinal(120).resultCode()).isZero();
                    assertThat(toDeaf.awaitFinal(120).resultCode()).isZero();
                } finally {
                    dst.release();
                    deaf.release();
                }
            }
            assertThat(TransferHarness.md5(dir.resolve("out/a"))).isEqualTo(TransferHarness.md5(a));
            assertThat(TransferHarness.md5(dir.resolve("out/b"))).isEqualTo(TransferHarness.md5(b));
        }
    }

    private static Map<String, String> source(Map<String, String> more) {
        Map<String, String> props = new java.util.HashMap<>(Map.of("agentChunkSize", String.valueOf(CHUNK),
                "agentWindowSize", String.valueOf(WINDOW), "agentFrameSize", String.valueOf(FRAME)));
        props.putAll(more);
        return props;
    }

    private TransferHarness.Submission submit(TransferHarness h, Path src, String to, String name) throws Exception {
        Files.createDirectories(dir.resolve("out"));
        return h.submit("SRC", TransferHarness.request("SRC", to, 0, TransferHarness.item(src.toString(),
                dir.resolve("out/" + name).toString(), DestinationType.FILE)));
    }

    /**
     * The source agent's transfer threads (whose name ends with {@code suffix}) now waiting for an
     * acknowledgement: their window is closed.
     */
    private static long threadsAwaitingAnAcknowledgement(String suffix) {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("openmft-SRC-transfer")
                        && e.getKey().getName().endsWith(suffix))
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getMethodName().equals("awaitProgress")))
                .count();
    }

    /**
     * A destination agent whose DATA thread stops reading, once, at the first chunk it writes after
     * {@code transfers} transfers started there, until released; it counts the chunks it wrote.
     */
    static final class HeldDestination {
        private final int transfers;
        private final List<String> started = new CopyOnWriteArrayList<>();
        private final AtomicInteger chunksRead = new AtomicInteger();
        private final CountDownLatch holding = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        HeldDestination(int transfers) {
            this.transfers = transfers;
        }

        AgentListener listener(AgentListener next) {
            return new ForwardingAgentListener() {
                @Override
                protected AgentListener delegate() {
                    return next;
                }

                @Override
                public void transferStarted(String agent, Role role, TransferInfo transfer) {
                    started.add(transfer.transferId());
                    super.transferStarted(agent, role, transfer);
                }

                @Override
                public void chunkWritten(String agent, String transferId, int item, int bytes) {
                    chunksRead.incrementAndGet();
                    super.chunkWritten(agent, transferId, item, bytes);
                    if (started.size() >= transfers && holding.getCount() > 0) {
                        holding.countDown();
                        try {
                            release.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            };
        }

        void awaitHeld() throws InterruptedException {
            assertThat(holding.await(60, TimeUnit.SECONDS)).as("the DATA thread held").isTrue();
        }

        /** Chunks put on the agent's DATA queue and not read: everything but the STARTs and the chunks written. */
        long unread(TransferHarness h, String agent) {
            return h.qm.messagesPut(QueueNames.data(agent)) - started.size() - chunksRead.get();
        }

        void release() {
            release.countDown();
        }
    }
}
