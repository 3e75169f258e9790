package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The example request of the reference specification, §4.3. */
class ExampleRequestTest {
    private final RequestParser parser = new RequestParser();

    @Test
    void theExampleIsReadWithItsPostDestinationCall() throws Exception {
        String xml = Documents.resource("example-request.xml");

        TransferRequest request = assertInstanceOf(TransferRequest.class, parser.parse(xml));

        ProgramCall call = request.transferSet().calls().postDestination();
        assertEquals("notify_bank.sh", call.name());
        assertEquals(List.of("2024-05-31"), call.arguments());
        assertEquals(2, call.retryCount());
        assertEquals(30, call.retryWaitSeconds());
        assertEquals("0", call.successCodes().expression());
        assertNull(request.transferSet().calls().preSource());
        assertNull(request.transferSet().calls().postSource());
        assertNull(request.transferSet().calls().preDestination());
    }

    @Test
    void withoutTheCallEveryFieldIsRead() throws Exception {
        byte[] xml = Documents.resource("example-request-supported.xml").getBytes(StandardCharsets.UTF_8);

        TransferRequest request = assertInstanceOf(TransferRequest.class, parser.parse(xml));

        assertEquals("6.00", request.version());
        assertEquals(new Originator("batch01.example.org", "payroll", null), request.originator());
        assertEquals(new AgentRef("PAY.SRC", "QMPAY"), request.sourceAgent());
        assertEquals(new AgentRef("BANK.DST", "QMBANK"), request.destinationAgent());
        assertEquals(new ReplyTo("WMQFTE.REPLY.7F3A", "QMPAY", true), request.reply());
        assertEquals("NIGHTLY_PAYROLL", request.jobName());

        TransferSet set = request.transferSet();
        assertEquals(5, set.priority());
        assertEquals(3600L, set.recoveryTimeoutSeconds());
        assertEquals(List.of("com.ibm.wmqfte.JobName", "batchDate"), List.copyOf(set.metadata().keySet()));
        assertEquals(Map.of("com.ibm.wmqfte.JobName", "NIGHTLY_PAYROLL", "batchDate", "2024-05-31"), set.metadata());
        assertEquals(2, set.items().size());

        TransferItem first = set.items().get(0);
        assertEquals(Mode.BINARY, first.mode());
        assertEquals(ChecksumMethod.MD5, first.checksumMethod());
        assertFalse(first.source().recursive());
        assertEquals(Disposition.DELETE, first.source().disposition());
        assertEquals("/data/out/payroll_*.csv", first.source().path());
        assertTrue(first.source().hasWildcard());
        assertNull(first.source().encoding());
        assertEquals(DestinationType.DIRECTORY, first.destination().type());
        assertEquals(ExistAction.ERROR, first.destination().exist());
        assertEquals("/bank/inbound", first.destination().path());
        assertNull(first.destination().encoding());
        assertNull(first.destination().eol());

        TransferItem second = set.items().get(1);
        assertEquals(Mode.TEXT, second.mode());
        assertEquals(ChecksumMethod.NONE, second.checksumMethod());
        assertFalse(second.source().recursive());
        assertEquals(Disposition.LEAVE, second.source().disposition());
        assertEquals("/data/out/summary.txt", second.source().path());
        assertFalse(second.source().hasWildcard());
        assertEquals("UTF-8", second.source().encoding());
        assertEquals(DestinationType.FILE, second.destination().type());
        assertEquals(ExistAction.OVERWRITE, second.destination().exist());
        assertEquals("/bank/inbound/SUMMARY.TXT", second.destination().path());
        assertEquals("IBM-1047", second.destination().encoding());
        assertEquals(LineEnding.LF, second.destination().eol());
    }

    @Test
    void stringAndByteInputGiveTheSameRecord() throws Exception {
        String xml = Documents.resource("example-request-supported.xml");

        assertEquals(parser.parse(xml), parser.parse(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void defaultsApplyWhenAttributesAreLeftOut() throws Exception {
        TransferRequest request = (TransferRequest) parser.parse(Documents.resource("minimal-request.xml"));

        assertEquals("4.00", request.version());
        assertNull(request.reply());
        assertNull(request.jobName());
        assertNull(request.sourceAgent().qmgr());
        assertNull(request.destinationAgent().qmgr(), "an empty QMgr means none");
        TransferSet set = request.transferSet();
        assertEquals(0, set.priority());
        assertNull(set.recoveryTimeoutSeconds());
        assertTrue(set.metadata().isEmpty());
        TransferItem item = set.items().get(0);
        assertEquals(Mode.BINARY, item.mode());
        assertEquals(ChecksumMethod.MD5, item.checksumMethod());
        assertFalse(item.source().recursive());
        assertEquals(Disposition.LEAVE, item.source().disposition());
        assertNull(item.source().encoding());
        assertEquals(DestinationType.FILE, item.destination().type());
        assertEquals(ExistAction.ERROR, item.destination().exist());
        assertNull(item.destination().encoding());
        assertNull(item.destination().eol());
    }

    @Test
    void commentsProcessingInstructionsAndCdataAreAccepted() throws Exception {
        String xml = "<?xml version=\"1.0\"?>\n<!-- made by hand -->\n<?app hint?>\n" + Documents.request(
                "<!-- who --><originator><hostName><![CDATA[h<&>]]></hostName><userID>u<!-- inline -->ser</userID>"
                        + "</originator>" + Documents.AGENTS + "<transferSet><item><source><file><![CDATA[/in/a&b]]>.txt"
                        + "</file></source>" + Documents.DESTINATION + "</item></transferSet>") + "\n<!-- trailer -->\n";

        TransferRequest request = (TransferRequest) parser.parse(xml);

        assertEquals(new Originator("h<&>", "user"), request.originator());
        assertEquals("/in/a&b.txt", request.transferSet().items().get(0).source().path());
    }

    @Test
    void otherCommandSamplesAreRead() throws Exception {
        CancelRequest cancel = (CancelRequest) parser.parse(Documents.resource("cancel.xml"));
        assertEquals(new CancelRequest("4.00", new Originator("myMachine", "myUserId"), Documents.TRANSFER_ID,
                new ReplyTo("WMQFTE.492D0D5502770020", "QM1", false)), cancel);

        PingAgentRequest expectedPing = new PingAgentRequest("4.00", new Originator("admin01", "mqm", "mqm"),
                "AGENT86", "QM86", new ReplyTo("WMQFTE.492D0D5502770021", "QM86", false));
        assertEquals(expectedPing, parser.parse(Documents.resource("ping-prefixed.xml")));
        assertEquals(new PingAgentRequest("6.00", expectedPing.originator(), "AGENT86", "QM86", expectedPing.reply()),
                parser.parse(Documents.resource("ping-default-namespace.xml")));

        assertEquals(new StopAgentRequest("1.00", new Originator("admin01", "mqm"), "AGENT86", false,
                        new ReplyTo("WMQFTE.492D0D5502770022", "QM86", false)),
                parser.parse(Documents.resource("stop-agent.xml")));
    }

    @Test
    void aDetailedIbmStyleReplyIsRead() throws Exception {
        Reply reply = parser.parseReply(Documents.resource("reply-detailed.xml"));

        assertEquals(new Reply("6.00", Documents.TRANSFER_ID, 20,
                List.of("transfer completed with partial success"),
                List.of(new ItemResult("/data/out/payroll_1.csv", "/bank/inbound/payroll_1.csv", 0, null),
                        new ItemResult("/data/out/payroll_2.csv", null, 1,
                                "source file \"/data/out/payroll_2.csv\" does not exist"))), reply);
    }
}
