package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Transfer templates: IBM's published example reads, what we write reads back, hostile input is refused. */
class TemplateDocumentTest {
    private final TemplateParser parser = new TemplateParser();
    private final TemplateWriter writer = new TemplateWriter();

    /** IBM Docs, "MFT example template XML message" (9.4), as published. */
    static final String IBM_EXAMPLE = """
            <?xml version="1.0" encoding="UTF-8"?>
            <transferTemplate version="4.00" id="baf9df73-45c2-4bb0-a085-292232ab66bc">
                <name>BASIC_TEMPLATE</name>
                <sourceAgentName>AGENT_JUPITER</sourceAgentName>
                <sourceAgentQMgr>QM_JUPITER</sourceAgentQMgr>
                <destinationAgentName>AGENT_SATURN</destinationAgentName>
                <destinationAgentQMgr>QM_JUPITER</destinationAgentQMgr>
                <fileSpecs>
                    <item mode="binary" checksumMethod="MD5">
                        <source recursive="false" disposition="leave">
                            <file>/etc/passwd</file>
                        </source>
                        <destination type="directory" exist="overwrite">
                            <file>/tmp</file>
                        </destination>
                    </item>
                </fileSpecs>
                <priority>0</priority>
            </transferTemplate>
            """;

    @Test
    void ibmsExampleReads() throws Exception {
        TransferTemplate t = parser.parse(IBM_EXAMPLE.getBytes(StandardCharsets.UTF_8));
        assertEquals("baf9df73-45c2-4bb0-a085-292232ab66bc", t.id());
        assertEquals("BASIC_TEMPLATE", t.name());
        assertEquals("AGENT_JUPITER", t.sourceAgent());
        assertEquals("QM_JUPITER", t.destinationQMgr());
        assertEquals(1, t.items().size());
        TransferItem item = t.items().get(0);
        assertEquals("/etc/passwd", item.source().path());
        assertEquals(DestinationType.DIRECTORY, item.destination().type());
        assertEquals(ExistAction.OVERWRITE, item.destination().exist());
        assertEquals(0, t.priority());
        assertNull(t.jobName());
    }

    @Test
    void everythingSurvivesAWriteAndParse() throws Exception {
        TransferRequest r = Documents.fullRequest();
        TransferTemplate full = new TransferTemplate(TransferTemplate.newId(), "PAYROLL é&<>", "PAY.SRC", "QMPAY",
                "BANK.DST", "QMBANK", r.transferSet().items(), 7, 3600L, r.transferSet().metadata(), "NIGHTLY");
        assertEquals(full, parser.parse(writer.write(full)));
        assertEquals(full, parser.parse(writer.writeBytes(full)));
        TransferTemplate bare = new TransferTemplate("t1", "BARE", null, null, null, null, List.of(), 0, null,
                Map.of(), null);
        String xml = writer.write(bare);
        assertTrue(xml.contains("<sourceAgentName></sourceAgentName>"), xml);
        assertEquals(bare, parser.parse(xml));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // DOCTYPE and entities, as RequestParser refuses them
        "<!DOCTYPE t [<!ENTITY x \"y\">]><transferTemplate version=\"4.00\" id=\"a\"><name>&x;</name></transferTemplate>",
        "<transferTemplate version=\"4.00\" id=\"a\"><name>N</name><unknown/></transferTemplate>",
        "<transferTemplate version=\"4.00\" id=\"a\" extra=\"1\"><name>N</name></transferTemplate>",
        "<transferTemplate version=\"4.00\" id=\"a/b\"><name>N</name></transferTemplate>",
        "<transferTemplate version=\"4.00\" id=\"a\"><name>N*</name></transferTemplate>",
        "<transferTemplate version=\"4.00\" id=\"a\"><name>N</name><priority>10</priority></transferTemplate>",
        "<transferTemplate version=\"4.00\" id=\"a\"><priority>1</priority><name>N</name></transferTemplate>",
        "<transferTemplate version=\"4.00\"><name>N</name></transferTemplate>",
        "<request version=\"4.00\"/>",
        "<transferTemplate version=\"4.00\" id=\"a\"><name>N</name><fileSpecs><item><source><file>/a/*</file></source>"
                + "<destination type=\"file\"><file>/b</file></destination></item></fileSpecs></transferTemplate>",
        "<transferTemplate version=\"4.00\" id=\"a\"><name>N</name>"})
    void malformedTemplatesAreRefused(String xml) {
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> parser.parse(xml));
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank());
    }

    @Test
    void refusalsNameTheFault() {
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> parser.parse(
                "<transferTemplate version=\"4.00\" id=\"a\"><name>N</name><priority>12</priority></transferTemplate>"));
        assertTrue(e.getMessage().contains("<priority> 12 is out of range 0-9"), e.getMessage());
        e = assertThrows(MalformedRequestException.class, () -> parser.parse("<!DOCTYPE x><transferTemplate/>"));
        assertTrue(e.getMessage().contains("DOCTYPE is not allowed"), e.getMessage());
    }
}
