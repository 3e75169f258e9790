package org.openmft.bench.scenarios.micro;

import org.openmft.bench.Sections;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The suite runs a benchmark through JMH's Runner in a forked JVM with Maven's class path, and a
 * benchmark whose self-check fails is an exception naming it. One iteration of 100 ms; no timing asserted.
 */
class MicroSuiteTest {
    @TempDir
    Path tmp;

    private static MicroSuite.Settings tiny(Map<String, String> params) {
        return new MicroSuite.Settings("tiny", 0, TimeValue.milliseconds(100), 1, TimeValue.milliseconds(100), params);
    }

    @Test
    void aForkedBenchmarkGivesARow() throws Exception {
        List<MicroResults.Row> rows = MicroSuite.run(MicroSuite.Group.CHECKSUMS, "ChecksumBenchmark\\.heapChunk$",
                tiny(Map.of("algorithm", "CRC32", "chunkBytes", "65536")), tmp);
        assertThat(rows).singleElement().satisfies(r -> {
            assertThat(r.group()).isEqualTo("checksums");
            assertThat(r.benchmark()).isEqualTo("ChecksumBenchmark.heapChunk");
            assertThat(r.params()).containsEntry("algorithm", "CRC32").containsEntry("chunkBytes", "65536");
            assertThat(r.unit()).isEqualTo("ops/s");
            assertThat(r.score()).isPositive();
            assertThat(r.bytesPerOp()).isEqualTo(65536);
            assertThat(r.mbPerSecond()).isPositive();
        });
    }

    @Test
    void aFailedSelfCheckFailsTheRun() {
        // A file of -1 bytes cannot be read back as one: the setup's check must stop the benchmark.
        assertThatThrownBy(() -> MicroSuite.run(MicroSuite.Group.CHUNK_READING, MicroSuite.Group.CHUNK_READING
                .include(), tiny(Map.of("fileBytes", "-1", "chunkBytes", "65536", "method", "MMAP")), tmp))
                .isInstanceOf(RunnerException.class)
                .satisfies(e -> assertThat(MicroSuite.reason(e)).contains("self-check failed: MMAP bytes read"));
    }

    @Test
    void registeredAsSectionMicro() {
        assertThat(Sections.named("micro")).containsInstanceOf(MicroSuite.class);
    }
}
