package org.openmft.agent.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.api.core.Interceptor;
import org.apache.activemq.artemis.core.protocol.core.impl.PacketImpl;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * An idle {@link ConsumerLoop} on a real queue manager: it does not make the broker work (no
 * forced delivery, Artemis's round trip for a timed receive that ends empty), yet a message still
 * ends its wait at once and {@link ConsumerLoop#close} ends it without waiting out the receive.
 */
class ConsumerLoopIT {
    private static final String QUEUE = "SYSTEM.FTE.DATA.IDLELOOP";

    @TempDir
    Path dir;

    @Test
    void anIdleLoopSendsNothingToTheBrokerYetServesAndStopsAtOnceWhileABusyOneKeepsTheShortReceive()
            throws Exception {
        int port = ArtemisQueueAdminIT.freePort();
        try (EmbeddedQueueManager qm = EmbeddedQueueManager.start(
                new QueueManagerSettings("QMLOOP", dir.resolve("qm"), "127.0.0.1", port))) {
            QueueManagerConnector connector = QueueManagerConnector.forCommand(new QueueManagerEndpoint(
                    MessagingProvider.ARTEMIS, "QMLOOP", "127.0.0.1", port, "SYSTEM.DEF.SVRCONN"), null,
                    qm.administrator().orElseThrow());
            new ArtemisQueueAdmin(connector).createQueues(List.of(QUEUE));
            AtomicInteger forced = new AtomicInteger();
            Interceptor counter = (packet, connection) -> {
                if (packet.getType() == PacketImpl.SESS_FORCE_CONSUMER_DELIVERY) {
                    forced.incrementAndGet();
                }
                return true;
            };
            ((ActiveMQConnectionFactory) connector.factory()).getServerLocator().addOutgoingInterceptor(counter);
            try (Connection c = connector.connect()) {
                c.start();
                Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                LinkedBlockingQueue<String> served = new LinkedBlockingQueue<>();
                ConsumerLoop idle = new ConsumerLoop("IDLELOOP", QUEUE, s.createConsumer(s.createQueue(QUEUE)),
                        m -> served.add(((TextMessage) m).getText()), Thread::new, "data");
                idle.start();
                // Four busy receives' worth (500 ms each) of nothing to do.
                TimeUnit.MILLISECONDS.sleep(2_000);
                assertThat(forced).as("forced deliveries of an idle loop").hasValue(0);

                Session sender = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                Message m = sender.createTextMessage("wake");
                sender.createProducer(sender.createQueue(QUEUE)).send(m);
                // Far less than the idle receive: the message, not the timeout, ended the wait.
                assertThat(served.poll(ConsumerLoop.IDLE_RECEIVE_MILLIS / 3, TimeUnit.MILLISECONDS)).isEqualTo("wake");
                assertThat(idle.close(Duration.ofMillis(ConsumerLoop.IDLE_RECEIVE_MILLIS / 3)))
                        .as("close ends a waiting receive").isTrue();

                // A loop whose tick has work receives for half a second, which is what the counter sees.
                Session s2 = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
                AtomicInteger ticks = new AtomicInteger();
                ConsumerLoop busy = new ConsumerLoop("TICKLOOP", QUEUE, s2.createConsumer(s2.createQueue(QUEUE)),
                        x -> { }, Thread::new, "data");
                busy.tick(ticks::incrementAndGet);
                busy.idleWhen(() -> false);
                busy.start();
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ConsumerLoop.IDLE_RECEIVE_MILLIS / 3);
                while ((ticks.get() < 3 || forced.get() == 0) && System.nanoTime() < deadline) {
                    TimeUnit.MILLISECONDS.sleep(50);
                }
                assertThat(ticks.get()).as("ticks within a third of one idle receive").isGreaterThanOrEqualTo(3);
                assertThat(forced.get()).as("the counter sees a busy loop's empty receives").isPositive();
                assertThat(busy.close(Duration.ofSeconds(10))).isTrue();
            }
        }
    }
}
