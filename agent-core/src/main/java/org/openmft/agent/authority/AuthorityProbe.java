package org.openmft.agent.authority;

import java.util.UUID;

import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Queue;
import javax.jms.Session;

import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ProviderErrors;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * Makes sure, before an agent with {@code authorityChecking=true} takes a request, that its queue
 * manager vouches for authorities ({@link AuthorityStamp}): on a queue manager that does not
 * remove what senders write in those properties, anyone could claim any authority, and the agent
 * would fail open. The agent sends itself a message on its EVENT queue claiming an authority and
 * reads it back: the claim must be gone.
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
        String id = UUID.randomUUID().toString();
        try {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try {
                Queue queue = session.createQueue(QueueNames.event(agent));
                MessageConsumer consumer = session.createConsumer(queue, PROBE_PROPERTY + " = '" + id + "'");
                connection.start();
                Message probe = session.createMessage();
                probe.setStringProperty(PROBE_PROPERTY, id);
                probe.setStringProperty(AuthorityStamp.AGENT_PROPERTY, QueueNames.validateAgentName(agent));
                probe.setStringProperty(AuthorityStamp.AUTHORITIES_PROPERTY, Authority.ADMINISTRATION.name());
                MessageProducer producer = session.createProducer(queue);
                producer.send(probe, DeliveryMode.NON_PERSISTENT, 4, WAIT_MILLIS);
                Message back = consumer.receive(WAIT_MILLIS);
                if (back == null) {
                    throw new QueueManagerException("agent " + agent + " could not check that its queue manager"
                            + " vouches for authorities (authorityChecking=true): its probe on "
                            + QueueNames.event(agent) + " did not come back within " + WAIT_MILLIS / 1000 + " s",
                            QueueManagerException.UNAVAILABLE);
                }
                if (back.propertyExists(AuthorityStamp.AUTHORITIES_PROPERTY)
                        || back.propertyExists(AuthorityStamp.AGENT_PROPERTY)) {
                    throw new QueueManagerException("authorityChecking=true: the queue manager of agent " + agent
                            + " does not vouch for authorities (a message claiming one kept the claim), so any"
                            + " sender could claim any authority. Authority checking needs an OpenMFT embedded"
                            + " queue manager ('mft qmgr create'); the agent does not start rather than run"
                            + " unchecked.", QueueManagerException.CONFIGURATION);
                }
            } finally {
                session.close();
            }
        } catch (JMSException e) {
            throw new QueueManagerException("agent " + agent + " could not check that its queue manager vouches for"
                    + " authorities (authorityChecking=true): " + ProviderErrors.describe(e),
                    QueueManagerException.UNAVAILABLE, e);
        }
    }
}
