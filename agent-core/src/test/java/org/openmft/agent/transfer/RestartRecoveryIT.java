package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.Checksum;
import org.openmft.xml.CancelRequest;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;

/**
 * Transfers survive their agents stopping in the middle (an immediate stop, which suspends them as
 * a crash would leave them): they resume from the last checkpoint when the agent starts again, never
 * from byte 0, and what is sent again stays within one checkpoint span plus the window. The crash
 * of real processes with {@code kill -9} is tested in agent-cli's {@code CrashRecoveryIT}.
 */
class RestartRecoveryIT {
    static final int CHUNK = 16 * 1024;
    static final int WINDOW = 4;
    static final int FRAME = 2;
    static final int INTERVAL = 2;
    /** chunk x window x frame x interval: the data between two checkpoints. */
    static final long SPAN = (long) CHUNK * WINDOW * FRAME * INTERVAL;
    /** The chunks a source may have unacknowledged. */
    static final long IN_FLIGHT = (long) CHUNK * WINDOW * FRAME;
    /** Small chunks and windows keep a 32 MiB transfer going long enough to stop an agent in it. */
    static final Map<String, String> SLOW = Map.of("agentChunkSize", String.valueOf(CHUNK), "agentWindowSize",
            String.valueOf(WINDOW), "agentFrameSize", String.valueOf(FRAME), "agentCheckpointInterval",
            String.valueOf(INTERVAL), "transferAckTimeout", "2000", "transferAckTimeoutRetries", "1");

    @TempDir
    Path dir;

    private static TransferItem item(Path src, Path out) {
        return TransferHarness.item(src.toString(), out.toString(), DestinationType.FILE);
    }

    /** Submits to SRC a transfer of {@code items} to DST. */
    private static TransferHarness.Submission submit(TransferHarness h, TransferItem... items) throws Exception {
        return h.submit("SRC", TransferHarness.request("SRC", "DST", 0, items));
    }

    /** A queue manager with agents SRC (with {@code sourceProperties}) and DST, and an output directory. */
    private TransferHarness twoAgents(Map<String, String> sourceProperties) throws Exception {
        TransferHarness h = new TransferHarness(dir, false);
        h.agent("SRC", sourceProperties);
        h.agent("DST", SLOW);
        Files.createDirectories(dir.resolve("out"));
        return h;
    }

    /** Waits until the destination has written 8 MiB of {@code out}: the transfer is mid-file. */
    private static void awaitMidFile(Path out) throws InterruptedException {
        awaitPartial(out, 8);
    }

    private static void awaitPartial(Path out, int mebibytes) throws InterruptedException {
        TransferHarness.await(mebibytes + " MiB at the destination", 120,
                () -> partSize(out) >= (long) mebibytes << 20);
    }

    private static long partSize(Path out) {
        Path part = out.resolveSibling(out.getFileName() + ".part");
        try {
            return Files.exists(part) ? Files.size(part) : 0;
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    @Test
    void aDestinationStoppedMidFileResumesFromItsLastCheckpoint() throws Exception {
        try (TransferHarness h = twoAgents(SLOW)) {
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 11);
            Path out = dir.resolve("out/big.bin");
            try (TransferHarness.Submission s = submit(h, item(src, out))) {
                awaitMidFile(out);
                h.stopImmediately("DST");
                long written = partSize(out);
                long resumedAt = h.lastCheckpoint(s.id()) * CHUNK;
                assertThat(written).as("the partial file stays for the restart").isGreaterThan(0);
                assertThat(resumedAt).as("a checkpoint was recorded").isGreaterThan(0);

                h.agent("DST", SLOW);
                Reply fin = s.awaitFinal(180);
                assertThat(fin.resultCode()).as("%s", fin.supplements()).isZero();
                assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
                assertThat(h.events).contains("resumed DESTINATION " + s.id());
                assertThat(written - resumedAt).as("bytes written after the last durable checkpoint, sent again")
                        .isLessThanOrEqualTo(SPAN + IN_FLIGHT);
            }
            assertThat(Files.list(dir.resolve("out"))).containsExactly(out);
            TransferHarness.awaitNoTransferState("the destination forgot the transfer", dir.resolve("state-DST"));
        }
    }

    @Test
    void aSha256ItemResumedByItsDestinationAndThenItsSourceStillVerifies() throws Exception {
        try (TransferHarness h = twoAgents(SLOW)) {
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 13);
            Path out = dir.resolve("out/big.bin");
            try (TransferHarness.Submission s = submit(h, TransferHarness.item(src.toString(), out.toString(),
                    DestinationType.FILE, ChecksumMethod.SHA_256))) {
                // The destination rebuilds its digest from the partial file's bytes kept...
                awaitMidFile(out);
                h.stopImmediately("DST");
                h.agent("DST", SLOW);
                // ...and the source from the bytes below the resume point, read but not sent again.
                awaitPartial(out, 16);
                h.stopImmediately("SRC");
                h.agent("SRC", SLOW);
                Reply fin = s.awaitFinal(180);
                assertThat(fin.resultCode()).as("%s", fin.supplements()).isZero();
                assertThat(h.events).contains("resumed DESTINATION " + s.id(), "resumed SOURCE " + s.id());
            }
            Checksum expected = new Checksum(ChecksumMethod.SHA_256, TransferHarness.sha256(src));
            assertThat(TransferHarness.sha256(out)).isEqualTo(expected.hex());
            TransferHarness.await("the source's outcome", 10, () -> !h.sourceOutcomes.isEmpty());
            assertThat(h.sourceOutcomes.get(h.sourceOutcomes.size() - 1).items()).singleElement()
                    .satisfies(i -> assertThat(i.checksum()).isEqualTo(expected));
        }
    }

    @Test
    void aSourceStoppedMidFileResumesWhereTheDestinationIs() throws Exception {
        try (TransferHarness h = twoAgents(SLOW)) {
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 12);
            Path out = dir.resolve("out/big.bin");
            try (TransferHarness.Submission s = submit(h, item(src, out))) {
                awaitMidFile(out);
                h.stopImmediately("SRC");
                assertThat(h.sourceOutcomes).as("an immediate stop suspends, it does not end the transfer").isEmpty();
                long before = partSize(out);
                h.lastBytesSent.remove(s.id());

                h.agent("SRC", SLOW);
                Reply fin = s.awaitFinal(180);
                assertThat(fin.resultCode()).as("%s", fin.supplements()).isZero();
                assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
                assertThat(h.events).contains("resumed SOURCE " + s.id());
                long sentAfterRestart = h.lastBytesSent.getOrDefault(s.id(), 0L);
                assertThat(sentAfterRestart).as("the resumed source sends only what the destination lacks")
                        .isLessThanOrEqualTo(Files.size(src) - before + IN_FLIGHT);
            }
            TransferHarness.awaitNoTransferState("the source forgot the transfer", dir.resolve("state-SRC"));
        }
    }

    @Test
    void bothAgentsStoppedResumeAndQueuedTransfersAreKept() throws Exception {
        Map<String, String> one = new java.util.HashMap<>(SLOW);
        one.put("maxSourceTransfers", "1");
        try (TransferHarness h = twoAgents(one)) {
            Path big = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 13);
            Path small = TransferHarness.randomFile(dir.resolve("in/small.bin"), 100_000, 14);
            Path outBig = dir.resolve("out/big.bin");
            Path outSmall = dir.resolve("out/small.bin");
            try (TransferHarness.Submission first = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    item(big, outBig)));
                    TransferHarness.Submission second = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                            item(small, outSmall)))) {
                awaitMidFile(outBig);
                h.stopImmediately("SRC");
                h.stopImmediately("DST");
                assertThat(outSmall).as("the second transfer was still queued").doesNotExist();

                h.agent("DST", SLOW);
                h.agent("SRC", one);
                assertThat(first.awaitFinal(180).resultCode()).isZero();
                assertThat(second.awaitFinal(60).resultCode()).isZero();
                assertThat(TransferHarness.md5(outBig)).isEqualTo(TransferHarness.md5(big));
                assertThat(TransferHarness.md5(outSmall)).isEqualTo(TransferHarness.md5(small));
            }
        }
    }

    @Test
    void aSourceFileChangedWhileItsAgentWasDownFailsItsItemAndTheOthersComplete() throws Exception {
        try (TransferHarness h = twoAgents(SLOW)) {
            Path big = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 15);
            Path after = TransferHarness.randomFile(dir.resolve("in/after.bin"), 200_000, 16);
            Path outBig = dir.resolve("out/big.bin");
            Path outAfter = dir.resolve("out/after.bin");
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    item(big, outBig), item(after, outAfter)))) {
                awaitMidFile(outBig);
                h.stopImmediately("SRC");
                // Shrunk below what the destination already holds.
                try (var ch = java.nio.channels.FileChannel.open(big, java.nio.file.StandardOpenOption.WRITE)) {
                    ch.truncate(1L << 20);
                }

                h.agent("SRC", SLOW);
                Reply fin = s.awaitFinal(180);
                assertThat(fin.resultCode()).as("%s", fin.supplements()).isEqualTo(20);
                assertThat(fin.items().get(0).resultCode()).isEqualTo(1);
                assertThat(fin.items().get(0).supplement()).contains(big.toString()).contains("changed");
                assertThat(fin.items().get(1).resultCode()).isZero();
            }
            assertThat(outBig).as("nothing under the final name").doesNotExist();
            assertThat(outBig.resolveSibling("big.bin.part")).doesNotExist();
            assertThat(TransferHarness.md5(outAfter)).isEqualTo(TransferHarness.md5(after));
        }
    }

    @Test
    void aDeleteDispositionWaitsForTheDestinationAcrossARestart() throws Exception {
        try (TransferHarness h = twoAgents(SLOW)) {
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 17);
            String sum = TransferHarness.md5(src);
            Path out = dir.resolve("out/big.bin");
            TransferItem move = new TransferItem(org.openmft.xml.Mode.BINARY, org.openmft.xml.ChecksumMethod.MD5,
                    new ItemSource(false, Disposition.DELETE, src.toString(), null),
                    new org.openmft.xml.ItemDestination(DestinationType.FILE, org.openmft.xml.ExistAction.ERROR,
                            out.toString(), null, null));
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0, move))) {
                awaitMidFile(out);
                h.stopImmediately("DST");
                assertThat(src).as("not deleted while the destination has not confirmed").exists();
                h.agent("DST", SLOW);
                assertThat(s.awaitFinal(180).resultCode()).isZero();
            }
            assertThat(src).doesNotExist();
            assertThat(TransferHarness.md5(out)).isEqualTo(sum);
        }
    }

    @Test
    void aResumedTransferIsRecoveringUntilItsPeerIsBackAndCanBeCancelled() throws Exception {
        try (TransferHarness h = twoAgents(SLOW)) {
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 18);
            Path out = dir.resolve("out/big.bin");
            try (TransferHarness.Submission s = submit(h, item(src, out))) {
                awaitMidFile(out);
                h.stopImmediately("DST");
                h.stopImmediately("SRC");
                h.agent("SRC", SLOW);
                TransferHarness.await("the source to resume", 30,
                        () -> h.events.contains("resumed SOURCE " + s.id()));
                try (TransferHarness.Submission c = h.submit("SRC",
                        new CancelRequest("6.00", TransferHarness.ME, s.id(), null))) {
                    assertThat(c.ack.resultCode()).isZero();
                }
                assertThat(s.awaitFinal(60).resultCode()).isEqualTo(41);
                // The destination, back later, takes the cancel that waited on its queue and
                // removes its partial file.
                h.agent("DST", SLOW);
                TransferHarness.await("the partial file to go", 60, () -> partSize(out) == 0
                        && !Files.exists(out.resolveSibling("big.bin.part")));
            }
            assertThat(out).doesNotExist();
        }
    }
}
