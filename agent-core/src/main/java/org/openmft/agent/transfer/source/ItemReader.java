package org.openmft.agent.transfer.source;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

import org.openmft.agent.transfer.text.ByteSink;
import org.openmft.agent.transfer.text.LineEnding;
import org.openmft.agent.transfer.text.TextConversionException;
import org.openmft.agent.transfer.text.TextConverter;
import org.openmft.xml.Mode;

/**
 * Reads one source file into chunks: as it is (binary) or converted (text), handing each chunk
 * to a {@link ChunkSink} with a flag on the last one. Two chunk buffers, reused for every item of
 * the transfer: memory does not grow with the file.
 *
 * <p>After the last byte is read and before the last chunk is handed on, the file must still have
 * the size and modification time it had when the request was planned: a file changed meanwhile
 * fails its item (the destination renames only after the last chunk).
 *
 * <p>Not thread-safe: owned by the source transfer's thread.
 */
final class ItemReader {
    /** Where the chunks go. */
    interface ChunkSink {
        /** @param data valid only during the call */
        void emit(byte[] data, int length, boolean last) throws IOException;
    }

    private final byte[] bufferA;
    private final byte[] bufferB;
    private final String textReplacement;

    ItemReader(int chunkSize, String textReplacement) {
        this.bufferA = new byte[chunkSize];
        this.bufferB = new byte[chunkSize];
        this.textReplacement = textReplacement == null || textReplacement.isEmpty() ? null : textReplacement;
    }

    void read(PlannedItem p, ChunkSink sink) throws IOException, TextConversionException {
        if (p.item().mode() == Mode.TEXT) {
            readText(p, sink);
        } else {
            readBinary(p, sink);
        }
    }

    private void readBinary(PlannedItem p, ChunkSink sink) throws IOException {
        try (FileChannel ch = FileChannel.open(p.readPath(), StandardOpenOption.READ)) {
            byte[] current = bufferA;
            byte[] next = bufferB;
            long bytes = 0;
            int have = fill(ch, current);
            while (true) {
                int more = have == current.length ? fill(ch, next) : 0;
                if (more == 0) {
                    checkUnchanged(p, bytes + have);
                    sink.emit(current, have, true);
                    return;
                }
                sink.emit(current, have, false);
                bytes += have;
                byte[] t = current;
                current = next;
                next = t;
                have = more;
            }
        }
    }

    private static int fill(FileChannel ch, byte[] buffer) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(buffer);
        while (bb.hasRemaining()) {
            if (ch.read(bb) < 0) {
                break;
            }
        }
        return bb.position();
    }

    private void readText(PlannedItem p, ChunkSink sink) throws IOException, TextConversionException {
        TextConverter converter = new TextConverter(p.sourceCharset(), p.destCharset(), lineEnding(p),
                textReplacement);
        byte[] out = bufferB;
        int[] filled = {0};
        // Converted bytes collect in one chunk buffer; a full buffer is sent when more follows, so
        // the last chunk always carries the last flag.
        ByteSink collect = bytes -> {
            while (bytes.hasRemaining()) {
                if (filled[0] == out.length) {
                    sink.emit(out, filled[0], false);
                    filled[0] = 0;
                }
                int n = Math.min(bytes.remaining(), out.length - filled[0]);
                bytes.get(out, filled[0], n);
                filled[0] += n;
            }
        };
        long read = 0;
        try (FileChannel ch = FileChannel.open(p.readPath(), StandardOpenOption.READ)) {
            ByteBuffer in = ByteBuffer.wrap(bufferA);
            while (true) {
                in.clear();
                int n = ch.read(in);
                if (n < 0) {
                    break;
                }
                read += n;
                in.flip();
                converter.convert(in, false, collect);
            }
            in.clear().flip();
            converter.convert(in, true, collect);
        }
        checkUnchanged(p, read);
        sink.emit(out, filled[0], true);
    }

    private static LineEnding lineEnding(PlannedItem p) {
        org.openmft.xml.LineEnding eol = p.item().destination().eol();
        if (eol == null) {
            return LineEnding.platformDefault();
        }
        return eol == org.openmft.xml.LineEnding.CRLF ? LineEnding.CRLF : LineEnding.LF;
    }

    private static void checkUnchanged(PlannedItem p, long bytesRead) throws IOException {
        long size = Files.size(p.readPath());
        long modified = Files.getLastModifiedTime(p.readPath()).toMillis();
        if (size != p.file().size() || bytesRead != p.file().size() || modified != p.file().lastModifiedMillis()) {
            // Both values, before and after: a file rewritten in place keeps its size.
            throw new IOException("the file changed while it was being transferred (size " + p.file().size()
                    + " -> " + size + " bytes, last modified " + Instant.ofEpochMilli(p.file().lastModifiedMillis())
                    + " -> " + Instant.ofEpochMilli(modified) + ")");
        }
    }
}
