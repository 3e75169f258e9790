package org.openmft.agent.transfer.files;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * Expands one source item of a transfer request into the files to transfer (reference §7.11):
 * <ul>
 * <li>a plain file: itself, with its name as relative path;</li>
 * <li>a wildcard in the last path component ({@code *}, {@code ?}; see {@link FileNamePattern}):
 *     the matching entries of that directory; matching directories are ignored unless the item is
 *     recursive, in which case they are walked;</li>
 * <li>a directory with {@code recursive=true}: every file below it, relative paths starting with
 *     the directory's own name, so {@code /src/dir} to {@code /dest} gives {@code /dest/dir/…}
 *     (as a wildcard match {@code /src/*} would); directories with nothing to transfer are listed
 *     separately so that the destination can recreate them;</li>
 * <li>a directory without {@code recursive}: refused with {@link SourceIsDirectoryException}.</li>
 * </ul>
 *
 * <p>Symbolic links met while expanding are not followed into directories; a link to a file is
 * selected only if the sandbox permits its target. Every entry, including a file in an excluded
 * sub-tree, is checked against the sandbox after expansion; refused and unusable entries are
 * returned as {@link SkippedEntry skipped} rather than dropped silently. A link named directly in
 * the request is followed, since the user chose it and the sandbox has checked its target.
 *
 * <p>Files and skipped entries together count towards {@code maxFilesForTransfer}: beyond it the
 * expansion keeps counting, without storing more, so that {@link TooManyFilesException} can state
 * the real number.
 *
 * <p>Immutable and thread-safe; each {@link #select} call reads the file system afresh.
 */
public final class SourceSelector {

    /** IBM default of {@code maxFilesForTransfer}. */
    public static final int DEFAULT_MAX_FILES = 5000;

    private final PathResolver resolver;
    private final int maxFiles;

    /**
     * Creates a selector.
     *
     * @param resolver resolves request paths against {@code transferRoot} and the sandbox
     * @param maxFiles {@code maxFilesForTransfer}, at least 1
     */
    public SourceSelector(PathResolver resolver, int maxFiles) {
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        if (maxFiles < 1) {
            throw new IllegalArgumentException("maxFilesForTransfer must be at least 1, was " + maxFiles);
        }
        this.maxFiles = maxFiles;
    }

    /**
     * @param sourcePath a source path as written in a request
     * @return whether its last component has a wildcard, so that it is expanded in its directory
     */
    public static boolean isWildcard(String sourcePath) {
        int cut = Math.max(sourcePath.lastIndexOf('/'), sourcePath.lastIndexOf(File.separatorChar));
        return FileNamePattern.isWildcard(sourcePath.substring(cut + 1));
    }

    /**
     * Expands a source item.
     *
     * @param sourcePath the source path as written in the request, possibly with a wildcard in its
     *        last component
     * @param recursive the item's {@code recursive} attribute ({@code -r})
     * @return the files, empty directories and skipped entries; no files if a wildcard matched nothing
     * @throws SourceNotFoundException if the file, or a wildcard's directory, does not exist
     * @throws SourceIsDirectoryException if the source is a directory and {@code recursive} is false
     * @throws TooManyFilesException if the expansion exceeds {@code maxFilesForTransfer}
     * @throws SourceSelectionException if the source is neither a regular file nor a directory
     * @throws PathRefusedException if the path or its directory is refused by the sandbox or has {@code ..}
     * @throws IOException if the source, or the directory named in the request, cannot be read
     */
    public SourceSelection select(String sourcePath, boolean recursive)
            throws SourceSelectionException, PathRefusedException, IOException {
        Objects.requireNonNull(sourcePath, "sourcePath");
        Expansion expansion = new Expansion();
        int cut = Math.max(sourcePath.lastIndexOf('/'), sourcePath.lastIndexOf(File.separatorChar));
        String lastName = sourcePath.substring(cut + 1);
        if (FileNamePattern.isWildcard(lastName)) {
            // Keep the separator so that "/x*" lists "/" and "C:\x*" lists "C:\", not "C:".
            Path dir = resolver.resolveDirectory(cut < 0 ? "." : sourcePath.substring(0, cut + 1), Access.READ);
            if (!Files.isDirectory(dir)) {
                throw new SourceNotFoundException(dir);
            }
            expansion.expandWildcard(dir, new FileNamePattern(lastName), recursive);
        } else {
            Path path = resolveNamed(sourcePath, recursive);
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(path, BasicFileAttributes.class); // follows a named link
            } catch (NoSuchFileException e) {
                throw new SourceNotFoundException(path);
            }
            if (attributes.isDirectory()) {
                if (!recursive) {
                    throw new SourceIsDirectoryException(path);
                }
                Path name = path.getFileName();
                expansion.walk(path, name == null ? "" : name.toString());
            } else if (attributes.isRegularFile()) {
                expansion.add(path, path.getFileName().toString(), attributes);
            } else {
                throw new SourceSelectionException("\"" + path + "\" is neither a regular file nor a directory");
            }
        }
        return expansion.result();
    }

    /**
     * Resolves the path a request names and checks it as a file; a recursive item may name a
     * directory, which is judged as one (its files are checked one by one as they are found).
     * Nothing about the path is looked at before the sandbox allows it in one of these ways.
     */
    private Path resolveNamed(String sourcePath, boolean recursive) throws PathRefusedException {
        try {
            return resolver.resolve(sourcePath, Access.READ);
        } catch (SandboxViolationException refusedAsFile) {
            if (!recursive) {
                throw refusedAsFile;
            }
            Path directory;
            try {
                directory = resolver.resolveDirectory(sourcePath, Access.READ);
            } catch (SandboxViolationException refusedAsDirectory) {
                throw refusedAsFile;
            }
            if (!Files.isDirectory(directory)) {
                throw refusedAsFile;
            }
            return directory;
        }
    }

    /** State of one expansion. */
    private final class Expansion {
        private final List<SelectedFile> files = new ArrayList<>();
        private final List<String> emptyDirectories = new ArrayList<>();
        private final List<SkippedEntry> skipped = new ArrayList<>();
        /** Directories still to list; explicit so that deep trees cannot overflow the stack. */
        private final Deque<PendingDirectory> pending = new ArrayDeque<>();
        /** Files and skipped entries found, also those beyond the limit that were not stored. */
        private long found;

        void expandWildcard(Path dir, FileNamePattern pattern, boolean recursive) throws IOException {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path entry : entries) {
                    String name = entry.getFileName().toString();
                    if (pattern.matches(name)) {
                        visit(entry, name, recursive);
                    }
                }
            } catch (DirectoryIteratorException e) {
                throw e.getCause();
            }
            walkPending();
        }

        void walk(Path dir, String relativePath) throws IOException {
            pending.push(new PendingDirectory(dir, relativePath, true));
            walkPending();
        }

        private void walkPending() throws IOException {
            while (!pending.isEmpty()) {
                PendingDirectory dir = pending.pop();
                boolean hasContent = false;
                try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir.path())) {
                    for (Path entry : entries) {
                        String name = entry.getFileName().toString();
                        String relative = dir.relativePath().isEmpty() ? name : dir.relativePath() + "/" + name;
                        hasContent |= visit(entry, relative, true);
                    }
                } catch (IOException | DirectoryIteratorException e) {
                    IOException cause = e instanceof DirectoryIteratorException
                            ? ((DirectoryIteratorException) e).getCause() : (IOException) e;
                    if (dir.named()) {
                        throw cause;
                    }
                    // One unreadable sub-directory should not sink the rest of the tree. Entries
                    // listed before a failure part-way through stay selected.
                    skip(dir.path(), dir.relativePath(), "directory cannot be read: " + cause);
                    continue;
                }
                if (!hasContent && !dir.relativePath().isEmpty()) {
                    emptyDirectories.add(dir.relativePath());
                }
            }
        }

        /**
         * Classifies one directory entry.
         *
         * @return whether the entry puts something at the destination: a file, or a directory that
         *         will be walked (and then either has content or is listed as empty itself)
         */
        private boolean visit(Path entry, String relativePath, boolean descend) {
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return false; // deleted while we were listing: nothing to transfer
            } catch (IOException e) {
                skip(entry, relativePath, "cannot be read: " + e);
                return false;
            }
            if (attributes.isSymbolicLink()) {
                BasicFileAttributes target;
                try {
                    target = Files.readAttributes(entry, BasicFileAttributes.class);
                } catch (IOException e) {
                    skip(entry, relativePath, "symbolic link whose target cannot be read: " + e);
                    return false;
                }
                if (target.isDirectory()) {
                    if (descend) {
                        skip(entry, relativePath, "symbolic link to a directory; links are not followed");
                    }
                    return false;
                }
                if (!target.isRegularFile()) {
                    skip(entry, relativePath, "symbolic link to something that is not a regular file");
                    return false;
                }
                return addIfPermitted(entry, relativePath, target);
            }
            if (attributes.isDirectory()) {
                if (!descend) {
                    return false;
                }
                try {
                    resolver.sandbox().checkDirectory(entry, Access.READ);
                } catch (SandboxViolationException e) {
                    refused(entry, relativePath, e);
                    return false;
                }
                pending.push(new PendingDirectory(entry, relativePath, false));
                return true;
            }
            if (attributes.isRegularFile()) {
                return addIfPermitted(entry, relativePath, attributes);
            }
            skip(entry, relativePath, "not a regular file");
            return false;
        }

        private boolean addIfPermitted(Path file, String relativePath, BasicFileAttributes attributes) {
            try {
                resolver.sandbox().check(file, Access.READ);
            } catch (SandboxViolationException e) {
                refused(file, relativePath, e);
                return false;
            }
            add(file, relativePath, attributes);
            return true;
        }

        void add(Path file, String relativePath, BasicFileAttributes attributes) {
            if (++found <= maxFiles) {
                files.add(new SelectedFile(file, relativePath, attributes.size(),
                        attributes.lastModifiedTime().toMillis()));
            }
        }

        private void skip(Path path, String relativePath, String reason) {
            if (++found <= maxFiles) {
                skipped.add(new SkippedEntry(path, relativePath, reason));
            }
        }

        private void refused(Path path, String relativePath, SandboxViolationException refusal) {
            if (++found <= maxFiles) {
                skipped.add(new SkippedEntry(path, relativePath, refusal.getMessage(), refusal));
            }
        }

        SourceSelection result() throws TooManyFilesException {
            if (found > maxFiles) {
                throw new TooManyFilesException(found, maxFiles);
            }
            files.sort(Comparator.comparing(SelectedFile::relativePath));
            emptyDirectories.sort(Comparator.naturalOrder());
            skipped.sort(Comparator.comparing(SkippedEntry::relativePath));
            return new SourceSelection(files, emptyDirectories, skipped);
        }
    }

    /**
     * A directory waiting to be listed.
     *
     * @param named whether the request named it; its read errors fail the item instead of skipping
     */
    private record PendingDirectory(Path path, String relativePath, boolean named) {
    }
}
