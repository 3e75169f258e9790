package org.openmft.xml.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.xml.log.Publications.DESTINATION;
import static org.openmft.xml.log.Publications.ORIGINATOR;
import static org.openmft.xml.log.Publications.SOURCE;
import static org.openmft.xml.log.Publications.START;
import static org.openmft.xml.log.Publications.TRANSFER_ID;

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

/** The shape of what is written: what IBM's tools and other readers see. */
class PublicationWriterTest {
    private static final String DECLARATION = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
    private static final String LOG_ROOT = "<transaction version=\"6.00\" ID=\"" + TRANSFER_ID
            + "\" agentRole=\"sourceAgent\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            + " xsi:noNamespaceSchemaLocation=\"TransferLog.xsd\">";
    private static final String AGENTS = "<sourceAgent agent=\"PAY.SRC\" QMgr=\"QM_PAY\"/>"
            + "<destinationAgent agent=\"BANK.DST\" QMgr=\"QM_BANK\"/>";

    private final PublicationWriter writer = new PublicationWriter();

    @Test
    void programCallsAreWrittenAsIbmsCallElementsWithTheirResults() {
        org.openmft.xml.ProgramCall pre = new org.openmft.xml.ProgramCall(org.openmft.xml.CallType.EXECUTABLE,
                "check.sh", List.of("a<b"), 1, 5, org.openmft.xml.SuccessCodes.of("0|4"));
        org.openmft.xml.ProgramCall post = org.openmft.xml.ProgramCall.executable("/x/y.sh", List.of());
        TransferLog log = new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.COMPLETED, START,
                SOURCE, DESTINATION, null, null, null, -1, -1, -1, List.of(), 0, List.of(), null, Map.of(),
                List.of(new LogCall("preSourceCall", pre, "success", 1, 4, List.of("one", "two"), List.of("warn\u0001"),
                        null), new LogCall("postDestinationCall", post, "error", 0, null, List.of(), List.of(),
                        "BFGCR0003E: refused")));

        assertThat(writer.write(log)).contains("<transferSet>"
                + "<preSourceCall><command name=\"check.sh\" type=\"executable\" retryCount=\"1\" retryWait=\"5\""
                + " successRC=\"0|4\"><argument>a&lt;b</argument></command>"
                + "<callResult outcome=\"success\" retries=\"1\"><result returnCode=\"4\">"
                + "<stdout><line>one</line><line>two</line></stdout><stderr><line>warn\uFFFD</line></stderr>"
                + "</result></callResult></preSourceCall>"
                + "<postDestinationCall><command name=\"/x/y.sh\" type=\"executable\" retryCount=\"0\""
                + " retryWait=\"0\" successRC=\"0\"/><callResult outcome=\"error\" retries=\"0\"><result>"
                + "<error>BFGCR0003E: refused</error></result></callResult></postDestinationCall>"
                + "</transferSet>");
    }

    @Test
    void startedLogHasIbmsShape() {
        TransferLog log = new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.STARTED, START,
                SOURCE, DESTINATION, new Originator("batch01", "payroll"), "NIGHTLY", START, 2, -1, -1, List.of(),
                null, List.of(), null, Map.of("com.ibm.wmqfte.JobName", "NIGHTLY"));

        assertThat(writer.write(log)).isEqualTo(DECLARATION + LOG_ROOT
                + "<action time=\"2026-11-22T10:00:00.123Z\">started</action>" + AGENTS
                + "<originator><hostName>batch01</hostName><userID>payroll</userID></originator>"
                + "<transferSet startTime=\"2026-11-22T10:00:00.123Z\" total=\"2\">"
                + "<metaDataSet><metaData key=\"com.ibm.wmqfte.JobName\">NIGHTLY</metaData></metaDataSet>"
                + "</transferSet>"
                + "<job><name>NIGHTLY</name></job>"
                + "</transaction>");
    }

    @Test
    void progressLogListsItsItemsWithSizesChecksumsAndResults() {
        String xml = writer.write(Publications.progress(Publications.succeeded(), Publications.failed()));

        assertThat(xml).isEqualTo(DECLARATION + LOG_ROOT
                + "<action time=\"2026-11-22T10:00:01.027Z\">progress</action>" + AGENTS
                + "<originator><hostName>batch01.example.com</hostName><userID>payroll</userID>"
                + "<mqmdUserID>mqmuser</mqmdUserID></originator>"
                + "<transferSet index=\"0\" size=\"2\" startTime=\"2026-11-22T10:00:00.123Z\" total=\"2\""
                + " bytesSent=\"48213\">"
                + "<item mode=\"binary\">"
                + "<source disposition=\"delete\" type=\"file\"><file size=\"48213\">/data/out/payroll.csv</file>"
                + "<checksum method=\"MD5\">9e107d9d372bb6826bd81d3542a419d6</checksum></source>"
                + "<destination exist=\"overwrite\" type=\"file\"><file size=\"48213\">/bank/inbound/payroll.csv</file>"
                + "<checksum method=\"MD5\">9e107d9d372bb6826bd81d3542a419d6</checksum></destination>"
                + "<status resultCode=\"0\"/>"
                + "</item>"
                + "<item mode=\"text\">"
                + "<source disposition=\"leave\" type=\"file\"><file size=\"1042\">/data/out/summary.txt</file></source>"
                + "<destination exist=\"error\" type=\"file\"><file>/bank/inbound/summary.txt</file></destination>"
                + "<status resultCode=\"1\"><supplement>BFGIO0006E: File \"/bank/inbound/summary.txt\" already"
                + " exists.</supplement></status>"
                + "</item>"
                + "</transferSet>"
                + "<job><name>NIGHTLY_PAYROLL</name></job>"
                + "</transaction>");
    }

    @Test
    void aSha256ChecksumIsWrittenInIbmsChecksumElementWithItsMethod() throws Exception {
        String sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        LogItem item = new LogItem("binary", "/in/a", "leave", 4, "/out/a", "error", 4, "SHA-256", sha256, 0, null);

        String xml = writer.write(Publications.progress(item));

        assertThat(xml).contains("<file size=\"4\">/in/a</file><checksum method=\"SHA-256\">" + sha256
                + "</checksum></source>", "<file size=\"4\">/out/a</file><checksum method=\"SHA-256\">" + sha256
                + "</checksum></destination>");
        assertThat(new PublicationReader().readLog(xml)).isEqualTo(Publications.progress(item));
    }

    @Test
    void aSourceQueueIsWrittenAsIbmsQueueElement() throws Exception {
        LogItem item = new LogItem("binary", "ORDERS@QM1", "leave", 11, "/in/orders.txt", "error", 11, null, null, 0,
                null, true, "ID:414d5120514d31", 3);

        String xml = writer.write(Publications.progress(item));

        assertThat(xml).contains("<source disposition=\"leave\" type=\"queue\"><queue size=\"11\""
                + " groupId=\"ID:414d5120514d31\" messageCount=\"3\">ORDERS@QM1</queue></source>");
        assertThat(new PublicationReader().readLog(xml)).isEqualTo(Publications.progress(item));
    }

    @Test
    void progressLogWithoutItemsStillSaysHowMany() {
        assertThat(writer.write(Publications.progress()))
                .contains("<transferSet index=\"0\" size=\"0\" startTime=\"2026-11-22T10:00:00.123Z\" total=\"2\""
                        + " bytesSent=\"48213\"/>");
    }

    @Test
    void completedLogCarriesStatusAndStatistics() {
        TransferLog log = new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.COMPLETED,
                START.plusSeconds(7), SOURCE, DESTINATION, new Originator("batch01", "payroll"), null, START, 1, 1151,
                -1, List.of(), 0, List.of("BFGRP0032I: The file transfer request has successfully completed."),
                new Statistics(START.plusMillis(250), 0, 0, 0), Map.of());

        assertThat(writer.write(log)).isEqualTo(DECLARATION + LOG_ROOT
                + "<action time=\"2026-11-22T10:00:07.123Z\">completed</action>" + AGENTS
                + "<originator><hostName>batch01</hostName><userID>payroll</userID></originator>"
                + "<status resultCode=\"0\"><supplement>BFGRP0032I: The file transfer request has successfully"
                + " completed.</supplement></status>"
                + "<transferSet startTime=\"2026-11-22T10:00:00.123Z\" total=\"1\" bytesSent=\"1151\"/>"
                + "<statistics><actualStartTime>2026-11-22T10:00:00.373Z</actualStartTime><retryCount>0</retryCount>"
                + "<numFileFailures>0</numFileFailures><numFileWarnings>0</numFileWarnings></statistics>"
                + "</transaction>");
    }

    @Test
    void malformedLogLeavesOutEverythingItDoesNotHave() {
        assertThat(writer.write(Publications.malformed())).isEqualTo(DECLARATION + LOG_ROOT
                + "<action time=\"2026-11-22T10:00:00.123Z\">malformed</action>"
                + "<status resultCode=\"43\"><supplement>line 3, element &lt;transferSet&gt;: attribute"
                + " priority=\"12\" is out of range 0-9</supplement></status>"
                + "</transaction>");
    }

    @Test
    void unknownSizesAndAbsentChecksumsAreLeftOut() {
        LogItem item = new LogItem(null, "/in/a", null, -1, null, null, -1, null, null, 1, null);

        String xml = writer.write(Publications.progress(item));

        assertThat(xml).contains("<item><source type=\"file\"><file>/in/a</file></source>"
                + "<status resultCode=\"1\"/></item>");
        assertThat(xml).doesNotContain("size=\"-1\"", "<checksum", "<destination ", "<destination>");
    }

    @Test
    void timesAreUtcWithMilliseconds() {
        TransferLog log = new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.STARTED,
                Instant.parse("2026-01-02T03:04:05+02:00"), null, null, null, null,
                Instant.parse("2026-01-02T03:04:05.987654321Z"), -1, -1, -1, List.of(), null, List.of(), null,
                Map.of());

        String xml = writer.write(log);

        assertThat(xml).contains("<action time=\"2026-01-02T01:04:05.000Z\">", "startTime=\"2026-01-02T03:04:05.987Z\"");
    }

    @Test
    void markupAndWhitespaceAreEscapedSoThatTheySurvive() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("k&<>\"'\t\n\r", "v&<>\"'\t\n\r]]>");
        TransferLog log = new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.STARTED, START,
                new AgentRef("A&\"<1>", null), null, null, null, null, -1, -1, -1, List.of(), null, List.of(), null,
                metadata);

        String xml = writer.write(log);

        assertThat(xml).contains("<sourceAgent agent=\"A&amp;&quot;&lt;1&gt;\"/>");
        assertThat(xml).contains("<metaData key=\"k&amp;&lt;&gt;&quot;'&#9;&#10;&#13;\">v&amp;&lt;&gt;\"'\t\n&#13;]]&gt;"
                + "</metaData>");
    }

    @Test
    void liveProgressHasIbmsShape() {
        assertThat(writer.write(Publications.liveProgress())).isEqualTo(DECLARATION
                + "<transaction version=\"4.00\" ID=\"" + TRANSFER_ID + "\""
                + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                + " xsi:noNamespaceSchemaLocation=\"TransferStatus.xsd\">" + AGENTS
                + "<transferSet time=\"2026-11-22T10:00:02.739Z\">"
                + "<stats bytes=\"3145728\" seconds=\"2.616\" currentItem=\"1\" totalItems=\"2\"/>"
                + "<current transferred=\"3145728\" size=\"7340032\">"
                + "<source><file>/data/out/ledger.dat</file></source>"
                + "<destination><file>/bank/inbound/LEDGER.DAT</file></destination>"
                + "</current>"
                + "</transferSet>"
                + "</transaction>");
    }

    @Test
    void liveProgressWithNothingKnownKeepsTheRequiredStats() {
        TransferProgress progress = new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, START, -1, -1, -1,
                -1, -1, -1, null, null);

        assertThat(writer.write(progress)).endsWith("<transferSet time=\"2026-11-22T10:00:00.123Z\"><stats/>"
                + "</transferSet></transaction>");
    }

    @Test
    void secondsAreAPlainDecimal() {
        TransferProgress progress = new TransferProgress("4.00", TRANSFER_ID, SOURCE, DESTINATION, START, 0, 0.0001,
                0, 0, -1, -1, null, null);

        assertThat(writer.write(progress)).contains("seconds=\"0.00010\"").doesNotContain("E-");
    }

    @Test
    void agentStatusIsAPropertiesDocumentWithAFixedKeyOrder() {
        assertThat(writer.write(Publications.clientStatus())).isEqualTo(
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
                + "<!DOCTYPE properties SYSTEM \"http://java.sun.com/dtd/properties.dtd\">\n"
                + "<properties>\n"
                + "<entry key=\"agentName\">PAY.SRC</entry>\n"
                + "<entry key=\"agentDescription\">Payroll files to the bank</entry>\n"
                + "<entry key=\"agentVersion\">9.4.0.0</entry>\n"
                + "<entry key=\"agentType\">STANDARD</entry>\n"
                + "<entry key=\"agentOsName\">Linux</entry>\n"
                + "<entry key=\"agentTimeZone\">Europe/London</entry>\n"
                + "<entry key=\"agentDeclaredHostName\">batch01.example.com</entry>\n"
                + "<entry key=\"queueManager\">QM_PAY</entry>\n"
                + "<entry key=\"queueManagerHost\">mq01.example.com</entry>\n"
                + "<entry key=\"queueManagerPort\">1414</entry>\n"
                + "<entry key=\"queueManagerChannel\">MFT.SVRCONN</entry>\n"
                + "<entry key=\"AgentStatus\">ACTIVE</entry>\n"
                + "<entry key=\"AgentStatusPublishTime\">2026-11-22T10:01:00.123Z</entry>\n"
                + "<entry key=\"AgentStartTime\">2026-11-22T10:00:00.123Z</entry>\n"
                + "<entry key=\"agentStatusPublishRateMin\">300</entry>\n"
                + "<entry key=\"maxSourceTransfers\">25</entry>\n"
                + "<entry key=\"maxDestinationTransfers\">25</entry>\n"
                + "<entry key=\"maxQueuedTransfers\">1000</entry>\n"
                + "<entry key=\"QueuedTransfers\">3</entry>\n"
                + "<entry key=\"SourceTransferStates\">" + TRANSFER_ID + "=RunningTransfer\n"
                + "414d5120514d5f5041592020202020204a1b8e6520013b11=NegotiatingTransfer</entry>\n"
                + "<entry key=\"DestinationTransferStates\">"
                + "414d5120514d5f42414e4b2020202020e21c9a6520027f01=ReSynchronisingTransfer</entry>\n"
                + "</properties>\n");
    }

    @Test
    void absentStatusValuesAreLeftOutButTheTransferStateListsAreAlwaysThere() {
        assertThat(writer.write(Publications.bindingsStatus())).endsWith("<properties>\n"
                + "<entry key=\"agentName\">PAY.SRC</entry>\n"
                + "<entry key=\"SourceTransferStates\"></entry>\n"
                + "<entry key=\"DestinationTransferStates\"></entry>\n"
                + "</properties>\n");
    }

    @Test
    void propertiesLoadFromXmlReadsTheAgentStatus() throws Exception {
        AgentStatus status = new AgentStatus("PAY.SRC", "two\r\nlines\ttab & <b>\"é 中文 😀\"</b> ]]> ", "9.4.0.0",
                "STANDARD", "Linux", "Europe/London", "batch01", "QM_PAY", "mq01", 1414, "MFT.SVRCONN", "READY",
                START, START.minusSeconds(3600), 300, 25, 25, 1000, 0,
                Publications.clientStatus().sourceTransferStates(), Map.of());

        Properties properties = new Properties();
        properties.loadFromXML(new ByteArrayInputStream(writer.writeBytes(status)));

        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("agentName", "PAY.SRC");
        // Properties.loadFromXML cannot read characters outside the BMP in any well-formed form.
        expected.put("agentDescription", "two\r\nlines\ttab & <b>\"é 中文 \uFFFD\"</b> ]]> ");
        expected.put("agentVersion", "9.4.0.0");
        expected.put("agentType", "STANDARD");
        expected.put("agentOsName", "Linux");
        expected.put("agentTimeZone", "Europe/London");
        expected.put("agentDeclaredHostName", "batch01");
        expected.put("queueManager", "QM_PAY");
        expected.put("queueManagerHost", "mq01");
        expected.put("queueManagerPort", "1414");
        expected.put("queueManagerChannel", "MFT.SVRCONN");
        expected.put("AgentStatus", "READY");
        expected.put("AgentStatusPublishTime", "2026-11-22T10:00:00.123Z");
        expected.put("AgentStartTime", "2026-11-22T09:00:00.123Z");
        expected.put("agentStatusPublishRateMin", "300");
        expected.put("maxSourceTransfers", "25");
        expected.put("maxDestinationTransfers", "25");
        expected.put("maxQueuedTransfers", "1000");
        expected.put("QueuedTransfers", "0");
        expected.put("SourceTransferStates", TRANSFER_ID + "=RunningTransfer\n"
                + "414d5120514d5f5041592020202020204a1b8e6520013b11=NegotiatingTransfer");
        expected.put("DestinationTransferStates", "");
        assertThat(properties).containsExactlyInAnyOrderEntriesOf(expected);
    }

    @Test
    void propertiesLoadFromXmlReadsIllegalCharactersAsReplacements() throws Exception {
        AgentStatus status = new AgentStatus("A\u0000B\uD800", null, null, null, null, null, null, null, null, -1, null,
                null, null, null, -1, -1, -1, -1, -1, Map.of(), Map.of());

        Properties properties = new Properties();
        properties.loadFromXML(new ByteArrayInputStream(writer.write(status).getBytes(StandardCharsets.UTF_8)));

        assertThat(properties.getProperty("agentName")).isEqualTo("A\uFFFDB\uFFFD");
    }

    @Test
    void bytesAreTheUtf8OfTheText() {
        TransferLog log = new TransferLog("6.00", TRANSFER_ID, TransferLog.SOURCE_AGENT, LogAction.STARTED, START,
                new AgentRef("中文", null), null, ORIGINATOR, "é😀", null, -1, -1, -1, List.of(), null, List.of(), null,
                Map.of());

        assertThat(writer.writeBytes(log)).isEqualTo(writer.write(log).getBytes(StandardCharsets.UTF_8));
        assertThat(writer.writeBytes(Publications.liveProgress()))
                .isEqualTo(writer.write(Publications.liveProgress()).getBytes(StandardCharsets.UTF_8));
        assertThat(writer.writeBytes(Publications.clientStatus()))
                .isEqualTo(writer.write(Publications.clientStatus()).getBytes(StandardCharsets.UTF_8));
    }
}
