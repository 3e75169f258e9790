package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Monitor.xsd documents: IBM's export read unchanged, round trips, refusals, hostile input. */
class MonitorDocumentTest {

    private final RequestParser parser = new RequestParser();
    private final DocumentWriter writer = new DocumentWriter();

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = MonitorDocumentTest.class.getResourceAsStream("monitor/" + name)) {
            return in.readAllBytes();
        }
    }

    private static final String TASK = "<tasks><task><name/><transfer>"
            + "<request version=\"6.00\"><managedTransfer><originator><hostName>h</hostName><userID>u</userID></originator>"
            + "<sourceAgent agent=\"${AgentName}\" QMgr=\"QM1\"/><destinationAgent agent=\"${FilePath{token=-2}}\" QMgr=\"QM2\"/>"
            + "<transferSet><item><source disposition=\"delete\"><file>${FilePath}</file></source>"
            + "<destination type=\"file\" exist=\"overwrite\"><file>/out/${FileName}</file></destination></item>"
            + "</transferSet></managedTransfer></request></transfer></task></tasks>";

    private static String monitor(String body) {
        return "<?xml version=\"1.0\"?><m:monitor xmlns:m=\"" + MonitorDefinition.NAMESPACE + "\" version=\"6.00\">"
                + body + "</m:monitor>";
    }

    private static String standard(String conditions) {
        return monitor("<name>drop</name><pollInterval units=\"SECONDS\">5</pollInterval><agent>SRC</agent>"
                + "<resources><directory recursionLevel=\"2\">/in</directory></resources>"
                + "<triggerMatch><conditions><anyOf>" + conditions + "</anyOf></conditions></triggerMatch>"
                + TASK + "<originator><hostName>h</hostName><userID>u</userID></originator><job><name>J1</name></job>");
    }

    @Test
    void ibmsExportIsReadAsIbmWroteIt() throws Exception {
        MonitorDefinition m = assertInstanceOf(MonitorDefinition.class, parser.parse(resource("ibm-export.xml")));
        assertEquals("EXAMPLEMONITOR", m.name());
        assertEquals(new MonitorDefinition.PollInterval(1, MonitorDefinition.TimeUnit.MINUTES), m.pollInterval());
        assertEquals("US2.BINDINGS.FILE", m.agent());
        assertEquals("/srv/nfs/incoming", m.directory());
        assertTrue(m.allOf());
        assertEquals(List.of(new MonitorCondition.FileMatch(new MonitorCondition.FilePattern("*.completed", false), null)),
                m.conditions());
        assertEquals(new ReplyTo("WMQFTE.4D400F8B20003702", "US2.BINDINGS", false), m.reply());
        // The task is a transfer request in its own right once taken out.
        TransferRequest task = assertInstanceOf(TransferRequest.class, parser.parse(m.task().requestXml()));
        assertEquals("/srv/nfs/incoming/*.txt", task.transferSet().items().get(0).source().path());
    }

    @Test
    void aWrittenMonitorReadsBackEqualAndWritesTheSame() throws Exception {
        MonitorDefinition read = (MonitorDefinition) parser.parse(resource("ibm-export.xml"));
        String written = writer.write(read);
        assertTrue(written.contains("<monitor:monitor xmlns:monitor=\"" + MonitorDefinition.NAMESPACE + "\""), written);
        assertTrue(written.contains("./Monitor.xsd"), written);
        MonitorDefinition again = (MonitorDefinition) parser.parse(written);
        assertEquals(read, withTask(again, read.task()));
        assertEquals(written, writer.write(again), "a second round trip changes nothing");
        TransferRequest first = (TransferRequest) parser.parse(read.task().requestXml());
        TransferRequest second = (TransferRequest) parser.parse(again.task().requestXml());
        assertEquals(first, second);
    }

    private static MonitorDefinition withTask(MonitorDefinition m, MonitorDefinition.MonitorTask task) {
        return new MonitorDefinition(m.version(), m.name(), m.description(), m.pollInterval(), m.batchSize(), m.agent(),
                m.directory(), m.recursionLevel(), m.allOf(), m.conditions(), m.reply(), task, m.originator(), m.jobName(), m.overwrite(), m.clearHistory());
    }

    @Test
    void everyDirectoryConditionRoundTripsWithVariablesInTheTask() throws Exception {
        String doc = standard("<condition><fileMatch><pattern type=\"regex\">inv_[0-9]+\\.xml</pattern>"
                + "<exclude>*.tmp</exclude></fileMatch></condition>"
                + "<condition><fileNoMatch><pattern>*.go</pattern></fileNoMatch></condition>"
                + "<condition><fileSize><compare operator=\"&gt;=\" units=\"kb\">5</compare><pattern>*.big</pattern></fileSize></condition>"
                + "<condition><fileSizeSame polls=\"3\"><pattern>*.dat</pattern></fileSizeSame></condition>");
        MonitorDefinition m = (MonitorDefinition) parser.parse(doc);
        assertEquals("DROP", m.name(), "names are stored upper case");
        assertFalse(m.allOf());
        assertEquals(2, m.recursionLevel());
        assertEquals(5, m.pollInterval().seconds());
        assertEquals("J1", m.jobName());
        assertEquals(5 * 1024, ((MonitorCondition.FileSize) m.conditions().get(2)).bytes());
        assertEquals(3, ((MonitorCondition.FileSizeSame) m.conditions().get(3)).polls());
        assertTrue(m.task().requestXml().contains("${FilePath{token=-2}}"));
        MonitorDefinition again = (MonitorDefinition) parser.parse(writer.write(m));
        assertEquals(m.conditions(), again.conditions());
        assertEquals(writer.write(m), writer.write(again));
    }

    @Test
    void theRetainedListingHoldsTheDefinitionItExportsAgain() throws Exception {
        MonitorDefinition m = ((MonitorDefinition) parser.parse(standard(
                "<condition><fileMatch><pattern type=\"regex\">a.*</pattern></fileMatch></condition>"))).withReply(null);
        String listing = writer.writeMonitorList(m, false);
        assertTrue(listing.contains("<monitor:monitorList xmlns:monitor=\"" + MonitorDefinition.NAMESPACE + "\""), listing);
        assertTrue(listing.contains("agent=\"SRC\" monitor=\"DROP\"><status state=\"stopped\"/><configuration>"
                + "<description></description><resources>"), listing);
        assertTrue(listing.endsWith("</configuration><pollInterval units=\"seconds\">5</pollInterval>"
                + "<batch maxSize=\"1\"/></monitor:monitorList>"), listing);
        MonitorListing read = parser.parseMonitorList(listing);
        assertEquals("SRC", read.agent());
        assertFalse(read.started());
        assertEquals(writer.write(m), writer.write(read.definition()), "the listing exports the definition unchanged");
        assertTrue(parser.parseMonitorList(writer.writeMonitorList(m, true)).started());
        assertThrows(MalformedRequestException.class, () -> parser.parseMonitorList(listing.replace("stopped", "idle")));
        assertThrows(MalformedRequestException.class, () -> parser.parseMonitorList(writer.write(m)));
    }

    @Test
    void triggerContentRoundTripsInTheDefinitionAndTheListing() throws Exception {
        String match = "<condition><fileMatch><pattern>*.trig</pattern></fileMatch></condition>";
        String doc = standard(match).replace("</conditions></triggerMatch>", "</conditions><triggerContent>"
                + "<regex>^(.+);(.+)$</regex><captureOrder>destSrc</captureOrder></triggerContent></triggerMatch>");
        MonitorDefinition m = (MonitorDefinition) parser.parse(doc);
        assertEquals(new TriggerContent("^(.+);(.+)$", true), m.triggerContent());
        String written = writer.write(m);
        assertTrue(written.contains("</conditions><triggerContent><regex>^(.+);(.+)$</regex>"
                + "<captureOrder>destSrc</captureOrder></triggerContent></triggerMatch>"), written);
        assertEquals(m, parser.parse(written));
        assertEquals(written, writer.write(parser.parseMonitorList(writer.writeMonitorList(m, true)).definition()));
        // -tc alone: the default line format, an empty element.
        MonitorDefinition plain = (MonitorDefinition) parser.parse(standard(match).replace("</conditions></triggerMatch>",
                "</conditions><triggerContent/></triggerMatch>"));
        assertEquals(new TriggerContent(null, false), plain.triggerContent());
        assertTrue(writer.write(plain).contains("<triggerContent></triggerContent>"), writer.write(plain));
        assertEquals(plain, parser.parse(writer.write(plain)));
        // IBM's rules: match and noSizeChange only, no batch, destSrc needs two groups.
        assertRefused(standard("<condition><fileNoMatch><pattern>a</pattern></fileNoMatch></condition>").replace(
                "</conditions></triggerMatch>", "</conditions><triggerContent/></triggerMatch>"), "match and noSizeChange");
        assertRefused(doc.replace("<agent>SRC</agent>", "<batch maxSize=\"5\"/><agent>SRC</agent>"), "batch size (-bs)");
        assertRefused(doc.replace("^(.+);(.+)$", "^(.+)$"), "two capturing groups");
        assertRefused(doc.replace("^(.+);(.+)$", "^.+$"), "no capturing group");
        assertRefused(doc.replace("^(.+);(.+)$", "(["), "not a valid regular expression");
        assertRefused(doc.replace(">destSrc<", ">sideways<"), "-tcc");
    }

    @Test
    void deleteStartAndStopRoundTrip() throws Exception {
        Originator who = new Originator("h", "u");
        for (CommandDocument d : List.of(new DeleteMonitorRequest("6.00", "m1", who, new ReplyTo("R", null, false)),
                new MonitorControlRequest("6.00", true, "m1", who, null),
                new MonitorControlRequest("6.00", false, "M1", who, null))) {
            String xml = writer.write(d);
            assertEquals(d, parser.parse(xml), xml);
        }
        assertEquals("M1", new DeleteMonitorRequest("6.00", "m1", who, null).name());
    }

    @Test
    void badValuesAreRefusedNamingTheField() {
        assertRefused(standard("<condition><fileMatch><pattern type=\"regex\">([a</pattern></fileMatch></condition>"),
                "not a valid regular expression");
        assertRefused(standard("<condition><fileMatch><pattern type=\"glob\">a</pattern></fileMatch></condition>"),
                "type=\"glob\"");
        assertRefused(standard("<condition><fileSizeSame polls=\"0\"><pattern>a</pattern></fileSizeSame></condition>"),
                "polls=\"0\"");
        assertRefused(standard("<condition><fileSize><compare operator=\"&lt;\">1</compare><pattern>a</pattern></fileSize></condition>"),
                "operator");
        assertRefused(standard("<condition><fileMatch><pattern>a</pattern></fileMatch></condition>")
                .replace("units=\"SECONDS\">5", "units=\"weeks\">5"), "weeks");
        assertRefused(standard("<condition><fileMatch><pattern>a</pattern></fileMatch></condition>")
                .replace(">5</pollInterval>", ">0</pollInterval>"), "poll interval 0");
        assertRefused(standard("<condition><fileMatch><pattern>a</pattern></fileMatch></condition>")
                .replace("<name>drop</name>", "<name>dr*p</name>"), "must not contain '*'");
        assertRefused(standard("<condition><fileMatch><pattern>a</pattern></fileMatch></condition>")
                .replace("<m:monitor xmlns:m=\"" + MonitorDefinition.NAMESPACE + "\"", "<monitor"), "namespace");
    }

    @Test
    void queueMonitorsRoundTripAndMixedResourcesAreRefused() throws Exception {
        String plain = standard("<condition><completeGroups/></condition>")
                .replace("<directory recursionLevel=\"2\">/in</directory>", "<queue>APP.IN</queue>")
                .replace("</job>", "</job><defaultVariables><variable key=\"destFileName\">x.txt</variable>"
                        + "</defaultVariables>");
        MonitorDefinition m = (MonitorDefinition) parser.parse(plain);
        assertTrue(m.queueMonitor());
        assertEquals("APP.IN", m.queue());
        assertEquals(java.util.Map.of("destFileName", "x.txt"), m.defaultVariables());
        assertInstanceOf(MonitorCondition.CompleteGroups.class, m.conditions().get(0));
        String written = writer.write(m);
        assertTrue(written.contains("<resources><queue>APP.IN</queue></resources>"), written);
        assertEquals(written, writer.write((MonitorDefinition) parser.parse(written)));
        assertEquals(written, writer.write(parser.parseMonitorList(writer.writeMonitorList(m, true)).definition()));
        // A queue condition on a directory, a file condition on a queue: refused, naming why.
        assertThrows(MalformedRequestException.class, () -> parser.parse(standard(
                "<condition><queueNotEmpty/></condition>")));
        assertThrows(MalformedRequestException.class, () -> parser.parse(standard(
                "<condition><fileMatch><pattern>a</pattern></fileMatch></condition>").replace(
                "<directory recursionLevel=\"2\">/in</directory>", "<queue>Q1</queue>")));
    }

    @Test
    void hostileDocumentsAreRefusedInsideTheTaskToo() {
        String plain = standard("<condition><fileMatch><pattern>a</pattern></fileMatch></condition>");
        String doctype = "<!DOCTYPE m [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>";
        MalformedRequestException e = assertThrows(MalformedRequestException.class,
                () -> parser.parse(plain.replace("<?xml version=\"1.0\"?>", "<?xml version=\"1.0\"?>" + doctype)));
        assertTrue(e.getMessage().contains("DOCTYPE"), e.getMessage());
        String deep = "<a>".repeat(40) + "</a>".repeat(40);
        e = assertThrows(MalformedRequestException.class,
                () -> parser.parse(plain.replace("<managedTransfer>", "<managedTransfer>" + deep)));
        assertTrue(e.getMessage().contains("deeper"), e.getMessage());
        RequestParser small = RequestParser.builder().maxElements(60).build();
        String many = "<x/>".repeat(100);
        e = assertThrows(MalformedRequestException.class,
                () -> small.parse(plain.replace("<managedTransfer>", "<managedTransfer>" + many)));
        assertTrue(e.getMessage().contains("elements"), e.getMessage());
        assertRefused(plain.replace("<name/>", "<name/>&lol;"), "entity");
    }

    private void assertRefused(String doc, String expected) {
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> parser.parse(doc));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
