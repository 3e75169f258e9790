package org.openmft.agent.transfer.text;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_16LE;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Random;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TextConverterTest {

    private static final Charset IBM1047 = Charset.forName("IBM1047");
    /** U+20AC (3 bytes in UTF-8) and U+1D11E (4 bytes), next to line ends of both kinds. */
    private static final String MULTIBYTE = "a\u20ACb\uD834\uDD1Ec\r\nd\u20AC\n\uD834\uDD1E\r\u20AC";

    @Test
    void utf8ToLatin1WithCrLf() throws Exception {
        byte[] out = convertOneShot(UTF_8, ISO_8859_1, LineEnding.CRLF, null, "h\u00E9llo\nw\u00F6rld\n".getBytes(UTF_8));
        assertArrayEquals("h\u00E9llo\r\nw\u00F6rld\r\n".getBytes(ISO_8859_1), out);
    }

    @ParameterizedTest
    @EnumSource(LineEnding.class)
    void everySplitPointGivesTheOneShotResult(LineEnding eol) throws Exception {
        byte[] input = MULTIBYTE.getBytes(UTF_8);
        for (Charset destination : new Charset[] {UTF_8, UTF_16LE}) {
            byte[] expected = convertOneShot(UTF_8, destination, eol, null, input);
            assertEquals(expected(MULTIBYTE, eol), new String(expected, destination));
            for (int split = 0; split <= input.length; split++) {
                int first = split;
                int[] sizes = {first, input.length - first};
                int[] index = {0};
                assertArrayEquals(expected, convertInPieces(UTF_8, destination, eol, null, input,
                        () -> sizes[Math.min(index[0]++, 1)], TextConverter.MIN_BUFFER_SIZE), "split at " + split);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(LineEnding.class)
    void smallAndRandomPiecesGiveTheOneShotResult(LineEnding eol) throws Exception {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            text.append(MULTIBYTE).append(i).append("\r\n\r\r\n\n");
        }
        byte[] input = text.toString().getBytes(UTF_8);
        byte[] expected = convertOneShot(UTF_8, UTF_8, eol, null, input);
        assertEquals(expected(text.toString(), eol), new String(expected, UTF_8));
        for (int piece : new int[] {1, 2, 7}) {
            assertArrayEquals(expected, convertInPieces(UTF_8, UTF_8, eol, null, input, () -> piece, 16),
                    piece + "-byte pieces");
        }
        Random random = new Random(42);
        for (int run = 0; run < 20; run++) {
            assertArrayEquals(expected, convertInPieces(UTF_8, UTF_8, eol, null, input,
                    () -> random.nextInt(40), 16 + random.nextInt(100)), "random run " + run);
        }
    }

    @Test
    void crAtChunkEndAndLfAtNextChunkStartMakeOneLineEnd() throws Exception {
        byte[][] chunks = {"one\r".getBytes(UTF_8), "\ntwo".getBytes(UTF_8)};
        assertEquals("one\ntwo", new String(convertChunks(LineEnding.LF, chunks), UTF_8));
        assertEquals("one\r\ntwo", new String(convertChunks(LineEnding.CRLF, chunks), UTF_8));
    }

    @Test
    void crAtChunkEndFollowedByOtherTextStaysALoneCr() throws Exception {
        byte[][] chunks = {"one\r".getBytes(UTF_8), "two\r".getBytes(UTF_8), new byte[0]};
        assertEquals("one\rtwo\r", new String(convertChunks(LineEnding.LF, chunks), UTF_8));
    }

    @Test
    void crLfBecomesLf() throws Exception {
        byte[] out = convertOneShot(UTF_8, UTF_8, LineEnding.LF, null, "a\r\nb\r\n\r\nc".getBytes(UTF_8));
        assertEquals("a\nb\n\nc", new String(out, UTF_8));
    }

    @Test
    void mixedLineEndsAreNormalisedAndLoneCrKept() throws Exception {
        byte[] input = "a\nb\r\nc\rd\r\r\ne\r".getBytes(UTF_8);
        assertEquals("a\nb\nc\rd\r\ne\r", new String(convertOneShot(UTF_8, UTF_8, LineEnding.LF, null, input), UTF_8));
        assertEquals("a\r\nb\r\nc\rd\r\r\ne\r",
                new String(convertOneShot(UTF_8, UTF_8, LineEnding.CRLF, null, input), UTF_8));
    }

    @Test
    void utf8ToIbm1047AndBack() throws Exception {
        String text = "Hello, World! 123 \u00E4\u00F6\u00FC {}[]\n";
        byte[] ebcdic = convertOneShot(UTF_8, IBM1047, LineEnding.LF, null, text.getBytes(UTF_8));
        assertEquals((byte) 0xC8, ebcdic[0]); // 'H'
        assertEquals((byte) 0x85, ebcdic[1]); // 'e'
        assertEquals((byte) 0x15, ebcdic[ebcdic.length - 1]); // z/OS UNIX new line
        byte[] back = convertOneShot(IBM1047, UTF_8, LineEnding.LF, null, ebcdic);
        assertEquals(text, new String(back, UTF_8));
    }

    @Test
    void unmappableCharacterFailsWithSourceOffset() {
        TextConversionException e = assertThrows(TextConversionException.class,
                () -> convertOneShot(UTF_8, IBM1047, LineEnding.LF, null, "abc\u20ACdef".getBytes(UTF_8)));
        assertEquals("unmappable character U+20AC at source byte offset 3 for IBM1047", e.getMessage());
        assertEquals(TextConversionException.Kind.UNMAPPABLE, e.kind());
        assertEquals(3, e.sourceByteOffset());
        assertEquals(0x20AC, e.codePoint());
    }

    @Test
    void unmappableOffsetCountsEarlierChunksBomAndLineEndTranslation() {
        // BOM (3) + "\u00E9" (2) + "\n\r\n" (3) + 1000 x + "\n" in the first chunk, then 5 more bytes.
        byte[] first = ("\uFEFF\u00E9\n\r\n" + "x".repeat(1000) + "\n").getBytes(UTF_8);
        byte[] second = "abcde\u20AC".getBytes(UTF_8);
        TextConversionException e = assertThrows(TextConversionException.class, () -> {
            TextConverter converter = new TextConverter(UTF_8, IBM1047, LineEnding.CRLF, null, 64);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            converter.convert(ByteBuffer.wrap(first), false, sinkTo(out));
            converter.convert(ByteBuffer.wrap(second), true, sinkTo(out));
        });
        assertEquals(first.length + 5L, e.sourceByteOffset());
        assertTrue(e.getMessage().contains("U+20AC at source byte offset " + (first.length + 5)), e.getMessage());
    }

    @Test
    void supplementaryCharacterUnmappableIsNamedByCodePoint() {
        TextConversionException e = assertThrows(TextConversionException.class,
                () -> convertOneShot(UTF_8, ISO_8859_1, LineEnding.LF, null, "ab\uD834\uDD1E".getBytes(UTF_8)));
        assertEquals("unmappable character U+1D11E at source byte offset 2 for ISO-8859-1", e.getMessage());
    }

    @Test
    void malformedInputFailsWithOffsetAndBytes() {
        byte[] input = {'a', 'b', (byte) 0xC3, '(', 'c'};
        TextConversionException e = assertThrows(TextConversionException.class,
                () -> convertOneShot(UTF_8, ISO_8859_1, LineEnding.LF, null, input));
        assertEquals(TextConversionException.Kind.MALFORMED, e.kind());
        assertEquals(2, e.sourceByteOffset());
        assertArrayEquals(new byte[] {(byte) 0xC3}, e.bytes());
        assertEquals("malformed input 0xC3 at source byte offset 2 for UTF-8", e.getMessage());
    }

    @Test
    void inputTruncatedInsideACharacterIsMalformed() {
        byte[] euro = "\u20AC".getBytes(UTF_8);
        TextConversionException e = assertThrows(TextConversionException.class, () -> {
            TextConverter converter = new TextConverter(UTF_8, UTF_8, LineEnding.LF, null);
            converter.convert(ByteBuffer.wrap(new byte[] {'x', euro[0]}), false, bytes -> bytes.position(bytes.limit()));
            converter.convert(ByteBuffer.wrap(new byte[] {euro[1]}), true, bytes -> bytes.position(bytes.limit()));
        });
        assertEquals(1, e.sourceByteOffset());
        assertArrayEquals(new byte[] {euro[0], euro[1]}, e.bytes());
    }

    @Test
    void replacementSequenceSubstitutesUnmappableMalformedAndTruncatedInput() throws Exception {
        byte[] unmappable = convertOneShot(UTF_8, IBM1047, LineEnding.LF, "?", "a\u20ACb".getBytes(UTF_8));
        assertEquals("a?b", new String(unmappable, IBM1047));
        byte[] malformed = convertOneShot(UTF_8, UTF_8, LineEnding.LF, "<?>", new byte[] {'a', (byte) 0xFF, 'b'});
        assertEquals("a<?>b", new String(malformed, UTF_8));
        byte[] truncated = convertOneShot(UTF_8, UTF_8, LineEnding.LF, "#", new byte[] {'a', (byte) 0xE2, (byte) 0x82});
        assertEquals("a#", new String(truncated, UTF_8));
        byte[] afterCr = convertOneShot(UTF_8, UTF_8, LineEnding.LF, "#", new byte[] {'a', '\r', (byte) 0xFF, '\n'});
        assertEquals("a\r#\n", new String(afterCr, UTF_8));
    }

    @Test
    void replacementThatTheDestinationCannotEncodeIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TextConverter(UTF_8, IBM1047, LineEnding.LF, "\u20AC"));
        assertTrue(e.getMessage().contains("IBM1047"), e.getMessage());
    }

    @Test
    void utf8BomIsDroppedOnlyAtTheStart() throws Exception {
        byte[] input = "\uFEFFhi\uFEFF".getBytes(UTF_8);
        byte[] whole = convertOneShot(UTF_8, UTF_8, LineEnding.LF, null, input);
        assertEquals("hi\uFEFF", new String(whole, UTF_8));
        assertArrayEquals(whole, convertInPieces(UTF_8, UTF_8, LineEnding.LF, null, input, () -> 1, 16));
        byte[] latin1 = convertOneShot(UTF_8, ISO_8859_1, LineEnding.LF, null, "\uFEFFok".getBytes(UTF_8));
        assertEquals("ok", new String(latin1, ISO_8859_1));
    }

    @Test
    void emptyInputProducesNothing() throws Exception {
        TextConverter converter = new TextConverter(UTF_8, Charset.forName("UTF-16"), LineEnding.CRLF, null);
        int[] writes = {0};
        converter.convert(ByteBuffer.allocate(0), true, bytes -> writes[0]++);
        assertEquals(0, writes[0]);
        assertThrows(IllegalStateException.class,
                () -> converter.convert(ByteBuffer.allocate(0), true, bytes -> writes[0]++));
    }

    @Test
    void sinkReceivesPiecesNoLargerThanTheBuffer() throws Exception {
        TextConverter converter = new TextConverter(UTF_8, UTF_8, LineEnding.CRLF, null, 100);
        int[] largest = {0};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] input = "line\n".repeat(1000).getBytes(UTF_8);
        converter.convert(ByteBuffer.wrap(input), true, bytes -> {
            largest[0] = Math.max(largest[0], bytes.remaining());
            sinkTo(out).write(bytes);
        });
        assertTrue(largest[0] <= 100, "largest write " + largest[0]);
        assertEquals("line\r\n".repeat(1000), out.toString(UTF_8));
        assertEquals(input.length, converter.sourceBytesConsumed());
    }

    @Test
    void converterIsUnusableAfterAFailure() {
        TextConverter converter = new TextConverter(UTF_8, IBM1047, LineEnding.LF, null);
        assertThrows(TextConversionException.class,
                () -> converter.convert(ByteBuffer.wrap("\u20AC".getBytes(UTF_8)), false, bytes -> { }));
        assertThrows(IllegalStateException.class,
                () -> converter.convert(ByteBuffer.wrap("a".getBytes(UTF_8)), true, bytes -> { }));
    }

    @Test
    void largeRandomTextRoundTrip() throws Exception {
        Random random = new Random(7);
        String[] alphabet = {"a", "Z", " ", "0", "\u00E9", "\u00DF", "\u20AC", "\u4E2D", "\uD83D\uDE00", "\n", "\r\n", "\r"};
        StringBuilder text = new StringBuilder();
        while (text.length() < 3 * 1024 * 1024) {
            text.append(alphabet[random.nextInt(alphabet.length)]);
        }
        String original = text.toString();
        byte[] utf8 = original.getBytes(UTF_8);
        int chunk = 256 * 1024;

        byte[] utf16 = convertInPieces(UTF_8, UTF_16LE, LineEnding.CRLF, null, utf8, () -> chunk, chunk);
        String crlf = expected(original, LineEnding.CRLF);
        assertEquals(crlf, new String(utf16, UTF_16LE));

        byte[] back = convertInPieces(UTF_16LE, UTF_8, LineEnding.LF, null, utf16, () -> 1 + random.nextInt(chunk), chunk);
        assertArrayEquals(expected(original, LineEnding.LF).getBytes(UTF_8), back);
    }

    // ---------------------------------------------------------------------------------------------

    /** Reference conversion of line ends, written independently of the converter. */
    private static String expected(String text, LineEnding eol) {
        String lf = text.replace("\r\n", "\n");
        return eol == LineEnding.LF ? lf : lf.replace("\n", "\r\n");
    }

    private static byte[] convertOneShot(Charset source, Charset destination, LineEnding eol, String replacement,
            byte[] input) throws IOException, TextConversionException {
        TextConverter converter = new TextConverter(source, destination, eol, replacement);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        converter.convert(ByteBuffer.wrap(input), true, sinkTo(out));
        return out.toByteArray();
    }

    private static byte[] convertChunks(LineEnding eol, byte[]... chunks) throws IOException, TextConversionException {
        TextConverter converter = new TextConverter(UTF_8, UTF_8, eol, null);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < chunks.length; i++) {
            converter.convert(ByteBuffer.wrap(chunks[i]), i == chunks.length - 1, sinkTo(out));
        }
        return out.toByteArray();
    }

    /**
     * Feeds the input in pieces of the sizes given, reusing one input buffer the way the source
     * agent reuses its chunk buffer, so that the converter cannot rely on old input staying put.
     */
    private static byte[] convertInPieces(Charset source, Charset destination, LineEnding eol, String replacement,
            byte[] input, IntSupplier pieceSizes, int bufferSize) throws IOException, TextConversionException {
        TextConverter converter = new TextConverter(source, destination, eol, replacement, bufferSize);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer reused = ByteBuffer.allocate(input.length);
        int offset = 0;
        while (offset < input.length) {
            int size = Math.min(pieceSizes.getAsInt(), input.length - offset);
            reused.clear();
            reused.put(input, offset, size).flip();
            offset += size;
            converter.convert(reused, false, sinkTo(out));
            assertEquals(0, reused.remaining(), "all input consumed");
            Arrays.fill(reused.array(), (byte) 0x7F); // scribble over the old input
        }
        converter.convert(ByteBuffer.allocate(0), true, sinkTo(out));
        return out.toByteArray();
    }

    private static ByteSink sinkTo(ByteArrayOutputStream out) {
        return bytes -> {
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            bytes.position(bytes.limit());
        };
    }
}
