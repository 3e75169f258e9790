package org.openmft.agent.transfer.files;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One file a source item expanded to: one item of the transfer.
 *
 * @param source the file to read (possibly a symbolic link whose target the sandbox permits)
 * @param relativePath where the file goes under a directory destination, with {@code /} between
 *        names whatever the platform; for a single file, its name
 * @param size size in bytes when selected
 * @param lastModifiedMillis last modification time when selected, in milliseconds since the epoch
 */
public record SelectedFile(Path source, String relativePath, long size, long lastModifiedMillis) {
    /** Validates the components. */
    public SelectedFile {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(relativePath, "relativePath");
    }
}
