package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.harness.TestFiles;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The source files of the seed 000 matrix, generated once: for every file set, random files for the
 * binary cells and text files (printable ASCII lines of 1 to 120 characters, LF line ends) for the
 * text cells; the MD5 each destination file must have; and the one destination directory, emptied
 * before each run and verified after it.
 *
 * <p>What a text transfer must deliver: the request names no encodings and no line ending, so the
 * source agent converts from this platform's default charset to the same charset and writes this
 * platform's line ending ({@code TransferEngine.plan}, {@code SourceTransfer.sendText},
 * {@code TextConverter}: LF and CR LF both end a line). On these files that is the identity when the
 * default charset encodes ASCII as ASCII and the line separator is LF (Linux with UTF-8); elsewhere
 * the expected bytes are computed here, independently of the agent's converter: each line's ASCII
 * characters encoded in the default charset, each LF written as the line separator.
 */
public final class FileShapeFiles {
    private static final int BLOCK = 1 << 20;
    private static final int MAX_LINE = 120;

    final Path destinationDir;
    private final Map<FileShapeMatrix.FileSet, List<Path>> binary = new HashMap<>();
    private final Map<FileShapeMatrix.FileSet, List<Path>> text = new HashMap<>();
    private final Map<Path, String> expectedMd5 = new HashMap<>();
    private final boolean textIsIdentity;

    private FileShapeFiles(Path root) {
        this.destinationDir = root.resolve("destination");
        this.textIsIdentity = textConversionIsIdentity(Charset.defaultCharset(), System.lineSeparator());
    }

    /** Writes every file set under {@code root}, binary and text, and records the expected MD5s. */
    public static FileShapeFiles generate(Path root, List<FileShapeMatrix.FileSet> sets) throws IOException {
        return generate(root, sets, true, true);
    }

    /**
     * Writes every file set under {@code root}, binary files, text files or both, and records the
     * expected MD5s; a suite that runs only one mode spares the disk the other's gigabytes.
     */
    public static FileShapeFiles generate(Path root, List<FileShapeMatrix.FileSet> sets, boolean binaryFiles,
            boolean textFiles) throws IOException {
        FileShapeFiles f = new FileShapeFiles(root);
        Files.createDirectories(f.destinationDir);
        long seed = 20180601L;
        for (FileShapeMatrix.FileSet set : sets) {
            Path dir = root.resolve("source").resolve(set.id());
            List<Path> bin = new ArrayList<>();
            List<Path> txt = new ArrayList<>();
            for (int i = 1; i <= set.count(); i++) {
                // Each file keeps its seed whichever kinds are written, so its bytes never depend on that.
                long binarySeed = seed++;
                long textSeed = seed++;
                if (binaryFiles) {
                    Path b = dir.resolve("binary").resolve(String.format("file-%04d.bin", i));
                    f.expectedMd5.put(b, TestFiles.write(b, set.fileBytes(), binarySeed));
                    bin.add(b);
                }
                if (textFiles) {
                    Path t = dir.resolve("text").resolve(String.format("file-%04d.txt", i));
                    String md5 = writeText(t, set.fileBytes(), textSeed);
                    f.expectedMd5.put(t, f.textIsIdentity ? md5 : convertedMd5(t, Charset.defaultCharset(),
                            System.lineSeparator()));
                    txt.add(t);
                }
            }
            f.binary.put(set, List.copyOf(bin));
            f.text.put(set, List.copyOf(txt));
        }
        return f;
    }

    /** The source files of one set, text or binary. */
    public List<Path> sources(FileShapeMatrix.FileSet set, boolean textFiles) {
        return (textFiles ? text : binary).get(set);
    }

    /** Whether text mode must deliver the text files byte for byte (see the class comment). */
    boolean textIsIdentity() {
        return textIsIdentity;
    }

    /** Where {@code source} goes. */
    Path destinationFor(Path source) {
        return destinationDir.resolve(source.getFileName());
    }

    /** Empties the destination directory (files of the previous run, and any .part left over). */
    void cleanDestination() throws IOException {
        TestFiles.emptyDirectory(destinationDir);
    }

    /**
     * Checks that each source arrived as it must at its destination and that nothing else is there.
     *
     * @return null when everything verified, else what is wrong
     */
    String verify(List<Path> sources) throws IOException {
        boolean allIdentical = textIsIdentity || sources.stream().noneMatch(p -> p.toString().endsWith(".txt"));
        if (!allIdentical) {
            return TestFiles.verify(sources, expectedMd5::get, destinationDir);
        }
        // The destination must hold the source's bytes: compared with the source itself, which is
        // several times faster than an MD5 of 2 GiB per cell (both are in the page cache). The
        // sources are never written after generation, when their MD5s were taken.
        return TestFiles.verify(sources, destinationDir, (source, dest) -> {
            long at = Files.mismatch(source, dest);
            return at < 0 ? null : dest.getFileName() + " differs from its source from byte " + at + " on ("
                    + Files.size(dest) + " bytes, source " + Files.size(source) + ")";
        });
    }

    /** Whether converting printable ASCII with LF line ends to {@code charset} and {@code eol} changes nothing. */
    static boolean textConversionIsIdentity(Charset charset, String eol) {
        byte[] ascii = new byte[0x7f - 0x20];
        for (int i = 0; i < ascii.length; i++) {
            ascii[i] = (byte) (0x20 + i);
        }
        return "\n".equals(eol) && Arrays.equals(ascii, new String(ascii, StandardCharsets.US_ASCII).getBytes(charset));
    }

    /**
     * Writes {@code size} bytes of printable ASCII lines of 1 to {@value #MAX_LINE} characters, each
     * ended by LF (the last line too), and returns their MD5.
     */
    static String writeText(Path file, long size, long seed) throws IOException {
        Files.createDirectories(file.getParent());
        SplittableRandom random = new SplittableRandom(seed);
        MessageDigest md5 = TestFiles.newMd5();
        byte[] block = new byte[BLOCK];
        int lineLeft = 1 + random.nextInt(MAX_LINE);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long left = size;
            while (left > 0) {
                int n = (int) Math.min(left, BLOCK);
                for (int i = 0; i < n; i++) {
                    if (lineLeft == 0) {
                        block[i] = '\n';
                        lineLeft = 1 + random.nextInt(MAX_LINE);
                    } else {
                        block[i] = (byte) (0x20 + random.nextInt(0x7f - 0x20));
                        lineLeft--;
                    }
                }
                left -= n;
                if (left == 0) {
                    block[n - 1] = '\n';
                }
                md5.update(block, 0, n);
                ByteBuffer bb = ByteBuffer.wrap(block, 0, n);
                while (bb.hasRemaining()) {
                    out.write(bb);
                }
            }
            // On disk now, so that the kernel does not write these pages back during a measurement.
            out.force(true);
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    /** The MD5 of ASCII text {@code file} with every LF written as {@code eol}, encoded in {@code charset}. */
    static String convertedMd5(Path file, Charset charset, String eol) throws IOException {
        MessageDigest md5 = TestFiles.newMd5();
        byte[] buffer = new byte[BLOCK];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.readNBytes(buffer, 0, BLOCK)) > 0) {
                md5.update(new String(buffer, 0, n, StandardCharsets.US_ASCII).replace("\n", eol).getBytes(charset));
            }
        }
        return HexFormat.of().formatHex(md5.digest());
    }
}
