package org.openmft.agent.compression;

/**
 * A compressed chunk that cannot be used: it names a method this agent does not know or cannot
 * load, does not decompress, or decompresses to another length than its sender declared.
 */
public final class CompressionException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean damaged;

    /**
     * @param message what is wrong
     * @param damaged whether the body looks damaged on the way (worth asking for again), rather than
     *                compressed with a method this agent cannot decompress (asking again would bring
     *                the same)
     */
    public CompressionException(String message, boolean damaged) {
        super(message);
        this.damaged = damaged;
    }

    /** Whether the chunk looks damaged on the way, so that a fresh copy may do. */
    public boolean damaged() {
        return damaged;
    }
}
