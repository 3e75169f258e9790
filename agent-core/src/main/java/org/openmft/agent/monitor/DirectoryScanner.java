package org.openmft.agent.monitor;

import java.io.File;
import java.io.IOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.FileVisitor;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * Lists the files a directory monitor looks at: regular files in the directory and, with a
 * recursion level, its subdirectories that many levels down. Bounded: a listing stops at
 * {@link #MAX_FILES} files and says so, rather than holding an unbounded list.
 *
 * <p>One directory walk that reads each entry's attributes once ({@code lstat}), and a second
 * {@code stat} only for a symbolic link, whose target is what the monitor sees (a link to a regular
 * file is monitored as that file; a link to a directory is not descended). A file deleted between
 * the listing and its attributes is skipped; the monitored directory itself vanishing fails the
 * poll, so its history is kept.
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
        FileVisitor<Path> visitor = new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                BasicFileAttributes a = attributes;
                if (a.isSymbolicLink()) {
                    try {
                        a = Files.readAttributes(file, BasicFileAttributes.class);
                    } catch (NoSuchFileException dangling) {
                        return FileVisitResult.CONTINUE;
                    }
                }
                if (a.isRegularFile()) {
                    String path = file.toString();
                    files.add(new FileSnapshot(path, path.substring(path.lastIndexOf(File.separatorChar) + 1), a.size(),
                            a.lastModifiedTime().toMillis()));
                }
                return files.size() < MAX_FILES ? FileVisitResult.CONTINUE : FileVisitResult.TERMINATE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
                if (e instanceof NoSuchFileException && !file.equals(directory)) {
                    return FileVisitResult.CONTINUE; // deleted while the poll listed it
                }
                throw e;
            }
        };
        Files.walkFileTree(directory, EnumSet.noneOf(FileVisitOption.class), recursionLevel + 1, visitor);
        return files;
    }
}
