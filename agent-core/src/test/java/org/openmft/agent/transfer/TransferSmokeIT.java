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
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), dir.resolve("out/a.bin").toString(), DestinationType.FILE)),
                    60);
            assertThat(r.resultCode()).as("%s %s", r.supplements(), h.events).isZero();
            assertThat(TransferHarness.md5(dir.resolve("out/a.bin"))).isEqualTo(TransferHarness.md5(src));
            assertThat(dir.resolve("out/a.bin.part")).doesNotExist();
        }
    }
}
