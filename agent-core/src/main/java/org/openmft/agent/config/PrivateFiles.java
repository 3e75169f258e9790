package org.openmft.agent.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Directories and files that only their owner may read: the data directory (configuration,
 * journals, logs, the logger's database) is {@code rwx------}, files holding a secret (a password
 * file, a properties file with a password) are {@code rw-------}.
 *
 * <p>Permissions are given when a directory or file is created, as an attribute of the creating
 * call, never by a {@code chmod} afterwards, so there is no moment in which another user could open
 * it. The umask can only remove permission bits, so what is created is at most owner-only.
 * Directories that an older version created readable by others are tightened by
 * {@link #ensurePrivateDirectory}, with a warning in the log saying so.
 *
 * <p>On a file system without POSIX permissions (Windows) files are created with the platform's
 * defaults, which there already inherit the access list of the user's profile directory.
 * Stateless and thread-safe.
 */
public final class PrivateFiles {

    /** {@code rwx------}. */
    public static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY =
            Set.copyOf(PosixFilePermissions.fromString("rwx------"));
    /** {@code rw-------}. */
    public static final Set<PosixFilePermission> OWNER_ONLY_FILE =
            Set.copyOf(PosixFilePermissions.fromString("rw-------"));

    private static final Logger LOG = LoggerFactory.getLogger(PrivateFiles.class);
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private PrivateFiles() {
    }

    /**
     * Whether the file system of {@code path} has POSIX permissions.
     *
     * @param path any path on the file system
     * @return true on Linux, macOS and other Unix systems
     */
    public static boolean isPosix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /**
     * Creates a directory and its missing parents, each new one {@code rwx------}; existing ones are
     * left as they are.
     *
     * @param dir the directory
     * @return {@code dir}
     * @throws IOException when a directory cannot be created, or {@code dir} exists and is not a directory
     */
    public static Path createDirectories(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath().normalize();
        if (Files.isDirectory(absolute)) {
            return dir;
        }
        Path parent = absolute.getParent();
        if (parent != null) {
            createDirectories(parent);
        }
        try {
            if (isPosix(absolute)) {
                Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
            } else {
                Files.createDirectory(absolute);
            }
        } catch (FileAlreadyExistsException e) {
            // Another process made it meanwhile; fine if it is a directory.
            if (!Files.isDirectory(absolute)) {
                throw e;
            }
        }
        return dir;
    }

    /**
     * Makes sure a directory exists and only its owner can enter it: creates it (and missing parents)
     * {@code rwx------}, or removes the group and other permissions of an existing one, logging a
     * warning that names the directory and the permissions it had.
     *
     * @param dir the directory, such as the data directory or a logger's database directory
     * @param what what the directory is, for the log line, such as "data directory"
     * @return the permissions it had when they were tightened; empty when it was created now, was
     *     already owner-only, or the file system has no POSIX permissions
     * @throws IOException when the directory cannot be created or its permissions changed (for
     *     example, it belongs to another user)
     */
    public static Optional<Set<PosixFilePermission>> ensurePrivateDirectory(Path dir, String what)
            throws IOException {
        createDirectories(dir);
        if (!isPosix(dir)) {
            return Optional.empty();
        }
        Optional<Set<PosixFilePermission>> before = tighten(dir, OWNER_ONLY_DIRECTORY);
        before.ifPresent(old -> LOG.warn("The {} {} was open to other users ({}); it is now {} (owner only), as "
                + "OpenMFT keeps its configuration, journals and logs private", what, dir.toAbsolutePath(),
                PosixFilePermissions.toString(old), PosixFilePermissions.toString(OWNER_ONLY_DIRECTORY)));
        return before;
    }

    /**
     * Removes the group and other permissions of an existing file holding a secret, logging a
     * warning when it had any.
     *
     * @param file the file
     * @param what what the file is, for the log line
     * @return the permissions it had when they were tightened; empty otherwise
     * @throws IOException when its permissions cannot be read or changed
     */
    public static Optional<Set<PosixFilePermission>> ensurePrivateFile(Path file, String what) throws IOException {
        if (!isPosix(file)) {
            return Optional.empty();
        }
        Optional<Set<PosixFilePermission>> before = tighten(file, OWNER_ONLY_FILE);
        before.ifPresent(old -> LOG.warn("The {} {} was readable by other users ({}); it is now {} (owner only)",
                what, file.toAbsolutePath(), PosixFilePermissions.toString(old),
                PosixFilePermissions.toString(OWNER_ONLY_FILE)));
        return before;
    }

    /** Sets {@code wanted} when the path grants anything to group or others; returns what it had. */
    private static Optional<Set<PosixFilePermission>> tighten(Path path, Set<PosixFilePermission> wanted)
            throws IOException {
        // Links are followed: a data directory that is a link to another place is that place.
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
        Set<PosixFilePermission> current = view.readAttributes().permissions();
        if (current.stream().noneMatch(OTHERS::contains)) {
            return Optional.empty();
        }
        Set<PosixFilePermission> kept = EnumSet.noneOf(PosixFilePermission.class);
        kept.addAll(current);
        kept.removeAll(OTHERS);
        kept.addAll(wanted);
        view.setPermissions(kept);
        return Optional.of(Set.copyOf(current));
    }

    /**
     * The attribute that creates a file {@code rw-------}, for {@link Files#newByteChannel} and the
     * like; none on a file system without POSIX permissions.
     *
     * @param path the file to create
     * @return the attributes to pass to the creating call
     */
    public static FileAttribute<?>[] ownerOnlyFile(Path path) {
        return isPosix(path) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE)}
                : new FileAttribute<?>[0];
    }

    /**
     * Writes a new file readable by its owner only, whole or not at all: the content goes to a
     * temporary file created {@code rw-------} in the same directory, is forced to the disk, then
     * becomes {@code file} by a hard link, which fails if {@code file} exists, so that two processes
     * creating the same file never overwrite each other and a reader never sees half a file.
     *
     * @param file the file to create; its directory must exist
     * @param content the bytes
     * @throws FileAlreadyExistsException when the file exists already
     * @throws IOException when writing fails; nothing is left behind then
     */
    public static void createFile(Path file, byte[] content) throws IOException {
        Path target = file.toAbsolutePath();
        Path tmp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(tmp,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), ownerOnlyFile(tmp))) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.createLink(target, tmp);
            } catch (UnsupportedOperationException noHardLinks) {
                Files.move(tmp, target);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
