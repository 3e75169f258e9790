package org.openmft.agent.transfer.files;

import java.nio.file.Path;
import java.util.Objects;

/** The source is a directory but the item is not recursive. */
public final class SourceIsDirectoryException extends SourceSelectionException {
    private static final long serialVersionUID = 1L;

    private final Path path;

    /**
     * Creates the exception.
     *
     * @param path the directory
     */
    public SourceIsDirectoryException(Path path) {
        super("\"" + path + "\" is a directory; use recursive (-r) to transfer its contents");
        this.path = Objects.requireNonNull(path, "path");
    }

    /** @return the directory */
    public Path path() {
        return path;
    }
}
