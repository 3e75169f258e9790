package org.openmft.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The machine description names a balloon's free page reporting only when it is on and has given memory
 * back, or when the run holds it off; a hold turns it off and sets its order back.
 */
class FreePageReportingTest {
    @TempDir
    Path parameters;

    private String with(String order, String reportedKib) throws Exception {
        Files.writeString(parameters.resolve("page_reporting_order"), order + "\n");
        Files.writeString(parameters.resolve("reported_kib"), reportedKib + "\n");
        return FreePageReporting.describe(parameters);
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
        assertThat(FreePageReporting.describe(parameters.resolve("absent"))).isNull();
    }

    @Test
    void aHoldRaisesTheOrderAboveTheLargestSaysSoAndSetsItBack() throws Exception {
        with("9", "1048576");
        Path order = parameters.resolve("page_reporting_order");
        try (FreePageReporting.Hold hold = FreePageReporting.hold(parameters)) {
            assertThat(hold.held()).isTrue();
            assertThat(Files.readString(order).trim()).isEqualTo("11");
            assertThat(FreePageReporting.describe(parameters))
                    .startsWith("free page reporting held off for this run (--hold-page-reporting: order 9 raised");
        }
        assertThat(Files.readString(order).trim()).isEqualTo("9");
        assertThat(FreePageReporting.describe(parameters)).startsWith("free page reporting is on (blocks of order 9");
    }

    @Test
    void reportingAlreadyOffIsLeftAsItIs() throws Exception {
        with("11", "0");
        try (FreePageReporting.Hold hold = FreePageReporting.hold(parameters)) {
            assertThat(hold.held()).isFalse();
            assertThat(FreePageReporting.describe(parameters)).isNull();
        }
        assertThat(Files.readString(parameters.resolve("page_reporting_order")).trim()).isEqualTo("11");
    }

    @Test
    void aMachineWithoutReportingCannotHoldItAndSaysWhy() {
        assertThatThrownBy(() -> FreePageReporting.hold(parameters.resolve("absent")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--hold-page-reporting: this machine has no free page reporting to hold");
    }
}
