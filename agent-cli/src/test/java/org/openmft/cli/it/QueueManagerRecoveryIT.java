package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue manager killed with {@code kill -9} restarts with its queues and persistent messages
 * intact: the journal recovers.
 */
class QueueManagerRecoveryIT {
    @TempDir
    Path data;
    Distribution mft;

    @AfterEach
    void tearDown() throws Exception {
        mft.close();
    }

    @Test
    void killedQueueManagerRestartsWithQueuesAndPersistentMessagesIntact() throws Exception {
        mft = new Distribution(data).jvmOptions(Distribution.QUICK_START);
        int port = Distribution.freePort();
        mft.mft("qmgr", "create", "QMK", "--port", String.valueOf(port)).expect(0);
        mft.run("fteSetupCoordination", "-coordinationQMgr", "QMK").expect(0);
        mft.mft("qmgr", "start", "QMK").expect(0);
        mft.run("fteCreateAgent", "-agentName", "KEEPER", "-agentQMgr", "QMK").expect(0);

        byte[] payload = new byte[300 * 1024];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        ActiveMQConnectionFactory cf = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + port);
        try (Connection c = cf.createConnection(mft.administrator("QMK").user(), mft.administrator("QMK").password())) {
            Session s = c.createSession(true, Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createQueue("SYSTEM.FTE.STATE.KEEPER"));
            p.setDeliveryMode(DeliveryMode.PERSISTENT);
            BytesMessage m = s.createBytesMessage();
            m.writeBytes(payload);
            m.setStringProperty("checkpoint", "one");
            p.send(m);
            s.commit();
        }

        long pid = mft.pid(Path.of("qmgrs/QMK"), "qmgr");
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        Distribution.await("the killed queue manager to go", Duration.ofSeconds(30), () -> !Distribution.alive(pid));

        mft.mft("qmgr", "start", "QMK").expect(0);
        assertThat(mft.pid(Path.of("qmgrs/QMK"), "qmgr")).isNotEqualTo(pid);
        try (Connection c = cf.createConnection(mft.administrator("QMK").user(), mft.administrator("QMK").password())) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            MessageConsumer consumer = s.createConsumer(s.createQueue("SYSTEM.FTE.STATE.KEEPER"));
            Message m = consumer.receive(10_000);
            assertThat(m).as("the persistent message survived kill -9").isNotNull();
            assertThat(m.getStringProperty("checkpoint")).isEqualTo("one");
            byte[] back = new byte[payload.length];
            assertThat(((BytesMessage) m).readBytes(back)).isEqualTo(payload.length);
            assertThat(back).isEqualTo(payload);
        }
        // The agent's queues, defined before the crash, are still there: the agent starts and answers.
        mft.run("fteSetupCommands", "-connectionQMgr", "QMK").expect(0);
        mft.run("fteStartAgent", "KEEPER").expect(0);
        mft.run("ftePingAgent", "KEEPER").expect(0);
        mft.mft("qmgr", "stop", "QMK").expect(0);
    }
}
