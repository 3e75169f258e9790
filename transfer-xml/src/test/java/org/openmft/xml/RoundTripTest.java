package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Whatever a record holds comes back equal after write and parse, through text and through bytes. */
class RoundTripTest {
    private final RequestParser parser = new RequestParser();
    private final DocumentWriter writer = new DocumentWriter();

    static Stream<CommandDocument> commands() {
        Originator awkward = new Originator("héllo&<\"'>", "ü中😀", "a&b");
        ReplyTo reply = new ReplyTo("WMQFTE.\"Q&<>'é", "QM&1", true);
        return Stream.of(
                Documents.fullRequest(),
                Documents.awkwardRequest(),
                new TransferRequest("6.00", Documents.originator(), new AgentRef("S", null), new AgentRef("D", null),
                        null, new TransferSet(List.of(new TransferItem(new ItemSource("/a"),
                                new ItemDestination(DestinationType.FILE, "/b")))), null),
                new CancelRequest("6.00", awkward, Documents.TRANSFER_ID.toUpperCase()),
                new CancelRequest("6.00", Documents.originator(), Documents.TRANSFER_ID, reply),
                new PingAgentRequest("6.00", awkward, "AGENT&<'\">é", "QM\"1", reply),
                new PingAgentRequest("6.00", Documents.originator(), "AGENT", null, null),
                new StopAgentRequest("6.00", awkward, "AGENT&<é>", true, reply),
                new StopAgentRequest("6.00", Documents.originator(), "AGENT", false, null));
    }

    @ParameterizedTest
    @MethodSource("commands")
    void commandsSurviveAWriteAndParseAsText(CommandDocument document) throws Exception {
        assertEquals(document, parser.parse(writer.write(document)));
    }

    @ParameterizedTest
    @MethodSource("commands")
    void commandsSurviveAWriteAndParseAsBytes(CommandDocument document) throws Exception {
        assertEquals(document, parser.parse(writer.writeBytes(document)));
    }

    static Stream<Reply> replies() {
        return Stream.of(
                new Reply("6.00", Documents.TRANSFER_ID, 0, List.of(), List.of()),
                new Reply("6.00", "id&<\"'>é", 43, List.of("line 3: <bad> & \"worse\"\r\nnext", "", "  😀  "), List.of()),
                new Reply("6.00", Documents.TRANSFER_ID, 20, List.of("partial"), List.of(
                        new ItemResult("/in/a&b<c>.txt", "/out/é\"q\".txt", 0, "ok & <fine>"),
                        new ItemResult("C:\\in\\b.txt", null, 1, null))));
    }

    @ParameterizedTest
    @MethodSource("replies")
    void repliesSurviveAWriteAndParse(Reply reply) throws Exception {
        assertEquals(reply, parser.parseReply(writer.write(reply)));
        assertEquals(reply, parser.parseReply(writer.writeBytes(reply)));
    }
}
