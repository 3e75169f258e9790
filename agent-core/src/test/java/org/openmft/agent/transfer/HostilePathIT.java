package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.ItemOutcome;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemResult;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;

/**
 * Paths that try to leave an agent's sandbox, against running agents with {@code sandboxRoot} set,
 * at the source (reading) and at the destination (writing): {@code ..} segments, absolute paths
 * elsewhere, {@code !} exclusions, and symbolic links inside the sandbox that lead out of it (a
 * source file, a destination directory, a {@code .part} file, a file to overwrite). Each item
 * fails with a message naming the path and the rule; nothing outside the sandbox is read into a
 * transfer or written; the agents go on transferring.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostilePathIT {
    private static final String SECRET = "SECRET-5d0c2a-outside-the-sandbox";

    /** One queue manager and pair of agents for the class: no test changes their configuration. */
    @TempDir
    static Path dir;
    TransferHarness h;
    Path outside;
    Path srcbox;
    Path dstbox;
    String srcRule;
    String dstRule;
    Map<Path, String> outsideBefore;
    int served;

    @BeforeAll
    void startSandboxedAgents() throws Exception {
        outside = Files.createDirectories(dir.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), SECRET);
        Files.writeString(outside.resolve("victim.txt"), "victim, never to be overwritten");
        Files.writeString(outside.resolve("over.txt"), "kept, never to be overwritten");

        srcbox = Files.createDirectories(dir.resolve("srcbox"));
        Files.writeString(srcbox.resolve("ok.txt"), "inside the source sandbox\n");
        Files.writeString(Files.createDirectories(srcbox.resolve("private")).resolve("p.txt"), SECRET);
        Files.createSymbolicLink(srcbox.resolve("link-to-secret"), outside.resolve("secret.txt"));
        Files.createSymbolicLink(srcbox.resolve("linkdir"), outside);
        Files.writeString(Files.createDirectories(srcbox.resolve("mixed")).resolve("good.txt"), "good\n");
        Files.createSymbolicLink(srcbox.resolve("mixed/evil.txt"), outside.resolve("secret.txt"));

        dstbox = Files.createDirectories(dir.resolve("dstbox"));
        Files.createDirectories(dstbox.resolve("out"));
        Files.createDirectories(dstbox.resolve("private"));
        Files.createSymbolicLink(dstbox.resolve("linkdir"), outside);
        Files.createSymbolicLink(dstbox.resolve("out/victim.bin.part"), outside.resolve("victim.txt"));
        Files.createSymbolicLink(dstbox.resolve("out/over.txt"), outside.resolve("over.txt"));

        srcRule = srcbox + ":!" + srcbox.resolve("private");
        dstRule = dstbox + ":!" + dstbox.resolve("private");
        h = new TransferHarness(dir, false);
        h.agent("SRC", Map.of("sandboxRoot", srcRule, "transferRoot", srcbox.toString()));
        h.agent("DST", Map.of("sandboxRoot", dstRule, "transferRoot", dstbox.toString()));
        outsideBefore = contents(outside);
    }

    @AfterAll
    void stopAgents() {
        h.close();
    }

    @AfterEach
    void nothingOutsideChangedAndTheAgentsGoOn() throws Exception {
        assertThat(contents(outside)).as("the directory outside both sandboxes").isEqualTo(outsideBefore);
        assertThat(dir.resolve("escape.txt")).doesNotExist();
        try (Stream<Path> all = Files.walk(dstbox)) {
            assertThat(all.filter(Files::isRegularFile)).noneMatch(p -> read(p).contains(SECRET));
        }
        Path target = dstbox.resolve("out/served-" + (++served) + ".txt");
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item("ok.txt",
                target.toString(), DestinationType.FILE)), 60);
        assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isZero();
        assertThat(target).hasContent("inside the source sandbox");
    }

    @Test
    void sourcePathsLeavingTheSandboxFailTheirItemsNamingPathAndRule() throws Exception {
        String secret = outside.resolve("secret.txt").toString();
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                item("../outside/secret.txt", "refused-1.txt"),
                item(srcbox + "/../outside/secret.txt", "refused-2.txt"),
                item(secret, "refused-3.txt"),
                item(srcbox.resolve("private/p.txt").toString(), "refused-4.txt"),
                item("private/p.txt", "refused-5.txt"),
                item("link-to-secret", "refused-6.txt"),
                item(srcbox.resolve("linkdir/secret.txt").toString(), "refused-7.txt")), 60);

        assertThat(r.resultCode()).isEqualTo(40);
        Map<String, String> why = supplements(r);
        assertThat(why).hasSize(7);
        assertThat(why.get("../outside/secret.txt")).contains("\"../outside/secret.txt\"", "'..'");
        assertThat(why.get(srcbox + "/../outside/secret.txt")).contains("'..'");
        assertThat(why.get(secret)).contains("READ of \"" + secret + "\"", "outside sandboxRoot \"" + srcRule + "\"");
        assertThat(why.get(srcbox.resolve("private/p.txt").toString()))
                .contains("sandboxRoot rule \"!" + srcbox.resolve("private") + "\"");
        assertThat(why.get("private/p.txt")).contains(srcbox.resolve("private/p.txt").toString(),
                "sandboxRoot rule \"!" + srcbox.resolve("private") + "\"");
        assertThat(why.get("link-to-secret")).contains(srcbox.resolve("link-to-secret").toString(),
                "resolves to \"" + secret.replace(dir.toString(), dir.toRealPath().toString()) + "\"",
                "outside sandboxRoot");
        assertThat(why.get(srcbox.resolve("linkdir/secret.txt").toString())).contains("resolves to", "outside sandboxRoot");
        try (Stream<Path> arrived = Files.list(dstbox.resolve("out"))) {
            assertThat(arrived.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("refused-"));
        }
    }

    @Test
    void wildcardAndRecursiveSourcesSkipWhatTheSandboxRefusesAndSendTheRest() throws Exception {
        Path picked = Files.createDirectories(dstbox.resolve("picked"));
        Path tree = Files.createDirectories(dstbox.resolve("tree"));
        Reply wildcard = h.transfer(TransferHarness.request("SRC", "DST", 0, TransferHarness.item("mixed/*",
                picked.toString(), DestinationType.DIRECTORY)), 60);
        assertThat(wildcard.resultCode()).isEqualTo(20);
        assertThat(picked.resolve("good.txt")).hasContent("good");
        assertThat(picked.resolve("evil.txt")).doesNotExist();
        assertThat(wildcard.supplements()).singleElement().asString()
                .startsWith("BFGRP0034I: The file transfer request has completed with problems: 1 of 2 files failed.");
        assertThat(wildcard.items()).filteredOn(i -> i.resultCode() == ItemOutcome.FAILED).singleElement()
                .extracting(ItemResult::supplement).asString()
                .contains(srcbox.resolve("mixed/evil.txt").toString(), "outside sandboxRoot \"" + srcRule + "\"");

        TransferItem everything = new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                new ItemSource(true, Disposition.LEAVE, srcbox.toString(), null),
                new ItemDestination(DestinationType.DIRECTORY, ExistAction.ERROR, tree.toString(), null, null));
        Reply recursive = h.transfer(TransferHarness.request("SRC", "DST", 0, everything), 60);
        assertThat(recursive.resultCode()).isEqualTo(20);
        assertThat(tree.resolve("srcbox/ok.txt")).exists();
        assertThat(tree.resolve("srcbox/mixed/good.txt")).exists();
        assertThat(tree.resolve("srcbox/private")).doesNotExist();
        Map<String, String> skipped = new TreeMap<>();
        recursive.items().stream().filter(i -> i.resultCode() == ItemOutcome.FAILED)
                .forEach(i -> skipped.put(i.source(), i.supplement()));
        assertThat(skipped.keySet()).containsExactlyInAnyOrder(srcbox.resolve("private").toString(),
                srcbox.resolve("link-to-secret").toString(), srcbox.resolve("linkdir").toString(),
                srcbox.resolve("mixed/evil.txt").toString());
        assertThat(skipped.get(srcbox.resolve("private").toString()))
                .contains("sandboxRoot rule \"!" + srcbox.resolve("private") + "\"");
        assertThat(skipped.get(srcbox.resolve("link-to-secret").toString())).contains("outside sandboxRoot");
        assertThat(skipped.get(srcbox.resolve("linkdir").toString())).contains("links are not followed");
        assertThat(skipped.get(srcbox.resolve("mixed/evil.txt").toString())).contains("outside sandboxRoot");
    }

    @Test
    void destinationPathsLeavingTheSandboxFailTheirItemsNamingPathAndRule() throws Exception {
        Path outsideNew = outside.resolve("new.txt");
        Path excluded = dstbox.resolve("private/x.txt");
        Path throughLink = dstbox.resolve("linkdir/x.txt");
        TransferItem overwriteThroughLink = new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                new ItemSource(false, Disposition.LEAVE, "ok.txt", null),
                new ItemDestination(DestinationType.FILE, ExistAction.OVERWRITE, dstbox.resolve("out/over.txt").toString(),
                        null, null));
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                TransferHarness.item("ok.txt", "../escape.txt", DestinationType.FILE),
                TransferHarness.item("ok.txt", outsideNew.toString(), DestinationType.FILE),
                TransferHarness.item("ok.txt", excluded.toString(), DestinationType.FILE),
                TransferHarness.item("ok.txt", throughLink.toString(), DestinationType.FILE),
                TransferHarness.item("ok.txt", dstbox.resolve("linkdir").toString(), DestinationType.DIRECTORY),
                overwriteThroughLink), 60);

        assertThat(r.resultCode()).isEqualTo(40);
        Map<String, String> why = new TreeMap<>();
        for (ItemResult i : r.items()) {
            assertThat(i.resultCode()).as("item to %s", i.destination()).isEqualTo(ItemOutcome.FAILED);
            assertThat(i.supplement()).as("item to %s", i.destination()).startsWith("BFGSS0021E: WRITE of \"");
            why.put(i.destination(), i.supplement());
        }
        assertThat(why).hasSize(6);
        assertThat(why.get("../escape.txt")).contains("\"../escape.txt\"", "'..'");
        assertThat(why.get(outsideNew.toString())).contains("outside sandboxRoot \"" + dstRule + "\"");
        assertThat(why.get(excluded.toString())).contains("sandboxRoot rule \"!" + dstbox.resolve("private") + "\"");
        assertThat(why.get(throughLink.toString())).contains("resolves to", "outside sandboxRoot");
        assertThat(why.get(dstbox.resolve("linkdir").toString())).contains("resolves to", "outside sandboxRoot");
        assertThat(why.get(dstbox.resolve("out/over.txt").toString())).contains("resolves to", "outside sandboxRoot");
        assertThat(outsideNew).doesNotExist();
        assertThat(excluded).doesNotExist();
        assertThat(Files.isSymbolicLink(dstbox.resolve("out/over.txt"))).as("the link is left as it was").isTrue();
    }

    @Test
    void aPartFileLinkedOutsideTheSandboxIsNeverWrittenThrough() throws Exception {
        Path target = dstbox.resolve("out/victim.bin");
        Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                TransferHarness.item("ok.txt", target.toString(), DestinationType.FILE)), 60);

        assertThat(r.resultCode()).isEqualTo(40);
        assertThat(r.items()).singleElement().extracting(ItemResult::supplement).asString()
                .contains(target + ".part", "outside sandboxRoot \"" + dstRule + "\"");
        assertThat(target).doesNotExist();
        assertThat(Files.isSymbolicLink(dstbox.resolve("out/victim.bin.part"))).isTrue();
    }

    @Test
    void aSourceReplacedByALinkAfterTheRequestWasAcceptedIsNotRead() throws Exception {
        // Same size and time as the secret, so that only the sandbox can tell them apart.
        Path swapped = Files.writeString(srcbox.resolve("swapped.txt"), "x".repeat(SECRET.length()));
        Files.setLastModifiedTime(outside.resolve("secret.txt"), Files.getLastModifiedTime(swapped));
        Path target = dstbox.resolve("out/swapped.txt");
        h.onQueued = transfer -> {
            try {
                Files.delete(swapped);
                Files.createSymbolicLink(swapped, outside.resolve("secret.txt"));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        Reply r;
        try {
            r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item("swapped.txt", target.toString(), DestinationType.FILE)), 60);
        } finally {
            h.onQueued = transfer -> { };
        }

        assertThat(r.resultCode()).isEqualTo(40);
        assertThat(r.items()).singleElement().extracting(ItemResult::supplement).asString()
                .contains("BFGSS0021E", swapped.toString(), "resolves to", "outside sandboxRoot \"" + srcRule + "\"");
        assertThat(target).doesNotExist();
    }

    // ------------------------------------------------------------------------------------------ helpers

    TransferItem item(String source, String destinationName) {
        return TransferHarness.item(source, dstbox.resolve("out/" + destinationName).toString(), DestinationType.FILE);
    }

    /** Each failed item's supplement by its source path as the request gave it. */
    static Map<String, String> supplements(Reply r) {
        Map<String, String> why = new TreeMap<>();
        for (ItemResult i : r.items()) {
            assertThat(i.resultCode()).as("item %s", i.source()).isEqualTo(ItemOutcome.FAILED);
            assertThat(i.supplement()).as("item %s", i.source()).startsWith("BFGSS0021E: READ of \"");
            why.put(i.source(), i.supplement());
        }
        return why;
    }

    static Map<Path, String> contents(Path directory) throws Exception {
        Map<Path, String> all = new TreeMap<>();
        try (Stream<Path> files = Files.walk(directory)) {
            files.filter(Files::isRegularFile).forEach(p -> all.put(p, read(p)));
        }
        return all;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
