package org.openmft.agent.monitor;

import java.util.Objects;

/**
 * A file as one poll saw it.
 *
 * @param path the file's absolute path, as the task's {@code ${FilePath}} gets it
 * @param name its name, matched against the monitor's patterns ({@code ${FileName}})
 * @param size its size in bytes
 * @param lastModifiedMillis its last-modified time, milliseconds since the epoch
 */
public record FileSnapshot(String path, String name, long size, long lastModifiedMillis) {
    /** Validates. */
    public FileSnapshot {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(name, "name");
    }
}
