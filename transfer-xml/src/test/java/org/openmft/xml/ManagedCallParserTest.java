package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** {@code <managedCall>}: IBM's example reads, its parts land in the record, and bad documents are refused by name. */
class ManagedCallParserTest {
    private static final String ORIGINATOR = "<originator><hostName>example.com.</hostName><userID>mqm</userID>"
            + "</originator>";
    private final RequestParser parser = new RequestParser();

    private static String managedCall(String inside) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><request version=\"1.00\""
                + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                + " xsi:noNamespaceSchemaLocation=\"FileTransfer.xsd\"><managedCall>" + inside
                + "</managedCall></request>";
    }

    private static String call(String command) {
        return "<transferSet><call>" + command + "</call></transferSet>";
    }

    @Test
    void ibmsExampleReads() throws Exception {
        // IBM's published example (with its successRC quoted: the published one is not well-formed XML).
        ManagedCallRequest r = assertInstanceOf(ManagedCallRequest.class, parser.parse(managedCall(ORIGINATOR
                + "<agent agent=\"DNWE\" QMgr=\"QM1\"/>"
                + call("<command name=\"echo\" successRC=\"0\"><argument>call</argument><argument>test</argument>"
                        + "</command>")
                + "<job><name>managedCallCalls.xml</name></job>")));
        assertEquals("1.00", r.version());
        assertEquals(new AgentRef("DNWE", "QM1"), r.agent());
        assertEquals("mqm", r.originator().userId());
        assertEquals(ProgramCall.executable("echo", List.of("call", "test")), r.call());
        assertEquals("managedCallCalls.xml", r.jobName());
        assertNull(r.reply());
        assertEquals(0, r.priority());
    }

    @Test
    void replyPriorityMetadataAndRetriesAreKept() throws Exception {
        ManagedCallRequest r = (ManagedCallRequest) parser.parse(managedCall(ORIGINATOR + "<agent agent=\"A1\"/>"
                + "<reply QMGR=\"QM2\" detailed=\"true\">WMQFTE.REPLY</reply>"
                + "<transferSet priority=\"7\"><metaDataSet><metaData key=\"b\">2</metaData>"
                + "<metaData key=\"a\">1</metaData></metaDataSet><call><command name=\"run.sh\" retryCount=\"2\""
                + " retryWait=\"5\" successRC=\"0|3\" type=\"executable\"/></call></transferSet>"));
        assertEquals(new ReplyTo("WMQFTE.REPLY", "QM2", true), r.reply());
        assertEquals(7, r.priority());
        assertEquals(List.of("b", "a"), List.copyOf(r.metadata().keySet()));
        assertEquals(Map.of("a", "1", "b", "2"), r.metadata());
        assertEquals(2, r.call().retryCount());
        assertEquals(5, r.call().retryWaitSeconds());
        assertTrue(r.call().successCodes().accepts(3));
        assertNull(r.agent().qmgr());
    }

    @Test
    void writtenManagedCallsReadBackTheSame() throws Exception {
        ManagedCallRequest r = new ManagedCallRequest("6.00", new Originator("h", "u", null), new AgentRef("A1", "QM1"),
                new ReplyTo("R", null, false), 3, Map.of("k", "v"), new ProgramCall(CallType.EXECUTABLE, "run.sh",
                        List.of("a b", "<&>"), 1, 2, SuccessCodes.of("0|4")), "job 1");
        assertEquals(r, parser.parse(new DocumentWriter().write(r)));
    }

    @Test
    void malformedManagedCallsNameWhatIsWrong() {
        refused(managedCall(ORIGINATOR + call("<command name=\"x\"/>")), "<agent>");
        refused(managedCall(ORIGINATOR + "<agent agent=\"A\"/>"), "missing required element <transferSet>");
        refused(managedCall(ORIGINATOR + "<agent agent=\"A\"/><transferSet/>"), "missing required element <call>");
        refused(managedCall(ORIGINATOR + "<agent agent=\"A\"/><transferSet><call><command name=\"x\"/></call>"
                + "<item/></transferSet>"), "<item>");
        refused(managedCall(ORIGINATOR + "<agent agent=\"A\"/>" + call("<command name=\"x\"/>") + call("<command/>")),
                "<transferSet>");
        refused(managedCall(ORIGINATOR + "<agent agent=\"A\"/><transferSet priority=\"10\"><call><command name=\"x\"/>"
                + "</call></transferSet>"), "priority=\"10\"");
        refused(managedCall(ORIGINATOR + "<agent agent=\"A\"/>" + call("<command name=\"x\" retryCount=\"-1\"/>")),
                "retryCount");
        refused(managedCall(ORIGINATOR + "<agent agent=\"A\"/>" + call("<command name=\"x\" successRC=\">=2\"/>")),
                ">=2");
        refused(managedCall(ORIGINATOR + "<agent agent=\"A\"/>" + call("<command/>")), "name");
    }

    @Test
    void antScriptsAndJclAreUnsupported() {
        UnsupportedRequestException e = assertThrows(UnsupportedRequestException.class, () -> parser.parse(managedCall(
                ORIGINATOR + "<agent agent=\"A\"/>" + call("<command name=\"build.xml\" type=\"antScript\"/>"))));
        assertTrue(e.getMessage().contains("antScript"), e.getMessage());
    }

    private void refused(String xml, String word) {
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> parser.parse(xml));
        assertTrue(e.getMessage().contains(word), "expected \"" + word + "\" in: " + e.getMessage());
    }
}
