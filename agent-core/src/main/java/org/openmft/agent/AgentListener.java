package org.openmft.agent;

/**
 * Receives what an agent does, as typed events. Coordination publishes them; tests assert on them;
 * logs are for people. Every method has a no-op default so a listener implements only what it
 * needs. Methods are called on agent threads and must return quickly and not throw.
 */
public interface AgentListener {
    /** A listener that ignores everything. */
    AgentListener NONE = new AgentListener() {
    };

    /** The agent moved to another state. */
    default void stateChanged(String agent, AgentState state) {
    }

    /**
     * A command message was refused: unparseable, hostile, for another agent, or otherwise invalid.
     *
     * @param messageId  the JMS message id of the refused message
     * @param resultCode the MFT result code given (43 malformed, 4 wrong agent, ...)
     * @param reason     what was wrong, naming the element or value
     */
    default void requestRejected(String agent, String messageId, int resultCode, String reason) {
    }

    /** A ping was answered. */
    default void pinged(String agent, String originatorUser) {
    }

    /**
     * The connection to the queue manager was lost; the agent is reconnecting.
     *
     * @param reason the provider's description, with its reason code
     */
    default void connectionLost(String agent, String qmgr, String reason) {
    }

    /** The connection to the queue manager is back. */
    default void connectionRestored(String agent, String qmgr) {
    }
}
