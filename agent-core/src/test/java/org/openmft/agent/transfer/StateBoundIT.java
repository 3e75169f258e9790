package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.QueueNames;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;

/**
 * STATE queue records stay small whatever the number of files and the length of their paths: a
 * 10 000-file transfer with long paths is watched while it runs. And the source writes none at a
 * checkpoint: only the destination's record says where a resumed transfer continues (issue 18).
 */
class StateBoundIT {
    @TempDir
    Path dir;

    static long size(Message m) throws Exception {
        long bytes = 0;
        for (Object name : Collections.list((Enumeration<?>) m.getPropertyNames())) {
            bytes += name.toString().getBytes(StandardCharsets.UTF_8).length;
            bytes += String.valueOf(m.getObjectProperty(name.toString())).getBytes(StandardCharsets.UTF_8).length;
        }
        return bytes;
    }

    @Test
    void tenThousandFilesWithLongPathsKeepStateRecordsSmall() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("maxFilesForTransfer", "20000"));
            h.agent("DST", Map.of("maxFilesForTransfer", "20000"));
            String longDir = "d".repeat(120) + "/" + "e".repeat(120);
            Path in = Files.createDirectories(dir.resolve("in/" + longDir));
            Files.createDirectories(dir.resolve("out"));
            for (int i = 0; i < 10_000; i++) {
                Files.writeString(in.resolve(String.format("%05d-%s.dat", i, "f".repeat(150))), "x");
            }
            AtomicLong largest = new AtomicLong();
            AtomicInteger seen = new AtomicInteger();
            // What ends the watcher other than the test stopping it fails the test.
            java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicReference<Throwable> watcherFailure =
                    new java.util.concurrent.atomic.AtomicReference<>();
            Thread watcher = new Thread(() -> {
                try (Connection c = h.admin.connect()) {
                    Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                    c.start();
                    // Ends on the flag, not on the interrupt: the JMS client may swallow an interrupt
                    // inside a browse (seen once in CI), and the loop would then never see it.
                    while (!stopping.get()) {
                        for (String q : new String[] {"SYSTEM.FTE.STATE.SRC", "SYSTEM.FTE.STATE.DST"}) {
                            try (QueueBrowser b = s.createBrowser(s.createQueue(q))) {
                                for (Object m : Collections.list((Enumeration<?>) b.getEnumeration())) {
                                    seen.incrementAndGet();
                                    largest.accumulateAndGet(size((Message) m), Math::max);
                                }
                            }
                        }
                    }
                } catch (Throwable e) {
                    if (!stopping.get()) {
                        watcherFailure.set(e);
                    }
                }
            }, "state-watcher");
            watcher.start();
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    new org.openmft.xml.TransferItem(org.openmft.xml.Mode.BINARY, org.openmft.xml.ChecksumMethod.MD5,
                            new org.openmft.xml.ItemSource(true, org.openmft.xml.Disposition.LEAVE,
                                    dir.resolve("in").toString(), null),
                            new org.openmft.xml.ItemDestination(DestinationType.DIRECTORY,
                                    org.openmft.xml.ExistAction.ERROR, dir.resolve("out").toString(), null, null))),
                    300);
            stopping.set(true);
            watcher.interrupt();
            watcher.join(10_000);
            assertThat(watcher.isAlive()).as("the state watcher stopped").isFalse();
            assertThat(watcherFailure.get()).as("the state watcher failed while the transfer ran").isNull();
            assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
            assertThat(r.items()).as("detail is bounded").hasSizeLessThan(10_000);
            assertThat(r.supplements()).anySatisfy(x -> assertThat(x).contains("more files are not listed"));
            assertThat(seen.get()).as("state records observed during the transfer").isPositive();
            assertThat(largest.get()).as("largest state record, bytes").isLessThan(4096);
            assertThat(h.events.stream().filter(e -> e.startsWith("checkpoint ")).count()).isGreaterThan(100);
            try (var files = Files.list(dir.resolve("out/in/" + longDir))) {
                assertThat(files.count()).isEqualTo(10_000);
            }
        }
    }

    @Test
    void aCheckpointWritesTheDestinationsRecordAndNoneOfTheSources() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("agentChunkSize", "16384"));
            h.agent("DST", Map.of("agentChunkSize", "16384"));
            Path file = TransferHarness.randomFile(dir.resolve("in/big.bin"), 8 << 20, 3);
            Files.createDirectories(dir.resolve("out"));
            long sourceBefore = h.qm.messagesPut(QueueNames.state("SRC"));
            long destinationBefore = h.qm.messagesPut(QueueNames.state("DST"));

            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(file.toString(),
                    dir.resolve("out/big.bin").toString(), DestinationType.FILE)), 120);

            assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
            long checkpoints = h.events.stream().filter(e -> e.startsWith("checkpoint ")).count();
            // 512 chunks, a checkpoint every 50.
            assertThat(checkpoints).isGreaterThanOrEqualTo(10);
            assertThat(h.qm.messagesPut(QueueNames.state("DST")) - destinationBefore)
                    .as("the destination's record at acceptance and at each checkpoint")
                    .isGreaterThanOrEqualTo(checkpoints + 1);
            assertThat(h.qm.messagesPut(QueueNames.state("SRC")) - sourceBefore)
                    .as("the source's record: when the request is accepted, when it is planned, and before its START")
                    .isEqualTo(3);
        }
    }
}
