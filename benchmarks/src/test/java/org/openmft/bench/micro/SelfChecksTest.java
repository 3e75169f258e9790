package org.openmft.bench.micro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openmft.agent.compression.CompressionMethod;

/** Each benchmark's self-check passes for the right answer and rejects a wrong one. */
class SelfChecksTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(ChunkReadBenchmark.Method.class)
    void chunkReadingDeliversTheFileOrFails(ChunkReadBenchmark.Method method) throws Exception {
        Path file = dir.resolve("f.dat");
        long bytes = 3 * 65536 + 123; // a short last chunk
        long crc = ChunkReadBenchmark.writeRandomFile(file, bytes);
        ChunkReadBenchmark b = new ChunkReadBenchmark();
        b.prepare(file, bytes, 65536, method);
        assertThatCode(() -> b.verify(bytes, crc)).doesNotThrowAnyException();
        assertThatThrownBy(() -> b.verify(bytes, crc ^ 1)).hasMessageContaining("self-check failed");
        assertThatThrownBy(() -> b.verify(bytes + 1, crc)).hasMessageContaining("bytes read");
    }

    @ParameterizedTest
    @EnumSource(ChecksumBenchmark.Algorithm.class)
    void checksumsGiveTheKnownAnswerOrFail(ChecksumBenchmark.Algorithm algorithm) {
        ChecksumBenchmark.HeapSum s = new ChecksumBenchmark.HeapSum();
        s.algorithm = algorithm;
        assertThatCode(s::setUp).doesNotThrowAnyException();
        assertThatThrownBy(() -> s.verify("00000000")).hasMessageContaining("self-check failed");
    }

    @Test
    void md5FromADirectBufferGivesTheKnownAnswerOrFails() {
        ChecksumBenchmark.DirectMd5 s = new ChecksumBenchmark.DirectMd5();
        assertThatCode(s::setUp).doesNotThrowAnyException();
        assertThatThrownBy(() -> s.verify(ChecksumBenchmark.Algorithm.SHA_1.knownAnswer))
                .hasMessageContaining("self-check failed");
    }

    @ParameterizedTest
    @EnumSource(TextConversionBenchmark.Conversion.class)
    void textConversionWritesTheExpectedBytesOrFails(TextConversionBenchmark.Conversion conversion) {
        for (TextConversionBenchmark.Text text : TextConversionBenchmark.Text.values()) {
            TextConversionBenchmark b = new TextConversionBenchmark();
            b.textBytes = 600_000; // more than two chunks, so characters fall across chunk boundaries
            b.conversion = conversion;
            b.text = text;
            assertThatCode(b::setUp).doesNotThrowAnyException();
            // The right text in the wrong line ending, or in UTF-8 where EBCDIC is due.
            byte[] wrong = (conversion == TextConversionBenchmark.Conversion.UTF8_TO_UTF8_LF
                    ? TextConversionBenchmark.Conversion.UTF8_TO_UTF8_CRLF
                    : TextConversionBenchmark.Conversion.UTF8_TO_UTF8_LF)
                    .expected(TextConversionBenchmark.generate(text, b.textBytes));
            assertThatThrownBy(() -> b.verify(wrong)).hasMessageContaining("self-check failed");
        }
    }

    @ParameterizedTest
    @EnumSource(value = CompressionMethod.class, names = {"LZ4", "ZSTD"})
    void compressionRoundTripsTextAndLeavesRandomDataAsItIs(CompressionMethod method) {
        for (CompressionBenchmark.Data data : CompressionBenchmark.Data.values()) {
            CompressionBenchmark.Input in = new CompressionBenchmark.Input();
            in.chunkBytes = 262_144;
            in.method = method;
            in.data = data;
            assertThatCode(in::setUp).doesNotThrowAnyException();
            int packed = new CompressionBenchmark().compress(in);
            if (data == CompressionBenchmark.Data.RANDOM) {
                assertThat(packed).as("a random chunk does not shrink").isEqualTo(-1);
            } else {
                assertThat(packed).as("a text chunk shrinks").isPositive().isLessThan(in.chunkBytes / 2);
            }
        }
        CompressionBenchmark.Compressed c = new CompressionBenchmark.Compressed();
        c.chunkBytes = 262_144;
        c.method = method;
        assertThatCode(c::setUp).doesNotThrowAnyException();
        assertThatCode(() -> new CompressionBenchmark().decompress(c)).doesNotThrowAnyException();
        assertThat(CompressionBenchmark.Data.TEXT.bytes(1000, 1)).hasSize(1000).isEqualTo(
                CompressionBenchmark.Data.TEXT.bytes(1000, 1));
    }

    @Test
    void textIsExactlyTheAskedSizeAndHasMultiByteCharacters() {
        byte[] latin = TextConversionBenchmark.generate(TextConversionBenchmark.Text.LATIN, 10_000);
        assertThat(latin).hasSize(10_000);
        assertThat(new String(latin, StandardCharsets.UTF_8))
                .hasSizeLessThan(10_000).endsWith("\n");
    }

    @Test
    void requestParsingGivesTheRequestBackOrFails() {
        RequestParsingBenchmark b = new RequestParsingBenchmark();
        b.items = 3;
        assertThatCode(b::setUp).doesNotThrowAnyException();
        assertThatThrownBy(() -> b.verify(4)).hasMessageContaining("items parsed");
    }
}
