package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openmft.agent.Checksum;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.LineEnding;
import org.openmft.xml.Mode;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;

/**
 * Transfers of real files between two real agents on a real embedded queue manager, in bindings
 * (in-VM) and client (TCP) mode.
 */
class TransferIT {
    @TempDir
    Path dir;

    static final int CHUNK = 64 * 1024;

    TransferHarness twoAgents(boolean client, Map<String, String> sourceProps, Map<String, String> destProps)
            throws Exception {
        TransferHarness h = new TransferHarness(dir, client);
        h.agent("SRC", merge(Map.of("agentChunkSize", String.valueOf(CHUNK)), sourceProps));
        h.agent("DST", destProps);
        Files.createDirectories(dir.resolve("out"));
        return h;
    }

    static Map<String, String> merge(Map<String, String> a, Map<String, String> b) {
        var m = new java.util.HashMap<>(a);
        m.putAll(b);
        return m;
    }

    @ParameterizedTest(name = "client mode: {0}")
    @ValueSource(booleans = {false, true})
    void filesOfEveryBoundarySizeArriveIntact(boolean client) throws Exception {
        try (TransferHarness h = twoAgents(client, Map.of(), Map.of())) {
            long[] sizes = {0, 1, CHUNK, CHUNK + 1, 100L << 20};
            TransferItem[] items = new TransferItem[sizes.length];
            for (int i = 0; i < sizes.length; i++) {
                Path src = TransferHarness.randomFile(dir.resolve("in/f" + i + ".bin"), sizes[i], i);
                items[i] = TransferHarness.item(src.toString(), dir.resolve("out/f" + i + ".bin").toString(),
                        DestinationType.FILE);
            }
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, items), 120);
            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
            for (int i = 0; i < sizes.length; i++) {
                Path out = dir.resolve("out/f" + i + ".bin");
                assertThat(Files.size(out)).isEqualTo(sizes[i]);
                assertThat(TransferHarness.md5(out)).isEqualTo(TransferHarness.md5(dir.resolve("in/f" + i + ".bin")));
            }
            assertThat(h.events).anySatisfy(e -> assertThat(e).startsWith("checkpoint "));
            try (Stream<Path> left = Files.list(dir.resolve("out"))) {
                assertThat(left.map(Path::toString)).noneMatch(n -> n.contains(".part"));
            }
        }
    }

    @Test
    void aThousandSmallFilesByWildcardInOneTransfer() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of())) {
            for (int i = 0; i < 1000; i++) {
                Files.createDirectories(dir.resolve("many"));
                Files.writeString(dir.resolve("many/file" + i + ".txt"), "content of file " + i + "\n");
            }
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(dir.resolve("many/*.txt").toString(), dir.resolve("out").toString(),
                            DestinationType.DIRECTORY)), 120);
            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
            try (Stream<Path> files = Files.list(dir.resolve("out"))) {
                assertThat(files.count()).isEqualTo(1000);
            }
            assertThat(Files.readString(dir.resolve("out/file777.txt"))).isEqualTo("content of file 777\n");
        }
    }

    @ParameterizedTest(name = "client mode: {0}")
    @ValueSource(booleans = {false, true})
    void recursiveDirectoriesAreRecreatedAndWildcardsSelect(boolean client) throws Exception {
        try (TransferHarness h = twoAgents(client, Map.of(), Map.of())) {
            TransferHarness.randomFile(dir.resolve("tree/a.dat"), 10, 1);
            TransferHarness.randomFile(dir.resolve("tree/sub/b.dat"), 200_000, 2);
            TransferHarness.randomFile(dir.resolve("tree/sub/deeper/c.dat"), 3, 3);
            TransferHarness.randomFile(dir.resolve("pick/abc.dat"), 5, 4);
            TransferHarness.randomFile(dir.resolve("pick/axc.dat"), 5, 5);
            TransferHarness.randomFile(dir.resolve("pick/abcd.dat"), 5, 6);
            TransferHarness.randomFile(dir.resolve("pick/notes.txt"), 5, 7);
            Files.createDirectories(dir.resolve("out/picked"));
            TransferItem tree = new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                    new ItemSource(true, Disposition.LEAVE, dir.resolve("tree").toString(), null),
                    new ItemDestination(DestinationType.DIRECTORY, ExistAction.ERROR, dir.resolve("out").toString(),
                            null, null));
            TransferItem wildcard = TransferHarness.item(dir.resolve("pick/a?c.dat").toString(),
                    dir.resolve("out/picked").toString(), DestinationType.DIRECTORY);
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, tree, wildcard), 60);
            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
            assertThat(TransferHarness.md5(dir.resolve("out/tree/sub/b.dat")))
                    .isEqualTo(TransferHarness.md5(dir.resolve("tree/sub/b.dat")));
            assertThat(dir.resolve("out/tree/sub/deeper/c.dat")).exists();
            assertThat(dir.resolve("out/tree/a.dat")).exists();
            try (Stream<Path> picked = Files.list(dir.resolve("out/picked"))) {
                assertThat(picked.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("abc.dat",
                        "axc.dat");
            }
        }
    }

    @ParameterizedTest(name = "client mode: {0}")
    @ValueSource(booleans = {false, true})
    void textIsConvertedWithCrlfAndAMultiByteCharacterAcrossAChunkBoundary(boolean client) throws Exception {
        try (TransferHarness h = twoAgents(client, Map.of("agentChunkSize", "1024"), Map.of())) {
            StringBuilder text = new StringBuilder();
            // 'é' (2 bytes in UTF-8) starts at byte 1023: it straddles the first chunk boundary.
            text.append("x".repeat(1023)).append('é').append("\nline two, naïve café\nend\n");
            while (text.length() < 5000) {
                text.append("more text ü ö ä ß\n");
            }
            Path src = dir.resolve("in/text.txt");
            Files.createDirectories(src.getParent());
            Files.writeString(src, text.toString(), StandardCharsets.UTF_8);
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.textItem(src.toString(),
                    "UTF-8", dir.resolve("out/text.txt").toString(), "ISO-8859-1", LineEnding.CRLF)), 60);
            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
            byte[] expected = text.toString().replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1);
            assertThat(Files.readAllBytes(dir.resolve("out/text.txt"))).isEqualTo(expected);
        }
    }

    @Test
    void unmappableTextFailsTheItemUnlessAReplacementIsConfigured() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of())) {
            Path src = dir.resolve("in/euro.txt");
            Files.createDirectories(src.getParent());
            Files.writeString(src, "price: 5 €\n", StandardCharsets.UTF_8);
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.textItem(src.toString(),
                    "UTF-8", dir.resolve("out/euro.txt").toString(), "ISO-8859-1", LineEnding.LF)), 60);
            assertThat(r.resultCode()).isEqualTo(40);
            assertThat(TransferHarness.failedSupplements(r)).anySatisfy(s -> assertThat(s).contains("U+20AC"));
            assertThat(dir.resolve("out/euro.txt")).doesNotExist();
            assertThat(dir.resolve("out/euro.txt.part")).doesNotExist();
        }
        try (TransferHarness h = new TransferHarness(dir.resolve("again"), false)) {
            h.agent("SRC", Map.of("textReplacementCharacterSequence", "?"));
            h.agent("DST");
            Path src = dir.resolve("in/euro.txt");
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.textItem(src.toString(),
                    "UTF-8", dir.resolve("out/euro2.txt").toString(), "ISO-8859-1", LineEnding.LF)), 60);
            assertThat(r.resultCode()).isZero();
            assertThat(Files.readString(dir.resolve("out/euro2.txt"), StandardCharsets.ISO_8859_1))
                    .isEqualTo("price: 5 ?\n");
        }
    }

    @Test
    void existErrorFailsTheItemAndKeepsTheFileWhileOverwriteReplacesIt() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of())) {
            Path src = TransferHarness.randomFile(dir.resolve("in/x.bin"), 5000, 9);
            Path target = dir.resolve("out/x.bin");
            Files.writeString(target, "precious");
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), target.toString(), DestinationType.FILE)), 60);
            assertThat(r.resultCode()).isEqualTo(40);
            assertThat(TransferHarness.failedSupplements(r)).anySatisfy(s -> assertThat(s).contains("BFGIO0006E"));
            assertThat(Files.readString(target)).isEqualTo("precious");

            TransferItem overwrite = new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                    new ItemSource(false, Disposition.LEAVE, src.toString(), null),
                    new ItemDestination(DestinationType.FILE, ExistAction.OVERWRITE, target.toString(), null, null));
            assertThat(h.transfer(TransferHarness.request("SRC", "DST", 0, overwrite), 60).resultCode()).isZero();
            assertThat(TransferHarness.md5(target)).isEqualTo(TransferHarness.md5(src));
        }
    }

    @Test
    void deleteDispositionRemovesTheSourceOnlyAfterSuccess() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of())) {
            Path good = TransferHarness.randomFile(dir.resolve("in/good.bin"), 300_000, 1);
            Path blocked = TransferHarness.randomFile(dir.resolve("in/blocked.bin"), 10, 2);
            Files.writeString(dir.resolve("out/blocked.bin"), "already here");
            String goodMd5 = TransferHarness.md5(good);
            TransferItem moveGood = new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                    new ItemSource(false, Disposition.DELETE, good.toString(), null),
                    new ItemDestination(DestinationType.FILE, ExistAction.ERROR, dir.resolve("out/good.bin").toString(),
                            null, null));
            TransferItem moveBlocked = new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                    new ItemSource(false, Disposition.DELETE, blocked.toString(), null),
                    new ItemDestination(DestinationType.FILE, ExistAction.ERROR,
                            dir.resolve("out/blocked.bin").toString(), null, null));
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, moveGood, moveBlocked), 60);
            assertThat(r.resultCode()).isEqualTo(20);
            assertThat(good).doesNotExist();
            assertThat(TransferHarness.md5(dir.resolve("out/good.bin"))).isEqualTo(goodMd5);
            assertThat(blocked).as("a failed item's source is never deleted").exists();
        }
    }

    @Test
    void anUnknownDestinationAgentFailsFastWith49() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of())) {
            Path src = TransferHarness.randomFile(dir.resolve("in/a.bin"), 10, 1);
            Reply r = h.transfer(TransferHarness.request("SRC", "NOSUCH", 0,
                    TransferHarness.item(src.toString(), dir.resolve("out/a.bin").toString(), DestinationType.FILE)),
                    30);
            assertThat(r.resultCode()).isEqualTo(49);
            assertThat(r.supplements()).anySatisfy(s -> assertThat(s).contains("NOSUCH"));
        }
    }

    @Test
    void aRequestForAnotherSourceAgentIsRefusedWith4() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of())) {
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("DST", "SRC", 0,
                    TransferHarness.item("/etc/hostname", dir.resolve("out/h").toString(), DestinationType.FILE)))) {
                assertThat(s.ack.resultCode()).isEqualTo(4);
            }
        }
    }

    @Test
    void missingSourcesFailTheirItemsAndTooManyFilesFailsTheTransferWith46() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of("maxFilesForTransfer", "3"), Map.of())) {
            Path real = TransferHarness.randomFile(dir.resolve("in/real.bin"), 10, 1);
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(real.toString(), dir.resolve("out/real.bin").toString(), DestinationType.FILE),
                    TransferHarness.item(dir.resolve("in/ghost.bin").toString(), dir.resolve("out/ghost.bin").toString(),
                            DestinationType.FILE)), 60);
            assertThat(r.resultCode()).isEqualTo(20);
            assertThat(TransferHarness.failedSupplements(r)).anySatisfy(s -> assertThat(s).contains("ghost.bin"));

            for (int i = 0; i < 5; i++) {
                TransferHarness.randomFile(dir.resolve("five/f" + i), 1, i);
            }
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(dir.resolve("five/*").toString(), dir.resolve("out").toString(),
                            DestinationType.DIRECTORY)))) {
                // Planned off the command thread: accepted, then failed once its files are counted.
                assertThat(s.ack.resultCode()).isZero();
                Reply failed = s.awaitFinal(60);
                assertThat(failed.resultCode()).isEqualTo(46);
                assertThat(failed.supplements()).anySatisfy(x -> assertThat(x).contains("BFGSS0033E"));
            }
            try (Stream<Path> out = Files.list(dir.resolve("out"))) {
                assertThat(out.map(p -> p.getFileName().toString())).containsExactly("real.bin");
            }
        }
    }

    @Test
    void aRequestBeyondTheAgentsPlannedItemsCapFailsWith44AndHoldsNothing() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of("openmft.maxPlannedItems", "2"), Map.of())) {
            for (int i = 0; i < 3; i++) {
                TransferHarness.randomFile(dir.resolve("three/f" + i), 1, i);
            }
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(dir.resolve("three/*").toString(), dir.resolve("out").toString(),
                            DestinationType.DIRECTORY)))) {
                assertThat(s.ack.resultCode()).isZero();
                Reply failed = s.awaitFinal(60);
                assertThat(failed.resultCode()).isEqualTo(44);
                assertThat(failed.supplements()).anySatisfy(x -> assertThat(x).contains("holds 0 planned items",
                        "openmft.maxPlannedItems (2)"));
            }
            try (Stream<Path> out = Files.list(dir.resolve("out"))) {
                assertThat(out).as("nothing moved for the refused request").isEmpty();
            }
            // The refusal held nothing: a request within the cap runs.
            Files.delete(dir.resolve("three/f2"));
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(dir.resolve("three/*").toString(), dir.resolve("out").toString(),
                            DestinationType.DIRECTORY)), 60);
            assertThat(r.resultCode()).isEqualTo(0);
            try (Stream<Path> out = Files.list(dir.resolve("out"))) {
                assertThat(out.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("f0", "f1");
            }
        }
    }

    @Test
    void aHandWrittenIbmRequestPutByAPlainJmsClientWorks() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of())) {
            Path src = TransferHarness.randomFile(dir.resolve("in/payroll_2024.csv"), 12_345, 3);
            String xml = """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <request version="4.00" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                             xsi:noNamespaceSchemaLocation="FileTransfer.xsd">
                      <managedTransfer>
                        <originator><hostName>batch01.example.org</hostName><userID>payroll</userID></originator>
                        <sourceAgent agent="SRC" QMgr="QMT"/>
                        <destinationAgent agent="DST" QMgr="QMT"/>
                        <reply QMGR="QMT">WMQFTE.492D0D5502770020</reply>
                        <transferSet priority="5">
                          <metaDataSet><metaData key="batchDate">2024-05-31</metaData></metaDataSet>
                          <item mode="binary" checksumMethod="MD5">
                            <source recursive="false" disposition="leave"><file>%s</file></source>
                            <destination type="directory" exist="error"><file>%s</file></destination>
                          </item>
                        </transferSet>
                        <job><name>NIGHTLY_PAYROLL</name></job>
                      </managedTransfer>
                    </request>
                    """.formatted(dir.resolve("in/payroll_*.csv"), dir.resolve("out"));
            try (TransferHarness.Submission s = h.submitText("SRC", xml)) {
                assertThat(s.ack.resultCode()).isZero();
                assertThat(TransferIds.isValid(s.id())).isTrue();
                Reply fin = s.awaitFinal(60);
                assertThat(fin.resultCode()).isZero();
                assertThat(fin.requestId()).isEqualTo(s.id());
            }
            assertThat(TransferHarness.md5(dir.resolve("out/payroll_2024.csv"))).isEqualTo(TransferHarness.md5(src));
        }
    }

    @Test
    void theOutcomeIsReportedOnBothSides() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of())) {
            Path src = TransferHarness.randomFile(dir.resolve("in/a.bin"), 100_000, 1);
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), dir.resolve("out/a.bin").toString(), DestinationType.FILE)),
                    60);
            assertThat(r.resultCode()).isZero();
            TransferHarness.await("destination outcome", 10, () -> !h.destinationOutcomes.isEmpty());
            var dest = h.destinationOutcomes.get(0);
            assertThat(dest.resultCode()).isZero();
            assertThat(dest.items()).singleElement().satisfies(i -> {
                assertThat(i.checksum()).isEqualTo(new Checksum(ChecksumMethod.MD5, TransferHarness.md5(src)));
                assertThat(i.bytes()).isEqualTo(100_000);
            });
            assertThat(h.sourceOutcomes).singleElement().satisfies(o -> assertThat(o.bytes()).isEqualTo(100_000));
            assertThat(List.copyOf(h.events)).containsSubsequence("started SOURCE " + r.requestId(),
                    "ended SOURCE " + r.requestId() + " 0");
            TransferHarness.await("both agents idle again", 10, () -> h.agents.values().stream()
                    .allMatch(a -> a.state() == org.openmft.agent.AgentState.READY));
            assertThat(List.copyOf(h.events)).containsSubsequence("state SRC ACTIVE", "state SRC READY")
                    .containsSubsequence("state DST ACTIVE", "state DST READY");
        }
    }

    @Test
    void aSha256TransferArrivesWithTheSha256OfTheFileOnBothSides() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of())) {
            Path src = TransferHarness.randomFile(dir.resolve("in/s.bin"), 300_000, 7);
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(src.toString(),
                    dir.resolve("out/s.bin").toString(), DestinationType.FILE, ChecksumMethod.SHA_256)), 60);
            assertThat(r.resultCode()).isZero();
            Checksum expected = new Checksum(ChecksumMethod.SHA_256, TransferHarness.sha256(src));
            TransferHarness.await("destination outcome", 10, () -> !h.destinationOutcomes.isEmpty());
            assertThat(h.destinationOutcomes.get(0).items()).singleElement()
                    .satisfies(i -> assertThat(i.checksum()).isEqualTo(expected));
            assertThat(h.sourceOutcomes).singleElement().satisfies(o -> assertThat(o.items()).singleElement()
                    .satisfies(i -> assertThat(i.checksum()).isEqualTo(expected)));
            assertThat(TransferHarness.sha256(dir.resolve("out/s.bin"))).isEqualTo(expected.hex());
        }
    }

    @Test
    void relativePathsResolveAgainstEachAgentsTransferRootAndChecksumNoneWorks() throws Exception {
        Path srcRoot = Files.createDirectories(dir.resolve("srcroot/outbox"));
        Path dstRoot = Files.createDirectories(dir.resolve("dstroot/inbox"));
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("transferRoot", dir.resolve("srcroot").toString()));
            h.agent("DST", Map.of("transferRoot", dir.resolve("dstroot").toString()));
            Path src = TransferHarness.randomFile(srcRoot.resolve("rel.bin"), 70_000, 5);
            TransferItem noChecksum = new TransferItem(Mode.BINARY, ChecksumMethod.NONE,
                    new ItemSource(false, Disposition.LEAVE, "outbox/rel.bin", null),
                    new ItemDestination(DestinationType.FILE, ExistAction.ERROR, "inbox/rel.bin", null, null));
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, noChecksum), 60);
            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
            assertThat(TransferHarness.md5(dstRoot.resolve("rel.bin"))).isEqualTo(TransferHarness.md5(src));
            assertThat(r.items()).singleElement().satisfies(i -> assertThat(i.destination())
                    .isEqualTo(dstRoot.resolve("rel.bin").toString()));

            TransferItem escape = TransferHarness.item("../../etc/passwd", "inbox/x", DestinationType.FILE);
            Reply refused = h.transfer(TransferHarness.request("SRC", "DST", 0, escape), 60);
            assertThat(refused.resultCode()).isEqualTo(40);
            assertThat(TransferHarness.failedSupplements(refused)).anySatisfy(x -> assertThat(x).contains(".."));
        }
    }

    @Test
    void theDestinationEnforcesItsOwnFileLimitWith47() throws Exception {
        try (TransferHarness h = twoAgents(false, Map.of(), Map.of("maxFilesForTransfer", "2"))) {
            for (int i = 0; i < 3; i++) {
                TransferHarness.randomFile(dir.resolve("three/f" + i), 1, i);
            }
            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item(
                    dir.resolve("three/*").toString(), dir.resolve("out").toString(), DestinationType.DIRECTORY)), 60);
            assertThat(r.resultCode()).isEqualTo(47);
            try (Stream<Path> out = Files.list(dir.resolve("out"))) {
                assertThat(out).isEmpty();
            }
        }
    }
}
