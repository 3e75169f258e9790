package org.openmft.xml.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;

/**
 * Documents written the way IBM MQ MFT agents publish them (pretty-printed, with the https
 * schema-instance namespace IBM's documentation shows, and with elements and attributes we do
 * not model) are read as far as the records go.
 */
class IbmPublicationTest {
    private static final String ID = "414d5120514d5f5041592020202020204a1b8e6520012a05";
    private static final String OTHER_ID = "414d5120514d5f5041592020202020204a1b8e6520013b11";
    private static final AgentRef PAY = new AgentRef("PAY.SRC", "QM_PAY");
    private static final AgentRef BANK = new AgentRef("BANK.DST", "QM_BANK");
    // IBM pads the MQMD user id to 12 characters; the padding is not part of the name.
    private static final Originator ORIGINATOR = new Originator("batch01.example.com.", "payroll", "payroll");

    private final PublicationReader reader = new PublicationReader();

    @Test
    void startedLogWithSystemInfoTriggerJobAndScheduleLog() throws Exception {
        TransferLog log = reader.readLog(Publications.resource("ibm-started.xml"));

        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("com.ibm.wmqfte.SourceAgent", "PAY.SRC");
        metadata.put("com.ibm.wmqfte.DestinationAgent", "BANK.DST");
        metadata.put("com.ibm.wmqfte.MqmdUser", "payroll     ");
        metadata.put("com.ibm.wmqfte.OriginatingUser", "payroll");
        metadata.put("com.ibm.wmqfte.OriginatingHost", "batch01.example.com.");
        metadata.put("com.ibm.wmqfte.TransferId", ID);
        metadata.put("com.ibm.wmqfte.JobName", "NIGHTLY_PAYROLL");
        metadata.put("com.ibm.wmqfte.Priority", "0");
        Instant time = Instant.parse("2026-03-02T08:15:42.311Z");
        // The trigger is read (a database logger stores its conditions in TRIGGER_CONDITION).
        assertThat(log).isEqualTo(new TransferLog("6.00", ID, "sourceAgent", LogAction.STARTED, time, PAY, BANK,
                ORIGINATOR, "NIGHTLY_PAYROLL", time, 2, 0, -1, List.of(), null, List.of(), null, metadata, List.of(),
                new org.openmft.xml.TransferTrigger(true, List.of(new org.openmft.xml.TransferTrigger.FileExist("=",
                        "exist", "/data/out/payroll.ready")))));
        assertThat(log.metadata().keySet()).containsExactlyElementsOf(metadata.keySet());
    }

    @Test
    void progressLogWithASucceededAndAFailedItem() throws Exception {
        TransferLog log = reader.readLog(Publications.resource("ibm-progress.xml"));

        assertThat(log).isEqualTo(new TransferLog("6.00", ID, "sourceAgent", LogAction.PROGRESS,
                Instant.parse("2026-03-02T08:15:43.027Z"), PAY, BANK, ORIGINATOR, null,
                Instant.parse("2026-03-02T08:15:42.311Z"), 2, 48213, 0, List.of(
                        new LogItem("binary", "/data/out/payroll_0302.csv", "delete", 48213,
                                "/bank/inbound/payroll_0302.csv", "overwrite", 48213, "MD5",
                                "9e107d9d372bb6826bd81d3542a419d6", 0, null),
                        new LogItem("text", "/data/out/summary.txt", "delete", 1042, "/bank/inbound/summary.txt",
                                "error", -1, "MD5", "e4d909c290d0fb1ca068ffaddf22cbd0", 1,
                                "BFGIO0006E: File \"/bank/inbound/summary.txt\" already exists.")),
                null, List.of(), null, Map.of()));
    }

    @Test
    void completedLogWithStatistics() throws Exception {
        TransferLog log = reader.readLog(Publications.resource("ibm-completed.xml"));

        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("com.ibm.wmqfte.SourceAgent", "PAY.SRC");
        metadata.put("com.ibm.wmqfte.DestinationAgent", "BANK.DST");
        metadata.put("com.ibm.wmqfte.TransferId", OTHER_ID);
        assertThat(log).isEqualTo(new TransferLog("6.00", OTHER_ID, "sourceAgent", LogAction.COMPLETED,
                Instant.parse("2026-03-02T09:00:07.904Z"), PAY, BANK, ORIGINATOR, null,
                Instant.parse("2026-03-02T09:00:01.250Z"), 1, 7340032, -1, List.of(), 0,
                List.of("BFGRP0032I: The file transfer request has successfully completed."),
                new Statistics(Instant.parse("2026-03-02T09:00:01.502Z"), 1, 0, 0), metadata));
    }

    @Test
    void queueItemsGiveTheQueueNameAsThePath() throws Exception {
        String xml = "<transaction version=\"6.00\" ID=\"" + ID + "\" agentRole=\"destinationAgent\">"
                + "<action time=\"2026-03-02T08:15:43Z\">progress</action>"
                + "<sourceAgent agent=\"PAY.SRC\" QMgr=\"QM_PAY\"/><destinationAgent agent=\"BANK.DST\"/>"
                + "<originator><hostName>h</hostName><userID>u</userID></originator>"
                + "<transferSet index=\"4\" size=\"1\" startTime=\"2026-03-02T08:15:42Z\" total=\"5\" bytesSent=\"10\">"
                + "<item mode=\"binary\"><source disposition=\"leave\" type=\"queue\">"
                + "<queue size=\"10\" groupId=\"414d51\" messageCount=\"2\">PAYROLL.OUT@QM_PAY</queue></source>"
                + "<destination exist=\"overwrite\" type=\"file\"><file size=\"10\">/in/payroll.msg</file></destination>"
                + "<status resultCode=\"0\"></status></item>"
                + "<item mode=\"binary\"><source disposition=\"leave\" type=\"file\"><file>/in/x</file></source>"
                + "<destination type=\"queue\" exist=\"error\"><queue unrecognised=\"yes\">BANK.IN</queue></destination>"
                + "<status resultCode=\"2\"><supplement>warning</supplement></status></item>"
                + "</transferSet></transaction>";

        TransferLog log = reader.readLog(xml);

        assertThat(log.index()).isEqualTo(4);
        assertThat(log.destinationAgent()).isEqualTo(new AgentRef("BANK.DST", null));
        assertThat(log.items()).containsExactly(
                new LogItem("binary", "PAYROLL.OUT@QM_PAY", "leave", 10, "/in/payroll.msg", "overwrite", 10, null, null,
                        0, null, true, "414d51", 2),
                new LogItem("binary", "/in/x", "leave", -1, "BANK.IN", "error", -1, null, null, 2, "warning"));
    }

    @Test
    void unknownElementsAnywhereAndInOtherNamespacesAreSkipped() throws Exception {
        String xml = "<transaction version=\"6.00\" ID=\"" + ID + "\" agentRole=\"sourceAgent\" extra=\"1\""
                + " xmlns:x=\"urn:example:extension\">"
                + "<x:before><action>not this one</action></x:before>"
                + "<action time=\"2026-03-02T08:15:43.000+01:00\" unknown=\"yes\">cancelled</action>"
                + "<sourceWebGateway webGatewayName=\"GW\"/>"
                + "<sourceAgent agent=\" PAY.SRC \" QMgr=\" QM_PAY \" agentType=\"CD_BRIDGE\" bridgeNode=\"CDNODE\">"
                + "<systemInfo architecture=\"x86\" name=\"Windows\" version=\"10\"/></sourceAgent>"
                + "<agent agent=\"X\"/>"
                + "<originator><hostName> h </hostName><webBrowser>Firefox</webBrowser><userID>u</userID>"
                + "</originator>"
                + "<status resultCode=\"11\"><supplement>user cancelled</supplement><x:detail>more</x:detail></status>"
                + "<transferSet bytesSent=\"5\"><preSourceCall><command name=\"a.sh\"/></preSourceCall></transferSet>"
                + "<managedCall><command/></managedCall>"
                + "<job><name>J</name><x:extra/></job>"
                + "<scheduleLog ID=\"6\"/>"
                + "</transaction>";

        TransferLog log = reader.readLog(xml);

        assertThat(log).isEqualTo(new TransferLog("6.00", ID, "sourceAgent", LogAction.CANCELLED,
                Instant.parse("2026-03-02T07:15:43Z"), PAY, null, new Originator("h", "u"), "J", null, -1, 5, -1,
                List.of(), 11, List.of("user cancelled"), null, Map.of()));
    }

    @Test
    void liveTransferStatus() throws Exception {
        TransferProgress progress = reader.readProgress(Publications.resource("ibm-transfer-status.xml"));

        assertThat(progress).isEqualTo(new TransferProgress("4.00", OTHER_ID, PAY, BANK,
                Instant.parse("2026-03-02T09:00:04.118Z"), 3145728, 2.616, 1, 1, 3145728, 7340032,
                "/data/out/ledger_2026Q1.dat", "/bank/inbound/LEDGER.Q1.DAT"));
    }

    @Test
    void liveTransferStatusBetweenItems() throws Exception {
        String xml = "<transaction version=\"4.00\" ID=\"" + ID + "\">"
                + "<sourceAgent agent=\"PAY.SRC\" QMgr=\"QM_PAY\"/><destinationAgent agent=\"BANK.DST\" QMgr=\"QM_BANK\"/>"
                + "<transferSet time=\"2026-03-02T09:00:04Z\"><stats bytes=\"0\" seconds=\"0\" currentItem=\"0\""
                + " totalItems=\"3\" rate=\"0\"/></transferSet></transaction>";

        assertThat(reader.readProgress(xml)).isEqualTo(new TransferProgress("4.00", ID, PAY, BANK,
                Instant.parse("2026-03-02T09:00:04Z"), 0, 0, 0, 3, -1, -1, null, null));
    }

    @Test
    void agentStatusWithIbmKeyPrefixes() throws Exception {
        String xml = Publications.resource("ibm-agent-status.xml");

        AgentStatus status = reader.readAgentStatus(xml);

        Map<String, String> destinationStates = new LinkedHashMap<>();
        destinationStates.put("414d5120514d5f42414e4b2020202020e21c9a6520027f01", "RunningTransfer");
        destinationStates.put("414d5120514d5f42414e4b2020202020e21c9a6520027f02", "ReSynchronisingTransfer");
        assertThat(status).isEqualTo(new AgentStatus("PAY.SRC", null, "9.4.0.0", "STANDARD", "Linux",
                "Europe/London", "batch01.example.com", "QM_PAY", null, -1, null, "ACTIVE",
                Instant.parse("2026-03-02T09:00:05Z"), Instant.parse("2026-03-01T22:41:17Z"), 300, 25, 25, 1000, 0,
                Map.of(OTHER_ID, "RunningTransfer"), destinationStates));
        assertThat(status.destinationTransferStates().keySet()).containsExactlyElementsOf(destinationStates.keySet());

        // The same document is what Properties itself reads, prefixes and all.
        Properties properties = new Properties();
        properties.loadFromXML(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        assertThat(properties.getProperty("com.ibm.wmqfte.agentName")).isEqualTo("PAY.SRC");
    }

    @Test
    void agentStatusFromANewerAgentWithoutPrefixes() throws Exception {
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<!DOCTYPE properties SYSTEM 'http://java.sun.com/dtd/properties.dtd'>\n"
                + "<properties>\n"
                + "    <entry key=\"SourceTransferStates\">" + ID + "=CompleteReceivedTransfer</entry>\n"
                + "    <entry key=\"maxDestinationTransfers\">25</entry>\n"
                + "    <entry key=\"agentType\">STANDARD</entry>\n"
                + "    <entry key=\"PublishTimeUTC\">2024-12-05T04:49:31Z</entry>\n"
                + "    <entry key=\"agentDeclaredHostName\">mfthost.example.com</entry>\n"
                + "    <entry key=\"queueManagerChannel\">MFT.SVRCONN</entry>\n"
                + "    <entry key=\"queueManagerHost\">mq.example.com</entry>\n"
                + "    <entry key=\"queueManagerPort\"> 1414 </entry>\n"
                + "    <entry key=\"agentName\">MFT.AGENT</entry>\n"
                + "    <entry key=\"AgentStatus\">READY</entry>\n"
                + "    <entry key=\"CommandTimeUTC\">2024-12-05T04:49:31Z</entry>\n"
                + "    <entry key=\"AgentStartTime\">1733373000000</entry>\n"
                + "</properties>\n";

        AgentStatus status = reader.readAgentStatus(xml);

        assertThat(status).isEqualTo(new AgentStatus("MFT.AGENT", null, null, "STANDARD", null, null,
                "mfthost.example.com", null, "mq.example.com", 1414, "MFT.SVRCONN", "READY",
                Instant.parse("2024-12-05T04:49:31Z"), Instant.ofEpochMilli(1733373000000L), -1, -1, 25, -1, -1,
                Map.of(ID, "CompleteReceivedTransfer"), Map.of()));
    }
}
