package org.openmft.bench.micro;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

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
import org.openmft.agent.compression.ChunkCompressor;
import org.openmft.agent.compression.CompressionException;
import org.openmft.agent.compression.CompressionMethod;

/**
 * What chunk compression ({@code openmft.compression}) costs per chunk, with the agent's own
 * {@link ChunkCompressor}: {@link #compress} is what the source does to every chunk (on random data,
 * the attempt whose result is thrown away because the chunk did not shrink), {@link #decompress}
 * what the destination does to a compressed one. One operation is one chunk, on one thread: its
 * throughput times {@code chunkBytes} is bytes per second per core, of the file's (uncompressed) bytes.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class CompressionBenchmark {
    /** The two kinds of file the section measures. */
    public enum Data {
        /**
         * Text-like: CSV rows of a payments file (dates, account numbers, amounts, references), which
         * compress well without being one line repeated.
         */
        TEXT,
        /** Pseudo-random bytes: what encrypted or already compressed files look like; they do not shrink. */
        RANDOM;

        /**
         * @param size bytes
         * @param seed for the numbers or bytes
         * @return that many bytes of this kind
         */
        public byte[] bytes(int size, long seed) {
            SplittableRandom r = new SplittableRandom(seed);
            if (this == RANDOM) {
                byte[] b = new byte[size];
                r.nextBytes(b);
                return b;
            }
            StringBuilder csv = new StringBuilder(size + 128).append("date,account,currency,amount,reference\n");
            for (long row = 1; csv.length() < size; row++) {
                csv.append("2026-11-").append(10 + r.nextInt(20)).append(",DE").append(10_000_000 + r.nextInt(90_000_000))
                        .append(",EUR,").append(r.nextInt(100_000)).append('.').append(r.nextInt(10)).append(r.nextInt(10))
                        .append(",PAYROLL BATCH ").append(row / 500).append(" LINE ").append(row).append('\n');
            }
            return Arrays.copyOf(csv.toString().getBytes(StandardCharsets.US_ASCII), size);
        }
    }

    /** A chunk to compress, and the compressor of one codec. */
    @State(Scope.Thread)
    public static class Input {
        /** agentChunkSize: IBM's default. */
        @Param({"262144"})
        public int chunkBytes;

        @Param({"LZ4", "ZSTD"})
        public CompressionMethod method;

        @Param
        public Data data;

        byte[] chunk;
        ChunkCompressor compressor;

        @Setup
        public void setUp() throws CompressionException {
            chunk = data.bytes(chunkBytes, 1);
            compressor = new ChunkCompressor(4 << 20);
            int packed = compressor.compress(method, chunk, chunk.length);
            SelfCheck.equal(method + " of a " + data + " chunk sent compressed", data == Data.TEXT, packed > 0);
            if (packed > 0) {
                byte[] body = Arrays.copyOf(compressor.buffer(), packed);
                ChunkCompressor receiver = new ChunkCompressor(4 << 20);
                int length = receiver.decompress(method, body, packed, chunk.length);
                SelfCheck.equalBytes(method + " round trip", chunk, Arrays.copyOf(receiver.buffer(), length));
            }
        }
    }

    /** A text chunk as the source compressed it, and the destination's compressor. */
    @State(Scope.Thread)
    public static class Compressed {
        @Param({"262144"})
        public int chunkBytes;

        @Param({"LZ4", "ZSTD"})
        public CompressionMethod method;

        byte[] body;
        int bodyLength;
        ChunkCompressor receiver;

        @Setup
        public void setUp() throws CompressionException {
            byte[] chunk = Data.TEXT.bytes(chunkBytes, 1);
            ChunkCompressor sender = new ChunkCompressor(4 << 20);
            bodyLength = sender.compress(method, chunk, chunk.length);
            body = Arrays.copyOf(sender.buffer(), bodyLength);
            receiver = new ChunkCompressor(4 << 20);
            int length = receiver.decompress(method, body, bodyLength, chunkBytes);
            SelfCheck.equalBytes(method + " round trip", chunk, Arrays.copyOf(receiver.buffer(), length));
        }
    }

    /** The source: one chunk compressed (or found not to shrink). */
    @Benchmark
    public int compress(Input in) {
        return in.compressor.compress(in.method, in.chunk, in.chunk.length);
    }

    /** The destination: one compressed text chunk back to its bytes, its length checked. */
    @Benchmark
    public int decompress(Compressed c) throws CompressionException {
        return c.receiver.decompress(c.method, c.body, c.bodyLength, c.chunkBytes);
    }
}
