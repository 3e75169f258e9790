package org.openmft.client;

/** How a transfer reads and writes its files. */
public enum TransferMode {
    /** Bytes as they are (the default). */
    BINARY,
    /** Text, converted between the agents' encodings and line endings. */
    TEXT
}
