package org.openmft.agent.compression;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

/**
 * Text-like test data: log lines with changing numbers, as a transfer of logs or CSV would carry.
 * It compresses (LZ4 to about a quarter, Zstandard further) without being trivially repetitive.
 */
public final class TextLike {
    private TextLike() {
    }

    /**
     * @param size how many bytes
     * @param seed for the numbers in the lines
     * @return that many bytes of log lines
     */
    public static byte[] bytes(int size, long seed) {
        StringBuilder b = new StringBuilder(size + 100);
        Random r = new Random(seed);
        for (int i = 0; b.length() < size; i++) {
            b.append("2026-11-22T10:").append(10 + i % 50).append(":00Z INFO transfer ").append(r.nextInt(100000))
                    .append(" chunk ").append(i).append(" written to /data/out/file-").append(i % 97).append(".csv\n");
        }
        return Arrays.copyOf(b.toString().getBytes(StandardCharsets.US_ASCII), size);
    }

    /**
     * Writes {@code size} bytes of log lines to {@code file}.
     *
     * @return the file
     */
    public static Path file(Path file, int size, long seed) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.write(file, bytes(size, seed));
    }
}
