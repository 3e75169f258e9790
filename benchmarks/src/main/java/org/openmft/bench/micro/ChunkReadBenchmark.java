package org.openmft.bench.micro;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading a whole file (in the page cache) chunk by chunk, each chunk ending up in a {@code byte[]}
 * because that is what {@code BytesMessage.writeBytes} takes: the source agent's way
 * ({@link Method#FILE_CHANNEL_HEAP}, as {@code SourceTransfer.sendBinary}) against a direct buffer,
 * a memory map and a {@link FileInputStream}. One operation reads the file once; throughput in
 * files per second, times {@code fileBytes} for bytes per second.
 *
 * <p>The file is written into {@code java.io.tmpdir} by the setup and read once there, which both
 * checks the method (length and CRC-32 of what it delivered) and puts the file in the page cache.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ChunkReadBenchmark {
    /** How a chunk gets from the file into the chunk's {@code byte[]}. */
    public enum Method {
        /**
         * What the agent does: {@code FileChannel.read} into {@code ByteBuffer.wrap(byte[])} until
         * the chunk is full, alternating two chunk arrays (the JDK reads through a cached direct
         * buffer of its own and copies).
         */
        FILE_CHANNEL_HEAP,
        /** {@code FileChannel.read} into one direct buffer, then copied into the chunk array. */
        FILE_CHANNEL_DIRECT,
        /** {@code FileChannel.map} of the whole file, each chunk copied out of the mapping. */
        MMAP,
        /** {@code FileInputStream.readNBytes} into the chunk array. */
        INPUT_STREAM
    }

    /** Receives each chunk as read; the array is reused for a later chunk when the call returns. */
    @FunctionalInterface
    interface ChunkSink {
        void accept(byte[] chunk, int length);
    }

    /** Size of the file read by one operation. */
    @Param({"67108864"})
    public long fileBytes;

    /** agentChunkSize: bytes per chunk (IBM's default is 262144). */
    @Param({"65536", "131072", "262144", "524288"})
    public int chunkBytes;

    @Param
    public Method method;

    private Path file;
    private byte[] chunkA;
    private byte[] chunkB;
    private ByteBuffer direct;
    private long expectedCrc;
    private long bytesSeen;
    private final ChunkSink count = (chunk, length) -> bytesSeen += length;

    @Setup
    public void setUp() throws IOException {
        file = Files.createTempFile("openmft-chunk-read", ".dat");
        expectedCrc = writeRandomFile(file, fileBytes);
        allocate();
        verify(fileBytes, expectedCrc);
    }

    /** The chunk buffers, for a file prepared elsewhere (tests). */
    void prepare(Path existing, long bytes, int chunk, Method how) {
        file = existing;
        fileBytes = bytes;
        chunkBytes = chunk;
        method = how;
        allocate();
    }

    private void allocate() {
        chunkA = new byte[chunkBytes];
        chunkB = new byte[chunkBytes];
        direct = ByteBuffer.allocateDirect(chunkBytes);
    }

    @TearDown
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
    }

    @Benchmark
    public long read() throws IOException {
        bytesSeen = 0;
        readFile(count);
        return bytesSeen;
    }

    /** Reads the file once through the measured path and fails unless it delivered exactly its bytes. */
    void verify(long expectedBytes, long expectedCrc32) throws IOException {
        CRC32 crc = new CRC32();
        long[] total = {0};
        readFile((chunk, length) -> {
            crc.update(chunk, 0, length);
            total[0] += length;
        });
        SelfCheck.equal(method + " bytes read", expectedBytes, total[0]);
        SelfCheck.equal(method + " CRC-32 of the bytes read", Long.toHexString(expectedCrc32),
                Long.toHexString(crc.getValue()));
    }

    private void readFile(ChunkSink sink) throws IOException {
        switch (method) {
            case FILE_CHANNEL_HEAP -> readHeap(sink);
            case FILE_CHANNEL_DIRECT -> readDirect(sink);
            case MMAP -> readMapped(sink);
            case INPUT_STREAM -> readStream(sink);
        }
    }

    /** As {@code SourceTransfer.sendBinary}: two chunk arrays, each filled completely unless at the end. */
    private void readHeap(ChunkSink sink) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            byte[] current = chunkA;
            byte[] next = chunkB;
            int have = fill(ch, current);
            while (have > 0) {
                sink.accept(current, have);
                if (have < current.length) {
                    return;
                }
                byte[] t = current;
                current = next;
                next = t;
                have = fill(ch, current);
            }
        }
    }

    /** {@code SourceTransfer.fill}: reads until the array is full or the file ends. */
    private static int fill(FileChannel ch, byte[] buffer) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(buffer);
        while (bb.hasRemaining()) {
            if (ch.read(bb) < 0) {
                break;
            }
        }
        return bb.position();
    }

    private void readDirect(ChunkSink sink) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (true) {
                direct.clear();
                while (direct.hasRemaining() && ch.read(direct) >= 0) {
                    // until the buffer is full or the file ends
                }
                direct.flip();
                int n = direct.remaining();
                if (n == 0) {
                    return;
                }
                direct.get(chunkA, 0, n);
                sink.accept(chunkA, n);
                if (n < chunkA.length) {
                    return;
                }
            }
        }
    }

    /** One mapping per file, as an agent would map an item; unmapped when the mapping is collected. */
    private void readMapped(ChunkSink sink) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
            while (map.hasRemaining()) {
                int n = Math.min(map.remaining(), chunkA.length);
                map.get(chunkA, 0, n);
                sink.accept(chunkA, n);
            }
        }
    }

    private void readStream(ChunkSink sink) throws IOException {
        try (InputStream in = new FileInputStream(file.toFile())) {
            while (true) {
                int n = in.readNBytes(chunkA, 0, chunkA.length);
                if (n == 0) {
                    return;
                }
                sink.accept(chunkA, n);
                if (n < chunkA.length) {
                    return;
                }
            }
        }
    }

    /** Writes {@code bytes} pseudo-random bytes (seed 1) to {@code file}; returns their CRC-32. */
    static long writeRandomFile(Path file, long bytes) throws IOException {
        SplittableRandom random = new SplittableRandom(1);
        byte[] block = new byte[1 << 20];
        CRC32 crc = new CRC32();
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = bytes; left > 0; left -= block.length) {
                random.nextBytes(block);
                int n = (int) Math.min(left, block.length);
                out.write(block, 0, n);
                crc.update(block, 0, n);
            }
        }
        return crc.getValue();
    }
}
