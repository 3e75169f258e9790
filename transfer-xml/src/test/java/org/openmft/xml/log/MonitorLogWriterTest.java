package org.openmft.xml.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** The monitor log is IBM's MonitorLog.xsd shape, element for element as IBM's example shows it. */
class MonitorLogWriterTest {

    @Test
    void aMonitorLogHasIbmsShape() throws Exception {
        String id = "414d51205553322e42494e44494e47538b0f404d04410020";
        String xml = new PublicationWriter().write(new MonitorLog("6.00", "MONITORTWO", id,
                new Originator("example.com.", "mqm", "mqm"), "start", Instant.parse("2011-01-26T12:41:24Z"),
                new AgentRef("AGENT_JUPITER", "QM_JUPITER"), 0, List.of("a <b> & c\r\n")));
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document d = f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        Element root = d.getDocumentElement();
        assertEquals("monitorLog", root.getTagName());
        assertEquals("MONITORTWO", root.getAttribute("monitorName"));
        assertEquals(id, root.getAttribute("referenceId"));
        assertEquals("MonitorLog.xsd", root.getAttributeNS("http://www.w3.org/2001/XMLSchema-instance",
                "noNamespaceSchemaLocation"));
        List<String> children = new java.util.ArrayList<>();
        for (org.w3c.dom.Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                children.add(e.getTagName());
            }
        }
        assertEquals(List.of("originator", "references", "action", "monitorAgent", "status"), children);
        assertEquals(id, ((Element) root.getElementsByTagName("createRequest").item(0)).getTextContent());
        Element action = (Element) root.getElementsByTagName("action").item(0);
        assertEquals("start", action.getTextContent());
        assertTrue(action.getAttribute("time").startsWith("2011-01-26T12:41:24"));
        assertEquals("QM_JUPITER", ((Element) root.getElementsByTagName("monitorAgent").item(0)).getAttribute("QMgr"));
        assertEquals("a <b> & c\r\n", root.getElementsByTagName("supplement").item(0).getTextContent());
    }
}
