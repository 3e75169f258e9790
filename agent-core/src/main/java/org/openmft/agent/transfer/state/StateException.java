package org.openmft.agent.transfer.state;

/**
 * Transfer state could not be made durable or read back. Never ignored: the transfer it belongs
 * to is suspended (when the agent lost its queue manager, and resumes with it) or fails with this
 * reason.
 */
public final class StateException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message what could not be written or read, naming the transfer and the store */
    public StateException(String message, Throwable cause) {
        super(message, cause);
    }
}
