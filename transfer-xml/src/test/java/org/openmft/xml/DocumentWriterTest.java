package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shape of what is written: what IBM tools and other readers see. */
class DocumentWriterTest {
    private final DocumentWriter writer = new DocumentWriter();
    private final RequestParser parser = new RequestParser();

    @Test
    void requestsStartLikeIbmsAndCarryVersion600WhateverTheyWereReadWith() throws Exception {
        TransferRequest old = (TransferRequest) parser.parse(Documents.resource("minimal-request.xml"));
        String xml = writer.write(old);

        assertTrue(xml.startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?><request "), xml);
        assertTrue(xml.contains("xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""), xml);
        assertTrue(xml.contains("xsi:noNamespaceSchemaLocation=\"FileTransfer.xsd\""), xml);
        assertTrue(xml.contains("version=\"6.00\""), xml);
        assertFalse(xml.contains("4.00"), xml);
        assertEquals("6.00", parser.parse(xml).version());
    }

    @Test
    void managedTransferChildrenFollowSchemaOrder() {
        String xml = writer.write(Documents.fullRequest());

        assertInOrder(xml, "<managedTransfer>", "<originator>", "<hostName>", "<userID>", "<mqmdUserID>", "</originator>",
                "<sourceAgent ", "<destinationAgent ", "<reply ", "<transferSet ", "<metaDataSet>", "<item ",
                "<source ", "<destination ", "</transferSet>", "<job><name>NIGHTLY_PAYROLL</name></job>",
                "</managedTransfer>");
        assertInOrder(xml, "<metaData key=\"com.ibm.wmqfte.JobName\">", "<metaData key=\"z-last-inserted-first\">",
                "<metaData key=\"a\">");
    }

    @Test
    void defaultsAreWrittenOutAndAbsentOptionsLeftOut() {
        TransferRequest request = new TransferRequest("6.00", Documents.originator(), new AgentRef("S", null),
                new AgentRef("D", null), null, new TransferSet(List.of(new TransferItem(new ItemSource("/a"),
                        new ItemDestination(DestinationType.FILE, "/b")))), null);

        String xml = writer.write(request);

        assertTrue(xml.contains("<transferSet priority=\"0\">"), xml);
        assertTrue(xml.contains("<item mode=\"binary\" checksumMethod=\"MD5\">"), xml);
        assertTrue(xml.contains("<source recursive=\"false\" disposition=\"leave\"><file>/a</file></source>"), xml);
        assertTrue(xml.contains("<destination type=\"file\" exist=\"error\"><file>/b</file></destination>"), xml);
        for (String absent : List.of("QMgr", "<reply", "recoveryTimeout", "metaDataSet", "<job", "mqmdUserID",
                "encoding=\"", "EOL")) {
            assertFalse(xml.substring(xml.indexOf("?>")).contains(absent), absent + " in " + xml);
        }
    }

    @Test
    void markupCharactersAreEscapedAndCarriageReturnsKept() {
        String xml = writer.write(Documents.awkwardRequest());

        assertTrue(xml.contains("agent=\"AGENT&amp;&quot;&lt;1&gt;\""), xml);
        assertTrue(xml.contains("key=\"key&amp;&lt;&gt;&quot;'é\""), xml);
        assertTrue(xml.contains("value &amp; &lt;tag&gt;"), xml);
        assertTrue(xml.contains("]]&gt;"), xml);
        assertFalse(xml.contains("]]>"), "a literal ]]> is not allowed in character data");
        assertTrue(xml.contains("first&#13;\nsecond"), xml);
        assertFalse(xml.contains("\r"), "a literal CR would be read back as LF");
    }

    @Test
    void bytesAreUtf8OfTheText() {
        TransferRequest request = Documents.awkwardRequest();

        byte[] bytes = writer.writeBytes(request);

        assertArrayEquals(writer.write(request).getBytes(StandardCharsets.UTF_8), bytes);
        String asText = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(asText.contains("中文 😀"), asText);
    }

    @Test
    void pingRootIsInIbmsNamespaceWithUnqualifiedChildren() {
        String xml = writer.write(new PingAgentRequest("1.00", Documents.originator(), "AGENT86", "QM86", null));

        assertTrue(xml.contains("<ping:pingAgent xmlns:ping=\"http://www.ibm.com/xmlns/wmqfte/7.0.1/PingAgent\""), xml);
        assertTrue(xml.contains("version=\"6.00\""), xml);
        assertInOrder(xml, "<originator>", "<agent agent=\"AGENT86\" QMgr=\"QM86\"/>", "</ping:pingAgent>");
        assertFalse(xml.contains("<reply"), xml);
    }

    @Test
    void cancelAndStopHaveTheirDocumentedShape() {
        String cancel = writer.write(new CancelRequest("6.00", Documents.originator(), Documents.TRANSFER_ID));
        assertInOrder(cancel, "<cancel ", "<originator>", "<transfer><ID>" + Documents.TRANSFER_ID + "</ID></transfer>",
                "</cancel>");
        assertTrue(cancel.contains("xsi:noNamespaceSchemaLocation=\"FileTransfer.xsd\""), cancel);

        String stop = writer.write(new StopAgentRequest("6.00", Documents.originator(), "AGENT86", true,
                new ReplyTo("Q", "QM", false)));
        assertInOrder(stop, "<stopAgent version=\"6.00\" immediate=\"true\">", "<originator>",
                "<agent agent=\"AGENT86\"/>", "<reply QMGR=\"QM\">Q</reply>", "</stopAgent>");
        assertFalse(stop.contains("xmlns"), "stopAgent is ours and in no namespace: " + stop);
    }

    @Test
    void replyItemsAreWrittenBeforeTheStatus() {
        String xml = writer.write(new Reply("6.00", Documents.TRANSFER_ID, 0, List.of("done"),
                List.of(new ItemResult("/a", "/b", 0, "ok"))));

        assertTrue(xml.contains("ID=\"" + Documents.TRANSFER_ID + "\""), xml);
        assertTrue(xml.contains("<transferSet><item><source><file>/a</file></source><destination><file>/b</file>"
                + "</destination><status resultCode=\"0\"><supplement>ok</supplement></status></item></transferSet>"
                + "<status resultCode=\"0\"><supplement>done</supplement></status></reply>"), xml);
        assertFalse(writer.write(new Reply("6.00", "x", 1, List.of(), List.of())).contains("transferSet"));
    }

    private static void assertInOrder(String xml, String... parts) {
        int from = 0;
        for (String part : parts) {
            int at = xml.indexOf(part, from);
            assertTrue(at >= 0, "expected " + part + " after position " + from + " in " + xml);
            from = at + part.length();
        }
    }
}
