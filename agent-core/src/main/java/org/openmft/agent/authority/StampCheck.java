package org.openmft.agent.authority;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.openmft.agent.qmgr.QueueManagerException;

/**
 * Authorities on an embedded queue manager: what it stamped on the message ({@link AuthorityStamp}),
 * after {@link AuthorityProbe#verify} showed that it removes the claims of senders. Stateless.
 */
final class StampCheck implements AuthorityCheck {
    @Override
    public HeldAuthorities held(Message message, String agent) throws JMSException {
        return HeldAuthorities.of(AuthorityStamp.held(message, agent));
    }

    @Override
    public void verify(Connection connection, String agent) throws QueueManagerException {
        AuthorityProbe.verify(connection, agent);
    }

    @Override
    public void close() {
    }
}
