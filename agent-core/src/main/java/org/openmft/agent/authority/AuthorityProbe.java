package org.openmft.agent.authority;

import java.util.UUID;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;

import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * Checks, before an agent with {@code authorityChecking=true} takes a request, what its queue
 * manager does with the agent's own message, sent to its EVENT queue and read back. On an embedded
 * queue manager ({@link #verify}) the message claims an authority and the claim must be gone: on a
 * queue manager that does not remove what senders write in the {@link AuthorityStamp} properties,
 * anyone could claim any authority, and the agent would fail open. On IBM MQ ({@link #ownUser})
 * the message tells the agent which user the queue manager knows it as.
 */
public final class AuthorityProbe {
    private static final String PROBE_PROPERTY = "OPENMFT_AUTHORITY_PROBE";
    private static final long WAIT_MILLIS = 30_000;

    private AuthorityProbe() {
    }

    /**
     * @param connection a started or stopped connection to the agent's queue manager
     * @param agent      the agent
     * @throws QueueManagerException exit 78 when the queue manager kept the claim; 75 when the probe
     *                               could not be sent or did not come back
     */
    public static void verify(Connection connection, String agent) throws QueueManagerException {
        Message back = roundTrip(connection, agent, probe -> {
            probe.setStringProperty(AuthorityStamp.AGENT_PROPERTY, QueueNames.validateAgentName(agent));
            probe.setStringProperty(AuthorityStamp.AUTHORITIES_PROPERTY, Authority.ADMINISTRATION.name());
        });
        try {
            if (back.propertyExists(AuthorityStamp.AUTHORITIES_PROPERTY)
                    || back.propertyExists(AuthorityStamp.AGENT_PROPERTY)) {
                throw new QueueManagerException("authorityChecking=true: the queue manager of agent " + agent
                        + " does not vouch for authorities (a message claiming one kept the claim), so any"
                        + " sender could claim any authority. Authority checking needs an OpenMFT embedded"
                        + " queue manager ('mft qmgr create') or IBM MQ; the agent does not start rather than"
                        + " run unchecked.", QueueManagerException.CONFIGURATION);
            }
        } catch (JMSException e) {
            throw unavailable(agent, e);
        }
    }

    /**
     * The user the queue manager validates for the agent's own messages ({@code JMSXUserID}; on IBM
     * MQ the MQMD UserIdentifier the connection gets): the identity whose alternate-user authority
     * an IBM MQ agent needs.
     *
     * @param connection a started or stopped connection to the agent's queue manager
     * @param agent      the agent
     * @return the user
     * @throws QueueManagerException exit 78 when the queue manager wrote none; 75 when the probe could
     *                               not be sent or did not come back
     */
    public static String ownUser(Connection connection, String agent) throws QueueManagerException {
        try {
            String user = AuthorityStamp.sender(roundTrip(connection, agent, probe -> { }));
            if (user == null) {
                throw new QueueManagerException("authorityChecking=true: the queue manager of agent " + agent
                        + " wrote no user identifier on the agent's own message, so it cannot tell who sends a"
                        + " request; the agent does not start rather than run unchecked.",
                        QueueManagerException.CONFIGURATION);
            }
            return user;
        } catch (JMSException e) {
            throw unavailable(agent, e);
        }
    }

    /** What to add to the probe before it is sent. */
    private interface Decoration {
        void apply(Message probe) throws JMSException;
    }

    /** Sends a probe to the agent's EVENT queue and receives it back. */
    private static Message roundTrip(Connection connection, String agent, Decoration decoration)
            throws QueueManagerException {
        String id = UUID.randomUUID().toString();
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try {
                Queue queue = session.createQueue(QueueNames.event(agent));
                MessageConsumer consumer = session.createConsumer(queue, PROBE_PROPERTY + " = '" + id + "'");
                connection.start();
                Message probe = session.createMessage();
                probe.setStringProperty(PROBE_PROPERTY, id);
                decoration.apply(probe);
                MessageProducer producer = session.createProducer(queue);
                producer.send(probe, DeliveryMode.NON_PERSISTENT, 4, WAIT_MILLIS);
                Message back = consumer.receive(WAIT_MILLIS);
                if (back == null) {
                    throw new QueueManagerException("agent " + agent + " could not check its queue manager's"
                            + " authority checks (authorityChecking=true): its probe on " + QueueNames.event(agent)
                            + " did not come back within " + WAIT_MILLIS / 1000 + " s",
                            QueueManagerException.UNAVAILABLE);
                }
                return back;
            } finally {
                session.close();
            }
        } catch (JMSException e) {
            throw unavailable(agent, e);
        }
    }

    private static QueueManagerException unavailable(String agent, JMSException e) {
        return new QueueManagerException("agent " + agent + " could not check its queue manager's authority checks"
                + " (authorityChecking=true): " + ProviderErrors.describe(e), QueueManagerException.UNAVAILABLE, e);
    }
}
