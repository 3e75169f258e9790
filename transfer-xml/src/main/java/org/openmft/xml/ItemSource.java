package org.openmft.xml;

import java.util.Objects;

/**
 * The {@code <source>} of an item: {@code <source recursive=".." disposition=".."><file encoding="..">path</file></source>},
 * or a queue ({@code <source type="queue"><queue ...>QUEUE@QMGR</queue></source>}, message to file,
 * {@link QueueSource}). Immutable.
 *
 * <p>Wildcards {@code *} and {@code ?} are allowed in the last path component only (IBM's rule);
 * both {@code /} and {@code \} count as separators because the source agent may run on Windows.
 *
 * @param recursive whether directories are descended into ({@code -r})
 * @param disposition what happens to the source after transfer; default leave
 * @param path file, directory or wildcard path on the source agent; at most 4096 characters
 * @param encoding the source code page for text mode (such as {@code UTF-8} or {@code IBM-1047}),
 *     or {@code null} for the platform default (empty also means null)
 * @param queue the source queue of a message-to-file item, or null; then {@code path} is its
 *     {@link QueueSource#spec()} and {@code recursive} is false
 */
public record ItemSource(boolean recursive, Disposition disposition, String path, String encoding, QueueSource queue) {

    /** Validates; an empty {@code encoding} becomes {@code null}. */
    public ItemSource {
        Objects.requireNonNull(disposition, "disposition");
        if (queue != null) {
            path = queue.spec();
            recursive = false;
        }
        path = Checks.path(path, "source path");
        encoding = Checks.optionalName(encoding, "source encoding");
        int lastSeparator = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        for (int i = 0; i < lastSeparator; i++) {
            if (path.charAt(i) == '*' || path.charAt(i) == '?') {
                throw new IllegalArgumentException("source path " + Checks.quote(path)
                        + " has a wildcard outside its last component");
            }
        }
    }

    /** A file, directory or wildcard source. */
    public ItemSource(boolean recursive, Disposition disposition, String path, String encoding) {
        this(recursive, disposition, path, encoding, null);
    }

    /**
     * A source queue (message to file).
     *
     * @param queue       the queue and how its messages make the file
     * @param disposition as written (the messages are always removed once the file is written)
     * @param encoding    the code page of text messages' bytes, or null
     */
    public ItemSource(QueueSource queue, Disposition disposition, String encoding) {
        this(false, disposition, queue.spec(), encoding, queue);
    }

    /**
     * A plain source: not recursive, left in place, platform encoding.
     *
     * @param path the file or wildcard to read
     */
    public ItemSource(String path) {
        this(false, Disposition.LEAVE, path, null);
    }

    /**
     * Whether the last path component contains {@code *} or {@code ?}.
     *
     * @return true for a wildcard source
     */
    public boolean hasWildcard() {
        if (queue != null) {
            return false;
        }
        int lastSeparator = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        String last = path.substring(lastSeparator + 1);
        return last.indexOf('*') >= 0 || last.indexOf('?') >= 0;
    }
}
