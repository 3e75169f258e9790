package org.openmft.agent.transfer.files;

/** The {@code type} of a file destination in a transfer request ({@code -df} or {@code -dd}). */
public enum DestinationType {
    /** The destination path names the file to write; the source must be a single file. */
    FILE,
    /** The destination path names a directory; each file's relative path is appended to it. */
    DIRECTORY
}
