package org.openmft.client;

/** The checksum that proves a file arrived whole. */
public enum Checksum {
    /** IBM MFT's MD5 (the default). */
    MD5,
    /** SHA-256, OpenMFT's own, collision resistant. */
    SHA_256,
    /** No checksum. */
    NONE
}
