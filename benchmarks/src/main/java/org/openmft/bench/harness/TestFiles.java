package org.openmft.bench.harness;

import org.openmft.bench.Scale;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The source files of a run, generated once with random (incompressible) content, and their MD5s;
 * and the destination directory, emptied before each run and verified after it.
 */
public final class TestFiles {
    private static final int BLOCK = 1 << 20;

    final Path sourceDir;
    final Path destinationDir;
    public final Path single;
    public final List<Path> set;
    private final Map<Path, String> md5s = new LinkedHashMap<>();

    private TestFiles(Path root, Scale scale) {
        this.sourceDir = root.resolve("source");
        this.destinationDir = root.resolve("destination");
        this.single = sourceDir.resolve("single.bin");
        List<Path> files = new ArrayList<>();
        for (int i = 1; i <= scale.setFileCount(); i++) {
            files.add(sourceDir.resolve("set").resolve(String.format("file-%02d.bin", i)));
        }
        this.set = List.copyOf(files);
    }

    /** Writes every source file under {@code root} and records its MD5. */
    public static TestFiles generate(Path root, Scale scale) throws IOException {
        TestFiles t = new TestFiles(root, scale);
        Files.createDirectories(t.destinationDir);
        long seed = 20181122L;
        t.md5s.put(t.single, write(t.single, scale.singleFileBytes(), seed++));
        for (Path p : t.set) {
            t.md5s.put(p, write(p, scale.setFileBytes(), seed++));
        }
        return t;
    }

    /** The MD5 recorded when {@code source} was written. */
    String md5Of(Path source) {
        String md5 = md5s.get(source);
        if (md5 == null) {
            throw new IllegalArgumentException("not a generated file: " + source);
        }
        return md5;
    }

    /** Where {@code source} goes in the destination directory. */
    public Path destinationFor(Path source) {
        return destinationDir.resolve(source.getFileName());
    }

    /** Empties the destination directory (files of the previous run, and any .part left over). */
    public void cleanDestination() throws IOException {
        emptyDirectory(destinationDir);
    }

    /** Deletes the files in {@code dir} (not in its sub-directories: there are none). */
    public static void emptyDirectory(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.delete(p);
            }
        }
    }

    /**
     * Checks that each source arrived intact at its destination and that nothing else is there.
     *
     * @return null when everything verified, else what is wrong
     */
    public String verify(List<Path> sources) throws IOException {
        return verify(sources, this::md5Of, destinationDir);
    }

    /**
     * Checks that each of {@code sources} is in {@code destinationDir} under its own file name with
     * the MD5 {@code expectedMd5} gives, and that nothing else is there.
     *
     * @return null when everything verified, else what is wrong
     */
    public static String verify(List<Path> sources, java.util.function.Function<Path, String> expectedMd5,
            Path destinationDir) throws IOException {
        return verify(sources, destinationDir, (source, dest) -> {
            String expected = expectedMd5.apply(source);
            String actual = md5(dest);
            return expected.equals(actual) ? null : dest.getFileName() + ": MD5 " + actual
                    + " differs from the expected " + expected + " (" + Files.size(dest) + " bytes, source "
                    + Files.size(source) + ")";
        });
    }

    /** How one destination file is judged against its source: null when it is right, else what is wrong. */
    public interface FileCheck {
        String check(Path source, Path destination) throws IOException;
    }

    /**
     * Checks that each of {@code sources} is in {@code destinationDir} under its own file name and
     * passes {@code check}, and that nothing else is there.
     *
     * @return null when everything verified, else what is wrong
     */
    public static String verify(List<Path> sources, Path destinationDir, FileCheck check) throws IOException {
        for (Path source : sources) {
            Path dest = destinationDir.resolve(source.getFileName());
            if (!Files.isRegularFile(dest)) {
                return dest.getFileName() + " is missing at the destination";
            }
            String bad = check.check(source, dest);
            if (bad != null) {
                return bad;
            }
        }
        try (Stream<Path> files = Files.list(destinationDir)) {
            long count = files.count();
            if (count != sources.size()) {
                return count + " files at the destination, expected " + sources.size();
            }
        }
        return null;
    }

    /**
     * Reads the files once so that they are in the page cache when the scenario starts: on a machine
     * that reclaims idle page cache (DAMON), files written minutes ago may be back on disk.
     */
    public static void preload(List<Path> files) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(BLOCK);
        for (Path p : files) {
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
                while (ch.read(buffer) >= 0) {
                    buffer.clear();
                }
            }
        }
    }

    public static String write(Path file, long size, long seed) throws IOException {
        Files.createDirectories(file.getParent());
        SplittableRandom random = new SplittableRandom(seed);
        MessageDigest md5 = newMd5();
        ByteBuffer block = ByteBuffer.allocate(BLOCK).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long left = size;
            while (left > 0) {
                block.clear();
                while (block.hasRemaining()) {
                    block.putLong(random.nextLong());
                }
                int n = (int) Math.min(left, BLOCK);
                md5.update(block.array(), 0, n);
                block.flip().limit(n);
                while (block.hasRemaining()) {
                    out.write(block);
                }
                left -= n;
            }
            // On disk now, so that the kernel does not write these pages back during a measurement.
            out.force(true);
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    public static String md5(Path file) throws IOException {
        MessageDigest md5 = newMd5();
        byte[] buffer = new byte[BLOCK];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                md5.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    public static MessageDigest newMd5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
    }
}
