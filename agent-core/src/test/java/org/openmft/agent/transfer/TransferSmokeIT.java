package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;

class TransferSmokeIT {
    @TempDir
    Path dir;

    @Test
    void oneFileArrivesIntact() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("agentChunkSize", "65536"));
            h.agent("DST");
            Path src = TransferHarness.randomFile(dir.resolve("in/a.bin"), 1_000_003, 1);
            java.nio.file.Files.createDirectories(dir.resolve("out"));
            java.util.List<org.openmft.xml.Originator> queued = new java.util.concurrent.CopyOnWriteArrayList<>();
            h.onQueued = t -> queued.add(t.originator());
            // A requester that claims to be someone else, in the document and in the message's JMSXUserID:
            // the agent records the user the queue manager logged in (the harness's requester) instead.
            org.openmft.xml.TransferRequest claimed = TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), dir.resolve("out/a.bin").toString(), DestinationType.FILE));
            claimed = new org.openmft.xml.TransferRequest(claimed.version(),
                    new org.openmft.xml.Originator("testhost", "mallory", "mallory"), claimed.sourceAgent(),
                    claimed.destinationAgent(), claimed.reply(), claimed.transferSet(), claimed.jobName());
            Reply r;
            try (TransferHarness.Submission s = h.submitText("SRC", new org.openmft.xml.DocumentWriter().write(claimed),
                    Map.of("JMSXUserID", "mallory"))) {
                assertThat(s.ack.resultCode()).as("acknowledgement: %s", s.ack.supplements()).isZero();
                r = s.awaitFinal(60);
            }
            assertThat(queued).singleElement().satisfies(o -> {
                assertThat(o.mqmdUserId()).isEqualTo(TransferHarness.REQUESTER);
                assertThat(o.userId()).as("kept as written, for display").isEqualTo("mallory");
            });
            assertThat(r.resultCode()).as("%s %s", r.supplements(), h.events).isZero();
            assertThat(TransferHarness.md5(dir.resolve("out/a.bin"))).isEqualTo(TransferHarness.md5(src));
            assertThat(dir.resolve("out/a.bin.part")).doesNotExist();
        }
    }
}
