package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * The destinations {@link Routing#destination} keeps, on a real embedded queue manager: made once
 * for every session (the provider's look-ups then happen once, not per message), bounded, and a
 * queue deleted after its destination was kept still refused at the send.
 */
class RoutingDestinationsIT {
    @TempDir
    Path dir;

    @Test
    void aDestinationIsMadeOnceForEverySessionAndStillDeliversToItsQueue() throws Exception {
        try (Rig rig = new Rig(dir, "QMDEST", List.of("SYSTEM.FTE.REPLY.A", "SYSTEM.FTE.REPLY.B"))) {
            Routing routing = new Routing(MessagingProvider.ARTEMIS, "QMDEST");
            Session one = rig.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Session two = rig.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);

            Destination a = routing.destination(one, "SYSTEM.FTE.REPLY.A", null);

            assertThat(routing.destination(two, "SYSTEM.FTE.REPLY.A", "QMDEST")).isSameAs(a);
            assertThat(routing.destination(one, "SYSTEM.FTE.REPLY.B", null)).isNotSameAs(a);
            MessageProducer anonymous = two.createProducer(null);
            for (int i = 0; i < 3; i++) {
                anonymous.send(routing.destination(two, "SYSTEM.FTE.REPLY.A", null), two.createTextMessage("ack " + i));
            }
            rig.connection.start();
            MessageConsumer consumer = one.createConsumer(one.createQueue("SYSTEM.FTE.REPLY.A"));
            for (int i = 0; i < 3; i++) {
                assertThat(((TextMessage) consumer.receive(10_000)).getText()).isEqualTo("ack " + i);
            }
        }
    }

    @Test
    void aRemoteQueueManagersQueuesShareItsTransmissionQueuesDestination() throws Exception {
        String xmit = Routing.transmissionQueue("QMFAR");
        try (Rig rig = new Rig(dir, "QMNEAR", List.of(xmit))) {
            Routing routing = new Routing(MessagingProvider.ARTEMIS, "QMNEAR");
            Session s = rig.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);

            Destination reply = routing.destination(s, "SYSTEM.FTE.REPLY.A", "QMFAR");

            assertThat(routing.destination(s, "SYSTEM.FTE.DATA.B", "QMFAR")).isSameAs(reply);
            assertThat(((jakarta.jms.Queue) reply).getQueueName()).isEqualTo(xmit);
        }
    }

    @Test
    void atMostTheBoundIsKeptTheLeastRecentlyUsedGivenUpFirst() throws Exception {
        List<String> queues = new ArrayList<>();
        for (int i = 0; i <= Routing.DESTINATIONS_KEPT; i++) {
            queues.add("SYSTEM.FTE.REPLY.Q" + i);
        }
        try (Rig rig = new Rig(dir, "QMBOUND", queues)) {
            Routing routing = new Routing(MessagingProvider.ARTEMIS, "QMBOUND");
            Session s = rig.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Destination first = routing.destination(s, queues.get(0), null);
            Destination second = routing.destination(s, queues.get(1), null);
            for (String q : queues.subList(2, queues.size())) {
                routing.destination(s, q, null);
                // The first stays the most recently used; the second becomes the eldest.
                assertThat(routing.destination(s, queues.get(0), null)).isSameAs(first);
            }

            assertThat(routing.destination(s, queues.get(1), null)).isNotSameAs(second);
            assertThat(routing.destination(s, queues.get(0), null)).isSameAs(first);
        }
    }

    @Test
    void aQueueDeletedAfterItsDestinationWasKeptIsRefusedAtTheSend() throws Exception {
        String queue = "SYSTEM.FTE.REPLY.GONE";
        try (Rig rig = new Rig(dir, "QMGONE", List.of(queue))) {
            Routing routing = new Routing(MessagingProvider.ARTEMIS, "QMGONE");
            Session s = rig.connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer anonymous = s.createProducer(null);
            anonymous.send(routing.destination(s, queue, null), s.createTextMessage("before"), DeliveryMode.PERSISTENT,
                    4, 0);

            assertThat(rig.admin.deleteQueues(List.of(queue))).isEqualTo(1);

            assertThatThrownBy(() -> anonymous.send(routing.destination(s, queue, null), s.createTextMessage("after"),
                    DeliveryMode.PERSISTENT, 4, 0)).isInstanceOf(JMSException.class).hasMessageContaining(queue);
        }
    }

    /** An embedded queue manager with {@code queues} made, and an administrator's connection to it. */
    private static final class Rig implements AutoCloseable {
        final EmbeddedQueueManager qm;
        final ArtemisQueueAdmin admin;
        final Connection connection;

        Rig(Path dir, String name, List<String> queues) throws Exception {
            int port = ArtemisQueueAdminIT.freePort();
            qm = EmbeddedQueueManager.start(new QueueManagerSettings(name, dir.resolve("qm"), "127.0.0.1", port));
            QueueManagerConnector connector = QueueManagerConnector.forCommand(new QueueManagerEndpoint(
                    MessagingProvider.ARTEMIS, name, "127.0.0.1", port, "SYSTEM.DEF.SVRCONN"), null,
                    qm.administrator().orElseThrow());
            admin = new ArtemisQueueAdmin(connector);
            admin.createQueues(queues);
            connection = connector.connect();
        }

        @Override
        public void close() throws JMSException {
            try {
                connection.close();
            } finally {
                qm.close();
            }
        }
    }
}
