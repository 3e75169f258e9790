package org.openmft.agent;

/**
 * The states an agent reports, spelled as IBM MFT's tools show them (fteListAgents).
 */
public enum AgentState {
    /** Connecting to its queue manager. */
    STARTING,
    /** Running and idle. */
    READY,
    /** Running transfers. */
    ACTIVE,
    /** Lost its queue manager connection and is reconnecting; IBM's tools show PROBLEM. */
    PROBLEM,
    /** A controlled stop is under way: running transfers finish, no new ones start. */
    STOPPING,
    /** Stopped by request. */
    STOPPED,
    /** Ended because of an error it could not recover from. */
    ENDED_UNEXPECTEDLY
}
