package org.openmft.agent.qmgr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.messaging.Publications;
import org.openmft.agent.messaging.QueueManagerConnector;

/**
 * The embedded queue manager keeps retained publications as IBM MQ does: the newest per topic
 * string, given to every subscription created later, kept across a restart; other publications
 * reach only the subscriptions that existed when they were published.
 */
class RetainedPublicationsIT {
    @TempDir
    Path dir;
    private QueueManagerSettings settings;
    private QueueManagerEndpoint ep;

    @BeforeEach
    void queueManager() throws java.io.IOException {
        int port = EmbeddedQueueManagerIT.freePort();
        settings = new QueueManagerSettings("QMCOORD", dir.resolve("qm"), "127.0.0.1", port);
        ep = new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QMCOORD", "127.0.0.1", port, "SYSTEM.DEF.SVRCONN");
    }

    private Connection connect(EmbeddedQueueManager qm) throws QueueManagerException {
        return QueueManagerConnector.forAgent(ep, qm.administrator().orElseThrow()).connect();
    }

    private static void publish(Session s, String topic, String body, boolean retained) throws JMSException {
        Topic t = s.createTopic(Publications.TOPIC);
        try (MessageProducer p = s.createProducer(t)) {
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            TextMessage m = s.createTextMessage(body);
            m.setStringProperty(Publications.TOPIC_STRING_PROPERTY, topic);
            m.setBooleanProperty(Publications.RETAINED_PROPERTY, retained);
            p.send(m);
        }
    }

    /**
     * What {@code c} receives before {@code marker}, a publication (not retained) that the test
     * publishes now on a topic the consumer's filter takes: retained copies reach a new subscription
     * before anything published after it was made, and a consumer receives in order, so once the
     * marker is in everything else that was coming is too. No quiet interval is read as "nothing".
     * Markers of earlier drains are left out of the result.
     */
    private static List<String> drain(Session s, MessageConsumer c, String markerTopic) throws JMSException {
        String marker = "marker-" + java.util.UUID.randomUUID();
        publish(s, markerTopic, marker, false);
        List<String> bodies = new ArrayList<>();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (true) {
            long left = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            Message m = left > 0 ? c.receive(left) : null;
            if (m == null) {
                throw new AssertionError("the marker " + marker + " did not arrive within 30 s; got " + bodies);
            }
            String body = ((TextMessage) m).getText();
            if (body.equals(marker)) {
                return bodies;
            }
            if (!body.startsWith("marker-")) {
                // Markers of earlier drains (a durable subscription keeps them) are not content.
                bodies.add(body);
            }
        }
    }

    @Test
    @SuppressWarnings("try") // the queue manager is held open by try-with-resources
    void lateSubscribersReceiveTheNewestRetainedPublicationPerTopicEvenAfterARestart() throws Exception {
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings);
                Connection c = connect(qm)) {
            c.setClientID("logger-test");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = s.createTopic(Publications.TOPIC);
            // A durable subscription to the log, closed while publications arrive.
            s.createDurableSubscriber(topic, "LOG", Publications.selector("SYSTEM.FTE/Log/#"), false).close();
            c.start();
            publish(s, Publications.agentStatus("A"), "A1", true);
            publish(s, Publications.agentStatus("A"), "A2", true);
            publish(s, Publications.agentStatus("B.X"), "B1", true);
            publish(s, Publications.log("A", "414d51"), "log1", false);

            MessageConsumer agents = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Agents/#"));
            assertThat(drain(s, agents, Publications.agentStatus("MARK"))).containsExactlyInAnyOrder("A2", "B1");
            MessageConsumer oneAgent = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Agents/B.X"));
            assertThat(drain(s, oneAgent, Publications.agentStatus("B.X"))).containsExactly("B1");
            MessageConsumer logs = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Log/#"));
            assertThat(drain(s, logs, Publications.log("A", "mark"))).as("log publications are not retained")
                    .isEmpty();
            publish(s, Publications.log("A", "414d52"), "log2", false);
            assertThat(drain(s, logs, Publications.log("A", "mark"))).containsExactly("log2");
            assertThat(drain(s, agents, Publications.agentStatus("MARK"))).as("no second copy of what was retained")
                    .isEmpty();
        }
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings);
                Connection c = connect(qm)) {
            c.setClientID("logger-test");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = s.createTopic(Publications.TOPIC);
            c.start();
            MessageConsumer agents = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Agents/+"));
            assertThat(drain(s, agents, Publications.agentStatus("MARK"))).containsExactlyInAnyOrder("A2", "B1");
            MessageConsumer durable =
                    s.createDurableSubscriber(topic, "LOG", Publications.selector("SYSTEM.FTE/Log/#"), false);
            assertThat(drain(s, durable, Publications.log("A", "mark")))
                    .as("the durable subscription kept both log records, and only them")
                    .containsExactly("log1", "log2");
        }
    }

    /**
     * A retained publication no longer makes the queue manager walk every retained publication
     * (Artemis's last-value queue, left to itself, prunes the superseded ones on each put): the
     * superseded ones stay until they are as many as
     * {@link RetainedPublications#MIN_SUPERSEDED}, then go in one compaction, which keeps the newest
     * of each topic string; a new subscription is given only the newest of each all the while.
     */
    @Test
    @SuppressWarnings("try") // the queue manager is held open by try-with-resources
    void supersededPublicationsAreRemovedInABatchAndANewSubscriptionStillReceivesOnlyTheNewest() throws Exception {
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings);
                Connection c = connect(qm)) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = s.createTopic(Publications.TOPIC);
            c.start();
            publish(s, Publications.agentStatus("B"), "B1", true);
            for (int i = 0; i < 10; i++) {
                publish(s, Publications.agentStatus("A"), "A" + i, true);
            }
            awaitHeld(qm, 11, "the superseded publications wait for a compaction");
            MessageConsumer agents = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Agents/#"));
            assertThat(drain(s, agents, Publications.agentStatus("MARK"))).containsExactlyInAnyOrder("A9", "B1");
        }
        // After a restart, what a compaction keeps of topic A is what the queue manager reloaded as
        // its newest. The queue's first delivery pass may prune before the plugin pauses it, or find
        // it paused: both end under the queue's lock before start returns, so what it holds is
        // settled here.
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings);
                Connection c = connect(qm)) {
            long superseded = qm.messagesHeld(Publications.RETAINED_QUEUE) - 2;
            assertThat(superseded).as("superseded publications after the restart").isIn(0L, 9L);
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = s.createTopic(Publications.TOPIC);
            c.start();
            MessageConsumer agents = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Agents/#"));
            assertThat(drain(s, agents, Publications.agentStatus("MARK"))).containsExactlyInAnyOrder("A9", "B1");
            // Only the last of these makes the superseded ones MIN_SUPERSEDED: one compaction, after it.
            int last = (int) (RetainedPublications.MIN_SUPERSEDED - superseded);
            for (int i = 0; i <= last; i++) {
                publish(s, Publications.agentStatus("C"), "C" + i, true);
            }
            awaitHeld(qm, 3, "one compaction removed every superseded publication");
            MessageConsumer late = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Agents/#"));
            assertThat(drain(s, late, Publications.agentStatus("MARK")))
                    .containsExactlyInAnyOrder("A9", "B1", "C" + last);
        }
    }

    private static void awaitHeld(EmbeddedQueueManager qm, long expected, String what) throws InterruptedException {
        org.openmft.agent.Poll.until(() -> what + ": " + Publications.RETAINED_QUEUE + " held "
                + qm.messagesHeld(Publications.RETAINED_QUEUE) + " publications after 30 s, not " + expected,
                java.time.Duration.ofSeconds(30), () -> qm.messagesHeld(Publications.RETAINED_QUEUE) == expected);
    }
}
