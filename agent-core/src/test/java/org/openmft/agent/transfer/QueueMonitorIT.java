package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.ResultCode;
import org.openmft.agent.lifecycle.CapturedLog;
import org.openmft.xml.Reply;

/**
 * Queue monitors on a real agent and queue manager: {@code completeGroups} triggers once per
 * complete group (a lone message is a group of one; an incomplete group waits for its last
 * message), its task takes the first message's user properties and the monitor's default
 * variables, nothing triggers twice while the messages stay on the queue, across a restart either,
 * and a message that arrives while the agent is down triggers after it; a monitor on the queue
 * manager's own queues is refused. The task is a file transfer named by the message. A group
 * whose transfer failed triggers again while it stays on the queue, up to the agent's
 * {@code monitorGroupRetryLimit}.
 */
class QueueMonitorIT {
    @TempDir
    Path dir;

    private static String monitorXml(String name, String queue, String condition, Object payload, Path out) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<monitor:monitor xmlns:monitor=\"http://www.ibm.com/xmlns/wmqfte/7.0.1/MonitorDefinition\""
                + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" version=\"6.00\">"
                + "<name>" + name + "</name><pollInterval units=\"seconds\">1</pollInterval><batch maxSize=\"1\"/>"
                + "<agent>SRC</agent><resources><queue>" + queue + "</queue></resources>"
                + "<triggerMatch><conditions><allOf><condition><" + condition + "/></condition></allOf></conditions>"
                + "</triggerMatch><tasks><task><name/><transfer><request version=\"6.00\">"
                + "<managedTransfer><originator><hostName>h</hostName><userID>tester</userID></originator>"
                + "<sourceAgent agent=\"${AgentName}\"/><destinationAgent agent=\"DST\"/>"
                + "<transferSet><item mode=\"binary\"><source disposition=\"leave\"><file>" + payload + "</file></source>"
                + "<destination type=\"file\" exist=\"overwrite\"><file>" + out + "/${destFileName}.${QUEUENAME}</file>"
                + "</destination></item></transferSet></managedTransfer></request></transfer></task></tasks>"
                + "<originator><hostName>h</hostName><userID>tester</userID></originator>"
                + "<defaultVariables><variable key=\"destFileName\">default</variable>"
                + "<variable key=\"srcFile\">none</variable></defaultVariables>"
                + "</monitor:monitor>";
    }

    private static long triggers(TransferHarness h) {
        return h.monitorEvents.stream().filter(e -> e.action().equals("triggerSatisfied"))
                .mapToLong(e -> e.supplements().size()).sum();
    }

    /** Puts a message with {@code destFileName} (unless null), in group {@code group} (unless null). */
    private static void put(TransferHarness h, String queue, String destFileName, String group, int seq, boolean last)
            throws Exception {
        try (Connection c = h.admin.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createQueue(queue))) {
                Message m = s.createTextMessage("payload");
                if (destFileName != null) {
                    m.setStringProperty("destFileName", destFileName);
                }
                if (group != null) {
                    m.setStringProperty("JMSXGroupID", group);
                    m.setIntProperty("JMSXGroupSeq", seq);
                    if (last) {
                        m.setBooleanProperty("JMS_IBM_Last_Msg_In_Group", true);
                    }
                }
                p.send(m);
            }
        }
    }

    private static Reply create(TransferHarness h, String xml) throws Exception {
        try (TransferHarness.Submission s = h.submitText("SRC", xml)) {
            return s.ack;
        }
    }

    @Test
    void completeGroupsTriggerOnceEachAcrossARestart() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path payload = Files.writeString(dir.resolve("payload.txt"), "p");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            Map<String, String> sandbox = Map.of("sandboxRoot", dir.toString());
            h.agent("SRC", sandbox);
            h.agent("DST");
            // Browsing an application queue is the queue manager's to allow: SRC gets the role
            // applications have (queues outside SYSTEM.*), as an administrator would grant it.
            // The queue manager closes the sessions of a user whose roles change: the agent starts again.
            h.qm.users().grant("SRC", org.openmft.agent.qmgr.security.Permissions.REQUESTER);
            h.qm.applySecurityChanges();
            h.stopImmediately("SRC");
            h.agent("SRC", sandbox);
            try (Connection c = h.admin.connect()) {
                c.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(
                        c.createSession(false, Session.AUTO_ACKNOWLEDGE).createQueue("APP.GROUPS")).close();
            }
            put(h, "APP.GROUPS", "lone", null, 0, false);
            put(h, "APP.GROUPS", "g1", "G1", 1, false);
            put(h, "APP.GROUPS", null, "G1", 2, true);
            put(h, "APP.GROUPS", null, "G2", 1, false);
            Reply created = create(h, monitorXml("groups", "APP.GROUPS", "completeGroups", payload, out));
            assertThat(created.resultCode()).as("%s", created.supplements()).isZero();

            TransferHarness.await("the lone message and G1 trigger", 30,
                    () -> Files.exists(out.resolve("lone.APP.GROUPS")) && Files.exists(out.resolve("g1.APP.GROUPS")));
            // G2 completes: its first message has no destFileName, so the default variable names it.
            put(h, "APP.GROUPS", "ignored", "G2", 2, true);
            TransferHarness.await("G2 triggers", 30, () -> Files.exists(out.resolve("default.APP.GROUPS")));
            assertThat(triggers(h)).as("each complete group once, while all stay on the queue").isEqualTo(3);

            h.stopImmediately("SRC");
            put(h, "APP.GROUPS", "late", null, 0, false);
            h.monitorEvents.clear();
            h.agent("SRC", sandbox);
            TransferHarness.await("the message put while the agent was down triggers", 30,
                    () -> Files.exists(out.resolve("late.APP.GROUPS")));
            assertThat(triggers(h)).as("the history survived the restart").isEqualTo(1);

            assertThat(create(h, monitorXml("own", "SYSTEM.FTE.COMMAND.SRC", "queueNotEmpty", payload, out))
                    .resultCode()).isEqualTo(ResultCode.MONITOR_DIRECTORY_ACCESS.code());
        }
    }

    @Test
    void aGroupWhoseTransferFailedTriggersAgainUpToMonitorGroupRetryLimit() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path payload = Files.writeString(dir.resolve("payload.txt"), "p");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            Map<String, String> props = Map.of("sandboxRoot", dir.toString(), "monitorGroupRetryLimit", "2");
            // SRC's user may browse application queues from its start (no restart for a role change).
            h.qm.users().addAgent("SRC", dir.resolve("credentials-SRC.xml"));
            h.qm.users().grant("SRC", org.openmft.agent.qmgr.security.Permissions.REQUESTER);
            h.agent("SRC", props);
            h.agent("DST");
            try (Connection c = h.admin.connect()) {
                c.createSession(false, Session.AUTO_ACKNOWLEDGE).createConsumer(
                        c.createSession(false, Session.AUTO_ACKNOWLEDGE).createQueue("APP.RETRY")).close();
            }
            try (CapturedLog log = new CapturedLog(org.openmft.agent.monitor.MonitorService.class)) {
                // The message names a source file that is not there: each transfer fails, the message stays.
                putFile(h, "APP.RETRY", "failing", dir.resolve("missing.txt").toString());
                Reply created = create(h, monitorXml("retry", "APP.RETRY", "completeGroups", "${srcFile}", out));
                assertThat(created.resultCode()).as("%s", created.supplements()).isZero();
                TransferHarness.await("the limit reached", 60, () -> log.events().stream().anyMatch(
                        e -> e.getFormattedMessage().contains("monitorGroupRetryLimit")));
                assertThat(triggers(h)).as("once, then twice again (monitorGroupRetryLimit=2)").isEqualTo(3);
                // A later message triggers on its own; the failed one, over the limit, does not trigger again.
                putFile(h, "APP.RETRY", "works", payload.toString());
                TransferHarness.await("the later message's transfer", 30, () -> Files.exists(out.resolve("works.APP.RETRY")));
                assertThat(triggers(h)).isEqualTo(4);
                assertThat(out.resolve("failing.APP.RETRY")).doesNotExist();
            }
        }
    }

    /** Puts a lone message whose transfer sends {@code srcFile} to {@code destFileName}. */
    private static void putFile(TransferHarness h, String queue, String destFileName, String srcFile) throws Exception {
        try (Connection c = h.admin.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (MessageProducer p = s.createProducer(s.createQueue(queue))) {
                Message m = s.createTextMessage("payload");
                m.setStringProperty("destFileName", destFileName);
                m.setStringProperty("srcFile", srcFile);
                p.send(m);
            }
        }
    }
}
