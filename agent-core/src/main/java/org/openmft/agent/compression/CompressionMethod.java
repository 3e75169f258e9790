package org.openmft.agent.compression;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a source agent may compress the chunks it sends ({@code openmft.compression}): OpenMFT's
 * counterpart of IBM MQ's channel compression ({@code COMPMSG}), done end to end by the agents
 * instead of hop by hop by the channels, so it holds whatever the queue managers between them.
 */
public enum CompressionMethod {
    /** Chunks are sent as read. */
    NONE,
    /**
     * LZ4 block format: fast (about 1 GB/s per core compressing text, several back), a modest ratio. JNI where the
     * library's native code loads, its pure Java implementation elsewhere, so it is always there.
     */
    LZ4,
    /**
     * Zstandard (level {@value ChunkCompressor#ZSTD_LEVEL}): a better ratio than LZ4 for several times
     * the CPU. JNI only: an agent where its native library cannot load does not offer it.
     */
    ZSTD;

    /**
     * The word in {@code agent.properties} and on the wire.
     *
     * @return {@code none}, {@code lz4} or {@code zstd}
     */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Reads a word, in any case.
     *
     * @param word the word
     * @return the method
     * @throws IllegalArgumentException naming the valid words
     */
    public static CompressionMethod parse(String word) {
        for (CompressionMethod m : values()) {
            if (m.word().equalsIgnoreCase(word == null ? "" : word.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("'" + word + "' is not a compression method; expected none, lz4 or zstd");
    }

    /**
     * Whether this agent can compress and decompress with this method (always, but for Zstandard
     * where its native library does not load).
     */
    public boolean available() {
        return this != ZSTD || ZstdLibrary.LOADS;
    }

    /**
     * What a destination agent tells its sources it can decompress (on START_OK).
     *
     * @return the available methods but none, as words separated by commas
     */
    public static String decompressible() {
        List<String> words = new ArrayList<>();
        for (CompressionMethod m : values()) {
            if (m != NONE && m.available()) {
                words.add(m.word());
            }
        }
        return String.join(",", words);
    }

    /**
     * The method a source uses with a destination: the one it wants, when the destination said it
     * can decompress it.
     *
     * @param wanted        the source's setting for that destination
     * @param decompressible what the destination's START_OK lists, or null (an agent from before
     *                      compression, which lists nothing)
     * @return {@code wanted}, or none
     */
    public static CompressionMethod agreed(CompressionMethod wanted, String decompressible) {
        if (wanted == NONE || decompressible == null || !wanted.available()) {
            return NONE;
        }
        for (String word : decompressible.split(",")) {
            if (word.trim().equalsIgnoreCase(wanted.word())) {
                return wanted;
            }
        }
        return NONE;
    }

    /**
     * Whether Zstandard's native library loads here: looked at once, on first use, so that reading a
     * configuration that does not ask for it never unpacks the library.
     */
    private static final class ZstdLibrary {
        static final boolean LOADS = loads();

        private static boolean loads() {
            try {
                com.github.luben.zstd.util.Native.load();
                return com.github.luben.zstd.util.Native.isLoaded();
            } catch (LinkageError | RuntimeException e) {
                return false;
            }
        }
    }
}
