package org.openmft.agent.transfer.text;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * Converts one text-mode item from the source encoding and line endings to the destination's,
 * as a stream of arbitrarily cut chunks (reference §7.9).
 *
 * <p>Chunks are cut at byte boundaries chosen by the reader, so a multi-byte character or a CR LF
 * pair may straddle two calls; the converter carries the undecoded tail and a pending CR from one
 * {@link #convert} call to the next. When a call returns, everything that can be converted from the
 * input so far has been handed to the sink.
 *
 * <p>Rules:
 * <ul>
 * <li>LF and CR LF in the source both end a line and are written as the destination
 *     {@link LineEnding}; a CR not followed by LF is copied as is.</li>
 * <li>A UTF-8 byte order mark at the very start of a UTF-8 source is dropped.</li>
 * <li>Malformed source bytes (including a character cut off by the end of input) and characters the
 *     destination cannot represent fail the item with a {@link TextConversionException} naming the
 *     source byte offset, unless a replacement sequence (IBM's
 *     {@code textReplacementCharacterSequence}) is set: then each such character or byte sequence is
 *     replaced by it, encoded in the destination charset.</li>
 * </ul>
 *
 * <p>Memory is fixed at construction: a char buffer and a byte buffer of {@code bufferSize}
 * elements, reused for every call; nothing grows with the input. Source byte offsets in errors are
 * exact for stateless encodings (UTF-8, single-byte and EBCDIC code pages); for stateful ones
 * (ISO-2022, UTF-16 after a little-endian BOM) an error found while encoding may be reported at
 * the start of the decoded batch instead.
 *
 * <p>One instance per item; not thread-safe. After an exception or after the call with
 * {@code endOfInput} set, further calls fail with {@link IllegalStateException}.
 */
public final class TextConverter {

    /** Buffer size used by the short constructor: 64 Ki characters and 64 KiB of output. */
    public static final int DEFAULT_BUFFER_SIZE = 64 * 1024;

    /** Smallest buffer: room for a surrogate pair and the longest single encoded character. */
    public static final int MIN_BUFFER_SIZE = 16;

    /** A decoder never needs more than a few bytes to finish a character; 64 leaves ample room. */
    private static final int CARRY_CAPACITY = 64;

    private final Charset source;
    private final Charset destination;
    private final LineEnding lineEnding;
    private final CharsetDecoder decoder;
    private final CharsetEncoder encoder;
    private final boolean dropUtf8Bom;
    /** Replacement characters, or null when bad input must fail the item. */
    private final CharBuffer replacement;
    private final CharBuffer carriageReturn = CharBuffer.wrap(new char[] {'\r'});
    private final CharBuffer noChars = CharBuffer.allocate(0);

    /** Decoded characters of the current batch; index 0 is the batch's first character. */
    private final CharBuffer chars;
    /** Encoded output not yet handed to the sink (write mode). */
    private final ByteBuffer bytes;
    /** Source bytes the decoder could not finish yet, kept for the next call (write mode). */
    private final ByteBuffer carry = ByteBuffer.allocate(CARRY_CAPACITY);

    private ByteSink sink;
    /** Source bytes consumed by the decoder so far: the offset reported in errors. */
    private long decodedBytes;
    private boolean atStart = true;
    /** LF destination: a CR ended the last batch; dropped if the next character is LF. */
    private boolean pendingCr;
    /** CRLF destination: the last character written was a CR, so a leading LF needs none. */
    private boolean previousWasCr;
    private boolean finished;
    private boolean failed;

    // Source bytes of the batch in 'chars', kept so that an encoding error can be traced back to a
    // source offset without recording an offset per character on the normal path.
    private ByteBuffer batchSource;
    private int batchStart;
    private int batchEnd;
    private long batchStartOffset;

    /**
     * Creates a converter with {@link #DEFAULT_BUFFER_SIZE} buffers.
     *
     * @param source encoding of the source bytes
     * @param destination encoding to produce
     * @param lineEnding line ending to produce
     * @param replacement IBM's {@code textReplacementCharacterSequence}; {@code null} or empty means
     *        malformed or unmappable input fails the item
     * @throws IllegalArgumentException see {@link #TextConverter(Charset, Charset, LineEnding, String, int)}
     */
    public TextConverter(Charset source, Charset destination, LineEnding lineEnding, String replacement) {
        this(source, destination, lineEnding, replacement, DEFAULT_BUFFER_SIZE);
    }

    /**
     * Creates a converter.
     *
     * @param source encoding of the source bytes
     * @param destination encoding to produce
     * @param lineEnding line ending to produce
     * @param replacement IBM's {@code textReplacementCharacterSequence}; {@code null} or empty means
     *        malformed or unmappable input fails the item
     * @param bufferSize capacity of the internal character buffer and of the output buffer handed to
     *        the sink, at least {@link #MIN_BUFFER_SIZE}; the agent chunk size is a good choice
     * @throws IllegalArgumentException if the destination charset cannot encode, cannot represent
     *         CR and LF or the replacement, or the buffer size is too small
     */
    public TextConverter(Charset source, Charset destination, LineEnding lineEnding, String replacement,
            int bufferSize) {
        this.source = Objects.requireNonNull(source, "source");
        this.destination = Objects.requireNonNull(destination, "destination");
        this.lineEnding = Objects.requireNonNull(lineEnding, "lineEnding");
        if (bufferSize < MIN_BUFFER_SIZE) {
            throw new IllegalArgumentException("bufferSize " + bufferSize + " is below " + MIN_BUFFER_SIZE);
        }
        if (!destination.canEncode()) {
            throw new IllegalArgumentException("encoding " + destination.name() + " can only be read, not written");
        }
        // Both errors are reported so that we can name the offset; replacement is done by hand.
        this.decoder = source.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        this.encoder = destination.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        CharsetEncoder probe = destination.newEncoder();
        if (!probe.canEncode("\r\n")) {
            throw new IllegalArgumentException("encoding " + destination.name() + " cannot represent CR and LF");
        }
        if (replacement == null || replacement.isEmpty()) {
            this.replacement = null;
        } else {
            if (!probe.canEncode(replacement)) {
                throw new IllegalArgumentException("textReplacementCharacterSequence '" + replacement
                        + "' cannot be represented in " + destination.name());
            }
            this.replacement = CharBuffer.wrap(replacement.toCharArray());
        }
        this.dropUtf8Bom = source.equals(StandardCharsets.UTF_8);
        this.chars = CharBuffer.allocate(bufferSize);
        this.bytes = ByteBuffer.allocate(bufferSize);
    }

    /**
     * Converts the next chunk of the item and hands the result to {@code output}.
     *
     * @param input source bytes from its position to its limit; all of them are consumed (a trailing
     *        partial character is kept internally until the next call)
     * @param endOfInput whether this is the last chunk of the item; the pending state is then
     *        flushed and the converter cannot be used again
     * @param output receives the converted bytes, in pieces of at most {@code bufferSize} bytes
     * @throws TextConversionException if the text cannot be converted and no replacement is set
     * @throws IOException if the sink fails
     * @throws IllegalStateException if the item already ended or an earlier call failed
     */
    public void convert(ByteBuffer input, boolean endOfInput, ByteSink output)
            throws IOException, TextConversionException {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(output, "output");
        if (finished) {
            throw new IllegalStateException("the item was already converted to its end");
        }
        if (failed) {
            throw new IllegalStateException("an earlier conversion of this item failed");
        }
        sink = output;
        boolean succeeded = false;
        try {
            if (carry.position() > 0) {
                decodeCarry(input, endOfInput);
            }
            if (carry.position() == 0) {
                decode(input, endOfInput);
                if (input.hasRemaining()) {
                    keepUndecodedTail(input);
                }
            }
            if (endOfInput) {
                finish();
            }
            flushBytes();
            succeeded = true;
        } finally {
            sink = null;
            batchSource = null;
            failed = !succeeded;
        }
    }

    /** @return source bytes decoded so far, i.e. the offset of the next source byte to convert */
    public long sourceBytesConsumed() {
        return decodedBytes;
    }

    /**
     * Completes the character left over from the previous call by feeding it one byte at a time,
     * so that the caller's buffer can afterwards be decoded in place without copying it.
     */
    private void decodeCarry(ByteBuffer input, boolean endOfInput) throws IOException, TextConversionException {
        while (carry.position() > 0 && input.hasRemaining()) {
            if (!carry.hasRemaining()) {
                carry.flip();
                throw decodeError(carry, CoderResult.malformedForLength(carry.remaining()));
            }
            carry.put(input.get());
            carry.flip();
            decode(carry, false);
            carry.compact();
        }
        if (endOfInput && carry.position() > 0) {
            carry.flip();
            decode(carry, true); // reports the incomplete character as malformed
            carry.compact();
        }
    }

    private void keepUndecodedTail(ByteBuffer input) throws TextConversionException {
        if (input.remaining() > carry.remaining()) {
            throw decodeError(input, CoderResult.malformedForLength(input.remaining()));
        }
        carry.put(input);
    }

    /** Decodes {@code src} until it is exhausted or holds only an incomplete character. */
    private void decode(ByteBuffer src, boolean endOfInput) throws IOException, TextConversionException {
        while (true) {
            int start = src.position();
            long startOffset = decodedBytes;
            CoderResult result = decoder.decode(src, chars, endOfInput);
            decodedBytes += src.position() - start;
            chars.flip();
            if (chars.hasRemaining()) {
                batchSource = src;
                batchStart = start;
                batchEnd = src.position();
                batchStartOffset = startOffset;
                writeChars();
            }
            chars.clear();
            if (result.isUnderflow()) {
                return;
            }
            if (result.isError()) {
                replaceUndecodable(src, result);
            }
        }
    }

    private void finish() throws IOException, TextConversionException {
        CoderResult result;
        do {
            result = decoder.flush(chars);
            chars.flip();
            if (chars.hasRemaining()) {
                batchSource = null; // flushed characters consumed no further source bytes
                writeChars();
            }
            chars.clear();
        } while (result.isOverflow());
        if (pendingCr) {
            pendingCr = false;
            encodeFixed(carriageReturn);
        }
        while (encoder.encode(noChars, bytes, true).isOverflow()) {
            flushBytes();
        }
        while (encoder.flush(bytes).isOverflow()) {
            flushBytes();
        }
        finished = true;
    }

    private void replaceUndecodable(ByteBuffer src, CoderResult result) throws IOException, TextConversionException {
        if (replacement == null) {
            throw decodeError(src, result);
        }
        src.position(src.position() + result.length());
        decodedBytes += result.length();
        atStart = false;
        if (pendingCr) {
            pendingCr = false;
            encodeFixed(carriageReturn);
        }
        encodeFixed(replacement);
        previousWasCr = false;
    }

    /** Translates line endings in the current batch and encodes it. */
    private void writeChars() throws IOException, TextConversionException {
        char[] array = chars.array();
        int offset = chars.arrayOffset();
        int from = chars.position();
        int to = chars.limit();
        if (atStart) {
            atStart = false;
            if (dropUtf8Bom && array[offset + from] == '\uFEFF') {
                from++;
            }
        }
        if (lineEnding == LineEnding.LF) {
            writeWithLf(array, offset, from, to);
        } else {
            writeWithCrLf(array, offset, from, to);
        }
    }

    /** LF destination: drop the CR of each CR LF; everything else passes unchanged. */
    private void writeWithLf(char[] a, int offset, int from, int to) throws IOException, TextConversionException {
        int runStart = from;
        int i = from;
        if (pendingCr && i < to) {
            pendingCr = false;
            if (a[offset + i] != '\n') {
                encodeFixed(carriageReturn); // the held-back CR was a lone one after all
            }
        }
        while (i < to) {
            if (a[offset + i] == '\r') {
                if (i + 1 == to) {
                    // Cannot tell CR LF from a lone CR until the next character arrives.
                    encodeRun(runStart, i);
                    runStart = to;
                    pendingCr = true;
                    break;
                }
                if (a[offset + i + 1] == '\n') {
                    encodeRun(runStart, i);
                    runStart = i + 1;
                    i += 2;
                    continue;
                }
            }
            i++;
        }
        encodeRun(runStart, to);
    }

    /** CRLF destination: insert a CR before each LF that has none; CR LF passes unchanged. */
    private void writeWithCrLf(char[] a, int offset, int from, int to) throws IOException, TextConversionException {
        int runStart = from;
        boolean previousCr = previousWasCr;
        for (int i = from; i < to; i++) {
            char c = a[offset + i];
            if (c == '\n' && !previousCr) {
                encodeRun(runStart, i);
                encodeFixed(carriageReturn);
                runStart = i; // the LF itself goes out with the next run
            }
            previousCr = c == '\r';
        }
        encodeRun(runStart, to);
        previousWasCr = previousCr;
    }

    /** Encodes chars[from, to) of the current batch, replacing or reporting what cannot be encoded. */
    private void encodeRun(int from, int to) throws IOException, TextConversionException {
        if (from >= to) {
            return;
        }
        chars.limit(to);
        chars.position(from);
        while (true) {
            CoderResult result = encoder.encode(chars, bytes, false);
            if (result.isOverflow()) {
                flushBytes();
            } else if (result.isError()) {
                replaceUnencodable(result.length(), result.isUnmappable());
            } else if (chars.hasRemaining()) {
                // Underflow with input left: a lone high surrogate the encoder waits to complete.
                replaceUnencodable(chars.remaining(), false);
            } else {
                return;
            }
        }
    }

    private void replaceUnencodable(int length, boolean unmappable) throws IOException, TextConversionException {
        int at = chars.position();
        if (replacement == null) {
            int codePoint = Character.codePointAt(chars.array(), chars.arrayOffset() + at,
                    chars.arrayOffset() + chars.limit());
            long offset = sourceOffsetOfChar(at);
            String message = String.format(Locale.ROOT, "%s character U+%04X at source byte offset %d for %s",
                    unmappable ? "unmappable" : "malformed", codePoint, offset, destination.name());
            throw new TextConversionException(message,
                    unmappable ? TextConversionException.Kind.UNMAPPABLE : TextConversionException.Kind.MALFORMED,
                    offset, codePoint, new byte[0], destination.name());
        }
        chars.position(at + length);
        encodeFixed(replacement);
    }

    /**
     * Finds the source offset of character {@code index} of the current batch by decoding the
     * batch's bytes again up to it. Only called on the error path, which keeps the normal path free
     * of per-character bookkeeping.
     */
    private long sourceOffsetOfChar(int index) {
        if (batchSource == null) {
            return decodedBytes;
        }
        ByteBuffer in = batchSource.duplicate();
        in.limit(batchEnd);
        in.position(batchStart);
        CharsetDecoder fresh = source.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        fresh.decode(in, CharBuffer.allocate(index), false);
        return batchStartOffset + (in.position() - batchStart);
    }

    /** Encodes characters known to be encodable: a CR or the validated replacement. */
    private void encodeFixed(CharBuffer text) throws IOException {
        text.clear();
        while (true) {
            CoderResult result = encoder.encode(text, bytes, false);
            if (result.isOverflow()) {
                flushBytes();
            } else if (result.isUnderflow() && !text.hasRemaining()) {
                return;
            } else {
                throw new IllegalStateException("cannot encode validated text in " + destination.name());
            }
        }
    }

    private void flushBytes() throws IOException {
        bytes.flip();
        if (bytes.hasRemaining()) {
            sink.write(bytes);
        }
        bytes.clear();
    }

    private TextConversionException decodeError(ByteBuffer src, CoderResult result) {
        byte[] bad = new byte[Math.min(result.length(), src.remaining())];
        src.duplicate().get(bad);
        StringBuilder hex = new StringBuilder();
        for (byte b : bad) {
            hex.append(hex.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "0x%02X", b & 0xFF));
        }
        boolean unmappable = result.isUnmappable();
        String message = String.format(Locale.ROOT, "%s input %s at source byte offset %d for %s",
                unmappable ? "unmappable" : "malformed", hex, decodedBytes, source.name());
        return new TextConversionException(message,
                unmappable ? TextConversionException.Kind.UNMAPPABLE : TextConversionException.Kind.MALFORMED,
                decodedBytes, -1, bad, source.name());
    }
}
