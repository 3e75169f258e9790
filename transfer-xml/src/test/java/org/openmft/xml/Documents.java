package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Sample documents and records shared by the tests. */
final class Documents {
    static final String TRANSFER_ID = "414d5120514d31202020202020202020248e294920004016";

    private Documents() {}

    static String resource(String name) {
        try (InputStream in = Documents.class.getResourceAsStream(name)) {
            assertNotNull(in, name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A request in which every optional part is filled in. */
    static TransferRequest fullRequest() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("com.ibm.wmqfte.JobName", "NIGHTLY");
        metadata.put("z-last-inserted-first", "1");
        metadata.put("a", "2");
        return new TransferRequest("6.00",
                new Originator("batch01.example.org", "payroll", "mqmuser"),
                new AgentRef("PAY.SRC", "QMPAY"),
                new AgentRef("BANK.DST", "QMBANK"),
                new ReplyTo("WMQFTE.REPLY.7F3A", "QMPAY", true),
                new TransferSet(7, 3600L, metadata, List.of(
                        new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                                new ItemSource(true, Disposition.DELETE, "/data/out/payroll_*.csv", null),
                                new ItemDestination(DestinationType.DIRECTORY, ExistAction.OVERWRITE, "/bank/inbound", null, null)),
                        new TransferItem(Mode.TEXT, ChecksumMethod.NONE,
                                new ItemSource(false, Disposition.LEAVE, "C:\\data\\summary.txt", "UTF-8"),
                                new ItemDestination(DestinationType.FILE, ExistAction.ERROR, "/bank/SUMMARY.TXT", "IBM-1047",
                                        LineEnding.CRLF)))),
                "NIGHTLY_PAYROLL");
    }

    /** A request whose every free-form string holds characters that need escaping or are not ASCII. */
    static TransferRequest awkwardRequest() {
        String nasty = "a&b<c>d\"e'f]]>g é 中文 😀";
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("key&<>\"'é", "value & <tag> \"quoted\" 'single' ]]> é 中文 😀");
        metadata.put("lines", "first\r\nsecond\nthird\rfourth\ttabbed  ");
        metadata.put("empty", "");
        metadata.put("spaces", "  padded  ");
        return new TransferRequest("6.00",
                new Originator("host-é-中文", "user&<\"'>", "mqmd 😀"),
                new AgentRef("AGENT&\"<1>", "QM'é"),
                new AgentRef("DEST", null),
                new ReplyTo("REPLY&<Q>", null, false),
                new TransferSet(0, -1L, metadata, List.of(new TransferItem(Mode.TEXT, ChecksumMethod.MD5,
                        new ItemSource(false, Disposition.LEAVE, "/in/" + nasty + ".txt", "ISO-8859-1"),
                        new ItemDestination(DestinationType.FILE, ExistAction.OVERWRITE, "/out/" + nasty, "UTF-8",
                                LineEnding.LF)))),
                "job " + nasty);
    }

    static Originator originator() {
        return new Originator("host", "user");
    }

    static MalformedRequestException rejected(String xml) {
        return assertThrows(MalformedRequestException.class, () -> new RequestParser().parse(xml));
    }

    /** A transfer request document with {@code managedTransfer} content replaced. */
    static String request(String managedTransferContent) {
        return "<request version=\"6.00\">\n<managedTransfer>\n" + managedTransferContent + "\n</managedTransfer>\n</request>";
    }

    static final String ORIGINATOR = "<originator><hostName>h</hostName><userID>u</userID></originator>";
    static final String AGENTS = "<sourceAgent agent=\"S\"/><destinationAgent agent=\"D\"/>";

    /** A request with one item built from the given source and destination elements. */
    static String item(String itemAttributes, String source, String destination) {
        return request(ORIGINATOR + AGENTS + "<transferSet><item " + itemAttributes + ">" + source + destination
                + "</item></transferSet>");
    }

    static final String SOURCE = "<source><file>/in/a.txt</file></source>";
    static final String DESTINATION = "<destination><file>/out/a.txt</file></destination>";

    /** A valid request whose transferSet start tag and content are given. */
    static String transferSet(String startTagAttributes, String content) {
        return request(ORIGINATOR + AGENTS + "<transferSet " + startTagAttributes + ">" + content + "</transferSet>");
    }
}
