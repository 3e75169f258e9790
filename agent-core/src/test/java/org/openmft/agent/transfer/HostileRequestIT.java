package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TextMessage;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentState;
import org.openmft.agent.command.CommandIntake;
import org.openmft.agent.config.QueueNames;
import org.openmft.xml.DestinationType;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.Reply;
import org.openmft.xml.RequestParser;

/**
 * Hostile and broken requests put on a running agent's COMMAND queue, as any MQ application could:
 * random and mutated documents, XXE, entity expansion, oversized messages, unknown and impossible
 * agents, absurd values. Each is answered with its MFT result code (43 for anything that is not a
 * valid request) and a reason; a refused message is moved to {@code SYSTEM.FTE.CMD.RJCT.SRC} with
 * that reason and reported to the agent's listener (which coordination publishes as a
 * {@code malformed} log record); nothing is written; and after every test the agent still answers
 * a ping and completes a transfer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileRequestIT {
    private static final String SECRET = "SECRET-e1f3b7-never-to-be-seen";
    private static final int FOUR_MIB = 4 << 20;

    /** One queue manager and pair of agents for the class: every test leaves them as it found them. */
    @TempDir
    static Path dir;
    TransferHarness h;
    Path out;
    Path secret;
    Connection connection;
    Session session;
    MessageProducer toSrc;
    TemporaryQueue replies;
    MessageConsumer replyConsumer;
    MessageConsumer rejectQueue;
    int served;

    @BeforeAll
    void startAgents() throws Exception {
        h = new TransferHarness(dir, false);
        h.agent("SRC");
        h.agent("DST");
        out = Files.createDirectories(dir.resolve("out"));
        Files.createDirectories(dir.resolve("served"));
        secret = Files.writeString(dir.resolve("secret.txt"), SECRET);
        TransferHarness.randomFile(dir.resolve("in/a.bin"), 10_000, 1);
        connection = h.admin.connect();
        session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        toSrc = session.createProducer(session.createQueue(QueueNames.command("SRC")));
        replies = session.createTemporaryQueue();
        replyConsumer = session.createConsumer(replies);
        rejectQueue = session.createConsumer(session.createQueue(QueueNames.rejected("SRC")));
        connection.start();
    }

    @AfterAll
    void stopAgents() throws Exception {
        connection.close();
        h.close();
    }

    @BeforeEach
    void forgetEarlierEvents() {
        h.rejections.clear();
        h.events.clear();
    }

    @AfterEach
    void theAgentStillServesAndNothingWasWritten() throws Exception {
        assertThat(h.agents.get("SRC").state()).isIn(AgentState.READY, AgentState.ACTIVE);
        try (Stream<Path> written = Files.list(out)) {
            assertThat(written).as("files written by refused requests").isEmpty();
        }
        Reply pong = send(text(ping("SRC")));
        assertThat(pong.resultCode()).as("ping: %s", pong.supplements()).isZero();
        Path target = dir.resolve("served/" + (++served) + ".bin");
        Reply done = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(
                dir.resolve("in/a.bin").toString(), target.toString(), DestinationType.FILE)), 60);
        assertThat(done.resultCode()).as("%s", TransferHarness.failedSupplements(done)).isZero();
        assertThat(TransferHarness.md5(target)).isEqualTo(TransferHarness.md5(dir.resolve("in/a.bin")));
        assertThat(receive(rejectQueue, 0)).as("nothing else moved aside").isNull();
    }

    // ------------------------------------------------------------------------------------------ tests

    @Test
    void randomAndMutatedDocumentsAreRefusedWith43MovedAsideAndReported() throws Exception {
        // A fixed seed: the same documents every run (ParserFuzzTest in transfer-xml varies them).
        Random random = new Random(20261122);
        byte[] valid = request("SRC", "DST", dir.resolve("in/a.bin").toString(), out.resolve("a.bin").toString())
                .getBytes(StandardCharsets.UTF_8);
        RequestParser parser = new RequestParser();
        List<Message> sent = new ArrayList<>();
        int stillValid = 0;
        while (sent.size() < 60) {
            byte[] candidate = sent.size() % 4 == 0 ? garbage(random) : mutate(valid, random);
            // Half go as text messages; their text is what the agent reads, so that is what is checked.
            boolean asText = sent.size() % 2 == 1;
            String text = new String(candidate, StandardCharsets.UTF_8);
            try {
                if (asText) {
                    parser.parse(text);
                } else {
                    parser.parse(candidate);
                }
                // Still a valid request (say a deleted blank): it would run a transfer, not be refused.
                stillValid++;
                continue;
            } catch (MalformedRequestException expected) {
                // This one must be refused.
            }
            sent.add(asText ? text(text) : bytes(candidate));
        }
        assertThat(stillValid).as("mutations that left the request valid").isLessThan(60);

        Map<String, Message> byId = new LinkedHashMap<>();
        for (Message m : sent) {
            m.setJMSReplyTo(replies);
            toSrc.send(m);
            byId.put(m.getJMSMessageID(), m);
        }
        Map<String, Reply> answers = new HashMap<>();
        for (int i = 0; i < sent.size(); i++) {
            Message r = receive(replyConsumer, 30);
            assertThat(r).as("reply %d of %d", i + 1, sent.size()).isNotNull();
            answers.put(r.getJMSCorrelationID(), new RequestParser().parseReply(((TextMessage) r).getText()));
        }
        assertThat(answers.keySet()).containsExactlyInAnyOrderElementsOf(byId.keySet());
        answers.values().forEach(reply -> {
            assertThat(reply.resultCode()).isEqualTo(43);
            assertThat(reply.supplements()).singleElement().asString().isNotBlank();
        });
        for (int i = 0; i < sent.size(); i++) {
            Message moved = receive(rejectQueue, 30);
            assertThat(moved).as("rejected message %d moved aside", i + 1).isNotNull();
            String original = moved.getStringProperty(CommandIntake.ORIGINAL_ID_PROPERTY);
            assertThat(byId).containsKey(original);
            assertThat(moved.getIntProperty(CommandIntake.REJECT_RESULT_PROPERTY)).isEqualTo(43);
            assertThat(moved.getStringProperty(CommandIntake.REJECT_REASON_PROPERTY))
                    .isEqualTo(answers.get(original).supplements().get(0));
            assertThat(body(moved)).isEqualTo(body(byId.get(original)));
        }
        assertThat(h.rejections).hasSize(sent.size()).allSatisfy(r -> {
            assertThat(r.resultCode()).isEqualTo(43);
            assertThat(r.reason()).isEqualTo(answers.get(r.messageId()).supplements().get(0));
        });
        assertThat(h.events).noneMatch(e -> e.startsWith("started "));
    }

    @Test
    void externalEntitiesNeverReadTheFileTheyName() throws Exception {
        String uri = secret.toUri().toString();
        String body = request("SRC", "DST", "&xxe;", out.resolve("xxe.txt").toString());
        List<String> documents = List.of(
                "<!DOCTYPE request [<!ENTITY xxe SYSTEM \"" + uri + "\">]>\n" + body,
                "<!DOCTYPE request [<!ENTITY % ext SYSTEM \"" + uri + "\"> %ext;]>\n" + body,
                "<!DOCTYPE request SYSTEM \"" + uri + "\">\n" + body,
                request("SRC", "DST", "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"" + uri
                        + "\" parse=\"text\"/>", out.resolve("xinclude.txt").toString()));
        for (String xml : documents) {
            Reply reply = refused(text(xml), 43);
            assertThat(String.join(" ", reply.supplements())).doesNotContain(SECRET);
        }
        assertThat(h.rejections).hasSize(documents.size()).allSatisfy(r -> assertThat(r.reason()).doesNotContain(SECRET));
        assertThat(h.rejections.subList(0, 3)).allSatisfy(r -> assertThat(r.reason()).contains("DOCTYPE is not allowed"));
        assertThat(h.rejections.get(3).reason()).contains("<include>");
        assertThat(String.join("\n", h.events)).doesNotContain(SECRET);
    }

    @Test
    void entityExpansionIsRefusedBeforeAnythingExpands() throws Exception {
        StringBuilder laughs = new StringBuilder("<?xml version=\"1.0\"?>\n<!DOCTYPE request [<!ENTITY lol \"lol\">\n");
        for (int i = 1; i <= 9; i++) {
            laughs.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i == 1 ? "" : i - 1) + ";").repeat(10))
                    .append("\">\n");
        }
        laughs.append("]>\n").append(request("SRC", "DST", "/in/&lol9;", out.resolve("lol.txt").toString()));

        Reply reply = refused(text(laughs.toString()), 43);

        assertThat(reply.supplements()).singleElement().asString().contains("DOCTYPE is not allowed")
                .doesNotContain("lollollol");
    }

    @Test
    void messagesOverFourMebibytesAreRefusedUnreadAndOneAtTheLimitIsServed() throws Exception {
        String ping = ping("SRC");
        String atLimit = ping + "<!--" + "x".repeat(FOUR_MIB - ping.length() - 7) + "-->";
        assertThat(atLimit.getBytes(StandardCharsets.UTF_8)).hasSize(FOUR_MIB);
        assertThat(send(text(atLimit)).resultCode()).as("a ping of exactly 4 MiB").isZero();

        String valid = request("SRC", "DST", dir.resolve("in/a.bin").toString(), out.resolve("big.bin").toString());
        String overText = valid + "<!--" + "x".repeat(FOUR_MIB - valid.length()) + "-->";
        Reply text = refused(text(overText), 43);
        assertThat(text.supplements()).singleElement().asString().contains("larger than the limit of 4194304 bytes");

        byte[] overBytes = new byte[5 << 20];
        byte[] start = valid.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(start, 0, overBytes, 0, start.length);
        Reply bytes = refused(bytes(overBytes), 43);
        assertThat(bytes.supplements()).singleElement().asString()
                .contains("(at least 5242880 bytes) is larger than the limit of 4194304 bytes", "its body is not kept");
    }

    @Test
    void absurdValuesAreRefusedWith43NamingTheValue() throws Exception {
        String in = dir.resolve("in/a.bin").toString();
        String to = out.resolve("absurd.bin").toString();
        String ok = request("SRC", "DST", in, to);
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put(ok.replace("<transferSet>", "<transferSet priority=\"-1\">"), "priority=\"-1\" is out of range 0-9");
        cases.put(ok.replace("<transferSet>", "<transferSet priority=\"10\">"), "priority=\"10\" is out of range 0-9");
        cases.put(ok.replace("<transferSet>", "<transferSet priority=\"high\">"), "priority=\"high\" is not a whole number");
        cases.put(ok.replace("<transferSet>", "<transferSet priority=\"99999999999999999999\">"), "is not a whole number");
        cases.put(ok.replace("<transferSet>", "<transferSet recoveryTimeout=\"-2\">"), "recoveryTimeout=\"-2\" is out of range");
        cases.put(ok.replace("<transferSet>", "<transferSet recoveryTimeout=\"soon\">"), "is not a whole number");
        cases.put(ok.replace("<transferSet>", "<transferSet recoveryTimeout=\"1e9\">"), "is not a whole number");
        cases.put(ok.replace("<transferSet>", "<transferSet recoveryTimeout=\"99999999999999999999\">"),
                "is not a whole number");
        cases.put(ok.replace("<item>", "<item mode=\"ascii\">"), "mode=\"ascii\" is not valid");
        cases.put(ok.replace("<item>", "<item checksumMethod=\"SHA-1\">"), "checksumMethod=\"SHA-1\" is not valid");
        cases.put(ok.replace("version=\"6.00\"", "version=\"7.00\""), "version=\"7.00\" is not supported");
        cases.put(request("SRC", "DST", "", to), "<file> must not be empty");
        cases.put(request("SRC", "DST", "   ", to), "<file> must not be empty");
        cases.put(request("SRC", "DST", in, ""), "<file> must not be empty");
        cases.put(request("SRC", "DST", "/in/" + "p".repeat(10_000), to), "path is 10004 characters long; the limit is 4096");
        cases.put(request("SRC", "DST", in, "/" + "d/".repeat(5_000)), "path is 10001 characters long; the limit is 4096");
        cases.put(request("SRC", "DST", "/in/a&#0;.bin", to), "not well-formed XML");
        cases.put(request("SRC", "DST", "/in/a\u0000.bin", to), "not well-formed XML");
        cases.put(request("SRC", "DST", in, "/out/a&#1;.bin"), "not well-formed XML");
        cases.put(request("SRC", "DST", "/in/a&#10;.bin", to), "contains a control character");
        cases.put(request("SRC", "", in, to), "missing required attribute agent");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Reply reply = refused(text(c.getKey()), 43);
            assertThat(reply.supplements()).singleElement().asString().contains(c.getValue());
        }
        // A NUL byte as it is, in a bytes message.
        byte[] nul = request("SRC", "DST", "/in/a#.bin", to).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < nul.length; i++) {
            if (nul[i] == '#') {
                nul[i] = 0;
            }
        }
        assertThat(refused(bytes(nul), 43).supplements()).singleElement().asString().contains("not well-formed XML");
        assertThat(h.rejections).hasSize(cases.size() + 1).allSatisfy(r -> assertThat(r.resultCode()).isEqualTo(43));
    }

    @Test
    void absurdValuesWithinTheSchemaAreServed() throws Exception {
        // The largest recoveryTimeout a request can hold, and a priority with blanks around it.
        String xml = request("SRC", "DST", dir.resolve("in/a.bin").toString(), dir.resolve("served/max.bin").toString())
                .replace("<transferSet>", "<transferSet priority=\" 9 \" recoveryTimeout=\"" + Long.MAX_VALUE + "\">");
        try (TransferHarness.Submission s = h.submitText("SRC", xml)) {
            assertThat(s.ack.resultCode()).as("%s", s.ack.supplements()).isZero();
            assertThat(s.awaitFinal(60).resultCode()).isZero();
        }
        // A path the XML allows but no file system does: the item fails, naming the path.
        String longName = dir.resolve("in") + "/" + "n".repeat(4000);
        try (TransferHarness.Submission s = h.submitText("SRC", request("SRC", "DST", longName,
                out.resolve("long.bin").toString()))) {
            assertThat(s.ack.resultCode()).isZero();
            Reply fin = s.awaitFinal(60);
            assertThat(fin.resultCode()).isEqualTo(40);
            assertThat(fin.items()).singleElement().satisfies(i -> assertThat(i.supplement()).contains("File name too long"));
        }
    }

    @Test
    void unknownAndImpossibleDestinationAgentsFailFastWith49() throws Exception {
        for (String agent : List.of("NOSUCH", "#", "DST.#", "*", "DST/X", "A".repeat(29))) {
            String xml = request("SRC", agent, dir.resolve("in/a.bin").toString(), out.resolve("a.bin").toString());
            try (TransferHarness.Submission s = h.submitText("SRC", xml)) {
                assertThat(s.ack.resultCode()).as("acknowledgement for %s", agent).isZero();
                Reply fin = s.awaitFinal(30);
                assertThat(fin.resultCode()).as("destination %s: %s", agent, fin.supplements()).isEqualTo(49);
                assertThat(fin.supplements()).anySatisfy(x -> assertThat(x).contains(agent));
            }
        }
    }

    @Test
    void requestsForAnotherAgentGetResult4AndAreNotMovedAside() throws Exception {
        Reply ping = send(text(ping("OTHER")));
        assertThat(ping.resultCode()).isEqualTo(4);
        Reply transfer = send(text(request("DST", "SRC", dir.resolve("in/a.bin").toString(),
                out.resolve("a.bin").toString())));
        assertThat(transfer.resultCode()).isEqualTo(4);
        assertThat(h.rejections).extracting(TransferHarness.Rejection::resultCode).containsExactly(4, 4);
        assertThat(h.rejections).allSatisfy(r -> assertThat(r.reason()).contains("BFGCH0014E"));
    }

    @Test
    void aMessageWithoutBodyOrMessageIdIsAnswered() throws Exception {
        Reply empty = refused(session.createTextMessage(), 43);
        assertThat(empty.supplements()).singleElement().asString().contains("no body");

        // A producer may leave its messages without an id; the reply then cannot be correlated, but
        // it is sent, and the agent goes on.
        MessageProducer anonymous = session.createProducer(session.createQueue(QueueNames.command("SRC")));
        anonymous.setDisableMessageID(true);
        for (String xml : List.of("not xml", ping("SRC"))) {
            TextMessage m = session.createTextMessage(xml);
            m.setJMSReplyTo(replies);
            anonymous.send(m);
            Message r = receive(replyConsumer, 30);
            assertThat(r).as("reply to %s", xml).isNotNull();
            Reply reply = new RequestParser().parseReply(((TextMessage) r).getText());
            assertThat(reply.resultCode()).isEqualTo(xml.equals("not xml") ? 43 : 0);
            if (reply.resultCode() == 43) {
                assertThat(receive(rejectQueue, 30)).isNotNull();
            }
        }
        anonymous.close();
    }

    @Test
    void aPartFilePlantedAsALinkIsNeverWrittenThroughEvenWithoutASandbox() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim.txt"), "victim, never to be overwritten");
        Path planted = Files.createDirectories(dir.resolve("planted"));
        Files.createSymbolicLink(planted.resolve("x.bin.part"), victim);

        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(
                dir.resolve("in/a.bin").toString(), planted.resolve("x.bin").toString(), DestinationType.FILE)), 60);

        assertThat(r.resultCode()).isEqualTo(40);
        assertThat(r.items()).singleElement().satisfies(i -> assertThat(i.supplement())
                .contains("BFGIO0005E", planted.resolve("x.bin.part").toString()));
        assertThat(victim).hasContent("victim, never to be overwritten");
        assertThat(planted.resolve("x.bin")).doesNotExist();
    }

    @Test
    void replyQueuesThatCannotBeReachedDoNotStopTheAgent() throws Exception {
        TemporaryQueue gone = session.createTemporaryQueue();
        gone.delete();
        for (jakarta.jms.Destination to : List.of(gone, session.createQueue("SYSTEM.FTE.NO.SUCH.QUEUE"))) {
            for (String xml : List.of("not xml", ping("SRC"))) {
                TextMessage m = session.createTextMessage(xml);
                m.setJMSReplyTo(to);
                toSrc.send(m);
            }
        }
        // Both "not xml" messages are moved aside and every reply is sent somewhere nobody reads; the
        // point is the after-each check: the agent still pings and transfers.
        assertThat(receive(rejectQueue, 30)).isNotNull();
        assertThat(receive(rejectQueue, 30)).isNotNull();
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Sends a message with our reply queue and returns the correlated reply. */
    Reply send(Message m) throws Exception {
        m.setJMSReplyTo(replies);
        toSrc.send(m);
        Message r = receive(replyConsumer, 30);
        assertThat(r).as("a reply").isNotNull();
        assertThat(r.getJMSCorrelationID()).isEqualTo(m.getJMSMessageID());
        return new RequestParser().parseReply(((TextMessage) r).getText());
    }

    /**
     * Sends a message that must be refused with {@code code}: the reply says why, the message is moved
     * aside with the same reason, and the listener hears of it.
     */
    Reply refused(Message m, int code) throws Exception {
        int before = h.rejections.size();
        Reply reply = send(m);
        assertThat(reply.resultCode()).as("%s", reply.supplements()).isEqualTo(code);
        assertThat(reply.supplements()).singleElement().asString().isNotBlank();
        String reason = reply.supplements().get(0);
        Message moved = receive(rejectQueue, 30);
        assertThat(moved).as("moved to the reject queue").isNotNull();
        assertThat(moved.getStringProperty(CommandIntake.ORIGINAL_ID_PROPERTY)).isEqualTo(m.getJMSMessageID());
        assertThat(moved.getIntProperty(CommandIntake.REJECT_RESULT_PROPERTY)).isEqualTo(code);
        assertThat(moved.getStringProperty(CommandIntake.REJECT_REASON_PROPERTY)).isEqualTo(reason);
        assertThat(h.rejections).hasSize(before + 1);
        TransferHarness.Rejection event = h.rejections.get(before);
        assertThat(event.messageId()).isEqualTo(m.getJMSMessageID());
        assertThat(event.resultCode()).isEqualTo(code);
        assertThat(event.reason()).isEqualTo(reason);
        return reply;
    }

    static Message receive(MessageConsumer consumer, long seconds) throws Exception {
        return seconds == 0 ? consumer.receiveNoWait() : consumer.receive(seconds * 1000);
    }

    TextMessage text(String xml) throws Exception {
        return session.createTextMessage(xml);
    }

    BytesMessage bytes(byte[] content) throws Exception {
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(content);
        return m;
    }

    static byte[] body(Message m) throws Exception {
        if (m instanceof TextMessage t) {
            return t.getText().getBytes(StandardCharsets.UTF_8);
        }
        BytesMessage b = (BytesMessage) m;
        b.reset();
        byte[] content = new byte[(int) b.getBodyLength()];
        b.readBytes(content);
        return content;
    }

    static String ping(String agent) {
        return "<pingAgent version=\"6.00\"><originator><hostName>h</hostName><userID>u</userID></originator>"
                + "<agent agent=\"" + agent + "\"/></pingAgent>";
    }

    /** A one-item transfer request as an MQ application would write it; the paths go in as given. */
    static String request(String source, String destination, String from, String to) {
        return "<request version=\"6.00\"><managedTransfer>"
                + "<originator><hostName>hostile.example.org</hostName><userID>mallory</userID></originator>"
                + "<sourceAgent agent=\"" + source + "\" QMgr=\"QMT\"/><destinationAgent agent=\"" + destination
                + "\" QMgr=\"QMT\"/><reply QMGR=\"QMT\" detailed=\"true\">WMQFTE.HOSTILE</reply><transferSet><item>"
                + "<source><file>" + from + "</file></source><destination><file>" + to + "</file></destination>"
                + "</item></transferSet></managedTransfer></request>";
    }

    private static final String[] SNIPPETS = {"<", ">", "</", "/>", "\"", "&", "&xxe;", "&#0;", "<!DOCTYPE r>",
        "<![CDATA[", "<!--", "<item>", "</transferSet>", " priority=\"99\"", "\u0000", "\uFFFE", "\uD800"};
    private static final byte[][] RAW = {{(byte) 0xFF}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0,
        (byte) 0x80}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0x80}};

    /** A valid request with one to three slices deleted, duplicated, swapped, or markup or bad bytes put in. */
    static byte[] mutate(byte[] document, Random random) {
        byte[] d = document;
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            int at = random.nextInt(d.length + 1);
            int length = Math.min(d.length - at, 1 + random.nextInt(40));
            byte[] head = java.util.Arrays.copyOfRange(d, 0, at);
            byte[] slice = java.util.Arrays.copyOfRange(d, at, at + length);
            byte[] tail = java.util.Arrays.copyOfRange(d, at + length, d.length);
            d = switch (random.nextInt(5)) {
                case 0 -> concat(head, tail);
                case 1 -> concat(head, slice, slice, tail);
                case 2 -> {
                    int split = random.nextInt(tail.length + 1);
                    yield concat(head, java.util.Arrays.copyOfRange(tail, 0, split), slice,
                            java.util.Arrays.copyOfRange(tail, split, tail.length));
                }
                case 3 -> concat(head, SNIPPETS[random.nextInt(SNIPPETS.length)].getBytes(StandardCharsets.UTF_8), slice,
                        tail);
                default -> concat(head, RAW[random.nextInt(RAW.length)], slice, tail);
            };
        }
        return d;
    }

    /** Random bytes, or random markup. */
    static byte[] garbage(Random random) {
        if (random.nextBoolean()) {
            byte[] b = new byte[random.nextInt(300)];
            random.nextBytes(b);
            return b;
        }
        StringBuilder text = new StringBuilder();
        String[] tokens = {"<request", "<pingAgent", " version=\"6.00\"", ">", "</request>", "<item>", "&amp;", "'",
            "\"", "=", "<!--", "?>", " ", "é", "\uD83D\uDE00"};
        for (int i = random.nextInt(40); i >= 0; i--) {
            text.append(tokens[random.nextInt(tokens.length)]);
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (byte[] p : parts) {
            all.writeBytes(p);
        }
        return all.toByteArray();
    }
}
