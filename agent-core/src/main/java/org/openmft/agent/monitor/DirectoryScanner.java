package org.openmft.agent.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Lists the files a directory monitor looks at: regular files in the directory and, with a
 * recursion level, its subdirectories that many levels down. Bounded: a listing stops at
 * {@link #MAX_FILES} files and says so, rather than holding an unbounded list.
 */
final class DirectoryScanner {
    /** Most files one poll lists; a directory with more is a misconfiguration, reported. */
    static final int MAX_FILES = 1_000_000;

    private DirectoryScanner() {}

    /**
     * @param directory the monitored directory
     * @param recursionLevel subdirectory levels to descend, 0 for none
     * @return the files, or {@code null} when the directory does not exist now (a poll that cannot
     *     see the directory must not forget its history)
     * @throws IOException if it cannot be listed
     */
    static List<FileSnapshot> scan(Path directory, int recursionLevel) throws IOException {
        if (!Files.isDirectory(directory)) {
            return null;
        }
        List<FileSnapshot> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(directory, recursionLevel + 1)) {
            var it = walk.iterator();
            while (it.hasNext() && files.size() < MAX_FILES) {
                Path p = it.next();
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (NoSuchFileException gone) {
                    continue;
                }
                if (a.isRegularFile()) {
                    files.add(new FileSnapshot(p.toString(), p.getFileName().toString(), a.size(),
                            a.lastModifiedTime().toMillis()));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return files;
    }
}
