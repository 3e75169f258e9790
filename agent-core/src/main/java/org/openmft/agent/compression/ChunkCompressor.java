package org.openmft.agent.compression;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Compresses a chunk before it is sent, and decompresses one as received, into one buffer of its
 * own that it reuses (grown to the largest chunk seen, never past the limit it was given), so a
 * transfer allocates nothing per chunk.
 *
 * <p>Nothing on the wire is trusted: a compressed chunk must decompress to exactly the length its
 * sender declared, and that length must be within the limit (the largest chunk an agent accepts),
 * so a small body cannot make the receiver allocate or write more than a chunk (a "zip bomb").
 * Only the safe LZ4 decompressor is used, which never reads or writes outside the buffers given.
 *
 * <p>Not thread-safe: one per codec, which belongs to one thread. Zstandard's contexts are made
 * and freed by the native library at each call, so nothing native outlives a call (zstd-jni's
 * reusable contexts hold native memory until closed, and codecs are not closed); that costs some
 * throughput on small chunks, measured in docs/performance.md.
 */
public final class ChunkCompressor {
    /**
     * Zstandard's level: 1, its fastest of the usual levels. Chunks are compressed on the transfer's
     * thread, in line with sending, so speed counts more than the last per cent of ratio.
     */
    public static final int ZSTD_LEVEL = 1;
    private static final LZ4Factory LZ4 = LZ4Factory.fastestInstance();
    private static final LZ4Compressor LZ4_COMPRESSOR = LZ4.fastCompressor();
    private static final LZ4SafeDecompressor LZ4_DECOMPRESSOR = LZ4.safeDecompressor();

    private final int limit;
    private byte[] buffer = new byte[0];

    /**
     * @param limit the largest chunk, in bytes, this compressor compresses or decompresses to
     */
    public ChunkCompressor(int limit) {
        this.limit = limit;
    }

    /**
     * Compresses {@code length} bytes of {@code data} into {@link #buffer()}.
     *
     * @param method how (not none, and {@link CompressionMethod#available() available})
     * @param data   the chunk
     * @param length its length, at most the limit
     * @return the compressed length, or -1 when the chunk does not shrink (random or already
     *         compressed data): then it goes as it is
     */
    public int compress(CompressionMethod method, byte[] data, int length) {
        if (length > limit) {
            throw new IllegalArgumentException("a chunk of " + length + " bytes is over the limit of " + limit);
        }
        int compressed = switch (method) {
            case LZ4 -> LZ4_COMPRESSOR.compress(data, 0, length, room(LZ4_COMPRESSOR.maxCompressedLength(length)), 0,
                    buffer.length);
            case ZSTD -> (int) Zstd.compressByteArray(room((int) Zstd.compressBound(length)), 0, buffer.length, data,
                    0, length, ZSTD_LEVEL);
            case NONE -> throw new IllegalArgumentException("nothing to compress with");
        };
        return compressed < length ? compressed : -1;
    }

    /**
     * Decompresses a received chunk into {@link #buffer()}.
     *
     * @param method   the method its message names
     * @param body     the compressed bytes
     * @param length   how many
     * @param declared the length its sender declared for the chunk
     * @return {@code declared}, once the body decompressed to exactly that many bytes
     * @throws CompressionException when the method cannot be used here, the declared length is out of
     *                              bounds, or the body does not decompress to it
     */
    public int decompress(CompressionMethod method, byte[] body, int length, int declared)
            throws CompressionException {
        if (method == CompressionMethod.NONE || !method.available()) {
            throw new CompressionException("it is compressed with '" + method.word() + "', which this agent cannot"
                    + " decompress", false);
        }
        if (declared <= 0 || declared > limit) {
            throw new CompressionException("it declares " + declared + " bytes uncompressed, outside 1 to " + limit,
                    true);
        }
        int got;
        try {
            got = switch (method) {
                case LZ4 -> LZ4_DECOMPRESSOR.decompress(body, 0, length, room(declared), 0, declared);
                case ZSTD -> (int) Zstd.decompressByteArray(room(declared), 0, declared, body, 0, length);
                case NONE -> throw new IllegalStateException("refused above");
            };
        } catch (LZ4Exception | ZstdException e) {
            throw new CompressionException("its " + method.word() + " body does not decompress (" + e.getMessage()
                    + ")", true);
        }
        if (got != declared) {
            throw new CompressionException("its " + method.word() + " body decompresses to " + got + " bytes, not the "
                    + declared + " it declares", true);
        }
        return got;
    }

    /** Where {@link #compress} and {@link #decompress} put their output; valid until the next call. */
    public byte[] buffer() {
        return buffer;
    }

    /**
     * The LZ4 implementation in use here, for logs and reports.
     *
     * @return {@code JNI}, or the pure Java one's name where the native code did not load
     */
    public static String lz4Implementation() {
        String name = LZ4.toString();
        return name.substring(name.indexOf(':') + 1);
    }

    private byte[] room(int size) {
        if (buffer.length < size) {
            buffer = new byte[size];
        }
        return buffer;
    }
}
