package org.openmft.agent.transfer.files;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Something a source expansion found but will not transfer, with the reason, so that the engine
 * can report it instead of it silently missing: a symbolic link to a directory (links are not
 * followed while walking), a link whose target is outside the sandbox, an excluded sub-tree, or
 * something that is not a regular file (a FIFO would block the reader forever).
 *
 * @param path the entry found
 * @param relativePath its path relative to the expansion, as for {@link SelectedFile}
 * @param reason why it is skipped, for the user
 */
public record SkippedEntry(Path path, String relativePath, String reason) {
    /** Validates the components. */
    public SkippedEntry {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(relativePath, "relativePath");
        Objects.requireNonNull(reason, "reason");
    }
}
