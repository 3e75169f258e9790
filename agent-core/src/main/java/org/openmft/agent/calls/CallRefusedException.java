package org.openmft.agent.calls;

/** A call the agent will not run: its program is not on the {@code commandPath}. Nothing was run. */
public final class CallRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message the BFGCR message, for the transfer log */
    public CallRefusedException(String message) {
        super(message);
    }
}
