package org.openmft.agent.transfer.failure;

/**
 * What {@link FailurePolicy} needs to know of the agent's transfer engine: whether a failure now
 * means "suspend and resume later".
 */
public interface EngineStatus {
    /** Whether the engine is shutting down (transfers interrupted now are suspended, not failed). */
    boolean stopping();

    /**
     * Whether the engine's connection to its queue manager is gone (then the agent replaces the
     * engine and the transfers resume in the new one). May probe the connection.
     */
    boolean connectionLost();
}
