package org.openmft.agent.qmgr;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

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
import org.apache.activemq.artemis.core.server.impl.LastValueQueue;
import org.apache.activemq.artemis.core.server.impl.RoutingContextImpl;
import org.apache.activemq.artemis.core.server.plugin.ActiveMQServerBasePlugin;
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
 * <p><b>Superseded publications are removed in batches.</b> Artemis's last-value queue removes the
 * publications a newer one replaced in each delivery pass, and with no consumer it makes one pass per
 * message put: it walks every publication it holds, reading each one's topic string, so every
 * retained publication cost a walk of all of them (500 agents, a status every 5 s each: 100 walks of
 * 1,000 publications a second, the largest part of the coordination queue manager's idle CPU;
 * {@code docs/profiling.md}, Change 9). This plugin keeps the queue paused, so a put makes no pass,
 * and once a second lets one pass run when the superseded publications are at least as many as the
 * current ones (and at least {@value #MIN_SUPERSEDED}): one walk per that many puts. Until then a
 * superseded publication stays on the queue, so what it holds is bounded by twice its topic strings
 * plus a second's publications. A new subscription is given the newest per topic string all the same
 * ({@link #newestPerTopic}). After a restart the queue prunes as Artemis always did (the reloaded
 * newest of each topic string stays) until {@link #createObjects} pauses it again. Nothing consumes
 * from the queue; that it is paused shows in the console.
 *
 * <p>Thread-safety: Artemis calls {@link #afterCreateQueue} on the thread creating the queue; the
 * compaction runs on the queue manager's scheduled pool and the queue's own executor.
 */
final class RetainedPublications implements ActiveMQServerQueuePlugin {
    private static final Logger log = LoggerFactory.getLogger(RetainedPublications.class);

    private static final SimpleString TOPIC = SimpleString.of(Publications.TOPIC);
    private static final SimpleString RETAINED = SimpleString.of(Publications.RETAINED_QUEUE);

    /** Superseded publications the queue keeps at least before it is compacted. */
    static final int MIN_SUPERSEDED = 64;
    /** How often the queue is looked at for compaction. */
    static final long COMPACTION_PERIOD_MILLIS = 1000;

    private volatile ActiveMQServer server;
    /** The periodic compaction, once {@link #createObjects} found the queue; null before. */
    private volatile ScheduledFuture<?> compaction;

    @Override
    public void registered(ActiveMQServer server) {
        this.server = server;
    }

    @Override
    public void unregistered(ActiveMQServer server) {
        ScheduledFuture<?> c = compaction;
        if (c != null) {
            c.cancel(false);
        }
    }

    /**
     * Creates the topic address and the retained queue when they do not exist yet, and starts the
     * compaction of the queue ({@link RetainedPublications}, "Superseded publications").
     */
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
        if (server.locateQueue(RETAINED) instanceof LastValueQueue queue) {
            for (ActiveMQServerBasePlugin plugin : server.getBrokerPlugins()) {
                if (plugin instanceof RetainedPublications retained) {
                    retained.startCompaction(queue, server);
                }
            }
        }
    }

    private synchronized void startCompaction(LastValueQueue queue, ActiveMQServer server) {
        if (compaction == null) {
            queue.pause(false);
            compaction = server.getScheduledPool().scheduleWithFixedDelay(() -> compactIfDue(queue),
                    COMPACTION_PERIOD_MILLIS, COMPACTION_PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Lets one delivery pass remove the superseded publications when they are at least as many as
     * the current ones and at least {@value #MIN_SUPERSEDED}: the queue is resumed, which schedules a
     * pass on its executor, and paused again by a task queued on that executor after the pass.
     */
    static void compactIfDue(LastValueQueue queue) {
        try {
            if (!queue.isPaused()) {
                // An administrator resumed it, or the last compaction's pause has not run yet.
                queue.getExecutor().execute(() -> queue.pause(false));
                return;
            }
            long current = queue.getLastValueKeys().size();
            long superseded = queue.getMessageCount() - current;
            if (superseded >= Math.max(current, MIN_SUPERSEDED)) {
                queue.resume();
                queue.getExecutor().execute(() -> queue.pause(false));
            }
        } catch (RuntimeException e) {
            log.warn("Could not compact the retained publications on {}: {}", RETAINED, e.toString());
        }
    }

    /**
     * The newest publication of each topic string the queue holds, in the order their topics first
     * appear (a superseded one stays on the paused queue until a compaction; see above). The newest is
     * the one the queue manager numbered last; a publication without a topic string stands alone.
     */
    static Map<Object, Message> newestPerTopic(Queue retained) {
        Map<Object, Message> newest = new LinkedHashMap<>();
        try (LinkedListIterator<MessageReference> it = retained.browserIterator()) {
            while (it.hasNext()) {
                Message m = it.next().getMessage();
                Object topic = m.getObjectProperty(Publications.TOPIC_STRING_PROPERTY);
                newest.merge(topic == null ? m : topic, m,
                        (kept, other) -> other.getMessageID() > kept.getMessageID() ? other : kept);
            }
        }
        return newest;
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
        try {
            for (Message original : newestPerTopic(retained).values()) {
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
