package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile documents: entities, size, depth, count and length limits, odd encodings. */
class HardeningTest {
    private static final String SECRET = "TOP-SECRET-7c1e9a";

    private final RequestParser parser = new RequestParser();

    private static String everything(Throwable e) {
        StringWriter out = new StringWriter();
        e.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    @Test
    void externalEntityIsRefusedWithoutReadingTheFile(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
        String xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE request [<!ENTITY xxe SYSTEM \"" + secret.toUri() + "\">]>\n"
                + Documents.request("<originator><hostName>&xxe;</hostName><userID>u</userID></originator>"
                        + Documents.AGENTS + "<transferSet><item>" + Documents.SOURCE + Documents.DESTINATION
                        + "</item></transferSet>");

        for (Callable<?> attempt : List.<Callable<?>>of(() -> parser.parse(xml),
                () -> parser.parse(xml.getBytes(StandardCharsets.UTF_8)), () -> parser.parseReply(xml))) {
            MalformedRequestException e = assertThrows(MalformedRequestException.class, attempt::call);
            assertTrue(e.getMessage().contains("DOCTYPE is not allowed"), e.getMessage());
            assertFalse(everything(e).contains(SECRET), "the file's content leaked into the exception");
        }
    }

    @Test
    void externalDtdIsNeverFetched(@TempDir Path dir) throws Exception {
        // If this DTD were read, the parser would fail on its syntax, not on our rule.
        Path dtd = Files.writeString(dir.resolve("evil.dtd"), "<!ENTITY % broken " + SECRET);
        String xml = "<!DOCTYPE request SYSTEM \"" + dtd.toUri() + "\"><request version=\"6.00\"/>";

        MalformedRequestException e = Documents.rejected(xml);

        assertEquals("DOCTYPE is not allowed", e.getMessage());
        assertFalse(everything(e).contains(SECRET));
    }

    @Test
    void billionLaughsIsRefusedQuickly() {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
        xml.append("<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n");
        for (int i = 2; i <= 9; i++) {
            xml.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i - 1) + ";").repeat(10)).append("\">\n");
        }
        xml.append("]>\n<request version=\"6.00\"><managedTransfer><originator><hostName>&lol9;</hostName>");
        xml.append("<userID>u</userID></originator></managedTransfer></request>");

        MalformedRequestException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(MalformedRequestException.class, () -> parser.parse(xml.toString())));

        assertTrue(e.getMessage().contains("DOCTYPE is not allowed"), e.getMessage());
        assertFalse(e.getMessage().contains("lollol"), e.getMessage());
    }

    @Test
    void anyDoctypeIsRefused() {
        MalformedRequestException e = Documents.rejected("<!DOCTYPE request><request version=\"6.00\"/>");
        assertEquals("DOCTYPE is not allowed", e.reason());
    }

    @Test
    void undeclaredEntitiesAreRefused() {
        MalformedRequestException e = Documents.rejected(Documents.request(
                "<originator><hostName>&lol9;</hostName><userID>u</userID></originator>"));
        assertTrue(e.getMessage().contains("lol9"), e.getMessage());
        assertEquals("hostName", e.element());
    }

    @Test
    void documentsOverFourMebibytesAreRefusedBeforeParsing() {
        assertEquals(4 * 1024 * 1024, parser.maxDocumentBytes());
        String valid = Documents.resource("minimal-request.xml");
        String padded = valid + "<!--" + "x".repeat(4 * 1024 * 1024 - valid.length() - 6) + "-->";
        assertEquals(4 * 1024 * 1024 + 1, padded.getBytes(StandardCharsets.UTF_8).length);

        for (Callable<?> attempt : List.<Callable<?>>of(() -> parser.parse(padded),
                () -> parser.parse(padded.getBytes(StandardCharsets.UTF_8)), () -> parser.parseReply(padded))) {
            MalformedRequestException e = assertThrows(MalformedRequestException.class, attempt::call);
            assertEquals("the document is 4194305 bytes long; the limit is 4194304 bytes", e.getMessage());
            assertEquals(-1, e.line());
        }
    }

    @Test
    void stringSizeIsCountedInUtf8Bytes() {
        // Under the limit in characters, over it in bytes.
        String xml = "<request version=\"6.00\"><!--" + "é".repeat(2_200_000) + "--></request>";

        MalformedRequestException e = Documents.rejected(xml);

        assertTrue(e.getMessage().contains("the limit is 4194304 bytes"), e.getMessage());
    }

    @Test
    void sizeLimitIsInclusive() throws Exception {
        byte[] xml = Documents.resource("minimal-request.xml").getBytes(StandardCharsets.UTF_8);

        assertInstanceOf(TransferRequest.class, RequestParser.builder().maxDocumentBytes(xml.length).build().parse(xml));
        assertThrows(MalformedRequestException.class,
                () -> RequestParser.builder().maxDocumentBytes(xml.length - 1).build().parse(xml));
    }

    @Test
    void nestingDeeperThanTheLimitIsRefused() throws Exception {
        String xml = Documents.resource("example-request-supported.xml");
        // request/managedTransfer/transferSet/item/source/file is six deep.
        assertInstanceOf(TransferRequest.class, RequestParser.builder().maxDepth(6).build().parse(xml));

        MalformedRequestException e = assertThrows(MalformedRequestException.class,
                () -> RequestParser.builder().maxDepth(5).build().parse(xml));

        assertEquals("file", e.element());
        assertTrue(e.getMessage().contains("nested deeper than the limit of 5"), e.getMessage());
    }

    @Test
    void hugelyNestedGarbageIsRefusedWithoutExhaustingTheStack() {
        String deep = "<a>".repeat(200_000) + "</a>".repeat(200_000);

        MalformedRequestException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> Documents.rejected("<request version=\"6.00\"><managedTransfer>" + deep
                        + "</managedTransfer></request>"));

        assertEquals("a", e.element());
    }

    @Test
    void moreElementsThanTheLimitAreRefused() {
        assertEquals(100_000, parser.maxElements());
        StringBuilder metadata = new StringBuilder("<metaDataSet>");
        for (int i = 0; i < 100_000; i++) {
            metadata.append("<metaData key=\"k").append(i).append("\">v</metaData>");
        }
        metadata.append("</metaDataSet>");
        String xml = Documents.transferSet("", metadata + "<item>" + Documents.SOURCE + Documents.DESTINATION + "</item>");

        MalformedRequestException e = Documents.rejected(xml);

        assertTrue(e.getMessage().contains("more than the limit of 100000 elements"), e.getMessage());
        assertEquals("metaData", e.element());
    }

    @Test
    void elementCountLimitIsConfigurable() throws Exception {
        String xml = Documents.resource("minimal-request.xml");
        // request managedTransfer originator hostName userID sourceAgent destinationAgent transferSet item
        // source file destination file
        assertInstanceOf(TransferRequest.class, RequestParser.builder().maxElements(13).build().parse(xml));
        assertThrows(MalformedRequestException.class, () -> RequestParser.builder().maxElements(12).build().parse(xml));
    }

    @Test
    void longTextAndAttributesAreRefused() {
        String longText = "h".repeat(64 * 1024 + 1);
        MalformedRequestException e = Documents.rejected(Documents.request(
                "<originator><hostName>" + longText + "</hostName><userID>u</userID></originator>"));
        assertEquals("hostName", e.element());
        assertTrue(e.getMessage().contains("longer than the limit of 65536 characters"), e.getMessage());
        assertFalse(e.getMessage().contains("hhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhh"),
                "values in messages are shortened");

        e = Documents.rejected(Documents.request(Documents.ORIGINATOR + "<sourceAgent agent=\"" + longText + "\"/>"));
        assertEquals("sourceAgent", e.element());
        assertTrue(e.getMessage().contains("attribute agent is longer than the limit of 65536 characters"), e.getMessage());

        String atLimit = "h".repeat(64 * 1024);
        e = Documents.rejected(Documents.request("<originator><hostName>" + atLimit + "</hostName></originator>"));
        assertTrue(e.getMessage().contains("missing required element <userID>"), "the limit itself is allowed: " + e);
    }

    @Test
    void aLongValueQuotedInAMessageIsNeverCutBetweenTheHalvesOfACharacter() {
        // 79 ASCII characters, then one outside the BMP: the 80-character cut falls inside it.
        String value = "a".repeat(79) + "\uD83D\uDE00" + "tail";
        MalformedRequestException e = Documents.rejected(Documents.transferSet("priority=\"" + value + "\"",
                "<item>" + Documents.SOURCE + Documents.DESTINATION + "</item>"));

        assertTrue(e.getMessage().contains("a".repeat(79) + "...(85 characters)"), e.getMessage());
        // The message is the supplement of the agent's result 43 reply: it must be text XML can carry.
        assertEquals(List.of(e.getMessage()), new Reply(DocumentWriter.VERSION, "ID", 43, List.of(e.getMessage()),
                List.of()).supplements());
    }

    @Test
    void byteInputHonoursTheDeclaredEncoding() throws Exception {
        String xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" + Documents.request(
                "<originator><hostName>caf\u00e9</hostName><userID>u</userID></originator>" + Documents.AGENTS
                        + "<transferSet><item>" + Documents.SOURCE + Documents.DESTINATION + "</item></transferSet>");

        TransferRequest request = (TransferRequest) parser.parse(xml.getBytes(StandardCharsets.ISO_8859_1));

        assertEquals("caf\u00e9", request.originator().hostName());
    }

    @Test
    void byteOrderMarksAreAccepted() throws Exception {
        String xml = Documents.resource("minimal-request.xml");
        CommandDocument expected = parser.parse(xml);

        byte[] utf8 = xml.getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[utf8.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(utf8, 0, withBom, 3, utf8.length);
        assertEquals(expected, parser.parse(withBom));

        String utf16Xml = xml.replace("encoding=\"UTF-8\"", "encoding=\"UTF-16\"");
        assertEquals(expected, parser.parse(utf16Xml.getBytes(StandardCharsets.UTF_16)), "UTF_16 writes a BOM");
        assertEquals(expected, parser.parse("\uFEFF" + xml));
    }

    @Test
    void oneParserServesManyThreads() throws Exception {
        String xml = Documents.resource("example-request-supported.xml");
        CommandDocument expected = parser.parse(xml);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<CommandDocument>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                results.add(pool.submit(() -> parser.parse(xml)));
            }
            for (Future<CommandDocument> result : results) {
                assertEquals(expected, result.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void builderRefusesNonsenseLimits() {
        assertThrows(IllegalArgumentException.class, () -> RequestParser.builder().maxDepth(0));
        assertThrows(IllegalArgumentException.class, () -> RequestParser.builder().maxDocumentBytes(-1));
        assertThrows(IllegalArgumentException.class, () -> RequestParser.builder().maxElements(0));
        assertThrows(IllegalArgumentException.class, () -> RequestParser.builder().maxTextLength(0));
    }
    @Test
    void anInvalidCharacterInADoctypeIsNamedNotACrashOfTheParser() {
        MalformedRequestException e = assertThrows(MalformedRequestException.class,
                () -> new RequestParser().parse("<!DOCTYPE request [\u0001]><request/>"));
        assertTrue(e.getMessage().contains("not well-formed XML") && e.getMessage().contains("InvalidCharInDTD"),
                e.getMessage());
        assertNull(e.getCause());
    }
}
