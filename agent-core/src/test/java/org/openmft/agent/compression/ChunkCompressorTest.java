package org.openmft.agent.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The compressor as the codec and the destination use it: what shrinks is compressed and comes back
 * whole, what does not is sent as is, and nothing a received message claims is believed.
 */
class ChunkCompressorTest {
    private static final int LIMIT = 4 << 20;

    static byte[] text(int size) {
        return TextLike.bytes(size, 7);
    }

    /** The chunk as a source would send it, compressed. */
    private static byte[] compressed(CompressionMethod method, byte[] chunk) {
        ChunkCompressor sender = new ChunkCompressor(LIMIT);
        int packed = sender.compress(method, chunk, chunk.length);
        assertThat(packed).isPositive();
        return Arrays.copyOf(sender.buffer(), packed);
    }

    private static void refusedAsDamaged(ThrowingCallable decompression) {
        assertThatThrownBy(decompression).isInstanceOfSatisfying(CompressionException.class,
                e -> assertThat(e.damaged()).as("worth asking for again").isTrue());
    }

    static byte[] random(int size) {
        byte[] b = new byte[size];
        new Random(11).nextBytes(b);
        return b;
    }

    @ParameterizedTest
    @EnumSource(value = CompressionMethod.class, names = {"LZ4", "ZSTD"})
    void aTextChunkShrinksAndComesBackWhole(CompressionMethod method) throws CompressionException {
        byte[] chunk = text(256 * 1024);
        ChunkCompressor sender = new ChunkCompressor(LIMIT);
        int packed = sender.compress(method, chunk, chunk.length);
        assertThat(packed).isPositive().isLessThan(chunk.length / 3);

        ChunkCompressor receiver = new ChunkCompressor(LIMIT);
        int length = receiver.decompress(method, Arrays.copyOf(sender.buffer(), packed), packed, chunk.length);
        assertThat(length).isEqualTo(chunk.length);
        assertThat(Arrays.copyOf(receiver.buffer(), length)).isEqualTo(chunk);
    }

    @ParameterizedTest
    @EnumSource(value = CompressionMethod.class, names = {"LZ4", "ZSTD"})
    void aRandomChunkDoesNotShrinkSoItGoesAsItIs(CompressionMethod method) {
        byte[] chunk = random(256 * 1024);
        assertThat(new ChunkCompressor(LIMIT).compress(method, chunk, chunk.length)).isEqualTo(-1);
    }

    @Test
    void theBufferIsReusedFromChunkToChunk() {
        ChunkCompressor c = new ChunkCompressor(LIMIT);
        byte[] chunk = text(64 * 1024);
        c.compress(CompressionMethod.ZSTD, chunk, chunk.length);
        byte[] first = c.buffer();
        c.compress(CompressionMethod.LZ4, chunk, chunk.length);
        c.compress(CompressionMethod.ZSTD, chunk, chunk.length / 2);
        assertThat(c.buffer()).isSameAs(first);
    }

    @ParameterizedTest
    @EnumSource(value = CompressionMethod.class, names = {"LZ4", "ZSTD"})
    void aDeclaredLengthThatIsNotTheBodysIsRefusedAsDamaged(CompressionMethod method) {
        int length = 100_000;
        byte[] body = compressed(method, text(length));
        ChunkCompressor receiver = new ChunkCompressor(LIMIT);
        for (int lie : new int[] {length - 1, length + 1, length * 2}) {
            refusedAsDamaged(() -> receiver.decompress(method, body, body.length, lie));
        }
    }

    @Test
    void aDeclaredLengthOutsideTheLimitIsRefusedBeforeAnythingIsAllocated() {
        byte[] body = compressed(CompressionMethod.LZ4, text(100_000));
        ChunkCompressor receiver = new ChunkCompressor(64 * 1024);

        for (int lie : new int[] {0, -5, 64 * 1024 + 1, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> receiver.decompress(CompressionMethod.LZ4, body, body.length, lie))
                    .isInstanceOf(CompressionException.class).hasMessageContaining("outside 1 to 65536");
        }
        assertThat(receiver.buffer()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = CompressionMethod.class, names = {"LZ4", "ZSTD"})
    void aCorruptBodyIsRefusedAsDamaged(CompressionMethod method) {
        byte[] body = compressed(method, text(100_000));
        ChunkCompressor receiver = new ChunkCompressor(LIMIT);
        // Cut short, and replaced by noise of the same length.
        refusedAsDamaged(() -> receiver.decompress(method, body, body.length / 2, 100_000));
        byte[] noise = random(body.length);
        refusedAsDamaged(() -> receiver.decompress(method, noise, noise.length, 100_000));
    }

    @Test
    void aMethodThisAgentCannotUseIsNotTakenForDamage() {
        assertThatThrownBy(() -> new ChunkCompressor(LIMIT).decompress(CompressionMethod.NONE, new byte[4], 4, 4))
                .isInstanceOfSatisfying(CompressionException.class, e -> assertThat(e.damaged()).isFalse())
                .hasMessageContaining("cannot decompress");
    }

    @Test
    void theMethodsReadAsWordsInAnyCase() {
        assertThat(CompressionMethod.parse(" LZ4 ")).isEqualTo(CompressionMethod.LZ4);
        assertThat(CompressionMethod.parse("zstd")).isEqualTo(CompressionMethod.ZSTD);
        assertThatThrownBy(() -> CompressionMethod.parse("gzip")).hasMessageContaining("expected none, lz4 or zstd");
    }

    @Test
    void bothLibrariesLoadHere() {
        // zstd-jni is JNI only; CI must not silently lose it. LZ4 would fall back to pure Java.
        assertThat(CompressionMethod.ZSTD.available()).isTrue();
        assertThat(CompressionMethod.decompressible()).isEqualTo("lz4,zstd");
        assertThat(ChunkCompressor.lz4Implementation()).isNotBlank();
    }

    @Test
    void aSourceCompressesOnlyWithAMethodItsDestinationListed() {
        assertThat(CompressionMethod.agreed(CompressionMethod.LZ4, "lz4,zstd")).isEqualTo(CompressionMethod.LZ4);
        assertThat(CompressionMethod.agreed(CompressionMethod.ZSTD, " LZ4 , ZSTD")).isEqualTo(CompressionMethod.ZSTD);
        assertThat(CompressionMethod.agreed(CompressionMethod.ZSTD, "lz4")).isEqualTo(CompressionMethod.NONE);
        assertThat(CompressionMethod.agreed(CompressionMethod.LZ4, "")).isEqualTo(CompressionMethod.NONE);
        // An agent from before compression lists nothing.
        assertThat(CompressionMethod.agreed(CompressionMethod.LZ4, null)).isEqualTo(CompressionMethod.NONE);
        assertThat(CompressionMethod.agreed(CompressionMethod.NONE, "lz4")).isEqualTo(CompressionMethod.NONE);
    }

    @Test
    void thePolicyHasExceptionsPerDestinationAgent() {
        CompressionPolicy p = new CompressionPolicy(CompressionMethod.LZ4,
                CompressionPolicy.parseByAgent(" remote=zstd, LOCAL = none"));
        assertThat(p.byAgent()).isEqualTo(Map.of("REMOTE", CompressionMethod.ZSTD, "LOCAL", CompressionMethod.NONE));
        assertThat(p.methodFor("Remote")).isEqualTo(CompressionMethod.ZSTD);
        assertThat(p.methodFor("local")).isEqualTo(CompressionMethod.NONE);
        assertThat(p.methodFor("OTHER")).isEqualTo(CompressionMethod.LZ4);
        assertThatThrownBy(() -> CompressionPolicy.parseByAgent("REMOTE")).hasMessageContaining(
                "'REMOTE' is not AGENT=method (such as AGENT2=lz4)");
        assertThatThrownBy(() -> CompressionPolicy.parseByAgent("A=lz4,a=zstd")).hasMessageContaining("named twice");
        assertThatThrownBy(() -> CompressionPolicy.parseByAgent("A=gzip")).hasMessageContaining("not a compression");
    }
}
