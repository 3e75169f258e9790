package org.openmft.agent.authority;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * Asks an agent's queue manager what the sender of a message may do on the agent
 * ({@code authorityChecking=true}). The queue manager decides, never the message: an embedded
 * queue manager stamps its decision on the message ({@link AuthorityStamp}); IBM MQ is asked, as
 * IBM MFT asks it, by opening the agent's {@code SYSTEM.FTE.AUTH*} queue with the sender's user as
 * alternate user ({@link AlternateUserCheck}).
 *
 * <p>Implementations are thread-safe: the command, data and reply threads ask at once.
 */
public interface AuthorityCheck extends AutoCloseable {
    /** For an agent without authority checking: nobody holds anything, nothing to verify. */
    AuthorityCheck NONE = new AuthorityCheck() {
        @Override
        public HeldAuthorities held(Message message, String agent) {
            return HeldAuthorities.NONE;
        }

        @Override
        public void verify(Connection connection, String agent) {
        }

        @Override
        public void close() {
        }
    };

    /**
     * The check for an agent.
     *
     * @param authorityChecking the agent's {@code authorityChecking}
     * @param connector         its queue manager connector
     * @return {@link #NONE} without checking; the stamp on an embedded queue manager; alternate-user
     *         opens on IBM MQ
     */
    static AuthorityCheck forAgent(boolean authorityChecking, QueueManagerConnector connector) {
        if (!authorityChecking) {
            return NONE;
        }
        return connector.endpoint().provider() == MessagingProvider.IBMMQ
                ? new AlternateUserCheck(() -> AlternateUserCheck.Opener.of(connector.connectIbmMqBase()),
                        connector.endpoint().qmgrName())
                : new StampCheck();
    }

    /**
     * What the sender of {@code message} holds on {@code agent}'s authority queues. The answer is
     * bound to the message's user; the message need not outlive this call.
     *
     * @param message a received message
     * @param agent   the agent asked to act
     * @return its authorities
     */
    HeldAuthorities held(Message message, String agent) throws JMSException;

    /**
     * Makes sure, before the agent takes its first request, that the queue manager's answers can be
     * trusted and given.
     *
     * @param connection a connection to the agent's queue manager
     * @param agent      the agent
     * @throws QueueManagerException exit 78 when they cannot (naming what to fix), 75 when the queue
     *                               manager could not be asked
     */
    void verify(Connection connection, String agent) throws QueueManagerException;

    /** Releases what the check holds (IBM MQ: its connection). */
    @Override
    void close();
}
