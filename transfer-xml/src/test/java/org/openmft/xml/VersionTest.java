package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Versions 1.00 to 6.00 are read; everything else is refused, on every root. */
class VersionTest {
    private final RequestParser parser = new RequestParser();

    private static String withVersion(String version) {
        return Documents.resource("minimal-request.xml").replace("version=\"4.00\"", "version=\"" + version + "\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.00", "1.0", "1.5", "2.00", "3.00", "4.00", "5.00", "5.99", "6.00", "6.0", "06.00", " 6.00 "})
    void supportedVersionsAreRead(String version) throws Exception {
        assertEquals(version.strip(), parser.parse(withVersion(version)).version());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.99", "0.0", "6.01", "6.1", "7.00", "10.00", "6", "1", "v6.00", "6.00.1", "1.000", "6,00",
            "abc", "-1.00", "1e0"})
    void otherVersionsAreRefused(String version) {
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> parser.parse(withVersion(version)));

        assertEquals("request", e.element());
        assertTrue(e.getMessage().contains("attribute version=\"" + version.strip() + "\" is not supported; expected 1.00 to 6.00"),
                e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"cancel", "pingAgent", "stopAgent"})
    void everyRootChecksItsVersion(String root) {
        MalformedRequestException e = assertThrows(MalformedRequestException.class,
                () -> parser.parse("<" + root + " version=\"7.00\"/>"));
        assertEquals(root, e.element());
        assertTrue(e.getMessage().contains("version=\"7.00\" is not supported"), e.getMessage());

        e = assertThrows(MalformedRequestException.class, () -> parser.parse("<" + root + "/>"));
        assertTrue(e.getMessage().contains("missing required attribute version"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.50", "6.50", ""})
    void repliesCheckTheirVersionToo(String version) {
        MalformedRequestException e = assertThrows(MalformedRequestException.class, () -> parser.parseReply(
                "<reply version=\"" + version + "\" ID=\"x\"><status resultCode=\"0\"/></reply>"));
        assertEquals("reply", e.element());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.99", "6.01", "6", "x"})
    void recordsRefuseUnsupportedVersions(String version) {
        assertThrows(IllegalArgumentException.class, () -> new PingAgentRequest(version, Documents.originator(), "A", null, null));
        assertThrows(IllegalArgumentException.class, () -> new CancelRequest(version, Documents.originator(), Documents.TRANSFER_ID));
    }
}
