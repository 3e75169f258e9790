package org.openmft.bench.micro;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openmft.agent.transfer.text.ByteSink;
import org.openmft.agent.transfer.text.Encodings;
import org.openmft.agent.transfer.text.LineEnding;
import org.openmft.agent.transfer.text.TextConversionException;
import org.openmft.agent.transfer.text.TextConverter;

/**
 * A text-mode item converted as the source agent does it ({@code SourceTransfer.sendText}): one
 * {@link TextConverter} per item, fed the file in chunks of {@link #CHUNK_BYTES}, its output packed
 * into chunk-sized arrays; against a baseline of plain {@link CharsetDecoder} and
 * {@link CharsetEncoder} over the whole text in one call (with a loop inserting CRs where the
 * conversion asks for CRLF): the charset work alone, without chunks, characters cut between chunks
 * or error offsets. The source is UTF-8 text with LF line endings. One operation converts the text
 * once; throughput in texts per second, times {@code textBytes} for bytes per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TextConversionBenchmark {
    /** The chunk the agent reads and sends: IBM's default agentChunkSize. */
    static final int CHUNK_BYTES = 262_144;

    /** Source UTF-8 with LF to a destination encoding and line ending. */
    public enum Conversion {
        UTF8_TO_UTF8_LF(StandardCharsets.UTF_8, LineEnding.LF),
        UTF8_TO_UTF8_CRLF(StandardCharsets.UTF_8, LineEnding.CRLF),
        /** EBCDIC (CCSID 37), as for a z/OS destination. */
        UTF8_TO_IBM037_LF(Encodings.forName("IBM-037"), LineEnding.LF);

        final Charset destination;
        final LineEnding lineEnding;

        Conversion(Charset destination, LineEnding lineEnding) {
            this.destination = destination;
            this.lineEnding = lineEnding;
        }

        /** What the destination file must hold for {@code source}. */
        byte[] expected(byte[] source) {
            String text = new String(source, StandardCharsets.UTF_8);
            return (lineEnding == LineEnding.CRLF ? text.replace("\n", "\r\n") : text).getBytes(destination);
        }
    }

    /** The kind of text. */
    public enum Text {
        /** Lines of ASCII words: one byte per character. */
        ASCII,
        /**
         * Western European lines in which about one word in five has an accented letter (two bytes
         * in UTF-8), all of them in ISO-8859-1 and in IBM037; some fall across chunk boundaries.
         */
        LATIN
    }

    /** Bytes of source text per operation. */
    @Param({"1048576"})
    public int textBytes;

    @Param
    public Conversion conversion;

    @Param
    public Text text;

    private byte[] source;
    private final ChunkPacker packer = new ChunkPacker(CHUNK_BYTES);
    private CharsetDecoder decoder;
    private CharsetEncoder encoder;
    private CharBuffer decoded;
    private CharBuffer withCr;
    private ByteBuffer encoded;

    @Setup
    public void setUp() throws IOException, TextConversionException {
        prepare();
        verify(conversion.expected(source));
    }

    /** The source text and the baseline's buffers, allocated once. */
    void prepare() {
        source = generate(text, textBytes);
        Charset destination = conversion.destination;
        decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        encoder = destination.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        decoded = CharBuffer.allocate(source.length);
        withCr = CharBuffer.allocate(2 * source.length);
        encoded = ByteBuffer.allocate((int) Math.ceil(2.0 * source.length * encoder.maxBytesPerChar()));
    }

    /** Both measured paths must write exactly {@code expected}. */
    void verify(byte[] expected) throws IOException, TextConversionException {
        packer.capture = new ByteArrayOutputStream();
        long n = textConverter();
        SelfCheck.equal("TextConverter output length", (long) expected.length, n);
        SelfCheck.equalBytes("TextConverter " + conversion + " of " + text, expected, packer.capture.toByteArray());
        packer.capture = null;
        int m = jdkCoders();
        SelfCheck.equalBytes("JDK coders " + conversion + " of " + text, expected,
                Arrays.copyOf(encoded.array(), m));
    }

    /** The agent's way; returns the bytes written. */
    @Benchmark
    public long textConverter() throws IOException, TextConversionException {
        TextConverter converter = new TextConverter(StandardCharsets.UTF_8, conversion.destination,
                conversion.lineEnding, null);
        packer.reset();
        for (int offset = 0; offset < source.length; offset += CHUNK_BYTES) {
            converter.convert(ByteBuffer.wrap(source, offset, Math.min(CHUNK_BYTES, source.length - offset)), false,
                    packer);
        }
        converter.convert(ByteBuffer.allocate(0), true, packer);
        return packer.finish();
    }

    /** The baseline; returns the bytes written. */
    @Benchmark
    public int jdkCoders() throws CharacterCodingException {
        decoder.reset();
        decoded.clear();
        check(decoder.decode(ByteBuffer.wrap(source), decoded, true));
        check(decoder.flush(decoded));
        decoded.flip();
        CharBuffer chars = decoded;
        if (conversion.lineEnding == LineEnding.CRLF) {
            withCr.clear();
            char[] in = decoded.array();
            char[] out = withCr.array();
            int o = 0;
            for (int i = 0, end = decoded.limit(); i < end; i++) {
                if (in[i] == '\n') {
                    out[o++] = '\r';
                }
                out[o++] = in[i];
            }
            withCr.limit(o);
            chars = withCr;
        }
        encoder.reset();
        encoded.clear();
        check(encoder.encode(chars, encoded, true));
        check(encoder.flush(encoded));
        return encoded.position();
    }

    private static void check(CoderResult r) throws CharacterCodingException {
        if (!r.isUnderflow()) {
            r.throwException();
        }
    }

    /**
     * As the sink of {@code SourceTransfer.sendText}: converted bytes are copied into one chunk
     * array, and a full array is sent (here: counted, and kept when a check captures them).
     */
    private static final class ChunkPacker implements ByteSink {
        final byte[] out;
        int filled;
        long sent;
        ByteArrayOutputStream capture;

        ChunkPacker(int chunkBytes) {
            out = new byte[chunkBytes];
        }

        void reset() {
            filled = 0;
            sent = 0;
        }

        @Override
        public void write(ByteBuffer bytes) {
            while (bytes.hasRemaining()) {
                if (filled == out.length) {
                    send();
                }
                int n = Math.min(bytes.remaining(), out.length - filled);
                bytes.get(out, filled, n);
                filled += n;
            }
        }

        long finish() {
            send();
            return sent;
        }

        private void send() {
            if (capture != null) {
                capture.write(out, 0, filled);
            }
            sent += filled;
            filled = 0;
        }
    }

    private static final String[] ASCII_WORDS = {"the", "transfer", "agent", "queue", "manager", "file", "chunk",
        "record", "payment", "batch", "account", "total", "of", "and", "to", "in", "report", "line", "value", "date"};
    private static final String[] LATIN_WORDS = {"été", "schön", "Straße", "garçon", "niño", "crème", "über", "año",
        "façade", "déjà"};

    /**
     * Exactly {@code bytes} bytes of UTF-8 lines (seed 1) of 40 to 100 bytes each, ending with LF;
     * the last line is padded with ASCII to the size.
     */
    static byte[] generate(Text kind, int bytes) {
        SplittableRandom random = new SplittableRandom(1);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes);
        StringBuilder line = new StringBuilder();
        while (true) {
            line.setLength(0);
            int target = 40 + random.nextInt(61);
            while (line.length() < target) {
                boolean latin = kind == Text.LATIN && random.nextInt(5) == 0;
                String[] words = latin ? LATIN_WORDS : ASCII_WORDS;
                line.append(words[random.nextInt(words.length)]).append(' ');
            }
            line.setCharAt(line.length() - 1, '\n');
            byte[] b = line.toString().getBytes(StandardCharsets.UTF_8);
            if (out.size() + b.length > bytes) {
                break;
            }
            out.write(b, 0, b.length);
        }
        int pad = bytes - out.size();
        for (int i = 0; i < pad; i++) {
            out.write(i == pad - 1 ? '\n' : 'x');
        }
        return out.toByteArray();
    }
}
