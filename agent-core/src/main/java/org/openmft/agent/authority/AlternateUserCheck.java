package org.openmft.agent.authority;

import java.util.EnumMap;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.openmft.agent.config.QueueNames;
import org.openmft.agent.qmgr.QueueManagerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.ibm.mq.MQException;
import com.ibm.mq.MQQueueManager;
import com.ibm.mq.constants.CMQC;
import com.ibm.mq.constants.MQConstants;

/**
 * Authorities on IBM MQ, asked as IBM MFT asks them: the agent opens its authority queue
 * ({@code SYSTEM.FTE.AUTHTRN1.<agent>} for a transfer, ...) with {@code MQOO_ALTERNATE_USER_AUTHORITY}
 * and the sender's user (the message's MQMD UserIdentifier, which IBM MQ sets from the sender's
 * connection) and the access the authority needs ({@code MQOO_BROWSE} or {@code MQOO_OUTPUT}). The
 * queue manager's authority records decide; MQRC 2035 means "not authorised". The queues hold no
 * message (MAXDEPTH 0): the open is closed at once.
 *
 * <p>The agent's own user needs {@code +altusr} on the queue manager and {@code +inq} on the
 * authority queues; {@link #verify} checks both before the agent takes a request and stops it with
 * exit 78 naming the {@code setmqaut} to run. A check that cannot be made (the connection lost twice
 * in a row, an authority queue deleted) refuses the action and logs why: it never fails open.
 *
 * <p>One base-classes connection, opened on first use and replaced once when an open fails for
 * another reason than 2035. Thread-safe: opens are serialised.
 */
final class AlternateUserCheck implements AuthorityCheck {
    private static final Logger log = LoggerFactory.getLogger(AlternateUserCheck.class);

    /** A connection that opens a queue and closes it at once; IBM MQ's base classes in production. */
    interface Opener extends AutoCloseable {
        /**
         * @param queue         the queue
         * @param options       MQOO options
         * @param alternateUser the user whose authority counts, or null for the connection's own
         * @throws MQException with the queue manager's reason when the open fails
         */
        void open(String queue, int options, String alternateUser) throws MQException;

        @Override
        void close();

        /** An opener over a base-classes connection, which it disconnects on close. */
        static Opener of(MQQueueManager qm) {
            return new Opener() {
                @Override
                public void open(String queue, int options, String alternateUser) throws MQException {
                    qm.accessQueue(queue, options, null, null, alternateUser).close();
                }

                @Override
                public void close() {
                    try {
                        qm.disconnect();
                    } catch (MQException e) {
                        log.debug("disconnecting from the queue manager failed: {}", e.toString());
                    }
                }
            };
        }
    }

    /** Opens a new connection. */
    @FunctionalInterface
    interface Connect {
        Opener connect() throws QueueManagerException;
    }

    private final Connect connect;
    private final String qmgrName;
    private Opener opener;
    private boolean closed;

    /**
     * @param connect  how to open a connection to the agent's queue manager
     * @param qmgrName its name, for messages
     */
    AlternateUserCheck(Connect connect, String qmgrName) {
        this.connect = connect;
        this.qmgrName = qmgrName;
    }

    @Override
    public HeldAuthorities held(Message message, String agent) throws JMSException {
        String user = AuthorityStamp.sender(message);
        if (user == null) {
            return HeldAuthorities.NONE;
        }
        // Asked lazily and remembered for this message: most requests need one authority.
        Map<Authority, Boolean> known = new EnumMap<>(Authority.class);
        return authority -> {
            synchronized (known) {
                return known.computeIfAbsent(authority, a -> holds(user, agent, a));
            }
        };
    }

    /** Whether {@code user} holds {@code authority} on {@code agent}: an alternate-user open of its queue. */
    boolean holds(String user, String agent, Authority authority) {
        String queue = authority.queue(agent);
        int options = CMQC.MQOO_ALTERNATE_USER_AUTHORITY | CMQC.MQOO_FAIL_IF_QUIESCING
                | (authority.access() == Authority.Access.BROWSE ? CMQC.MQOO_BROWSE : CMQC.MQOO_OUTPUT);
        String failure = null;
        for (int attempt = 1; attempt <= 2; attempt++) {
            try {
                open(queue, options, user);
                return true;
            } catch (MQException e) {
                if (e.getReason() == CMQC.MQRC_NOT_AUTHORIZED) {
                    return false;
                }
                // Another reason says nothing about the user: try once more on a new connection.
                failure = reason(e);
                drop();
            } catch (QueueManagerException e) {
                failure = e.getMessage();
            }
        }
        log.warn("Agent {}: the {} authority of user {} could not be checked ({} {} on queue manager {}): {};"
                + " the action is refused", agent, authority.ibmName(), user, authority.access().keyword(), queue,
                qmgrName, failure);
        return false;
    }

    @Override
    public void verify(Connection connection, String agent) throws QueueManagerException {
        verify(AuthorityProbe.ownUser(connection, agent), agent);
    }

    /**
     * What {@link #verify(Connection, String)} checks once it knows the agent's own user: that the
     * authority queues exist and the agent may inquire on them, and that it may open them with
     * alternate-user authority.
     */
    void verify(String self, String agent) throws QueueManagerException {
        // Exactly the queues fteCreateAgent's MQSC defines.
        for (String queue : QueueNames.authQueues(agent)) {
            try {
                open(queue, CMQC.MQOO_INQUIRE | CMQC.MQOO_FAIL_IF_QUIESCING, null);
            } catch (MQException e) {
                throw switch (e.getReason()) {
                    case CMQC.MQRC_UNKNOWN_OBJECT_NAME -> configuration("authority queue " + queue + " is not defined"
                            + " on queue manager " + qmgrName + ": run the MQSC that fteCreateAgent wrote for agent "
                            + agent + " (" + agent + "_create.mqsc)", e);
                    case CMQC.MQRC_NOT_AUTHORIZED -> configuration("the agent's user " + self + " may not inquire on "
                            + queue + " (setmqaut -m " + qmgrName + " -n " + queue + " -t queue -p " + self
                            + " +inq)", e);
                    default -> unavailable(agent, queue, e);
                };
            }
        }
        String probe = Authority.TRANSFER.queue(agent);
        try {
            open(probe, CMQC.MQOO_INQUIRE | CMQC.MQOO_ALTERNATE_USER_AUTHORITY | CMQC.MQOO_FAIL_IF_QUIESCING, self);
        } catch (MQException e) {
            throw e.getReason() == CMQC.MQRC_NOT_AUTHORIZED
                    ? configuration("the agent's user " + self + " lacks alternate-user authority on queue manager "
                            + qmgrName + ", which IBM MQ needs to check the requesters' authorities (setmqaut -m "
                            + qmgrName + " -t qmgr -p " + self + " +altusr)", e)
                    : unavailable(agent, probe, e);
        }
    }

    private QueueManagerException configuration(String what, MQException e) {
        return new QueueManagerException("authorityChecking=true: " + what + "; the agent does not start rather"
                + " than run unchecked (" + reason(e) + ")", QueueManagerException.CONFIGURATION, e);
    }

    private QueueManagerException unavailable(String agent, String queue, MQException e) {
        drop();
        return new QueueManagerException("agent " + agent + " could not open " + queue + " on queue manager "
                + qmgrName + " to check authorities (authorityChecking=true): " + reason(e),
                QueueManagerException.UNAVAILABLE, e);
    }

    private static String reason(MQException e) {
        return "MQRC " + e.getReason() + " " + MQConstants.lookupReasonCode(e.getReason());
    }

    private synchronized void open(String queue, int options, String user) throws MQException, QueueManagerException {
        if (closed) {
            throw new QueueManagerException("the authority check of queue manager " + qmgrName + " is closed",
                    QueueManagerException.UNAVAILABLE);
        }
        if (opener == null) {
            opener = connect.connect();
        }
        opener.open(queue, options, user);
    }

    private synchronized void drop() {
        if (opener != null) {
            opener.close();
            opener = null;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        drop();
    }
}
