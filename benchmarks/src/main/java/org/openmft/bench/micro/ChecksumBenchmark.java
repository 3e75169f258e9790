package org.openmft.bench.micro;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

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
 * What a checksum costs per chunk: MD5 (IBM's only method, computed by both agents), SHA-256 and
 * CRC32C over one chunk of agentChunkSize bytes. Throughput in chunks per second; multiply by the
 * chunk size for bytes per second (x 0.262 for MB/s at 256 KiB).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ChecksumBenchmark {
    /** The chunk size in bytes: IBM's default agentChunkSize. */
    @Param({"262144"})
    public int chunkBytes;

    private byte[] chunk;
    private MessageDigest md5;
    private MessageDigest sha256;
    private CRC32C crc32c;

    @Setup
    public void setUp() throws NoSuchAlgorithmException {
        chunk = new byte[chunkBytes];
        new SplittableRandom(1).nextBytes(chunk);
        md5 = MessageDigest.getInstance("MD5");
        sha256 = MessageDigest.getInstance("SHA-256");
        crc32c = new CRC32C();
    }

    @Benchmark
    public byte[] md5() {
        md5.update(chunk);
        return md5.digest();
    }

    @Benchmark
    public byte[] sha256() {
        sha256.update(chunk);
        return sha256.digest();
    }

    @Benchmark
    public long crc32c() {
        crc32c.reset();
        crc32c.update(chunk);
        return crc32c.getValue();
    }
}
