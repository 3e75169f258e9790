package org.openmft.agent.qmgr;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.jms.Connection;
import javax.jms.DeliveryMode;
import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.MessageConsumer;
import javax.jms.MessageProducer;
import javax.jms.Session;
import javax.jms.TextMessage;
import javax.jms.Topic;

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

    private static List<String> drain(MessageConsumer c) throws JMSException {
        List<String> bodies = new ArrayList<>();
        for (Message m = c.receive(2000); m != null; m = c.receive(300)) {
            bodies.add(((TextMessage) m).getText());
        }
        return bodies;
    }

    @Test
    @SuppressWarnings("try") // the queue manager is held open by try-with-resources
    void lateSubscribersReceiveTheNewestRetainedPublicationPerTopicEvenAfterARestart() throws Exception {
        int port = EmbeddedQueueManagerIT.freePort();
        QueueManagerSettings settings = new QueueManagerSettings("QMCOORD", dir.resolve("qm"), "127.0.0.1", port);
        QueueManagerEndpoint ep = new QueueManagerEndpoint(MessagingProvider.ARTEMIS, "QMCOORD", "127.0.0.1", port,
                "SYSTEM.DEF.SVRCONN");
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings);
                Connection c = QueueManagerConnector.forAgent(ep, null).connect()) {
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
            assertThat(drain(agents)).containsExactlyInAnyOrder("A2", "B1");
            MessageConsumer oneAgent = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Agents/B.X"));
            assertThat(drain(oneAgent)).containsExactly("B1");
            MessageConsumer logs = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Log/#"));
            assertThat(drain(logs)).as("log publications are not retained").isEmpty();
            publish(s, Publications.log("A", "414d52"), "log2", false);
            assertThat(drain(logs)).containsExactly("log2");
            assertThat(drain(agents)).as("no second copy of what was retained").isEmpty();
        }
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(settings);
                Connection c = QueueManagerConnector.forAgent(ep, null).connect()) {
            c.setClientID("logger-test");
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = s.createTopic(Publications.TOPIC);
            c.start();
            MessageConsumer agents = s.createConsumer(topic, Publications.selector("SYSTEM.FTE/Agents/+"));
            assertThat(drain(agents)).containsExactlyInAnyOrder("A2", "B1");
            MessageConsumer durable =
                    s.createDurableSubscriber(topic, "LOG", Publications.selector("SYSTEM.FTE/Log/#"), false);
            assertThat(drain(durable)).as("the durable subscription kept both log records, and only them")
                    .containsExactly("log1", "log2");
        }
    }
}
