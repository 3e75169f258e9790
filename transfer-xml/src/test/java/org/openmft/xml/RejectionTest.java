package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every way a command document is refused, and what the refusal says. */
class RejectionTest {
    private static final String O = Documents.ORIGINATOR;
    private static final String A = Documents.AGENTS;
    private static final String S = Documents.SOURCE;
    private static final String D = Documents.DESTINATION;
    private static final String ITEM = "<item>" + S + D + "</item>";

    private final RequestParser parser = new RequestParser();

    /** Asserts a plain (not unsupported) refusal naming the element and containing the words. */
    private MalformedRequestException malformed(String xml, String element, String... words) {
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> parser.parse(xml));
        assertFalse(e instanceof UnsupportedRequestException, "expected malformed, got " + e);
        check(e, element, words);
        return e;
    }

    private UnsupportedRequestException unsupported(String xml, String element, String... words) {
        UnsupportedRequestException e = assertThrows(UnsupportedRequestException.class, () -> parser.parse(xml));
        check(e, element, "not supported yet");
        check(e, element, words);
        return e;
    }

    private static void check(MalformedRequestException e, String element, String... words) {
        assertEquals(element, e.element(), e.getMessage());
        assertEquals(43, e.resultCode());
        if (element != null) {
            assertTrue(e.line() > 0, e.getMessage());
            assertTrue(e.getMessage().matches("line \\d+, column \\d+, element <" + element + ">: .+"), e.getMessage());
        }
        for (String word : words) {
            assertTrue(e.getMessage().contains(word), "expected \"" + word + "\" in: " + e.getMessage());
        }
    }

    @Test
    void messageHasTheDocumentedForm() {
        String xml = "<request version=\"6.00\">\n<managedTransfer>\n" + O + "\n" + A + "\n"
                + "<transferSet priority=\"12\">" + ITEM + "</transferSet>\n</managedTransfer>\n</request>";

        MalformedRequestException e = malformed(xml, "transferSet");

        assertEquals(5, e.line());
        assertEquals("line 5, column " + e.column() + ", element <transferSet>: attribute priority=\"12\" is out of range 0-9",
                e.getMessage());
        assertEquals("attribute priority=\"12\" is out of range 0-9", e.reason());
    }

    // ------------------------------------------------------------ structure

    @Test
    void unknownRootIsMalformed() {
        malformed("<transfer version=\"6.00\"/>", "transfer", "unknown root element <transfer>", "<request>");
        malformed("<reply version=\"6.00\" ID=\"x\"><status resultCode=\"0\"/></reply>", "reply", "not a command");
    }

    @Test
    void rootsInTheWrongNamespaceAreMalformed() {
        malformed("<request xmlns=\"urn:other\" version=\"6.00\"/>", "request", "namespace \"urn:other\"");
        malformed("<pingAgent xmlns=\"urn:other\" version=\"6.00\"/>", "pingAgent", "namespace \"urn:other\"");
        malformed("<request version=\"6.00\"><managedTransfer xmlns=\"urn:x\"/></request>", "managedTransfer",
                "namespace \"urn:x\"");
    }

    @Test
    void unknownChildrenAreNamedWithWhatWasExpected() {
        malformed(Documents.request(O + "<bogus/>" + A), "bogus", "unexpected element <bogus>", "expected <sourceAgent>");
        malformed(Documents.item("", "<source><file>/a</file><extra/></source>", D), "extra",
                "unexpected element <extra>", "<file>");
        malformed(Documents.request("<originator><hostName>h</hostName><userID>u</userID><group>g</group></originator>" + A),
                "group", "unexpected element <group> in <originator>", "<mqmdUserID>");
        malformed(Documents.request(O + A + "<transferSet>" + ITEM + "</transferSet><extra/>"), "extra",
                "unexpected element <extra> in <managedTransfer>");
    }

    @Test
    void repeatedOrMisplacedElementsAreMalformed() {
        malformed(Documents.request(A + O), "sourceAgent", "expected <originator>");
        malformed(Documents.request(O + A + "<transferSet>" + ITEM + "</transferSet><transferSet>" + ITEM + "</transferSet>"),
                "transferSet", "repeated or out of order");
        malformed(Documents.request(O + A + "<transferSet>" + ITEM + "<metaDataSet/></transferSet>"), "metaDataSet",
                "repeated or out of order");
    }

    @Test
    void missingRequiredElementsAreNamed() {
        malformed("<request version=\"6.00\"/>", "request", "missing required element <managedTransfer>");
        malformed(Documents.request(A), "sourceAgent", "expected <originator>");
        malformed(Documents.request(O + "<sourceAgent agent=\"S\"/>"), "managedTransfer",
                "missing required element <destinationAgent>");
        malformed(Documents.request(O + A), "managedTransfer", "missing required element <transferSet>");
        malformed(Documents.transferSet("", ""), "transferSet", "missing required element <item>");
        malformed(Documents.request("<originator><userID>u</userID></originator>" + A), "userID", "expected <hostName>");
        malformed(Documents.item("", "<source/>", D), "source", "missing required element <file>");
        malformed(Documents.item("", S, ""), "item", "missing required element <destination>");
        malformed(Documents.request(O + A + "<transferSet>" + ITEM + "</transferSet><job/>"), "job",
                "missing required element <name>");
    }

    @Test
    void missingRequiredAttributesAreNamed() {
        malformed("<request><managedTransfer/></request>", "request", "missing required attribute version");
        malformed(Documents.request(O + "<sourceAgent QMgr=\"QM\"/><destinationAgent agent=\"D\"/>"), "sourceAgent",
                "missing required attribute agent");
        malformed(Documents.transferSet("", "<metaDataSet><metaData>v</metaData></metaDataSet>" + ITEM), "metaData",
                "missing required attribute key");
    }

    @Test
    void unknownAttributesAreMalformed() {
        malformed(Documents.item("speed=\"fast\"", S, D), "item", "attribute speed is not allowed",
                "checksumMethod, mode");
        malformed(Documents.request(O + "<sourceAgent agent=\"S\" foo:x=\"1\" xmlns:foo=\"urn:foo\"/>"), "sourceAgent",
                "{urn:foo}x");
    }

    @Test
    void schemaInstanceAttributesAreAllowedAnywhere() throws Exception {
        String xml = Documents.item("xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:type=\"x\"", S, D);

        assertInstanceOf(TransferRequest.class, parser.parse(xml));
    }

    @Test
    void textWhereOnlyElementsBelongIsMalformed() {
        malformed(Documents.request(O + A + "stray words<transferSet>" + ITEM + "</transferSet>"), "managedTransfer",
                "text \"stray words\" is not allowed here");
    }

    @Test
    void elementsInsideTextAreMalformed() {
        malformed(Documents.request("<originator><hostName>h<b>bold</b></hostName><userID>u</userID></originator>" + A),
                "b", "<hostName> holds text only");
        malformed(Documents.request(O + "<sourceAgent agent=\"S\"><x/></sourceAgent>"), "x", "must be empty");
    }

    @Test
    void emptyTextIsMalformed() {
        malformed(Documents.request("<originator><hostName>  </hostName><userID>u</userID></originator>" + A),
                "hostName", "<hostName> must not be empty");
        malformed(Documents.item("", "<source><file></file></source>", D), "file", "<file> must not be empty");
    }

    // ------------------------------------------------------------ unsupported parts of IBM's schema

    @Test
    void otherRequestKindsAreUnsupported() {
        unsupported("<transferSpecifications/>", "transferSpecifications");
        // Directory and queue monitors are read (MonitorDocumentTest).
        unsupported("<cancel version=\"6.00\">" + O + "<call><ID>" + Documents.TRANSFER_ID + "</ID></call></cancel>", "call");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dataset", "pds", "DATASET"})
    void nonFileItemTypesAreUnsupported(String type) {
        // Queue sources and destinations are read: QueueSourceXmlTest, QueueDestinationXmlTest.
        unsupported(Documents.item("", "<source type=\"" + type + "\"><file>/a</file></source>", D), "source",
                "type=\"" + type + "\"");
        unsupported(Documents.item("", S, "<destination type=\"" + type + "\"><file>/a</file></destination>"),
                "destination", "type=\"" + type + "\"");
    }

    // ------------------------------------------------------------ values

    static Stream<Arguments> absurdValues() {
        return Stream.of(
                Arguments.of(Documents.transferSet("priority=\"12\"", ITEM), "transferSet", "priority=\"12\" is out of range 0-9"),
                Arguments.of(Documents.transferSet("priority=\"-1\"", ITEM), "transferSet", "out of range 0-9"),
                Arguments.of(Documents.transferSet("priority=\"high\"", ITEM), "transferSet", "priority=\"high\" is not a whole number"),
                Arguments.of(Documents.transferSet("priority=\"99999999999999999999\"", ITEM), "transferSet", "not a whole number"),
                Arguments.of(Documents.transferSet("recoveryTimeout=\"-5\"", ITEM), "transferSet", "recoveryTimeout=\"-5\" is out of range"),
                Arguments.of(Documents.transferSet("recoveryTimeout=\"1.5\"", ITEM), "transferSet", "not a whole number"),
                Arguments.of(Documents.item("mode=\"fast\"", S, D), "item", "mode=\"fast\" is not valid; expected binary or text"),
                Arguments.of(Documents.item("checksumMethod=\"SHA-1\"", S, D), "item", "expected MD5, SHA-256 or none"),
                Arguments.of(Documents.item("", "<source disposition=\"move\"><file>/a</file></source>", D), "source",
                        "disposition=\"move\" is not valid"),
                Arguments.of(Documents.item("", "<source recursive=\"yes\"><file>/a</file></source>", D), "source",
                        "recursive=\"yes\" is not valid; expected true or false"),
                Arguments.of(Documents.item("", "<source type=\"link\"><file>/a</file></source>", D), "source",
                        "type=\"link\" is not valid; expected file"),
                Arguments.of(Documents.item("", S, "<destination type=\"folder\"><file>/a</file></destination>"), "destination",
                        "type=\"folder\" is not valid"),
                Arguments.of(Documents.item("", S, "<destination exist=\"replace\"><file>/a</file></destination>"), "destination",
                        "exist=\"replace\" is not valid; expected error or overwrite"),
                Arguments.of(Documents.item("", S, "<destination><file EOL=\"CR\">/a</file></destination>"), "file",
                        "EOL=\"CR\" is not valid; expected LF or CRLF"),
                Arguments.of(Documents.request(O + A + "<reply detailed=\"maybe\">Q</reply><transferSet>" + ITEM
                        + "</transferSet>"), "reply", "detailed=\"maybe\""),
                Arguments.of(Documents.item("", "<source><file>" + "x".repeat(4097) + "</file></source>", D), "file",
                        "4097 characters long; the limit is 4096"),
                Arguments.of(Documents.item("", "<source><file>/data/*/a.txt</file></source>",
                        "<destination type=\"directory\"><file>/out</file></destination>"), "source",
                        "wildcard outside its last component"),
                Arguments.of(Documents.item("", "<source><file>C:\\da?a\\a.txt</file></source>",
                        "<destination type=\"directory\"><file>/out</file></destination>"), "source",
                        "wildcard outside its last component"),
                Arguments.of(Documents.item("", "<source><file>/data/*.txt</file></source>", D), "item",
                        "has a wildcard, so the destination type must be directory"),
                Arguments.of(Documents.item("", "<source recursive=\"true\"><file>/data</file></source>", D), "item",
                        "is recursive, so the destination type must be directory"),
                Arguments.of(Documents.transferSet("", "<metaDataSet><metaData key=\"k\">1</metaData>"
                        + "<metaData key=\"k\">2</metaData></metaDataSet>" + ITEM), "metaData", "\"k\" appears twice"),
                Arguments.of("<cancel version=\"6.00\">" + O + "<transfer><ID>414d51</ID></transfer></cancel>", "ID",
                        "must be 48 hexadecimal characters"),
                Arguments.of("<cancel version=\"6.00\">" + O + "<transfer><ID>" + "g".repeat(48) + "</ID></transfer></cancel>",
                        "ID", "must be 48 hexadecimal characters"));
    }

    @ParameterizedTest
    @MethodSource("absurdValues")
    void absurdValuesAreMalformed(String xml, String element, String words) {
        malformed(xml, element, words);
    }

    @Test
    void enumValuesAreCaseInsensitive() throws Exception {
        TransferRequest request = (TransferRequest) parser.parse(Documents.item("mode=\"TEXT\" checksumMethod=\"md5\"",
                "<source disposition=\"Delete\"><file>/a</file></source>",
                "<destination type=\"Directory\" exist=\"OVERWRITE\"><file EOL=\"crlf\">/b</file></destination>"));
        TransferItem item = request.transferSet().items().get(0);

        assertEquals(Mode.TEXT, item.mode());
        assertEquals(ChecksumMethod.MD5, item.checksumMethod());
        assertEquals(Disposition.DELETE, item.source().disposition());
        assertEquals(DestinationType.DIRECTORY, item.destination().type());
        assertEquals(ExistAction.OVERWRITE, item.destination().exist());
        assertEquals(LineEnding.CRLF, item.destination().eol());
        assertEquals(ChecksumMethod.NONE, ((TransferRequest) parser.parse(Documents.item("checksumMethod=\"NONE\"", S, D)))
                .transferSet().items().get(0).checksumMethod());
    }

    @ParameterizedTest
    @ValueSource(strings = {"SHA-256", "sha-256", "SHA256", "sha256"})
    void sha256IsReadInAnyCaseWithOrWithoutItsHyphen(String spelling) throws Exception {
        TransferRequest request = (TransferRequest) parser.parse(Documents.item("checksumMethod=\"" + spelling + "\"",
                S, D));
        assertEquals(ChecksumMethod.SHA_256, request.transferSet().items().get(0).checksumMethod());
    }

    @Test
    void recoveryTimeoutAcceptsMinusOneZeroAndPositive() throws Exception {
        for (long value : new long[] {-1, 0, 1, 86_400}) {
            TransferRequest request = (TransferRequest) parser.parse(
                    Documents.transferSet("recoveryTimeout=\"" + value + "\"", ITEM));
            assertEquals(value, request.transferSet().recoveryTimeoutSeconds());
        }
    }

    @Test
    void pingAgentNameMustBeGivenOnceAndConsistently() throws Exception {
        String base = "<pingAgent version=\"6.00\">" + O;
        malformed(base + "<agent/></pingAgent>", "agent", "missing required attribute agent");
        malformed(base + "<agent agent=\"A\">B</agent></pingAgent>", "agent", "contradicts");
        assertEquals("A", ((PingAgentRequest) parser.parse(base + "<agent agent=\"A\">A</agent></pingAgent>")).agent());
        malformed(base + "</pingAgent>", "pingAgent", "missing required element <agent>");
    }

    @Test
    void stopAgentTakesOnlyItsOwnAttributes() {
        malformed("<stopAgent version=\"6.00\">" + O + "<agent agent=\"A\" QMgr=\"QM\"/></stopAgent>", "agent",
                "attribute QMgr is not allowed");
        malformed("<stopAgent version=\"6.00\" immediate=\"soon\">" + O + "<agent agent=\"A\"/></stopAgent>", "stopAgent",
                "immediate=\"soon\"");
    }

    // ------------------------------------------------------------ not XML at all

    @Test
    void notWellFormedXmlIsMalformedWithItsPosition() {
        MalformedRequestException e = assertThrows(MalformedRequestException.class,
                () -> parser.parse("<request version=\"6.00\">\n<managedTransfer>\n</request>"));

        assertEquals(3, e.line());
        assertEquals("managedTransfer", e.element());
        assertTrue(e.getMessage().contains("not well-formed XML"), e.getMessage());
        assertFalse(e.getMessage().contains("ParseError"), e.getMessage());
    }

    @Test
    void parserMessagesAreShortenedAndFreeOfControlCharacters() {
        String name = "n".repeat(10_000);
        MalformedRequestException e = assertThrows(MalformedRequestException.class,
                () -> parser.parse("<request version=\"6.00\"><" + name + "></request>"));

        assertTrue(e.getMessage().contains("not well-formed XML"), e.getMessage());
        assertTrue(e.getMessage().length() < 500, e.getMessage());
        assertFalse(e.getMessage().chars().anyMatch(Character::isISOControl), e.getMessage());
    }

    @Test
    void trailingContentAfterTheRootIsMalformed() {
        String xml = Documents.resource("minimal-request.xml") + "<request version=\"6.00\"/>";

        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> parser.parse(xml));
        assertTrue(e.getMessage().contains("not well-formed"), e.getMessage());
    }

    @Test
    void emptyAndNullDocumentsAreMalformed() {
        assertThrows(MalformedRequestException.class, () -> parser.parse(""));
        assertThrows(MalformedRequestException.class, () -> parser.parse(new byte[0]));
        assertThrows(MalformedRequestException.class, () -> parser.parse("   "));
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> parser.parse((String) null));
        assertNull(e.element());
        assertEquals(-1, e.line());
        assertThrows(MalformedRequestException.class, () -> parser.parse((byte[]) null));
        assertThrows(MalformedRequestException.class, () -> parser.parseReply((String) null));
    }

    @Test
    void garbageBytesAreMalformed() {
        byte[] garbage = new byte[256];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (i * 37);
        }
        assertThrows(MalformedRequestException.class, () -> parser.parse(garbage));
        assertThrows(MalformedRequestException.class,
                () -> parser.parse("<?xml version=\"1.0\" encoding=\"NO-SUCH-CHARSET\"?><request/>".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void replyMistakesAreMalformed() {
        MalformedRequestException e = assertThrows(MalformedRequestException.class,
                () -> parser.parseReply("<reply version=\"6.00\" ID=\"x\"/>"));
        assertEquals("reply", e.element());
        assertTrue(e.getMessage().contains("missing required element <status>"), e.getMessage());

        e = assertThrows(MalformedRequestException.class,
                () -> parser.parseReply("<reply version=\"6.00\" ID=\"x\"><status resultCode=\"-3\"/></reply>"));
        assertTrue(e.getMessage().contains("resultCode=\"-3\" is out of range"), e.getMessage());

        e = assertThrows(MalformedRequestException.class, () -> parser.parseReply(Documents.resource("cancel.xml")));
        assertTrue(e.getMessage().contains("expected <reply>"), e.getMessage());

        e = assertThrows(MalformedRequestException.class,
                () -> parser.parseReply("<reply version=\"6.00\"><status resultCode=\"0\"/></reply>"));
        assertTrue(e.getMessage().contains("missing required attribute ID"), e.getMessage());
    }
}
