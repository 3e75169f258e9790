package org.openmft.client;

/** What happens to a source file once it is transferred. */
public enum SourceDisposition {
    /** It stays (the default). */
    LEAVE,
    /** It is deleted. */
    DELETE
}
