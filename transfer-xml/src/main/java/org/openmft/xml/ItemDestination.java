package org.openmft.xml;

import java.util.Objects;

/**
 * The {@code <destination>} of an item:
 * {@code <destination type=".." exist=".."><file encoding=".." EOL="..">path</file></destination>}.
 * File, directory and queue destinations (file to message, {@code <queue>}: {@link QueueDestination})
 * are represented. Immutable.
 *
 * @param type whether {@code path} is the file to write or a directory to write into
 * @param exist what to do when the file is already there; default error
 * @param path file or directory path on the destination agent; at most 4096 characters
 * @param encoding the destination code page for text mode, or {@code null} for the platform
 *     default (empty also means null)
 * @param eol line separator for text mode, or {@code null} for the platform's own
 * @param queue the destination queue of a file-to-message item, or null; then {@code path} is its
 *     {@link QueueDestination#spec()} and {@code type} is {@code file}
 */
public record ItemDestination(DestinationType type, ExistAction exist, String path, String encoding, LineEnding eol,
        QueueDestination queue) {

    /** Validates; an empty {@code encoding} becomes {@code null}. */
    public ItemDestination {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(exist, "exist");
        if (queue != null) {
            path = queue.spec();
            type = DestinationType.FILE;
        }
        path = Checks.path(path, "destination path");
        encoding = Checks.optionalName(encoding, "destination encoding");
    }

    /** A file or directory destination. */
    public ItemDestination(DestinationType type, ExistAction exist, String path, String encoding, LineEnding eol) {
        this(type, exist, path, encoding, eol, null);
    }

    /**
     * A destination queue (file to message).
     *
     * @param queue the queue and how files become messages
     * @param encoding the code page of text-mode messages, or null
     */
    public ItemDestination(QueueDestination queue, String encoding) {
        this(DestinationType.FILE, ExistAction.ERROR, queue.spec(), encoding, null, queue);
    }

    /**
     * A destination with the defaults: fail if the file exists, platform encoding and line ending.
     *
     * @param type file or directory
     * @param path where to write
     */
    public ItemDestination(DestinationType type, String path) {
        this(type, ExistAction.ERROR, path, null, null);
    }
}
