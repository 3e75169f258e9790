package org.openmft.agent.messaging;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientConsumer;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.openmft.agent.qmgr.QueueManagerException;

/**
 * Administers queues on an Artemis queue manager through the core client: what {@code runmqsc}
 * does for IBM MQ. Queues are durable, ANYCAST, and never deleted automatically.
 *
 * <p>Each call opens and closes its own session; instances are stateless.
 */
public final class ArtemisQueueAdmin {
    private final QueueManagerConnector connector;

    /**
     * @throws IllegalArgumentException when the connector is not for an Artemis queue manager
     */
    public ArtemisQueueAdmin(QueueManagerConnector connector) {
        if (connector.artemisUrl() == null) {
            throw new IllegalArgumentException(connector.description() + " is not an Artemis queue manager: use the"
                    + " MQSC scripts to define queues on IBM MQ");
        }
        this.connector = connector;
    }

    /** A session logged in with the connector's credentials (auto-commit, as the core client's default). */
    private ClientSession session(ServerLocator locator, ClientSessionFactory factory) throws ActiveMQException {
        var credentials = connector.credentials();
        return factory.createSession(credentials == null ? null : credentials.user(),
                credentials == null ? null : credentials.password(), false, true, true, locator.isPreAcknowledge(),
                locator.getAckBatchSize());
    }

    /**
     * Creates the named queues that do not exist yet.
     *
     * @return how many were created
     */
    public int createQueues(Collection<String> names) throws QueueManagerException {
        try (ServerLocator locator = ActiveMQClient.createServerLocator(connector.artemisLocatorUrl());
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = session(locator, factory)) {
            int created = 0;
            for (String name : names) {
                if (!session.queueQuery(SimpleString.of(name)).isExists()) {
                    if (!session.addressQuery(SimpleString.of(name)).isExists()) {
                        // SYSTEM.FTE.* addresses are never auto-created: define the address first.
                        session.createAddress(SimpleString.of(name), java.util.EnumSet.of(RoutingType.ANYCAST), false);
                    }
                    session.createQueue(QueueConfiguration.of(name).setAddress(name)
                            .setRoutingType(RoutingType.ANYCAST).setDurable(true).setAutoCreated(false)
                            .setAutoCreateAddress(true));
                    created++;
                }
            }
            return created;
        } catch (Exception e) {
            throw failure("create queues on", e);
        }
    }

    /**
     * Creates a durable queue that belongs to one command (a {@code WMQFTE.*} reply queue of a
     * command that waits through queue manager restarts), unless it exists. Its address is marked
     * auto-created, so that deleting the queue ({@link #deleteQueues}) removes the address too
     * where the queue manager's address settings auto-delete addresses (the embedded queue manager
     * does for {@code WMQFTE.#}). The queue itself is never deleted automatically.
     *
     * @return true when it was created, false when it existed already
     */
    public boolean createPrivateQueue(String name) throws QueueManagerException {
        try (ServerLocator locator = ActiveMQClient.createServerLocator(connector.artemisLocatorUrl());
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = session(locator, factory)) {
            SimpleString queue = SimpleString.of(name);
            if (session.queueQuery(queue).isExists()) {
                return false;
            }
            if (!session.addressQuery(queue).isExists()) {
                session.createAddress(queue, java.util.EnumSet.of(RoutingType.ANYCAST), true);
            }
            session.createQueue(QueueConfiguration.of(name).setAddress(name).setRoutingType(RoutingType.ANYCAST)
                    .setDurable(true).setAutoCreated(false).setAutoDelete(false).setAutoCreateAddress(true));
            return true;
        } catch (Exception e) {
            throw failure("create a queue on", e);
        }
    }

    /**
     * Deletes the named queues that exist, with their messages.
     *
     * @return how many were deleted
     */
    public int deleteQueues(Collection<String> names) throws QueueManagerException {
        try (ServerLocator locator = ActiveMQClient.createServerLocator(connector.artemisLocatorUrl());
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = session(locator, factory)) {
            int deleted = 0;
            for (String name : names) {
                if (session.queueQuery(SimpleString.of(name)).isExists()) {
                    session.deleteQueue(SimpleString.of(name));
                    deleted++;
                }
            }
            return deleted;
        } catch (Exception e) {
            throw failure("delete queues on", e);
        }
    }

    /**
     * Removes every message from the named queues that exist, as IBM MQ's {@code CLEAR QLOCAL}
     * does, by consuming them. Meant for queues nobody reads at the time (a stopped agent's): a
     * message another consumer holds unacknowledged stays, and one put meanwhile may stay too.
     *
     * @return how many messages were removed from each queue that exists, in the order given;
     *     queues that do not exist are left out
     */
    public Map<String, Long> purge(Collection<String> names) throws QueueManagerException {
        try (ServerLocator locator = ActiveMQClient.createServerLocator(connector.artemisLocatorUrl());
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = session(locator, factory)) {
            session.start();
            Map<String, Long> removed = new LinkedHashMap<>();
            for (String name : names) {
                SimpleString queue = SimpleString.of(name);
                if (!session.queueQuery(queue).isExists()) {
                    continue;
                }
                long count = 0;
                // Closing the consumer sends the acknowledgements it still batches.
                try (ClientConsumer consumer = session.createConsumer(queue)) {
                    for (ClientMessage m = consumer.receiveImmediate(); m != null; m = consumer.receiveImmediate()) {
                        m.acknowledge();
                        count++;
                    }
                }
                removed.put(name, count);
            }
            return removed;
        } catch (Exception e) {
            throw failure("purge queues on", e);
        }
    }

    /**
     * The message count of each named queue; a queue that does not exist maps to -1.
     */
    public Map<String, Long> depths(Collection<String> names) throws QueueManagerException {
        try (ServerLocator locator = ActiveMQClient.createServerLocator(connector.artemisLocatorUrl());
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = session(locator, factory)) {
            Map<String, Long> depths = new TreeMap<>();
            for (String name : names) {
                ClientSession.QueueQuery q = session.queueQuery(SimpleString.of(name));
                depths.put(name, q.isExists() ? q.getMessageCount() : -1L);
            }
            return depths;
        } catch (Exception e) {
            throw failure("inquire queues on", e);
        }
    }

    private QueueManagerException failure(String what, Exception e) {
        String reason = e instanceof ActiveMQException a ? a.getMessage() + " (Artemis " + a.getType() + ")"
                : String.valueOf(e.getMessage());
        // A refused login or permission is not something a retry cures: a configuration problem.
        boolean security = e instanceof org.apache.activemq.artemis.api.core.ActiveMQSecurityException;
        return new QueueManagerException("cannot " + what + " " + connector.description()
                + connector.user().map(u -> " as user " + u).orElse("") + ": " + reason,
                security ? QueueManagerException.CONFIGURATION : QueueManagerException.UNAVAILABLE, e);
    }
}
