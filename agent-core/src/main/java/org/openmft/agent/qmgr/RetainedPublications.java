package org.openmft.agent.qmgr;

import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.core.filter.Filter;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.MessageReference;
import org.apache.activemq.artemis.core.server.Queue;
import org.apache.activemq.artemis.core.server.RoutingContext;
import org.apache.activemq.artemis.core.server.impl.RoutingContextImpl;
import org.apache.activemq.artemis.core.server.plugin.ActiveMQServerQueuePlugin;
import org.apache.activemq.artemis.utils.collections.LinkedListIterator;
import org.openmft.agent.messaging.Publications;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retained publications on an embedded queue manager, as IBM MQ has them: the newest publication
 * of each topic string marked {@value Publications#RETAINED_PROPERTY} is kept in the last-value queue
 * {@value Publications#RETAINED_QUEUE} (bound to the {@value Publications#TOPIC} address with a
 * filter), and every subscription created on that address afterwards receives a copy of each
 * retained publication its filter accepts, before anything published later. Subscriptions that
 * already existed (a durable subscription resumed after a restart) receive nothing again, as in
 * IBM MQ.
 *
 * <p>Thread-safety: Artemis calls {@link #afterCreateQueue} on the thread creating the queue.
 */
final class RetainedPublications implements ActiveMQServerQueuePlugin {
    private static final Logger log = LoggerFactory.getLogger(RetainedPublications.class);

    private static final SimpleString TOPIC = SimpleString.of(Publications.TOPIC);
    private static final SimpleString RETAINED = SimpleString.of(Publications.RETAINED_QUEUE);

    private volatile ActiveMQServer server;

    @Override
    public void registered(ActiveMQServer server) {
        this.server = server;
    }

    /** Creates the topic address and the retained queue when they do not exist yet. */
    static void createObjects(ActiveMQServer server) throws Exception {
        if (server.getAddressInfo(TOPIC) == null) {
            server.addAddressInfo(new org.apache.activemq.artemis.core.server.impl.AddressInfo(TOPIC)
                    .addRoutingType(RoutingType.MULTICAST));
        }
        if (server.locateQueue(RETAINED) == null) {
            server.createQueue(QueueConfiguration.of(RETAINED).setAddress(TOPIC)
                    .setRoutingType(RoutingType.MULTICAST).setDurable(true).setAutoCreated(false)
                    .setLastValue(true).setLastValueKey(Publications.TOPIC_STRING_PROPERTY)
                    .setNonDestructive(true)
                    .setFilterString(Publications.RETAINED_PROPERTY + " = TRUE"));
        }
    }

    @Override
    public void afterCreateQueue(Queue queue) throws ActiveMQException {
        ActiveMQServer s = server;
        if (s == null || !TOPIC.equals(queue.getAddress()) || RETAINED.equals(queue.getName())
                || queue.getRoutingType() != RoutingType.MULTICAST) {
            return;
        }
        Queue retained = s.locateQueue(RETAINED);
        if (retained == null) {
            return;
        }
        Filter filter = queue.getFilter();
        int copied = 0;
        try (LinkedListIterator<MessageReference> it = retained.browserIterator()) {
            while (it.hasNext()) {
                Message original = it.next().getMessage();
                if (filter != null && !filter.match(original)) {
                    continue;
                }
                Message copy = original.copy(s.getStorageManager().generateID());
                copy.setAddress(TOPIC);
                RoutingContext context = new RoutingContextImpl(null);
                queue.route(copy, context);
                s.getPostOffice().processRoute(copy, context, false);
                copied++;
            }
        } catch (Exception e) {
            log.warn("Could not give subscription {} its retained publications: {}", queue.getName(), e.toString());
            return;
        }
        if (copied > 0) {
            log.debug("Subscription {} received {} retained publication(s)", queue.getName(), copied);
        }
    }
}
