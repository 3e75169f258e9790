package org.openmft.bench.scenarios.micro;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.openmft.agent.compression.CompressionMethod;
import org.openmft.bench.micro.CompressionBenchmark.Data;

/** The ratio as the source would send a file: chunk by chunk, compressed only where that shrinks a chunk. */
class CompressionSuiteTest {
    @Test
    void aTextFileShrinksAndARandomOneGoesAsItIsWithAShortLastChunk() {
        int size = 3 * 65536 + 1000;
        CompressionSuite.Ratio text = CompressionSuite.ratio(CompressionMethod.LZ4, Data.TEXT, Data.TEXT.bytes(size, 1),
                65536);
        assertThat(text.chunks()).isEqualTo(4);
        assertThat(text.compressed()).isEqualTo(4);
        assertThat(text.fileBytes()).isEqualTo(size);
        assertThat(text.ratio()).isBetween(0.05, 0.6);

        CompressionSuite.Ratio random = CompressionSuite.ratio(CompressionMethod.ZSTD, Data.RANDOM,
                Data.RANDOM.bytes(size, 1), 65536);
        assertThat(random.compressed()).isZero();
        assertThat(random.wireBytes()).isEqualTo(size);
        assertThat(random.ratio()).isEqualTo(1.0);
    }
}
