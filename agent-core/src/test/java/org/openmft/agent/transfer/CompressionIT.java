package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.agent.transfer.MessageProtectionIT.copyWithBody;
import static org.openmft.agent.transfer.MessageProtectionIT.peerKeys;
import static org.openmft.agent.transfer.MessageProtectionIT.sendAgainAndExpectWritten;
import static org.openmft.agent.transfer.MessageProtectionIT.with;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openmft.agent.compression.ChunkCompressor;
import org.openmft.agent.compression.CompressionMethod;
import org.openmft.agent.compression.TextLike;
import org.openmft.agent.protection.ProtectionLevel;
import org.openmft.agent.protection.ProtectionStores;
import org.openmft.agent.transfer.protocol.ItemHeader;
import org.openmft.agent.transfer.protocol.MessageTag;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;

/**
 * Chunk compression ({@code openmft.compression}) between agents on a real queue manager: text
 * chunks travel compressed and smaller than the chunk size, random ones as they are (without
 * {@link Wire#COMPRESSION}); compression comes before privacy, so even encrypted text chunks are
 * small; files arrive whole (MD5) at a destination whose own setting is none; a compressed chunk
 * that lies about its length is dropped and asked for again, and one compressed with a method the
 * destination does not know is dropped.
 */
class CompressionIT {
    private static final int CHUNK = 256 * 1024;

    @TempDir
    Path dir;

    /** What a source with {@code openmft.compression} sends, read off the queue by a scripted destination. */
    @ParameterizedTest
    @CsvSource({"lz4, none", "zstd, none", "lz4, privacy", "zstd, privacy"})
    void textChunksTravelCompressedAndRandomOnesAsTheyAre(String method, String protection) throws Exception {
        ProtectionLevel level = ProtectionLevel.parse(protection);
        Map<String, Map<String, String>> keys = ProtectionStores.forAgents(Files.createDirectories(dir.resolve("keys")),
                List.of("SRC", "SINK"), ProtectionLevel.PRIVACY);
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", with(keys.get("SRC"), Map.of("openmft.messageProtection", level.word(),
                    "openmft.compression", method)));
            try (ScriptedPeer sink = ScriptedPeer.destination(h.peer("SINK"), "SINK", "SRC")
                    .protectedWith(ProtectionLevel.NONE, peerKeys("SINK", keys.get("SINK")))) {
                Path text = TextLike.file(dir.resolve("in/log.txt"), 2 * CHUNK, 3);
                Path random = TransferHarness.randomFile(dir.resolve("in/random.bin"), 2 * CHUNK, 4);
                h.send("SRC", TransferHarness.request("SRC", "SINK", 0,
                        TransferHarness.item(text.toString(), dir.resolve("out/log.txt").toString(), DestinationType.FILE),
                        TransferHarness.item(random.toString(), dir.resolve("out/random.bin").toString(),
                                DestinationType.FILE)));
                sink.acceptStart();
                // Four chunks fit in the source's window: all are sent without an acknowledgement.
                ByteArrayOutputStream[] items = {new ByteArrayOutputStream(), new ByteArrayOutputStream()};
                ChunkCompressor inflater = new ChunkCompressor(4 << 20);
                for (long seq = 0; seq < 4; seq++) {
                    BytesMessage m = (BytesMessage) sink.expectMatching(Wire.DATA, ScriptedPeer.where(Wire.SEQ, seq));
                    int item = m.getIntProperty(Wire.ITEM);
                    byte[] body = new byte[(int) m.getBodyLength()];
                    m.readBytes(body);
                    assertThat(ProtocolCodec.protection(m)).isEqualTo(level);
                    if (item == 0) {
                        assertThat(m.getStringProperty(Wire.COMPRESSION)).as("text chunk %d", seq).isEqualTo(method);
                        assertThat(m.getIntProperty(Wire.CHUNK_LENGTH)).isEqualTo(CHUNK);
                        assertThat(body.length).as("text chunk %d on the wire, %s", seq, protection)
                                .isLessThan(CHUNK / 3);
                    } else {
                        assertThat(m.propertyExists(Wire.COMPRESSION)).as("random chunk %d compressed", seq).isFalse();
                        assertThat(m.propertyExists(Wire.CHUNK_LENGTH)).isFalse();
                        assertThat(body.length).isGreaterThanOrEqualTo(CHUNK);
                    }
                    ProtocolCodec.Chunk opened = ProtocolCodec.openBody(m, sink.key(), body, body.length,
                            new byte[body.length]);
                    ProtocolCodec.Chunk chunk = ProtocolCodec.decompressBody(m, opened, inflater);
                    items[item].write(chunk.bytes(), 0, chunk.length());
                }
                assertThat(items[0].toByteArray()).isEqualTo(Files.readAllBytes(text));
                assertThat(items[1].toByteArray()).isEqualTo(Files.readAllBytes(random));
            }
        }
    }

    /** Real agents; the destination's own setting is none: it decompresses what its source chose. */
    @ParameterizedTest
    @CsvSource({"lz4, none", "zstd, none", "zstd, privacy"})
    void textAndRandomFilesArriveWhole(String method, String protection) throws Exception {
        Map<String, Map<String, String>> keys = ProtectionStores.forAgents(Files.createDirectories(dir.resolve("keys")),
                List.of("SRC", "DST"), ProtectionLevel.parse(protection));
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", with(keys.get("SRC"), Map.of("openmft.compression", method)));
            h.agent("DST", keys.get("DST"));
            Path text = TextLike.file(dir.resolve("in/log.txt"), (6 << 20) + 12345, 5);
            Path random = TransferHarness.randomFile(dir.resolve("in/random.bin"), (2 << 20) + 777, 6);
            Path textOut = Files.createDirectories(dir.resolve("out")).resolve("log.txt");
            Path randomOut = dir.resolve("out/random.bin");
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(text.toString(), textOut.toString(), DestinationType.FILE),
                    TransferHarness.item(random.toString(), randomOut.toString(), DestinationType.FILE)), 180);
            assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
            assertThat(TransferHarness.md5(textOut)).isEqualTo(TransferHarness.md5(text));
            assertThat(TransferHarness.md5(randomOut)).isEqualTo(TransferHarness.md5(random));
            assertThat(h.protocolRejections).isEmpty();
        }
    }

    @Test
    void aCompressedChunkThatLiesAboutItsLengthIsAskedForAgainAndAnUnknownMethodIsDropped() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            String out = dir.resolve("out/log.txt").toString();
            try (ScriptedPeer source = ScriptedPeer.source(h.peer("FAKE"), "FAKE", "DST")) {
                source.start(1, 1);
                Message ok = source.expect(Wire.START_OK);
                assertThat(ok.getStringProperty(Wire.DECOMPRESSES)).isEqualTo("lz4,zstd");
                byte[] real = TextLike.bytes(100_000, 9);
                ItemHeader header = new ItemHeader(out, "file", "log.txt", "error", "none", "binary", "/fake/log.txt",
                        real.length);
                source.codec().compressWith(CompressionMethod.LZ4);
                BytesMessage genuine = source.codec().data(source.id, 1, 0, 0, 0, true, true, header, real.length,
                        null, real, real.length);
                genuine.reset();
                byte[] body = new byte[(int) genuine.getBodyLength()];
                genuine.readBytes(body);
                assertThat(body.length).isLessThan(real.length / 3);

                // Signed by the source itself (it has the key), so only the decompression can catch it.
                source.send(resealed(source, copyWithBody(source.session(), genuine, body), Wire.CHUNK_LENGTH,
                        real.length + 1));
                TransferHarness.await("the lying chunk dropped", 20, () -> h.protocolRejections.stream()
                        .anyMatch(x -> x.reason().contains("decompresses to 100000 bytes, not the 100001")));
                assertThat(source.expect(Wire.NACK).getLongProperty(Wire.NEXT_SEQ)).as("asked for again").isZero();

                source.send(resealed(source, copyWithBody(source.session(), genuine, body), Wire.COMPRESSION,
                        "brotli"));
                TransferHarness.await("the brotli chunk dropped", 20, () -> h.protocolRejections.stream()
                        .anyMatch(x -> x.reason().contains("'brotli', a method this agent does not know")));
                assertThat(dir.resolve("out")).isEmptyDirectory();
                sendAgainAndExpectWritten(source, genuine, Path.of(out), real);
            }
        }
    }

    /** The message with one property changed and tagged again with the transfer's key. */
    private static BytesMessage resealed(ScriptedPeer source, BytesMessage m, String property, Object value)
            throws Exception {
        m.setObjectProperty(property, value);
        MessageTag.seal(m, source.key());
        return m;
    }
}
