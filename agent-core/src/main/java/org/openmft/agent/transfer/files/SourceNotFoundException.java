package org.openmft.agent.transfer.files;

import java.nio.file.Path;
import java.util.Objects;

/** The source file, or the directory a wildcard refers to, does not exist (IBM BFGIO0001E). */
public final class SourceNotFoundException extends SourceSelectionException {
    private static final long serialVersionUID = 1L;

    /** IBM message id for a missing source file. */
    public static final String MESSAGE_ID = "BFGIO0001E";

    private final Path path;

    /**
     * Creates the exception.
     *
     * @param path the missing file or directory
     */
    public SourceNotFoundException(Path path) {
        super(MESSAGE_ID + ": File \"" + path + "\" does not exist.");
        this.path = Objects.requireNonNull(path, "path");
    }

    /** @return the missing file or directory */
    public Path path() {
        return path;
    }
}
