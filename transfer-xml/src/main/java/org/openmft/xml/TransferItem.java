package org.openmft.xml;

import java.util.Objects;

/**
 * One {@code <item>}: a source file (or wildcard, or directory tree) and where it goes. Immutable.
 *
 * <p>IBM's rule is enforced here: a wildcard or recursive source needs a destination of type
 * {@link DestinationType#DIRECTORY} (or a queue, where each file becomes its own messages), since many
 * files cannot land on one file name.
 *
 * @param mode binary (the default) or text
 * @param checksumMethod MD5 (the default), SHA-256 or none
 * @param source what to read
 * @param destination where to write
 */
public record TransferItem(Mode mode, ChecksumMethod checksumMethod, ItemSource source, ItemDestination destination) {

    /** Validates. */
    public TransferItem {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(checksumMethod, "checksumMethod");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        if (source.queue() != null && destination.queue() != null) {
            throw new IllegalArgumentException("source queue " + Checks.quote(source.path()) + " cannot go to"
                    + " destination queue " + Checks.quote(destination.path()) + ": a transfer from a queue to a queue"
                    + " is not allowed (IBM's result 64)");
        }
        if (source.queue() != null && destination.type() != DestinationType.FILE) {
            throw new IllegalArgumentException("source queue " + Checks.quote(source.path()) + " makes one file:"
                    + " the destination type must be file, not " + destination.type().xmlValue());
        }
        if ((source.recursive() || source.hasWildcard()) && destination.type() != DestinationType.DIRECTORY
                && destination.queue() == null) {
            throw new IllegalArgumentException("source " + Checks.quote(source.path())
                    + (source.recursive() ? " is recursive" : " has a wildcard")
                    + ", so the destination type must be directory, not " + destination.type().xmlValue());
        }
    }

    /**
     * An item with the defaults: binary mode and MD5 checksum.
     *
     * @param source what to read
     * @param destination where to write
     */
    public TransferItem(ItemSource source, ItemDestination destination) {
        this(Mode.BINARY, ChecksumMethod.MD5, source, destination);
    }
}
