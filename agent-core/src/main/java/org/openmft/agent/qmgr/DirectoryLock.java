package org.openmft.agent.qmgr;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * An exclusive, process-wide claim on a directory, held through an OS file lock on
 * {@code <name>.lock} with the owner's process id beside it in {@code <name>.pid}. The OS releases
 * the lock when the process dies, even by {@code kill -9}, so a stale pid file never blocks a
 * restart. Used so that two processes never open the same journal or run the same agent.
 */
public final class DirectoryLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;
    private final Path pidFile;

    private DirectoryLock(FileChannel channel, FileLock lock, Path pidFile) {
        this.channel = channel;
        this.lock = lock;
        this.pidFile = pidFile;
    }

    /**
     * Takes the lock if nobody holds it.
     *
     * @return the lock, or empty when another process (or this one) already holds it
     */
    public static Optional<DirectoryLock> tryAcquire(Path directory, String name) throws IOException {
        Optional<DirectoryLock> acquired = tryLock(directory, name);
        if (acquired.isPresent()) {
            Files.writeString(acquired.get().pidFile, Long.toString(ProcessHandle.current().pid()),
                    StandardCharsets.US_ASCII);
        }
        return acquired;
    }

    private static Optional<DirectoryLock> tryLock(Path directory, String name) throws IOException {
        Files.createDirectories(directory);
        FileChannel channel = FileChannel.open(directory.resolve(name + ".lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = tryLockOrClose(channel);
        if (lock == null) {
            return Optional.empty();
        }
        return Optional.of(new DirectoryLock(channel, lock, directory.resolve(name + ".pid")));
    }

    /**
     * Tries once to lock a whole file exclusively; when another process (or another channel of this
     * JVM) holds it, closes the channel.
     *
     * @param channel an open channel of the file, writable
     * @return the lock, or {@code null} when it is held elsewhere (the channel is then closed)
     * @throws IOException when locking or closing fails
     */
    public static FileLock tryLockOrClose(FileChannel channel) throws IOException {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
        }
        return lock;
    }

    /** Whether some process holds the lock right now. */
    public static boolean isHeld(Path directory, String name) throws IOException {
        if (!Files.exists(directory.resolve(name + ".lock"))) {
            return false;
        }
        Optional<DirectoryLock> probe = tryLock(directory, name);
        if (probe.isEmpty()) {
            return true;
        }
        probe.get().release(false);
        return false;
    }

    /** The process id recorded by the current holder, if the lock is held. */
    public static OptionalLong holderPid(Path directory, String name) throws IOException {
        if (!isHeld(directory, name)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(
                    Files.readString(directory.resolve(name + ".pid"), StandardCharsets.US_ASCII).trim()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private void release(boolean deletePid) throws IOException {
        try {
            if (deletePid) {
                Files.deleteIfExists(pidFile);
            }
            lock.release();
        } finally {
            channel.close();
        }
    }

    @Override
    public void close() throws IOException {
        release(true);
    }
}
