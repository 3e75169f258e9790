package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.Session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.protection.AgentKeyStores;
import org.openmft.agent.protection.PeerKeys;
import org.openmft.agent.protection.ProtectionLevel;
import org.openmft.agent.protection.ProtectionStores;
import org.openmft.agent.transfer.protocol.ItemHeader;
import org.openmft.agent.transfer.protocol.ProtocolCodec;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;

/**
 * End-to-end message protection ({@code openmft.messageProtection}) between agents on a real queue
 * manager: privacy leaves no plaintext of a file anywhere in the queue manager's data directory while
 * its chunks wait there (and the same scan finds the plaintext without it, so the scan sees what is
 * there); integrity catches a chunk changed on the way with its CRC32C kept, and has it sent again;
 * a destination refuses a source that protects less than it requires, and a source without the
 * destination's certificate fails at once (67); a START signed with another key than the one the
 * destination trusts for its source is dropped; a protected transfer resumes after its destination
 * stopped in the middle.
 */
class MessageProtectionIT {
    /** What the scans look for: in every block of the files sent. */
    private static final byte[] MARKER = "OPENMFT-PLAINTEXT-MARKER-7f3a".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    private Map<String, Map<String, String>> keys(ProtectionLevel level, String... agents) throws Exception {
        return ProtectionStores.forAgents(Files.createDirectories(dir.resolve("keys-" + level.word())), List.of(agents),
                level);
    }

    /** The keys an agent of that name opens from its settings (also for CompressionIT). */
    static PeerKeys peerKeys(String agent, Map<String, String> p) throws Exception {
        return AgentKeyStores.open(agent, Path.of(p.get("openmft.protectionKeyStore")),
                Files.readString(Path.of(p.get("openmft.protectionKeyStoreCredentialsFile"))).trim().toCharArray(),
                Path.of(p.get("openmft.protectionTrustStore")),
                Files.readString(Path.of(p.get("openmft.protectionTrustStoreCredentialsFile"))).trim().toCharArray(),
                java.time.Clock.systemUTC());
    }

    static Map<String, String> with(Map<String, String> a, Map<String, String> b) {
        Map<String, String> m = new HashMap<>(a);
        m.putAll(b);
        return m;
    }

    /** A file whose every 64 KiB block holds the marker between random bytes. */
    private Path markedFile(String name, long size) throws IOException {
        Path f = TransferHarness.randomFile(dir.resolve("in/" + name), size, 41);
        byte[] all = Files.readAllBytes(f);
        for (int at = 1000; at + MARKER.length < all.length; at += 1 << 16) {
            System.arraycopy(MARKER, 0, all, at, MARKER.length);
        }
        Files.write(f, all);
        return f;
    }

    /** The files under the queue manager's data directory (journal, paging, large messages) holding the marker. */
    private static List<Path> holdingMarker(Path qm) throws IOException {
        List<Path> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(qm)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                byte[] content;
                try {
                    content = Files.readAllBytes(f);
                } catch (IOException e) {
                    continue; // deleted while walking: a large message consumed meanwhile
                }
                if (indexOf(content, MARKER) >= 0) {
                    found.add(qm.relativize(f));
                }
            }
        }
        return found;
    }

    /**
     * Has the queue manager page {@code address} to disk beyond 64 KiB, as a queue manager short of
     * memory does (the embedded one blocks DATA senders instead, so its DATA never reaches its disk).
     */
    private static void pageBeyond64KiB(TransferHarness h, String address) throws Exception {
        try (jakarta.jms.QueueConnection c = (jakarta.jms.QueueConnection) h.admin.connect()) {
            jakarta.jms.QueueSession s = c.createQueueSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            jakarta.jms.QueueRequestor requestor = new jakarta.jms.QueueRequestor(s, s.createQueue("activemq.management"));
            Message m = s.createMessage();
            org.apache.activemq.artemis.api.jms.management.JMSManagementHelper.putOperationInvocation(m, "broker",
                    "addAddressSettings", address, "{\"addressFullMessagePolicy\":\"PAGE\",\"maxSizeBytes\":65536,"
                            + "\"pageSizeBytes\":32768}");
            Message reply = requestor.request(m);
            assertThat(org.apache.activemq.artemis.api.jms.management.JMSManagementHelper.hasOperationSucceeded(reply))
                    .as("address settings applied: %s", reply.getBody(Object.class)).isTrue();
        }
    }

    private static long bytesUnder(Path d) {
        try (Stream<Path> files = Files.walk(d)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        } catch (IOException | java.io.UncheckedIOException e) {
            return 0;
        }
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @ParameterizedTest
    @EnumSource(value = ProtectionLevel.class, names = {"NONE", "PRIVACY"})
    void chunksWaitingOnTheQueueManagerHoldThePlaintextOnlyWithoutPrivacy(ProtectionLevel level) throws Exception {
        Map<String, Map<String, String>> keys = keys(ProtectionLevel.PRIVACY, "SRC", "SINK");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", with(keys.get("SRC"), Map.of("openmft.messageProtection", level.word())));
            try (ScriptedPeer sink = ScriptedPeer.destination(h.peer("SINK"), "SINK", "SRC")
                    .protectedWith(ProtectionLevel.NONE, peerKeys("SINK", keys.get("SINK")))) {
                pageBeyond64KiB(h, QueueNames.data("SINK"));
                Path src = markedFile("marked.bin", 1L << 20);
                h.send("SRC", TransferHarness.request("SRC", "SINK", 0, TransferHarness.item(src.toString(),
                        dir.resolve("out/marked.bin").toString(), DestinationType.FILE)));
                Message start = sink.acceptStart();
                assertThat(ProtocolCodec.protection(start)).isEqualTo(level);
                assertThat(start.propertyExists(Wire.TRANSFER_KEY)).as("the key in the clear").isEqualTo(
                        level == ProtectionLevel.NONE);
                // The whole file (4 chunks) fits in the source's window: it is sent, and waits on the
                // queue manager, paged to its disk, unread by the sink.
                TransferHarness.await("3 chunks paged to the queue manager's disk", 60,
                        () -> bytesUnder(dir.resolve("qm/paging")) >= 3L << 18);
                List<Path> found = holdingMarker(dir.resolve("qm"));
                if (level == ProtectionLevel.NONE) {
                    assertThat(found).as("the scan sees chunk bodies on the queue manager's disk").isNotEmpty();
                } else {
                    assertThat(found).as("files of the queue manager holding plaintext").isEmpty();
                }
                // What waited there is the file: the destination's key opens it.
                ByteArrayOutputStream file = new ByteArrayOutputStream();
                for (int i = 0; i < 4; i++) {
                    BytesMessage m = (BytesMessage) sink.expectMatching(Wire.DATA, ScriptedPeer.where(Wire.SEQ,
                            (long) i));
                    byte[] body = new byte[(int) m.getBodyLength()];
                    m.readBytes(body);
                    ProtocolCodec.Chunk c = ProtocolCodec.openBody(m, sink.key(), body, body.length,
                            new byte[body.length]);
                    assertThat(c).as("chunk %d opens with the transfer's key", i).isNotNull();
                    file.write(c.bytes(), 0, c.length());
                }
                assertThat(file.toByteArray()).isEqualTo(Files.readAllBytes(src));
            }
        }
    }

    @Test
    void aPrivateTransferArrivesWholeAndTheQueueManagerNeverHeldItsPlaintext() throws Exception {
        Map<String, Map<String, String>> keys = keys(ProtectionLevel.PRIVACY, "SRC", "DST");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", keys.get("SRC"));
            h.agent("DST", keys.get("DST"));
            Path src = markedFile("payroll.bin", 24L << 20);
            Files.createDirectories(dir.resolve("out"));
            pageBeyond64KiB(h, QueueNames.data("DST"));
            Path out = dir.resolve("out/payroll.bin");
            AtomicBoolean running = new AtomicBoolean(true);
            List<Path> seen = Collections.synchronizedList(new ArrayList<>());
            int[] scans = {0};
            Thread scanner = new Thread(() -> {
                while (running.get()) {
                    try {
                        seen.addAll(holdingMarker(dir.resolve("qm")));
                        scans[0]++;
                    } catch (IOException | RuntimeException e) {
                        // a file vanished between listing and reading: scan again
                    }
                }
            });
            scanner.start();
            Reply r;
            try {
                r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(src.toString(),
                        out.toString(), DestinationType.FILE)), 180);
            } finally {
                running.set(false);
                scanner.join();
            }
            assertThat(r.resultCode()).as("%s", r.supplements()).isZero();
            assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
            assertThat(scans[0]).as("scans during the transfer").isPositive();
            seen.addAll(holdingMarker(dir.resolve("qm")));
            assertThat(seen).as("queue manager files that held plaintext during or after the transfer").isEmpty();
        }
    }

    /** The destination's answer to a chunk whose body was changed on the way, its CRC32C kept. */
    @ParameterizedTest
    @EnumSource(value = ProtectionLevel.class, names = {"NONE", "INTEGRITY"})
    void aChunkChangedOnTheWayWithItsCrcKeptIsCaughtByIntegrityAndSentAgain(ProtectionLevel level) throws Exception {
        Map<String, Map<String, String>> keys = keys(ProtectionLevel.INTEGRITY, "FAKE", "DST");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("DST", with(keys.get("DST"), Map.of("openmft.messageProtection", "none")));
            Files.createDirectories(dir.resolve("out"));
            String out = dir.resolve("out/file.bin").toString();
            try (ScriptedPeer source = ScriptedPeer.source(h.peer("FAKE"), "FAKE", "DST")
                    .protectedWith(level, peerKeys("FAKE", keys.get("FAKE")))) {
                source.start(1, 1);
                source.expect(Wire.START_OK);
                byte[] real = "pay 100 to account 12345678 ........ end".getBytes(StandardCharsets.US_ASCII);
                // No checksum on the item: the chunk's own protection is all there is.
                ItemHeader header = new ItemHeader(out, "file", "file.bin", "error", "none", "binary",
                        "/fake/file.bin", real.length);
                BytesMessage genuine = source.codec().data(source.id, 1, 0, 0, 0, true, true, header, real.length, null,
                        real, real.length);
                byte[] changed = "pay 999 to account 66666666 ........ end".getBytes(StandardCharsets.US_ASCII);
                Crc32cForgery.keep(changed, changed.length - 8, Crc32cForgery.crc(real));
                source.send(copyWithBody(source.session(), genuine, changed));
                if (level == ProtectionLevel.NONE) {
                    Message done = source.expect(Wire.ITEM_DONE);
                    assertThat(done.getIntProperty(Wire.RESULT_CODE)).isEqualTo(ItemOutcome.SUCCESS);
                    assertThat(Files.readAllBytes(Path.of(out))).as("without integrity, the changed bytes are written")
                            .isEqualTo(changed);
                    return;
                }
                TransferHarness.await("the changed chunk dropped", 20, () -> h.protocolRejections.stream()
                        .anyMatch(x -> x.reason().contains("not the one its source protected")));
                Message nack = source.expect(Wire.NACK);
                assertThat(nack.getLongProperty(Wire.NEXT_SEQ)).as("asked for again").isZero();
                assertThat(dir.resolve("out")).isEmptyDirectory();
                sendAgainAndExpectWritten(source, genuine, Path.of(out), real);
            }
        }
    }

    /** Sends the genuine chunk (a whole one-chunk item) after the spoilt ones: it is written, and the item succeeds. */
    static void sendAgainAndExpectWritten(ScriptedPeer source, BytesMessage genuine, Path out, byte[] real)
            throws Exception {
        genuine.reset();
        source.send(genuine);
        Message done = source.expect(Wire.ITEM_DONE);
        assertThat(done.getIntProperty(Wire.RESULT_CODE)).isEqualTo(ItemOutcome.SUCCESS);
        assertThat(Files.readAllBytes(out)).isEqualTo(real);
    }

    /** The message as the queue manager could rewrite it: every property kept, another body. */
    static BytesMessage copyWithBody(Session s, BytesMessage m, byte[] body) throws Exception {
        BytesMessage copy = s.createBytesMessage();
        for (var names = m.getPropertyNames(); names.hasMoreElements();) {
            String name = (String) names.nextElement();
            copy.setObjectProperty(name, m.getObjectProperty(name));
        }
        copy.setJMSCorrelationID(m.getJMSCorrelationID());
        copy.writeBytes(body);
        return copy;
    }

    @Test
    void aDestinationRefusesASourceThatProtectsLessThanItRequires() throws Exception {
        Map<String, Map<String, String>> keys = keys(ProtectionLevel.PRIVACY, "SRC", "DST");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", with(keys.get("SRC"), Map.of("openmft.messageProtection", "integrity")));
            h.agent("DST", keys.get("DST"));
            Path src = markedFile("a.bin", 4096);
            Path out = dir.resolve("out/a.bin");
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(src.toString(),
                    out.toString(), DestinationType.FILE)), 60);
            assertThat(r.resultCode()).isEqualTo(67);
            assertThat(String.join(" ", r.supplements())).contains("BFGTR0098E").contains("requires message protection"
                    + " 'privacy' from source agent SRC, which sent 'integrity'");
            assertThat(out).doesNotExist();
            assertThat(out.resolveSibling("a.bin.part")).doesNotExist();
        }
    }

    @Test
    void aSourceWithoutTheDestinationsCertificateFailsAtOnce() throws Exception {
        Map<String, Map<String, String>> keys = keys(ProtectionLevel.PRIVACY, "SRC", "OTHER");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", keys.get("SRC"));
            h.agent("DST");
            Path src = markedFile("a.bin", 4096);
            Path out = dir.resolve("out/a.bin");
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(src.toString(),
                    out.toString(), DestinationType.FILE)), 60);
            assertThat(r.resultCode()).isEqualTo(67);
            assertThat(String.join(" ", r.supplements())).contains("BFGTR0097E")
                    .contains("no certificate of agent DST");
            assertThat(out).doesNotExist();
        }
    }

    @Test
    void aProtectedStartSignedWithAnotherKeyThanTheSourcesIsDropped() throws Exception {
        Map<String, Map<String, String>> trusted = keys(ProtectionLevel.PRIVACY, "FAKE", "DST");
        // Another FAKE key, whose certificate DST does not hold; it knows DST's certificate to wrap for.
        Map<String, Map<String, String>> impostor = ProtectionStores.forAgents(Files.createDirectories(
                dir.resolve("impostor")), List.of("FAKE"), ProtectionLevel.PRIVACY);
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("DST", trusted.get("DST"));
            PeerKeys forged = new ImpostorKeys(peerKeys("FAKE", impostor.get("FAKE")), peerKeys("FAKE",
                    trusted.get("FAKE")));
            try (ScriptedPeer source = ScriptedPeer.source(h.peer("FAKE"), "FAKE", "DST")
                    .protectedWith(ProtectionLevel.PRIVACY, forged)) {
                source.start(1, 1);
                TransferHarness.await("the START dropped", 20, () -> h.protocolRejections.stream()
                        .anyMatch(x -> x.type().equals(Wire.START) && x.reason().contains("not agent FAKE's")));
                assertThat(h.events).noneMatch(e -> e.contains(source.id));
            }
        }
    }

    /** Signs with one key, wraps with the other's view of the peers: an impostor that knows DST's certificate. */
    private record ImpostorKeys(PeerKeys signer, PeerKeys wrapper) implements PeerKeys {
        @Override
        public byte[] wrap(String agent, byte[] key) throws org.openmft.agent.protection.ProtectionException {
            return wrapper.wrap(agent, key);
        }

        @Override
        public byte[] unwrap(byte[] wrapped) throws org.openmft.agent.protection.ProtectionException {
            return signer.unwrap(wrapped);
        }

        @Override
        public byte[] sign(byte[] content) throws org.openmft.agent.protection.ProtectionException {
            return signer.sign(content);
        }

        @Override
        public void verify(String agent, byte[] content, byte[] signature)
                throws org.openmft.agent.protection.ProtectionException {
            signer.verify(agent, content, signature);
        }

        @Override
        public void checkPeer(String agent) throws org.openmft.agent.protection.ProtectionException {
            signer.checkPeer(agent);
        }
    }

    @Test
    void aPrivateTransferResumesAfterItsDestinationStoppedMidFile() throws Exception {
        Map<String, Map<String, String>> keys = keys(ProtectionLevel.PRIVACY, "SRC", "DST");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", with(keys.get("SRC"), RestartRecoveryIT.SLOW));
            h.agent("DST", with(keys.get("DST"), RestartRecoveryIT.SLOW));
            Path src = TransferHarness.randomFile(dir.resolve("in/big.bin"), 32L << 20, 5);
            Files.createDirectories(dir.resolve("out"));
            Path out = dir.resolve("out/big.bin");
            Path part = dir.resolve("out/big.bin.part");
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), out.toString(), DestinationType.FILE)))) {
                TransferHarness.await("8 MiB at the destination", 120, () -> {
                    try {
                        return Files.exists(part) && Files.size(part) >= 8L << 20;
                    } catch (IOException e) {
                        return false;
                    }
                });
                h.stopImmediately("DST");
                h.agent("DST", with(keys.get("DST"), RestartRecoveryIT.SLOW));
                Reply fin = s.awaitFinal(180);
                assertThat(fin.resultCode()).as("%s", fin.supplements()).isZero();
                assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(src));
                assertThat(h.events).contains("resumed DESTINATION " + s.id());
            }
        }
    }
}
