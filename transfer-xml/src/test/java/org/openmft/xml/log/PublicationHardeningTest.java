package org.openmft.xml.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.openmft.xml.log.Publications.TRANSFER_ID;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hostile and broken documents are refused with a message that says what is wrong. */
class PublicationHardeningTest {
    private static final String SECRET = "TOP-SECRET-4b7f21";
    private static final String PROPERTIES_DOCTYPE =
            "<!DOCTYPE properties SYSTEM \"http://java.sun.com/dtd/properties.dtd\">";
    private static final String LOG_START = "<transaction version=\"6.00\" ID=\"" + TRANSFER_ID
            + "\" agentRole=\"sourceAgent\"><action time=\"2026-11-22T10:00:00Z\">started</action>";

    private final PublicationReader reader = new PublicationReader();

    /** What each read method makes of a document. */
    @FunctionalInterface
    private interface Read {
        Object read(PublicationReader reader, String xml) throws MalformedPublicationException;
    }

    private static final List<Read> ALL_READS = List.of(
            PublicationReader::readLog,
            PublicationReader::readProgress,
            PublicationReader::readAgentStatus,
            (r, xml) -> r.readLog(xml.getBytes(StandardCharsets.UTF_8)),
            (r, xml) -> r.readProgress(xml.getBytes(StandardCharsets.UTF_8)),
            (r, xml) -> r.readAgentStatus(xml.getBytes(StandardCharsets.UTF_8)));

    private MalformedPublicationException refusedLog(String xml) {
        return refused(PublicationReader::readLog, xml);
    }

    private MalformedPublicationException refusedStatus(String xml) {
        return refused(PublicationReader::readAgentStatus, xml);
    }

    private MalformedPublicationException refused(Read read, String xml) {
        MalformedPublicationException e = catchThrowableOfType(MalformedPublicationException.class,
                () -> read.read(reader, xml));
        assertThat(e).as("refused: %s", xml.length() > 300 ? xml.substring(0, 300) + "..." : xml).isNotNull();
        return e;
    }

    private static String everything(Throwable e) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    // ---------------------------------------------------------------- DTDs and entities

    @Test
    void externalEntityIsRefusedWithoutReadingTheFile(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
        String subset = "[<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]";
        String log = "<!DOCTYPE transaction " + subset + ">" + LOG_START
                + "<originator><hostName>&xxe;</hostName><userID>u</userID></originator></transaction>";
        String status = "<!DOCTYPE properties SYSTEM \"http://java.sun.com/dtd/properties.dtd\" " + subset + ">"
                + "<properties><entry key=\"agentName\">&xxe;</entry></properties>";

        for (Read read : ALL_READS) {
            for (String xml : List.of(log, status)) {
                MalformedPublicationException e = refused(read, xml);
                assertThat(e.getMessage()).containsAnyOf("DOCTYPE is not allowed",
                        "DOCTYPE with an internal subset is not allowed");
                assertThat(everything(e)).doesNotContain(SECRET);
            }
        }
        assertThat(refusedStatus(status).reason()).isEqualTo("DOCTYPE with an internal subset is not allowed");
        assertThat(refusedLog(log).reason()).isEqualTo("DOCTYPE is not allowed");
    }

    @Test
    void parameterEntitiesAreRefusedWithoutFetchingAnything(@TempDir Path dir) throws Exception {
        // If this DTD were read, the parser would fail on its syntax (or leak the secret), not on our rule.
        Path dtd = Files.writeString(dir.resolve("evil.dtd"), "<!ENTITY % broken " + SECRET);
        String xml = "<!DOCTYPE properties [<!ENTITY % remote SYSTEM \"" + dtd.toUri() + "\"> %remote;]>"
                + "<properties><entry key=\"agentName\">A</entry></properties>";

        MalformedPublicationException e = refusedStatus(xml);

        assertThat(e.reason()).isEqualTo("DOCTYPE with an internal subset is not allowed");
        assertThat(everything(e)).doesNotContain(SECRET);
    }

    @Test
    void externalDtdsOtherThanThePropertiesOneAreRefusedAndNeverFetched(@TempDir Path dir) throws Exception {
        Path dtd = Files.writeString(dir.resolve("evil.dtd"), "<!ENTITY % broken " + SECRET);
        String status = "<!DOCTYPE properties SYSTEM \"" + dtd.toUri() + "\"><properties/>";

        MalformedPublicationException e = refusedStatus(status);

        assertThat(e.reason()).startsWith("DOCTYPE \"<!DOCTYPE properties SYSTEM")
                .endsWith("is not allowed; only <!DOCTYPE properties SYSTEM \"http://java.sun.com/dtd/properties.dtd\"> is");
        assertThat(everything(e)).doesNotContain(SECRET);
        assertThat(refusedStatus("<!DOCTYPE properties PUBLIC \"-//x//y\" \"http://java.sun.com/dtd/properties.dtd\">"
                + "<properties/>").reason()).contains("is not allowed; only <!DOCTYPE properties SYSTEM");
        assertThat(refusedStatus("<!DOCTYPE transaction SYSTEM \"http://java.sun.com/dtd/properties.dtd\">"
                + "<properties/>").reason()).contains("is not allowed; only");
        assertThat(refusedStatus("<!DOCTYPE properties><properties/>").reason()).contains("is not allowed; only");
    }

    @Test
    void thePropertiesDoctypeIsAcceptedForAgentStatusOnly() throws Exception {
        String status = PROPERTIES_DOCTYPE + "<properties><entry key=\"agentName\">A</entry></properties>";

        // Offline, and with a resolver that refuses everything: accepting it shows the DTD is not fetched.
        assertThat(reader.readAgentStatus(status).agentName()).isEqualTo("A");
        assertThat(reader.readAgentStatus(status.replace('"', '\'')).agentName()).isEqualTo("A");

        assertThat(refusedLog(PROPERTIES_DOCTYPE + LOG_START + "</transaction>").reason())
                .isEqualTo("DOCTYPE is not allowed");
        assertThat(refused(PublicationReader::readProgress, PROPERTIES_DOCTYPE + "<transaction/>").reason())
                .isEqualTo("DOCTYPE is not allowed");
    }

    @Test
    void anInvalidCharacterInADoctypeIsNamedNotACrashOfTheParser() {
        // The JDK's parser throws MissingResourceException (key InvalidCharInDTD) for this; found by
        // ParserFuzzTest.
        for (Read read : ALL_READS) {
            MalformedPublicationException e = refused(read, "<!DOCTYPE transaction [\u0001]><transaction/>");
            assertThat(e.getMessage()).contains("not well-formed XML").contains("InvalidCharInDTD");
            assertThat(e.getCause()).isNull();
        }
    }

    @Test
    void billionLaughsIsRefusedQuickly() {
        StringBuilder subset = new StringBuilder("[\n<!ENTITY lol \"lol\">\n");
        subset.append("<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n");
        for (int i = 2; i <= 9; i++) {
            subset.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i - 1) + ";").repeat(10))
                    .append("\">\n");
        }
        subset.append("]");
        String log = "<?xml version=\"1.0\"?>\n<!DOCTYPE transaction " + subset + ">\n" + LOG_START
                + "<job><name>&lol9;</name></job></transaction>";
        String status = "<?xml version=\"1.0\"?>\n<!DOCTYPE properties SYSTEM \"http://java.sun.com/dtd/properties.dtd\" "
                + subset + ">\n<properties><entry key=\"agentName\">&lol9;</entry></properties>";

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            for (Read read : ALL_READS) {
                for (String xml : List.of(log, status)) {
                    MalformedPublicationException e = refused(read, xml);
                    assertThat(e.getMessage()).contains("DOCTYPE").doesNotContain("lollol");
                }
            }
        });
    }

    @Test
    void undeclaredEntitiesAreRefused() {
        MalformedPublicationException e = refusedLog(LOG_START + "<job><name>&lol9;</name></job></transaction>");
        assertThat(e.getMessage()).contains("lol9");
        assertThat(e.element()).isEqualTo("name");

        e = refusedStatus("<properties><entry key=\"agentName\">&lol9;</entry></properties>");
        assertThat(e.getMessage()).contains("lol9");
    }

    // ---------------------------------------------------------------- limits

    @Test
    void documentsOverFourMebibytesAreRefusedBeforeParsing() {
        String valid = new PublicationWriter().write(Publications.started());
        String padded = valid + "<!--" + "x".repeat(4 * 1024 * 1024 - valid.length() - 6) + "-->";
        assertThat(padded.getBytes(StandardCharsets.UTF_8)).hasSize(4 * 1024 * 1024 + 1);

        for (Read read : ALL_READS) {
            MalformedPublicationException e = refused(read, padded);
            assertThat(e.getMessage()).isEqualTo("the document is 4194305 bytes long; the limit is 4194304 bytes");
            assertThat(e.line()).isEqualTo(-1);
        }
    }

    @Test
    void stringSizeIsCountedInUtf8Bytes() {
        String xml = "<properties><!--" + "é".repeat(2_200_000) + "--></properties>";

        assertThat(refusedStatus(xml).getMessage()).contains("the limit is 4194304 bytes");
    }

    @Test
    void hugelyNestedElementsAreRefusedWithoutExhaustingTheStack() {
        String deep = "<a>".repeat(200_000) + "</a>".repeat(200_000);

        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            MalformedPublicationException e = refusedLog(LOG_START + deep + "</transaction>");
            assertThat(e.element()).isEqualTo("a");
            assertThat(e.reason()).isEqualTo("elements are nested deeper than the limit of 32");

            e = refusedStatus("<properties><entry key=\"agentName\">A</entry>" + deep + "</properties>");
            assertThat(e.reason()).isEqualTo("elements are nested deeper than the limit of 32");
        });
    }

    @Test
    void moreElementsThanTheLimitAreRefused() {
        String many = "<unknown/>".repeat(100_000);

        MalformedPublicationException e = refusedLog(LOG_START + many + "</transaction>");

        assertThat(e.reason()).isEqualTo("the document has more than the limit of 100000 elements");
        assertThat(e.element()).isEqualTo("unknown");
    }

    @Test
    void longTextAndAttributesAreRefused() {
        String longText = "s".repeat(64 * 1024 + 1);

        MalformedPublicationException e = refusedLog(LOG_START
                + "<status resultCode=\"1\"><supplement>" + longText + "</supplement></status></transaction>");
        assertThat(e.element()).isEqualTo("supplement");
        assertThat(e.reason()).isEqualTo("text is longer than the limit of 65536 characters");

        e = refusedLog(LOG_START + "<sourceAgent agent=\"" + longText + "\"/></transaction>");
        assertThat(e.element()).isEqualTo("sourceAgent");
        assertThat(e.reason()).isEqualTo("attribute agent is longer than the limit of 65536 characters");
        assertThat(e.getMessage()).doesNotContain("ssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss");
    }

    // ---------------------------------------------------------------- not XML, not the document asked for

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "hello", "{\"transaction\": {}}", "<transaction", "<transaction version=\"6.00\" ID=\"x\" agentRole=\"r\"><action time=\"2026-11-22T10:00:00Z\">started</actio></transaction>",
            "<a></a><b></b>", "\u0000\u0001\u0002", "<?xml version=\"1.0\"?>"})
    void notXmlIsRefused(String xml) {
        for (Read read : ALL_READS) {
            MalformedPublicationException e = refused(read, xml);
            assertThat(e.reason()).containsAnyOf("not well-formed XML", "the document has no root element",
                    "unknown root element");
        }
    }

    @Test
    void binaryGarbageIsRefused() {
        byte[] garbage = new byte[4096];
        new Random(42).nextBytes(garbage);

        MalformedPublicationException e = catchThrowableOfType(MalformedPublicationException.class,
                () -> reader.readLog(garbage));

        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("not well-formed XML");
    }

    @Test
    void nullIsRefused() {
        assertThat(catchThrowableOfType(MalformedPublicationException.class, () -> reader.readLog((String) null)))
                .hasMessage("there is no document (null)");
        assertThat(catchThrowableOfType(MalformedPublicationException.class, () -> reader.readProgress((byte[]) null)))
                .hasMessage("there is no document (null)");
        assertThat(catchThrowableOfType(MalformedPublicationException.class,
                () -> reader.readAgentStatus((String) null))).hasMessage("there is no document (null)");
    }

    @Test
    void theWrongKindOfDocumentIsRefusedSayingSo() {
        PublicationWriter writer = new PublicationWriter();
        String log = writer.write(Publications.started());
        String progress = writer.write(Publications.liveProgress());
        String status = writer.write(Publications.clientStatus());

        assertThat(refusedLog(progress).reason()).isEqualTo("xsi:noNamespaceSchemaLocation=\"TransferStatus.xsd\""
                + " says this is not a transfer log but a TransferStatus.xsd document");
        assertThat(refused(PublicationReader::readProgress, log).reason()).isEqualTo(
                "xsi:noNamespaceSchemaLocation=\"TransferLog.xsd\" says this is not a transfer progress message but a"
                        + " TransferLog.xsd document");
        assertThat(refusedLog(status).reason()).isEqualTo("DOCTYPE is not allowed");
        assertThat(refusedLog(status.substring(status.indexOf("<properties>"))).reason())
                .isEqualTo("unknown root element <properties>; expected <transaction> (TransferLog.xsd) in no namespace");
        assertThat(refusedStatus(log).reason())
                .isEqualTo("unknown root element <transaction>; expected <properties> in no namespace");
        assertThat(refusedLog("<request version=\"6.00\"/>").reason()).startsWith("unknown root element <request>");
        assertThat(refusedLog("<t:transaction xmlns:t=\"urn:x\"/>").reason())
                .isEqualTo("unknown root element <transaction> in namespace \"urn:x\"; expected <transaction>"
                        + " (TransferLog.xsd) in no namespace");
    }

    // ---------------------------------------------------------------- values that make no sense

    @Test
    void missingRequiredPartsAreNamed() {
        assertThat(refusedLog("<transaction version=\"6.00\" agentRole=\"sourceAgent\"/>").getMessage())
                .isEqualTo("line 1, column 54, element <transaction>: missing required attribute ID");
        assertThat(refusedLog("<transaction version=\"6.00\" ID=\"x\" agentRole=\"sourceAgent\"/>").reason())
                .isEqualTo("missing required element <action>");
        assertThat(refusedLog("<transaction version=\"6.00\" ID=\"x\" agentRole=\"sourceAgent\"><action>started</action>"
                + "</transaction>").reason()).isEqualTo("missing required attribute time");
        MalformedPublicationException e = refusedLog(LOG_START + "<status/></transaction>");
        assertThat(e.element()).isEqualTo("status");
        assertThat(e.reason()).isEqualTo("missing required attribute resultCode");
        e = refusedLog(LOG_START + "<transferSet><item><source><file>/a</file></source></item></transferSet></transaction>");
        assertThat(e.element()).isEqualTo("item");
        assertThat(e.reason()).isEqualTo("missing required element <status>");
        e = refusedLog(LOG_START + "<transferSet><item><source><checksum/></source><status resultCode=\"0\"/></item>"
                + "</transferSet></transaction>");
        assertThat(e.reason()).isEqualTo("<source> names no <file> or <queue>");
        e = refusedLog(LOG_START + "<originator><hostName>h</hostName></originator></transaction>");
        assertThat(e.reason()).isEqualTo("missing required element <userID>");
        e = refusedLog(LOG_START + "<sourceAgent QMgr=\"QM\"/></transaction>");
        assertThat(e.reason()).isEqualTo("missing required attribute agent");
        assertThat(refused(PublicationReader::readProgress, "<transaction version=\"4.00\" ID=\"x\">"
                + "<sourceAgent agent=\"S\"/><destinationAgent agent=\"D\"/></transaction>").reason())
                .isEqualTo("missing required element <transferSet>");
        assertThat(refusedStatus("<properties><entry key=\"agentOsName\">Linux</entry></properties>").reason())
                .isEqualTo("missing required entry agentName");
        assertThat(refusedStatus("<properties><entry>x</entry></properties>").reason())
                .isEqualTo("missing required attribute key");
    }

    @Test
    void badValuesAreQuotedWithWhereTheyAre() {
        MalformedPublicationException e = refusedLog(LOG_START.replace(">started<", ">begun<") + "</transaction>");
        assertThat(e.element()).isEqualTo("action");
        assertThat(e.reason()).isEqualTo("unknown action \"begun\"; expected one of started, progress, completed,"
                + " cancelled, malformed, callStarted, callCompleted");

        e = refusedLog(LOG_START.replace("2026-11-22T10:00:00Z", "yesterday") + "</transaction>");
        assertThat(e.reason()).isEqualTo("attribute time=\"yesterday\" is not an ISO-8601 time");

        e = refusedLog(LOG_START + "<transferSet total=\"many\"/></transaction>");
        assertThat(e.element()).isEqualTo("transferSet");
        assertThat(e.reason()).isEqualTo("attribute total=\"many\" is not a whole number");

        e = refusedLog(LOG_START + "<transferSet total=\"99999999999\"/></transaction>");
        assertThat(e.reason()).isEqualTo("attribute total=\"99999999999\" is out of range");

        e = refusedLog(LOG_START + "<transferSet bytesSent=\"-7\"/></transaction>");
        assertThat(e.reason()).isEqualTo("bytesSent must be -1 (unknown) or more, not -7");

        e = refusedLog(LOG_START + "<status resultCode=\"-3\"/></transaction>");
        assertThat(e.reason()).isEqualTo("attribute resultCode=\"-3\" is negative");

        e = refusedLog(LOG_START + "<transferSet><item><source><file size=\"1 KB\">/a</file></source>"
                + "<status resultCode=\"0\"/></item></transferSet></transaction>");
        assertThat(e.element()).isEqualTo("file");
        assertThat(e.reason()).isEqualTo("attribute size=\"1 KB\" is not a whole number");

        e = refusedLog(LOG_START + "<statistics><retryCount>twice</retryCount></statistics></transaction>");
        assertThat(e.element()).isEqualTo("retryCount");
        assertThat(e.reason()).isEqualTo("text=\"twice\" is not a whole number");

        e = refusedLog(LOG_START + "<sourceAgent agent=\"A&#1;B\"/></transaction>");
        assertThat(e.getMessage()).contains("not well-formed XML");

        e = refusedLog(LOG_START + "<sourceAgent agent=\"A&#9;B\"/></transaction>");
        assertThat(e.element()).isEqualTo("sourceAgent");
        assertThat(e.reason()).isEqualTo("agent \"A\\u0009B\" contains a control character");

        e = refused(PublicationReader::readProgress, "<transaction version=\"4.00\" ID=\"x\"><sourceAgent agent=\"S\"/>"
                + "<destinationAgent agent=\"D\"/><transferSet time=\"2026-11-22T10:00:00Z\">"
                + "<stats seconds=\"NaN\"/></transferSet></transaction>");
        assertThat(e.element()).isEqualTo("stats");
        assertThat(e.reason()).isEqualTo("attribute seconds=\"NaN\" is not a decimal number");

        e = refusedStatus("<properties><entry key=\"agentName\">A</entry>\n"
                + "<entry key=\"com.ibm.wmqfte.maxSourceTransfers\">lots</entry></properties>");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.element()).isEqualTo("entry");
        assertThat(e.reason()).isEqualTo("entry maxSourceTransfers=\"lots\" is not a whole number");

        e = refusedStatus("<properties><entry key=\"agentName\">A</entry>"
                + "<entry key=\"queueManagerPort\">70000</entry></properties>");
        assertThat(e.reason()).isEqualTo("queueManagerPort must be -1 (bindings) or 0-65535, not 70000");

        e = refusedStatus("<properties><entry key=\"agentName\">A</entry>"
                + "<entry key=\"SourceTransferStates\">" + TRANSFER_ID + "=RunningTransfer\nRunningTransfer</entry>"
                + "</properties>");
        assertThat(e.reason()).isEqualTo("entry SourceTransferStates: line \"RunningTransfer\" is not of the form"
                + " transferId=State");

        e = refusedStatus("<properties><entry key=\"agentName\">A</entry>"
                + "<entry key=\"AgentStatusPublishTime\">Tuesday</entry></properties>");
        assertThat(e.reason()).isEqualTo("entry AgentStatusPublishTime=\"Tuesday\" is not an ISO-8601 time");
    }

    @Test
    void modelledElementsMayNotBeRepeated() {
        MalformedPublicationException e = refusedLog(LOG_START
                + "<action time=\"2026-11-22T10:00:01Z\">completed</action></transaction>");
        assertThat(e.element()).isEqualTo("action");
        assertThat(e.reason()).isEqualTo("element <action> appears more than once in <transaction>");

        e = refusedLog(LOG_START + "<transferSet><item><source><file>/a</file><file>/b</file></source>"
                + "<status resultCode=\"0\"/></item></transferSet></transaction>");
        assertThat(e.reason()).isEqualTo("<source> names more than one <file> or <queue>");
    }

    @Test
    void textWhereElementsBelongAndElementsWhereTextBelongsAreRefused() {
        MalformedPublicationException e = refusedLog(LOG_START + "stray words</transaction>");
        assertThat(e.element()).isEqualTo("transaction");
        assertThat(e.reason()).isEqualTo("text \"stray words\" is not allowed here; <transaction> holds elements only");

        e = refusedLog(LOG_START + "<job><name>a<b/>c</name></job></transaction>");
        assertThat(e.element()).isEqualTo("b");
        assertThat(e.reason()).isEqualTo("element <b> is not allowed here; <name> holds text only");
    }

    @Test
    void controlCharactersInMessagesAreMadeVisible() {
        MalformedPublicationException e = refusedLog(LOG_START.replace(">started<", ">be&#10;gun<") + "</transaction>");

        assertThat(e.getMessage()).contains("\"be\\u000agun\"").doesNotContain("\n");
    }

    // ---------------------------------------------------------------- sharing

    @Test
    void oneReaderServesManyThreads() throws Exception {
        PublicationWriter writer = new PublicationWriter();
        TransferLog log = Publications.progress(Publications.succeeded(), Publications.failed());
        String xml = writer.write(log);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<TransferLog>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                results.add(pool.submit(() -> reader.readLog(xml)));
            }
            for (Future<TransferLog> result : results) {
                assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(log);
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
