package org.openmft.agent.protection;

/**
 * A protected message cannot be made or opened: a peer's certificate is missing or expired, a
 * signature does not verify, a wrapped key cannot be unwrapped. The message says which and why.
 */
public final class ProtectionException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, for people */
    public ProtectionException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong, for people
     * @param cause   the underlying failure
     */
    public ProtectionException(String message, Throwable cause) {
        super(message, cause);
    }
}
