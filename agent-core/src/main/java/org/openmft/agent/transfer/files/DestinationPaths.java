package org.openmft.agent.transfer.files;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Names of the files written at the destination: the final name of each item and the temporary
 * {@code .part} name it is written under until complete (reference §7.6).
 *
 * <p>The relative path comes from the source agent, so it is untrusted: anything that could name a
 * file outside the destination directory is refused. Stateless.
 */
public final class DestinationPaths {

    /** Suffix of IBM's temporary output file: {@code <destfile>.part}. */
    public static final String PART_SUFFIX = ".part";

    /** Highest recovery suffix IBM tries ({@code .part1000}) before writing the file directly. */
    public static final int MAX_PART_ATTEMPT = 1000;

    private DestinationPaths() {
    }

    /**
     * Returns where one selected file is written.
     *
     * @param type the destination type
     * @param destination the resolved destination path (the file, or the directory)
     * @param relativePath the file's {@link SelectedFile#relativePath()}, {@code /}-separated;
     *        ignored for a {@link DestinationType#FILE} destination
     * @return the destination file
     * @throws PathRefusedException if, for a directory destination, the relative path is empty,
     *         absolute, or has an empty, {@code .} or {@code ..} segment or one the destination file
     *         system would read as several names or a root
     */
    public static Path resolve(DestinationType type, Path destination, String relativePath)
            throws PathRefusedException {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(destination, "destination");
        if (type == DestinationType.FILE) {
            return destination;
        }
        if (relativePath == null || relativePath.isEmpty()) {
            throw new PathRefusedException("the relative path of a file for directory \"" + destination
                    + "\" is empty", String.valueOf(relativePath));
        }
        Path result = destination;
        for (String segment : relativePath.split("/", -1)) {
            result = result.resolve(checkedSegment(segment, relativePath, destination));
        }
        // Each segment is a single plain name, so this holds; checked again because it is the point.
        if (!result.normalize().startsWith(destination.normalize())) {
            throw escape(relativePath, destination, "it leads outside the directory");
        }
        return result;
    }

    /**
     * Returns the temporary file an item is written to before it is renamed to its final name.
     *
     * @param file the final destination file
     * @return {@code <file>.part} in the same directory
     */
    public static Path partFile(Path file) {
        return partFile(file, 0);
    }

    /**
     * Returns a recovery temporary name: when a restarted transfer finds {@code <file>.part} in use,
     * IBM tries {@code <file>.part1}, {@code .part2} … up to {@code .part1000}.
     *
     * @param file the final destination file
     * @param attempt 0 for {@code .part}, 1 to {@value #MAX_PART_ATTEMPT} for {@code .part<attempt>}
     * @return the temporary file in the same directory
     */
    public static Path partFile(Path file, int attempt) {
        Path name = Objects.requireNonNull(file, "file").getFileName();
        if (name == null) {
            throw new IllegalArgumentException("\"" + file + "\" has no file name");
        }
        if (attempt < 0 || attempt > MAX_PART_ATTEMPT) {
            throw new IllegalArgumentException("part attempt " + attempt + " is not in 0.." + MAX_PART_ATTEMPT);
        }
        return file.resolveSibling(name + PART_SUFFIX + (attempt == 0 ? "" : Integer.toString(attempt)));
    }

    private static Path checkedSegment(String segment, String relativePath, Path destination)
            throws PathRefusedException {
        if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
            throw escape(relativePath, destination, "it has an empty, '.' or '..' segment or starts with '/'");
        }
        Path name;
        try {
            name = destination.getFileSystem().getPath(segment);
        } catch (InvalidPathException e) {
            throw escape(relativePath, destination, "\"" + segment + "\" is not a valid file name here");
        }
        // On Windows "a\..\b" or "C:" would parse into several names or a root.
        if (name.getRoot() != null || name.getNameCount() != 1 || !name.toString().equals(segment)) {
            throw escape(relativePath, destination, "\"" + segment + "\" is not a single file name here");
        }
        return name;
    }

    private static PathRefusedException escape(String relativePath, Path destination, String why) {
        return new PathRefusedException("relative path \"" + relativePath + "\" for directory \""
                + destination + "\" is refused: " + why, relativePath);
    }
}
