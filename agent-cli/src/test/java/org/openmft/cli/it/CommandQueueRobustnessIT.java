package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Garbage on an agent's COMMAND queue is moved aside with the reason and answered with result 43;
 * the agent keeps serving.
 */
class CommandQueueRobustnessIT {
    @TempDir
    Path data;
    Distribution mft;

    @AfterEach
    void tearDown() throws Exception {
        mft.close();
    }

    @Test
    void garbageIsMovedAsideAndTheAgentKeepsServing() throws Exception {
        mft = new Distribution(data).jvmOptions(Distribution.QUICK_START);
        int port = mft.createQueueManager("QMG");
        mft.run("fteCreateAgent", "-agentName", "TOUGH", "-agentQMgr", "QMG", "-agentQMgrHost", "127.0.0.1",
                "-agentQMgrPort", String.valueOf(port)).expect(0);
        mft.mft("qmgr", "start", "QMG").expect(0);
        mft.run("fteStartAgent", "TOUGH").expect(0);

        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<pingAgent version=\"6.00\"><originator><hostName>h</hostName><userID>&x;</userID></originator>"
                + "<agent agent=\"TOUGH\"/></pingAgent>";
        ActiveMQConnectionFactory cf = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + port);
        try (Connection c = cf.createConnection(mft.administrator("QMG").user(), mft.administrator("QMG").password())) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            Queue command = s.createQueue("SYSTEM.FTE.COMMAND.TOUGH");
            TemporaryQueue replies = s.createTemporaryQueue();
            MessageProducer p = s.createProducer(command);

            TextMessage notXml = s.createTextMessage("this is <not xml");
            notXml.setJMSReplyTo(replies);
            p.send(notXml);
            BytesMessage binary = s.createBytesMessage();
            binary.writeBytes(new byte[] {0, (byte) 0xff, 0x13, 0x37});
            p.send(binary);
            TextMessage hostile = s.createTextMessage(xxe);
            hostile.setJMSReplyTo(replies);
            p.send(hostile);
            p.send(s.createMapMessage());

            MessageConsumer replyConsumer = s.createConsumer(replies);
            List<String> answers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Message r = replyConsumer.receive(30_000);
                assertThat(r).as("reply %d to a rejected request", i).isNotNull();
                answers.add(((TextMessage) r).getText());
            }
            assertThat(answers).allSatisfy(a -> assertThat(a).contains("resultCode=\"43\""));
            assertThat(String.join("", answers)).contains("DOCTYPE").doesNotContain("root:");

            MessageConsumer rejected = s.createConsumer(s.createQueue("SYSTEM.FTE.CMD.RJCT.TOUGH"));
            List<String> reasons = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Message m = rejected.receive(30_000);
                assertThat(m).as("rejected message %d moved aside", i).isNotNull();
                reasons.add(m.getStringProperty("OPENMFT_REJECT_REASON"));
                assertThat(m.getIntProperty("OPENMFT_RESULT_CODE")).isEqualTo(43);
                if (i == 0) {
                    byte[] body = new byte[(int) ((BytesMessage) m).getBodyLength()];
                    ((BytesMessage) m).readBytes(body);
                    assertThat(new String(body, StandardCharsets.UTF_8)).isEqualTo("this is <not xml");
                }
            }
            assertThat(reasons).allSatisfy(r -> assertThat(r).isNotBlank());
            assertThat(reasons.get(3)).contains("text or bytes");
        }
        assertThat(mft.run("ftePingAgent", "TOUGH").expect(0).output()).contains("BFGCL0793I");
        mft.run("fteStopAgent", "TOUGH").expect(0);
        mft.mft("qmgr", "stop", "QMG").expect(0);
    }
}
