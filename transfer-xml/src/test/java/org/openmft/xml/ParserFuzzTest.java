package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.xml.stream.XMLStreamException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.openmft.xml.log.MalformedPublicationException;
import org.openmft.xml.log.PublicationReader;

/**
 * Fuzzing with jqwik: random text, random bytes, and valid documents broken by slices deleted,
 * duplicated and swapped, entities, DOCTYPEs, huge names and values, invalid UTF-8 and stray bytes.
 * The property: a parse returns a document or throws the documented exception
 * ({@link MalformedRequestException} for commands and replies, {@link MalformedPublicationException}
 * for publications) whose message says what is wrong and can be sent back in a reply as it is;
 * never any other exception, never a hang. A document that is accepted survives a write and a
 * second parse unchanged (but for its version: the writer writes 6.00).
 *
 * <p>jqwik picks a new seed every run and prints it with a failure; {@code @Property(seed = "...")}
 * reproduces it. Tries are kept modest: the whole class runs in seconds.
 */
class ParserFuzzTest {
    /** About hangs, not speed: each of these parses takes milliseconds. */
    private static final Duration HANG = Duration.ofSeconds(30);
    /** Longest message accepted: they quote values shortened, whatever the document holds. */
    private static final int MAX_MESSAGE_LENGTH = 2000;

    private static final RequestParser PARSER = new RequestParser();
    private static final PublicationReader PUBLICATIONS = new PublicationReader();
    private static final DocumentWriter WRITER = new DocumentWriter();

    private static final Map<String, byte[]> COMMANDS = seeds("minimal-request.xml",
            "example-request-supported.xml", "example-request.xml", "cancel.xml", "ping-default-namespace.xml",
            "ping-prefixed.xml", "stop-agent.xml", "reply-detailed.xml");
    private static final Map<String, byte[]> PUBLICATION_SEEDS = seeds("log/ibm-started.xml",
            "log/ibm-progress.xml", "log/ibm-completed.xml", "log/ibm-agent-status.xml",
            "log/ibm-transfer-status.xml");

    /** Markup and hostile constructs, inserted as UTF-8. */
    private static final List<String> SNIPPETS = List.of(
            "<", ">", "</", "/>", "=", "\"", "'", "&", ";", "<!--", "-->", "<![CDATA[", "]]>", "<?", "?>",
            "&xxe;", "&lol9;", "&amp;", "&lt;", "&#0;", "&#x1F600;", "&#xD800;", "&#1114112;", "&#99999999999;",
            "<!DOCTYPE request>",
            "<!DOCTYPE request [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>",
            "<!DOCTYPE r [<!ENTITY % p SYSTEM \"http://127.0.0.1:1/evil.dtd\"> %p;]>",
            "<!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">"
                    + "<!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">]>",
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "<?xml version=\"1.1\"?>",
            "<?xml version=\"1.0\" encoding=\"IBM037\"?>", "<?xml version=\"1.0\" encoding=\"nonsense\"?>",
            "<item>", "</item>", "<request version=\"6.00\">", "</managedTransfer>", "<file>/etc/shadow</file>",
            " xmlns=\"urn:other\"", " xmlns:p=\"urn:p\" p:extra=\"1\"", " xsi:type=\"x\"", " priority=\"-1\"",
            " priority=\"9999999999999999999999\"", " recoveryTimeout=\"-2\"", " version=\"99.0\"",
            "\u0000", "\u0001", "\u001b[31m", "\r\n", "\t", "\uFEFF", "\uFFFE", "\uFFFF", "\u2028",
            "\uD83D\uDE00", "e\u0301", "\u202E");

    /** Raw bytes, most of them not UTF-8: stray continuation bytes, overlong and truncated sequences, BOMs. */
    private static final List<byte[]> RAW = List.of(
            bytes(0xFF), bytes(0xFE), bytes(0x80), bytes(0xC0, 0x80), bytes(0xC3), bytes(0xE2, 0x82),
            bytes(0xED, 0xA0, 0x80), bytes(0xF4, 0x90, 0x80, 0x80), bytes(0xF8, 0x88, 0x80, 0x80, 0x80),
            bytes(0xEF, 0xBB, 0xBF), bytes(0xFE, 0xFF), bytes(0xFF, 0xFE), bytes(0x00, 0x00, 0xFE, 0xFF),
            bytes(0x4C, 0x6F, 0xA7, 0x94), bytes(0x00));

    // ------------------------------------------------------------------ properties

    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    void mutatedCommandsAndRepliesAreReadOrRefused(@ForAll("mutatedCommands") Mutated document) {
        byte[] bytes = document.bytes();
        readCommand(() -> PARSER.parse(bytes));
        readCommand(() -> PARSER.parse(new String(bytes, StandardCharsets.UTF_8)));
        readReply(() -> PARSER.parseReply(bytes));
    }

    @Property(tries = 500, edgeCases = EdgeCasesMode.MIXIN)
    void randomMarkupIsReadOrRefused(@ForAll("markup") String text) {
        readCommand(() -> PARSER.parse(text));
        readCommand(() -> PARSER.parse(text.getBytes(StandardCharsets.UTF_8)));
        readReply(() -> PARSER.parseReply(text));
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.MIXIN)
    void randomBytesAreReadOrRefused(@ForAll @Size(max = 600) byte[] bytes) {
        readCommand(() -> PARSER.parse(bytes));
        readReply(() -> PARSER.parseReply(bytes));
    }

    @Property(tries = 300, edgeCases = EdgeCasesMode.MIXIN)
    void randomTextIsReadOrRefused(@ForAll @Size(max = 300) String text) {
        readCommand(() -> PARSER.parse(text));
    }

    @Property(tries = 500, edgeCases = EdgeCasesMode.NONE)
    void mutatedPublicationsAreReadOrRefused(@ForAll("mutatedPublications") Mutated document) {
        byte[] bytes = document.bytes();
        String text = new String(bytes, StandardCharsets.UTF_8);
        readOrRefused(MalformedPublicationException.class, () -> PUBLICATIONS.readLog(bytes));
        readOrRefused(MalformedPublicationException.class, () -> PUBLICATIONS.readProgress(bytes));
        readOrRefused(MalformedPublicationException.class, () -> PUBLICATIONS.readAgentStatus(bytes));
        readOrRefused(MalformedPublicationException.class, () -> PUBLICATIONS.readLog(text));
        readOrRefused(MalformedPublicationException.class, () -> PUBLICATIONS.readAgentStatus(text));
    }

    // ------------------------------------------------------------------ checks

    /** A command that is read must survive a write and a second read unchanged. */
    private static void readCommand(ThrowingSupplier<CommandDocument> parse) {
        readOrRefused(MalformedRequestException.class, parse).ifPresent(document -> {
            String written = WRITER.write(document);
            CommandDocument again = readOrRefused(MalformedRequestException.class, () -> PARSER.parse(written))
                    .orElseThrow(() -> new AssertionError("an accepted document was written unreadably: " + written));
            // The writer always writes version 6.00; everything else must come back as it was read.
            assertEquals(written, WRITER.write(again));
        });
    }

    private static void readReply(ThrowingSupplier<Reply> parse) {
        readOrRefused(MalformedRequestException.class, parse).ifPresent(reply -> {
            String written = WRITER.write(reply);
            Reply again = readOrRefused(MalformedRequestException.class, () -> PARSER.parseReply(written))
                    .orElseThrow(() -> new AssertionError("an accepted reply was written unreadably: " + written));
            assertEquals(written, WRITER.write(again));
        });
    }

    /**
     * Runs a parse: it returns a document, or throws {@code documented} with a message that names
     * the problem; anything else, or no end within {@link #HANG}, fails the property.
     */
    private static <T> Optional<T> readOrRefused(Class<? extends XmlDocumentException> documented,
            ThrowingSupplier<T> parse) {
        Throwable thrown;
        try {
            T result = assertTimeoutPreemptively(HANG, parse, "the parse did not end");
            assertNotNull(result, "a parse returned null");
            return Optional.of(result);
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable e) {
            thrown = e;
        }
        if (!documented.isInstance(thrown)) {
            fail("expected a document or " + documented.getSimpleName() + ", got " + thrown, thrown);
        }
        namesTheProblem((XmlDocumentException) thrown);
        return Optional.empty();
    }

    /** The message says what is wrong and can go into a log and a reply as it is. */
    private static void namesTheProblem(XmlDocumentException e) {
        String message = e.getMessage();
        assertNotNull(message);
        assertFalse(e.reason() == null || e.reason().isBlank(), "no reason: " + e);
        // The catch-all for unchecked exceptions says only which one: that is a crash, not a reason.
        assertTrue(e.getCause() == null || e.getCause() instanceof XMLStreamException,
                () -> "the parser crashed rather than naming the problem: " + e.getCause());
        assertTrue(message.length() <= MAX_MESSAGE_LENGTH,
                () -> "message of " + message.length() + " characters: " + message.substring(0, 300) + "...");
        for (int i = 0; i < message.length(); i++) {
            assertFalse(Character.isISOControl(message.charAt(i)), () -> "control character in: " + message);
        }
        // What the agent does with it: the supplement of a result 43 reply.
        new Reply(DocumentWriter.VERSION, "ID", MalformedRequestException.RESULT_CODE, List.of(message), List.of());
    }

    // ------------------------------------------------------------------ generators

    @Provide
    Arbitrary<Mutated> mutatedCommands() {
        return mutated(COMMANDS);
    }

    @Provide
    Arbitrary<Mutated> mutatedPublications() {
        return mutated(PUBLICATION_SEEDS);
    }

    private static Arbitrary<Mutated> mutated(Map<String, byte[]> seeds) {
        return Combinators.combine(Arbitraries.of(seeds.keySet()), mutation().list().ofMinSize(1).ofMaxSize(4))
                .as((seed, mutations) -> new Mutated(seed, seeds.get(seed), mutations));
    }

    /** Markup-like text: tags, names, quotes, entities and odd characters in random order. */
    @Provide
    Arbitrary<String> markup() {
        Arbitrary<String> token = Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of(SNIPPETS)),
                Tuple.of(3, Arbitraries.of("request", "managedTransfer", "originator", "hostName",
                        "userID", "sourceAgent", "destinationAgent", "transferSet", "item", "source", "destination",
                        "file", "reply", "pingAgent", "cancel", "stopAgent", "agent", "version=\"6.00\"",
                        "agent=\"A\"", " ")),
                Tuple.of(2, Arbitraries.strings().ofMaxLength(6)),
                Tuple.of(1, Arbitraries.strings().withCharRange('\u0000', '\u00ff').ofMaxLength(3)));
        return token.list().ofMaxSize(80).map(parts -> String.join("", parts));
    }

    /** Where a mutation applies, as a fraction of the document's length in ten-thousandths. */
    private static Arbitrary<Integer> at() {
        return Arbitraries.integers().between(0, 10_000);
    }

    private static Arbitrary<Mutation> mutation() {
        Arbitrary<Integer> length = Arbitraries.integers().between(1, 80);
        return Arbitraries.oneOf(
                Combinators.combine(at(), length).as(Delete::new),
                Combinators.combine(at(), length, at(), Arbitraries.integers().between(1, 50)).as(Duplicate::new),
                Combinators.combine(at(), length, at(), length).as(Swap::new),
                Combinators.combine(at(), Arbitraries.of(SNIPPETS)).as(Insert::new),
                Combinators.combine(at(), Arbitraries.of(RAW)).as(InsertBytes::new),
                Combinators.combine(at(), Arbitraries.of(1, 100, 65_536, 65_537)).as(HugeAttribute::new),
                // "x\uD83D\uDE00" puts a surrogate pair across any cut of a value shortened for a message.
                Combinators.combine(at(), Arbitraries.of(30, 81, 40_000),
                        Arbitraries.of("n", "\u00e9", "x\uD83D\uDE00", " ")).as(Run::new),
                Combinators.combine(at(), Arbitraries.integers().between(0, 255)).as(Overwrite::new),
                at().map(Truncate::new));
    }

    // ------------------------------------------------------------------ mutations

    /** A seed document and what was done to it; the record's text is what jqwik reports. */
    record Mutated(String seed, byte[] original, List<Mutation> mutations) {
        byte[] bytes() {
            byte[] document = original;
            for (Mutation m : mutations) {
                document = m.apply(document);
            }
            return document;
        }

        @Override
        public String toString() {
            return seed + " " + mutations;
        }
    }

    sealed interface Mutation permits Delete, Duplicate, Swap, Insert, InsertBytes, HugeAttribute, Run, Overwrite,
            Truncate {
        byte[] apply(byte[] document);
    }

    /** Removes a slice. */
    record Delete(int at, int length) implements Mutation {
        @Override
        public byte[] apply(byte[] d) {
            int from = position(d, at);
            int to = Math.min(d.length, from + length);
            return concat(slice(d, 0, from), slice(d, to, d.length));
        }
    }

    /** Copies a slice elsewhere, {@code times} times over. */
    record Duplicate(int at, int length, int to, int times) implements Mutation {
        @Override
        public byte[] apply(byte[] d) {
            int from = position(d, at);
            byte[] copy = slice(d, from, Math.min(d.length, from + length));
            int into = position(d, to);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(slice(d, 0, into));
            for (int i = 0; i < times; i++) {
                out.writeBytes(copy);
            }
            out.writeBytes(slice(d, into, d.length));
            return out.toByteArray();
        }
    }

    /** Exchanges two slices that do not overlap. */
    record Swap(int a, int lengthA, int b, int lengthB) implements Mutation {
        @Override
        public byte[] apply(byte[] d) {
            int first = position(d, Math.min(a, b));
            int firstEnd = Math.min(d.length, first + (a <= b ? lengthA : lengthB));
            int second = Math.max(firstEnd, position(d, Math.max(a, b)));
            int secondEnd = Math.min(d.length, second + (a <= b ? lengthB : lengthA));
            return concat(slice(d, 0, first), slice(d, second, secondEnd), slice(d, firstEnd, second),
                    slice(d, first, firstEnd), slice(d, secondEnd, d.length));
        }
    }

    /** Inserts markup or characters, as UTF-8. */
    record Insert(int at, String snippet) implements Mutation {
        @Override
        public byte[] apply(byte[] d) {
            return insert(d, position(d, at), snippet.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return "Insert[at=" + at + ", snippet=" + Checks.quote(snippet) + "]";
        }
    }

    /** Inserts bytes as they are, mostly invalid UTF-8. */
    record InsertBytes(int at, byte[] raw) implements Mutation {
        @Override
        public byte[] apply(byte[] d) {
            return insert(d, position(d, at), raw);
        }

        @Override
        public String toString() {
            return "InsertBytes[at=" + at + ", raw=" + HexFormat.of().formatHex(raw) + "]";
        }
    }

    /** Adds an attribute with a value of {@code length} characters to a start tag. */
    record HugeAttribute(int at, int length) implements Mutation {
        @Override
        public byte[] apply(byte[] d) {
            int close = indexOf(d, (byte) '>', position(d, at));
            if (close < 0) {
                close = d.length;
            } else if (close > 0 && d[close - 1] == '/') {
                close--;
            }
            return insert(d, close, (" huge=\"" + "v".repeat(length) + "\"").getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Inserts {@code unit} {@code times} over: a long name, value or text depending on where it lands. */
    record Run(int at, int times, String unit) implements Mutation {
        @Override
        public byte[] apply(byte[] d) {
            return insert(d, position(d, at), unit.repeat(times).getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return "Run[at=" + at + ", times=" + times + ", unit=" + Checks.quote(unit) + "]";
        }
    }

    /** Replaces one byte. */
    record Overwrite(int at, int value) implements Mutation {
        @Override
        public byte[] apply(byte[] d) {
            if (d.length == 0) {
                return d;
            }
            byte[] copy = d.clone();
            copy[Math.min(d.length - 1, position(d, at))] = (byte) value;
            return copy;
        }
    }

    /** Cuts the document off. */
    record Truncate(int at) implements Mutation {
        @Override
        public byte[] apply(byte[] d) {
            return slice(d, 0, position(d, at));
        }
    }

    // ------------------------------------------------------------------ byte helpers

    private static int position(byte[] d, int tenThousandths) {
        return (int) ((long) d.length * tenThousandths / 10_000);
    }

    private static byte[] slice(byte[] d, int from, int to) {
        return Arrays.copyOfRange(d, from, Math.max(from, to));
    }

    private static byte[] insert(byte[] d, int at, byte[] what) {
        return concat(slice(d, 0, at), what, slice(d, at, d.length));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] d, byte b, int from) {
        for (int i = from; i < d.length; i++) {
            if (d[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    private static Map<String, byte[]> seeds(String... names) {
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        for (String name : names) {
            seeds.put(name, Documents.resource(name).getBytes(StandardCharsets.UTF_8));
        }
        return seeds;
    }
}
