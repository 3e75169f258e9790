package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * three transfers than for one (plus a window each). The destination's DATA thread is held in the
 * middle of the transfers, so the sources send until their windows close; what was put on the
 * DATA queue and not yet read is then counted.
 */
class SharedWindowIT {
    static final int CHUNK = 16384;
    static final int WINDOW = 2;
    static final int FRAME = 5;
    static final int TRANSFERS = 3;

    @TempDir
    Path dir;

    @Test
    void transfersRunningTogetherHaveOneTransfersWindowInFlightPlusAWindowEach() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            List<String> started = new java.util.concurrent.CopyOnWriteArrayList<>();
            AtomicInteger chunksRead = new AtomicInteger();
            CountDownLatch holding = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            h.listenerFor = (config, next) -> !config.agentName().equals("DST") ? next : new ForwardingAgentListener() {
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
                    // Once all three were accepted here, the DATA thread stops reading (once).
                    if (started.size() == TRANSFERS && holding.getCount() > 0) {
                        holding.countDown();
                        try {
                            release.await(60, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            };
            h.agent("SRC", Map.of("agentChunkSize", String.valueOf(CHUNK), "agentWindowSize", String.valueOf(WINDOW),
                    "agentFrameSize", String.valueOf(FRAME)));
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            List<Path> sources = new ArrayList<>();
            List<TransferHarness.Submission> submissions = new ArrayList<>();
            try {
                for (int i = 0; i < TRANSFERS; i++) {
                    // 4 MiB: 256 chunks each, far more than any window.
                    Path src = TransferHarness.randomFile(dir.resolve("in/f" + i), 4L << 20, i + 1);
                    sources.add(src);
                    submissions.add(h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                            TransferHarness.item(src.toString(), dir.resolve("out/f" + i).toString(),
                                    DestinationType.FILE))));
                }
                assertThat(holding.await(60, TimeUnit.SECONDS)).as("the DATA thread held after all three started")
                        .isTrue();
                TransferHarness.await("every source transfer waiting for its window", 30,
                        () -> sourceThreadsAwaitingWindow() == TRANSFERS);

                // Put on DATA and not read: everything but the three STARTs and the chunks written.
                long unread = h.qm.messagesPut(QueueNames.data("DST")) - TRANSFERS - chunksRead.get();
                int own = WINDOW;
                int lent = WINDOW * FRAME - own;
                assertThat(unread).as("chunks queued for the held destination: a window of each transfer's own"
                        + " and one transfer's window lent (without the budget each would have %d)", WINDOW * FRAME)
                        .isLessThanOrEqualTo(TRANSFERS * own + lent)
                        .as("the lent chunks are used").isGreaterThan(TRANSFERS * own);
            } finally {
                release.countDown();
            }
            for (int i = 0; i < TRANSFERS; i++) {
                assertThat(submissions.get(i).awaitFinal(120).resultCode()).isZero();
                assertThat(TransferHarness.md5(dir.resolve("out/f" + i))).isEqualTo(TransferHarness.md5(sources.get(i)));
                submissions.get(i).close();
            }
        }
    }

    /** The source agent's transfer threads now waiting for an acknowledgement: their window is closed. */
    private static long sourceThreadsAwaitingWindow() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().startsWith("openmft-SRC-transfer"))
                .filter(e -> Arrays.stream(e.getValue()).anyMatch(f -> f.getMethodName().equals("awaitProgress")))
                .count();
    }
}
