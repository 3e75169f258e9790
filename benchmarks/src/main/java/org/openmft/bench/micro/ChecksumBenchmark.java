package org.openmft.bench.micro;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a checksum costs per chunk. The agents compute MD5 (IBM's default) or SHA-256 (OpenMFT's
 * own) as {@code ItemChecksum} does: {@code MessageDigest.update} on each chunk's {@code byte[]}, one
 * digest per item, and CRC-32C over each DATA message's body; {@link #md5DirectChunk} shows what a
 * direct buffer would cost instead, and {@link #heapChunk} every algorithm (also SHA-1, CRC-32,
 * Adler-32) on the same chunk. One operation is one chunk; throughput in chunks per second, times
 * {@code chunkBytes} for bytes per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ChecksumBenchmark {
    /** The input of every known-answer check. */
    static final byte[] KNOWN_INPUT = "123456789".getBytes(StandardCharsets.US_ASCII);

    /** A checksum algorithm and its value for {@link #KNOWN_INPUT}. */
    public enum Algorithm {
        MD5("25f9e794323b453885f5181f1b624d0b", () -> Sum.digest("MD5")),
        SHA_1("f7c3bc1d808e04732adf679965ccc34ca7ae3441", () -> Sum.digest("SHA-1")),
        SHA_256("15e2b0d3c33891ebb0f1ef609ec419420c20e320ce94c65fbc8c3312448eb225", () -> Sum.digest("SHA-256")),
        CRC32("cbf43926", () -> Sum.checksum(new CRC32())),
        CRC32C("e3069283", () -> Sum.checksum(new CRC32C())),
        ADLER32("091e01de", () -> Sum.checksum(new Adler32()));

        final String knownAnswer;
        private final Supplier<Sum> factory;

        Algorithm(String knownAnswer, Supplier<Sum> factory) {
            this.knownAnswer = knownAnswer;
            this.factory = factory;
        }

        Sum create() {
            return factory.get();
        }
    }

    /** One algorithm behind one interface, so that a fork (one algorithm) calls it monomorphically. */
    interface Sum {
        void update(byte[] bytes, int offset, int length);

        void update(ByteBuffer bytes);

        /** The value so far, in hex; starts the next value afresh. */
        String finishHex();

        static Sum digest(String name) {
            MessageDigest md;
            try {
                md = MessageDigest.getInstance(name);
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(name + " is missing from this JVM", e);
            }
            return new Sum() {
                @Override
                public void update(byte[] bytes, int offset, int length) {
                    md.update(bytes, offset, length);
                }

                @Override
                public void update(ByteBuffer bytes) {
                    md.update(bytes);
                }

                @Override
                public String finishHex() {
                    return HexFormat.of().formatHex(md.digest());
                }
            };
        }

        static Sum checksum(Checksum c) {
            return new Sum() {
                @Override
                public void update(byte[] bytes, int offset, int length) {
                    c.update(bytes, offset, length);
                }

                @Override
                public void update(ByteBuffer bytes) {
                    c.update(bytes);
                }

                @Override
                public String finishHex() {
                    String hex = String.format("%08x", c.getValue());
                    c.reset();
                    return hex;
                }
            };
        }
    }

    /** One chunk of pseudo-random bytes, in a heap array and in a direct buffer. */
    @State(Scope.Thread)
    public static class Chunk {
        /** agentChunkSize: bytes per chunk (IBM's default is 262144). */
        @Param({"65536", "262144", "524288"})
        public int chunkBytes;

        byte[] heap;
        ByteBuffer direct;

        @Setup
        public void setUp() {
            heap = new byte[chunkBytes];
            new SplittableRandom(1).nextBytes(heap);
            direct = ByteBuffer.allocateDirect(chunkBytes).put(heap).flip();
        }
    }

    /** The algorithm of {@link #heapChunk}, checked against its known answer. */
    @State(Scope.Thread)
    public static class HeapSum {
        @Param
        public Algorithm algorithm;

        Sum sum;

        @Setup
        public void setUp() {
            sum = algorithm.create();
            verify(algorithm.knownAnswer);
        }

        /** The measured path (an update from a heap array) on the known input must give {@code expectedHex}. */
        void verify(String expectedHex) {
            sum.update(KNOWN_INPUT, 0, KNOWN_INPUT.length);
            SelfCheck.equal(algorithm + " of \"123456789\" from a heap array", expectedHex, sum.finishHex());
        }
    }

    /** MD5 of {@link #md5DirectChunk}, checked against its known answer from a direct buffer. */
    @State(Scope.Thread)
    public static class DirectMd5 {
        Sum md5;

        @Setup
        public void setUp() {
            md5 = Algorithm.MD5.create();
            verify(Algorithm.MD5.knownAnswer);
        }

        /** The measured path (an update from a direct buffer) on the known input must give {@code expectedHex}. */
        void verify(String expectedHex) {
            md5.update(ByteBuffer.allocateDirect(KNOWN_INPUT.length).put(KNOWN_INPUT).flip());
            SelfCheck.equal("MD5 of \"123456789\" from a direct buffer", expectedHex, md5.finishHex());
        }
    }

    /** The agent's way for MD5 and SHA-256: an update from the chunk's heap array; the others likewise. */
    @Benchmark
    public void heapChunk(Chunk chunk, HeapSum s) {
        s.sum.update(chunk.heap, 0, chunk.heap.length);
    }

    /** MD5 from a direct buffer (which {@code MessageDigest} copies to a small array piece by piece). */
    @Benchmark
    public void md5DirectChunk(Chunk chunk, DirectMd5 s) {
        chunk.direct.rewind();
        s.md5.update(chunk.direct);
    }
}
