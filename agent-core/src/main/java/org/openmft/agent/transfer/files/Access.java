package org.openmft.agent.transfer.files;

/** What an agent wants to do with a path, checked against its sandbox. */
public enum Access {
    /** Read a source file or list a source directory. */
    READ,
    /** Create or replace a destination file or directory. */
    WRITE
}
