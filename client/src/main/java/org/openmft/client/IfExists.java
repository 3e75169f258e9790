package org.openmft.client;

/** What happens when a destination file exists already. */
public enum IfExists {
    /** The item fails (the default). */
    ERROR,
    /** The file is replaced. */
    OVERWRITE
}
