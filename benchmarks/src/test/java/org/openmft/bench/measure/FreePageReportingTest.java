package org.openmft.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine description names a balloon's free page reporting only when it is on and has given memory back. */
class FreePageReportingTest {
    @TempDir
    Path parameters;

    private String with(String order, String reportedKib) throws Exception {
        Files.writeString(parameters.resolve("page_reporting_order"), order + "\n");
        Files.writeString(parameters.resolve("reported_kib"), reportedKib + "\n");
        return MachineInfo.freePageReporting(parameters);
    }

    @Test
    void onWhenItsOrderCanReportAndItHasReported() throws Exception {
        assertThat(with("9", String.valueOf(297L << 20)))
                .startsWith("free page reporting is on (blocks of order 9, 297 GiB given back to the host since boot)");
    }

    @Test
    void offWhenItsOrderIsAboveTheLargestOrItHasReportedNothingOrCannotBeRead() throws Exception {
        assertThat(with("11", "1048576")).isNull();
        assertThat(with("9", "0")).isNull();
        assertThat(with("nine", "5")).isNull();
        assertThat(MachineInfo.freePageReporting(parameters.resolve("absent"))).isNull();
    }
}
