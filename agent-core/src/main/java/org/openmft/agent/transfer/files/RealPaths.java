package org.openmft.agent.transfer.files;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Where a path really leads once symbolic links are followed, also for paths not created yet: the
 * one way every sandbox judges a path. Stateless.
 */
public final class RealPaths {

    private RealPaths() {
    }

    /**
     * Returns the real path of the longest existing ancestor of {@code path} (the path itself if it
     * exists) with the not-yet-existing remainder appended. A destination file that will be created
     * under a symbolic link to elsewhere is thereby judged by where it will really be written.
     *
     * @param path an absolute, normalised path without {@code ..} segments
     * @return the path with every existing symbolic link resolved
     * @throws IOException if an existing part cannot be resolved, notably a symbolic link whose
     *         target does not exist: writing through it would create a file wherever it points
     */
    public static Path resolve(Path path) throws IOException {
        Path existing = path;
        Deque<Path> missing = new ArrayDeque<>();
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            missing.push(existing.getFileName());
            existing = existing.getParent();
        }
        if (existing == null) {
            return path;
        }
        Path real = existing.toRealPath();
        while (!missing.isEmpty()) {
            real = real.resolve(missing.pop());
        }
        return real;
    }

    /** @return whether any name element of the path is {@code ..} */
    public static boolean hasParentSegment(Path path) {
        for (Path name : path) {
            if (name.toString().equals("..")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Checks a path as written, before the file system parses it, so that {@code a/../b} is refused
     * even where it would normalise to somewhere harmless. Both separators are checked because a
     * request may come from another platform.
     */
    public static boolean hasParentSegment(String path) {
        for (String segment : path.split("[/\\\\]", -1)) {
            if (segment.equals("..")) {
                return true;
            }
        }
        return false;
    }
}
