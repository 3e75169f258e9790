package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.net.DelayRelay;
import org.openmft.xml.Reply;

/**
 * Two embedded queue managers whose channels cross a long link (a {@link DelayRelay}, 80 ms round
 * trip): with {@code openmft.adaptiveWindow} the source's window grows beyond the fixed one
 * (agentWindowSize × agentFrameSize, here 4 chunks so that any machine outruns it) and the file
 * arrives whole. How fast is the benchmarks' business; this asserts no timing.
 */
class LongLinkIT {
    static final Duration ONE_WAY = Duration.ofMillis(40);
    static final int FIXED_WINDOW = 2 * 2;

    @TempDir
    Path dir;
    TransferHarness qm1;
    TransferHarness qm2;
    DelayRelay toQm2;
    DelayRelay toQm1;

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {toQm2, toQm1, qm1, qm2}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    void overALongLinkTheAdaptiveWindowGrowsBeyondTheFixedOneAndTheFileArrivesWhole() throws Exception {
        qm1 = new TransferHarness(dir.resolve("one"), false, "QM1");
        qm2 = new TransferHarness(dir.resolve("two"), false, "QM2");
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        toQm2 = DelayRelay.start(any, new InetSocketAddress("127.0.0.1", qm2.port), ONE_WAY, 0);
        toQm1 = DelayRelay.start(any, new InetSocketAddress("127.0.0.1", qm1.port), ONE_WAY, 0);
        ChannelIT.joinThrough(qm1, qm2, toQm2.address().getPort());
        ChannelIT.joinThrough(qm2, qm1, toQm1.address().getPort());
        ChannelIT.awaitRunning(qm1, "QM2");
        ChannelIT.awaitRunning(qm2, "QM1");
        // A checkpoint span (256 chunks) longer than the file: the test is about the window, and a
        // checkpoint (an fsync) every four chunks would make the destination, not the link, the limit.
        Map<String, String> agent = Map.of("transferRoot", dir.toString(), "openmft.adaptiveWindow", "true",
                "agentChunkSize", "65536", "agentWindowSize", "2", "agentFrameSize", "2",
                "agentCheckpointInterval", "64");
        qm1.agent("SRC", agent);
        qm2.agent("DST", agent);
        long size = 8L << 20;
        Path src = TransferHarness.randomFile(dir.resolve("in/long.bin"), size, 16);
        Files.createDirectories(dir.resolve("out"));
        Path out = dir.resolve("out/long.bin");

        Reply r = qm1.transfer(ChannelIT.across(src, out), 120);

        assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
        assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
        assertThat(toQm2.bytesToTarget()).as("the chunks crossed the long link").isGreaterThan(size);
        String id = qm1.sourceOutcomes.get(0).transferId();
        int largest = qm1.events.stream().filter(e -> e.startsWith("window " + id + " "))
                .mapToInt(e -> Integer.parseInt(e.substring(e.lastIndexOf(' ') + 1))).max().orElse(FIXED_WINDOW);
        assertThat(largest).as("the largest window reported; events: %s", qm1.events).isGreaterThan(FIXED_WINDOW);
    }
}
