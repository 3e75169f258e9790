package org.openmft.agent.transfer.destination;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.openmft.agent.transfer.protocol.ProtocolCodec;

/**
 * How a destination transfer answers its source: messages built with {@link #codec()} go to the
 * source agent's {@code SYSTEM.FTE.REPLY.<agent>} queue. Both belong to the DATA dispatcher's
 * session and thread.
 */
public interface ReplySender {
    /** The codec of the dispatcher's session. */
    ProtocolCodec codec();

    /**
     * Sends {@code m} to {@code sourceAgent}'s REPLY queue.
     *
     * @param sourceQMgr the source agent's queue manager (routed there when it is not this agent's), or null
     */
    void send(String sourceAgent, String sourceQMgr, Message m) throws JMSException;
}
