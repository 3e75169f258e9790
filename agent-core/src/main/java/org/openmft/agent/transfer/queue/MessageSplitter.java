package org.openmft.agent.transfer.queue;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.openmft.xml.QueueDestination;

/**
 * How a file becomes messages (IBM's file to message): one message for the whole file, messages
 * of a fixed length ({@code -qs}), or messages between the matches of a delimiter, a Java regular
 * expression over the text ({@code -dqdt}) or a byte sequence ({@code -dqdb}), which sits after
 * ({@code postfix}, IBM's default) or before ({@code prefix}) each message's data and is dropped
 * unless {@code -qi}. Pure: no JMS, no files; tested alone.
 *
 * <p>Memory is bounded by the largest message allowed ({@code maxInputOutputMessageLength}) plus
 * the longest delimiter match ({@code maxDelimiterMatchLength}, or the byte delimiter's length),
 * and by the file's size when that is smaller: a message that would be longer fails the item ({@link TooLongException}),
 * as IBM's does. Each message is handed over with whether it is the last, which is known only once
 * the next begins, so one message is held back. An empty file gives one empty message.
 *
 * <p>A binary delimiter is matched by the same code as text: the bytes are read as ISO-8859-1,
 * which maps each byte to one character and back, and the delimiter is quoted.
 */
public final class MessageSplitter {
    private static final int READ_CHARS = 64 * 1024;

    /** Receives the messages in order. */
    @FunctionalInterface
    public interface Messages {
        /**
         * One message.
         *
         * @param data   its bytes, valid only during the call
         * @param length how many of them
         * @param index  0 for the first
         * @param last   whether no message follows
         */
        void accept(byte[] data, int length, int index, boolean last) throws Exception;
    }

    /** A message would be longer than the limit, or a delimiter matched more than it may. */
    public static final class TooLongException extends Exception {
        private static final long serialVersionUID = 1L;

        TooLongException(String reason) {
            super(reason, null, false, false);
        }
    }

    private final QueueDestination rule;
    private final Charset charset;
    private final int maxMessageBytes;
    private final int maxMatchChars;

    /**
     * @param rule            how to split
     * @param charset         what a text delimiter's text is in
     * @param maxMessageBytes {@code maxInputOutputMessageLength}
     * @param maxMatchChars   {@code maxDelimiterMatchLength}, for text delimiters
     */
    public MessageSplitter(QueueDestination rule, Charset charset, int maxMessageBytes, int maxMatchChars) {
        this.rule = rule;
        this.charset = charset == null ? StandardCharsets.UTF_8 : charset;
        this.maxMessageBytes = maxMessageBytes;
        this.maxMatchChars = maxMatchChars;
    }

    /**
     * Splits {@code in} (read to its end, not closed), which holds exactly {@code size} bytes.
     *
     * <p>Without a delimiter the size gives every message's length in advance, so the buffer is
     * the smaller of the message length and the file, reused for each message: a small file costs
     * a small buffer, not one of {@code maxInputOutputMessageLength} (an agent allowing 20 MB
     * messages once allocated, and zeroed, two such buffers for every 256-byte file).
     *
     * @return the number of messages
     * @throws IOException when {@code in} holds fewer or more than {@code size} bytes
     */
    public int split(InputStream in, long size, Messages out) throws Exception {
        if (rule.delimiter() != null) {
            return byDelimiter(in, out);
        }
        long length = rule.messageLength() > 0 ? rule.messageLength() : maxMessageBytes;
        if (length > maxMessageBytes) {
            throw new TooLongException("BFGTR0072E: messages of " + length + " bytes (-qs) are longer than"
                    + " maxInputOutputMessageLength (" + maxMessageBytes + " bytes)");
        }
        if (rule.messageLength() == 0 && size > maxMessageBytes) {
            throw new TooLongException("BFGTR0072E: the file is longer than maxInputOutputMessageLength ("
                    + maxMessageBytes + " bytes), the largest message; split it with -qs, -dqdt or -dqdb");
        }
        return fixed(in, size, (int) length, out);
    }

    private static int fixed(InputStream in, long size, int length, Messages out) throws Exception {
        byte[] buffer = new byte[(int) Math.min(length, size)];
        long left = size;
        int index = 0;
        do {
            int n = (int) Math.min(length, left);
            if (in.readNBytes(buffer, 0, n) != n) {
                throw new IOException("the file ended before its " + size + " bytes");
            }
            left -= n;
            // An empty file is one empty message.
            out.accept(buffer, n, index++, left == 0);
        } while (left > 0);
        if (in.read() >= 0) {
            throw new IOException("the file is longer than its " + size + " bytes");
        }
        return index;
    }

    private int byDelimiter(InputStream in, Messages out) throws Exception {
        boolean binary = "binary".equals(rule.delimiterType());
        Charset cs = binary ? StandardCharsets.ISO_8859_1 : charset;
        Pattern pattern = binary ? Pattern.compile(Pattern.quote(new String(rule.delimiterBytes(), cs)))
                : Pattern.compile(rule.delimiter());
        int maxMatch = binary ? rule.delimiterBytes().length : maxMatchChars;
        boolean prefix = "prefix".equals(rule.delimiterPosition());
        boolean include = rule.includeDelimiter();
        Reader reader = new InputStreamReader(in, cs);
        StringBuilder buffer = new StringBuilder();
        char[] read = new char[READ_CHARS];
        Held held = new Held(out, cs);
        boolean eof = false;
        // Where the current message's data starts in the buffer (after a prefix delimiter not kept).
        int start = 0;
        while (true) {
            if (!eof) {
                int n = reader.read(read);
                if (n < 0) {
                    eof = true;
                } else {
                    buffer.append(read, 0, n);
                }
            }
            Matcher m = pattern.matcher(buffer);
            int from = start;
            while (from <= buffer.length() && m.find(from)) {
                if (m.end() == m.start()) {
                    // An empty match splits nothing; look past it.
                    from = m.end() + 1;
                    continue;
                }
                if (!eof && m.end() > buffer.length() - maxMatch) {
                    break; // the match may grow with what is read next
                }
                if (m.end() - m.start() > maxMatch) {
                    throw new TooLongException("BFGTR0073E: the delimiter matched " + (m.end() - m.start())
                            + " characters, more than maxDelimiterMatchLength (" + maxMatch + ")");
                }
                if (prefix) {
                    // Data before the first delimiter is a message of its own; then each message
                    // runs from a delimiter to the next.
                    if (m.start() > start || start > 0) {
                        held.add(buffer, start, m.start());
                    }
                    start = include ? m.start() : m.end();
                } else {
                    held.add(buffer, start, include ? m.end() : m.start());
                    start = m.end();
                }
                from = m.end();
            }
            if (buffer.length() - start > maxMessageBytes + maxMatch) {
                throw new TooLongException("BFGTR0072E: no delimiter within maxInputOutputMessageLength ("
                        + maxMessageBytes + " bytes); the message would be longer");
            }
            if (eof) {
                if (start < buffer.length() || (prefix && start > 0) || held.count == 0 && !held.holding) {
                    held.add(buffer, start, buffer.length());
                }
                return held.finish();
            }
            buffer.delete(0, start);
            start = 0;
        }
    }

    /** The one message held back until the next shows it is not the last. */
    private final class Held {
        private final Messages out;
        private final Charset cs;
        private byte[] bytes = new byte[0];
        private int length;
        private boolean holding;
        private int count;

        Held(Messages out, Charset cs) {
            this.out = out;
            this.cs = cs;
        }

        void add(CharSequence buffer, int from, int to) throws Exception {
            if (holding) {
                out.accept(bytes, length, count++, false);
            }
            byte[] b = buffer.subSequence(from, to).toString().getBytes(cs);
            if (b.length > maxMessageBytes) {
                throw new TooLongException("BFGTR0072E: a message of " + b.length + " bytes is longer than"
                        + " maxInputOutputMessageLength (" + maxMessageBytes + " bytes)");
            }
            bytes = b;
            length = b.length;
            holding = true;
        }

        int finish() throws Exception {
            if (holding) {
                out.accept(bytes, length, count++, true);
                holding = false;
            }
            return count;
        }
    }
}
