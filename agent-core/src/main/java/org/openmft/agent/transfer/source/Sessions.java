package org.openmft.agent.transfer.source;

import jakarta.jms.JMSException;
import jakarta.jms.Session;

/** How a source transfer gets its own session on the agent's connection, and asks whether a queue exists. */
public interface Sessions {
    /** A new non-transacted, auto-acknowledged session; the caller closes it. */
    Session open() throws JMSException;

    /** Whether {@code queue} exists on the agent's queue manager. */
    boolean queueExists(Session session, String queue) throws JMSException;
}
