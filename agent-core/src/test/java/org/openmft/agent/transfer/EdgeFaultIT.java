package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.agent.CiAssumptions.assumeOrFailInCi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import jakarta.jms.Message;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.openmft.agent.Agent;
import org.openmft.agent.AgentListener;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.protocol.Wire;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemResult;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.PingAgentRequest;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferItem;

/**
 * Faults at the edges of a transfer, produced for real: a destination file system that fills up
 * (a 2 MiB tmpfs), a destination directory nobody may write (the immutable attribute, which stops
 * root too), a source the kernel refuses to let anyone read, a missing destination directory, a
 * source deleted or changed while it is read, and source disposition {@code delete} against items
 * that failed and a transfer that timed out in recovery.
 *
 * <p>Every case checks the same guarantees: the item fails with a supplement naming the file and
 * the cause, nothing is left under the final name nor as {@code .part}, the other items and later
 * transfers go on, and a failed item's source is never deleted. A fault this machine cannot
 * produce skips its test with the reason; none is faked.
 *
 * <p>A source is held in the middle of a file through its progress events ({@link Hold}): the test
 * changes the file while the transfer thread waits, so "mid-transfer" does not depend on timing.
 */
class EdgeFaultIT {
    @TempDir
    Path dir;

    /** Mount points and immutable directories to undo, whatever the test's outcome. */
    private final List<Path> mounts = new ArrayList<>();
    private final List<Path> immutable = new ArrayList<>();

    @AfterEach
    void undoFileSystemChanges() throws Exception {
        for (Path p : immutable) {
            run("chattr", "-i", p.toString());
        }
        for (Path m : mounts) {
            if (!run("umount", m.toString()).ok()) {
                run("umount", "-l", m.toString());
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Destination disk full

    @ParameterizedTest(name = "doNotUseTempOutputFile={0}")
    @ValueSource(booleans = {false, true})
    void aFullDiskFailsTheItemLeavesNoPartialFileAndTheRestGoesOn(boolean direct) throws Exception {
        Path full = smallFileSystem(dir.resolve("full"), "2m");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("agentChunkSize", "65536"));
            h.agent("DST", Map.of("doNotUseTempOutputFile", String.valueOf(direct)));
            Path a = TransferHarness.randomFile(dir.resolve("in/a.bin"), 300_000, 1);
            Path big = TransferHarness.randomFile(dir.resolve("in/big.bin"), 4L << 20, 2);
            Path c = TransferHarness.randomFile(dir.resolve("in/c.bin"), 300_000, 3);
            String md5a = TransferHarness.md5(a);
            String md5c = TransferHarness.md5(c);

            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, move(a, full.resolve("a.bin")),
                    move(big, full.resolve("big.bin")), move(c, full.resolve("c.bin"))), 60);

            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isEqualTo(20);
            assertThat(failed(r, big).supplement()).contains(full.resolve("big.bin").toString())
                    .contains("No space left on device");
            assertThat(full.resolve("big.bin")).as("nothing under the final name").doesNotExist();
            assertThat(full.resolve("big.bin.part")).doesNotExist();
            assertThat(big).as("the source of a failed item is never deleted").exists();
            assertThat(TransferHarness.md5(full.resolve("a.bin"))).isEqualTo(md5a);
            assertThat(TransferHarness.md5(full.resolve("c.bin"))).as("the item after the full disk").isEqualTo(md5c);
            assertThat(a).as("a confirmed item's source is deleted").doesNotExist();
            assertThat(c).doesNotExist();

            // The failed file's space is free again: the agent goes on.
            Path later = TransferHarness.randomFile(dir.resolve("in/later.bin"), 1L << 20, 4);
            Reply again = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(later.toString(), full.resolve("later.bin").toString(), DestinationType.FILE)),
                    60);
            assertThat(again.resultCode()).as("%s", TransferHarness.failedSupplements(again)).isZero();
            assertThat(TransferHarness.md5(full.resolve("later.bin"))).isEqualTo(TransferHarness.md5(later));
            assertAnswersPing(h, "DST");
        }
    }

    // ------------------------------------------------------------------------------------------
    // Permissions

    @Test
    void aDestinationDirectoryNobodyMayWriteFailsItsItemAndTheRestGoesOn() throws Exception {
        Path locked = Files.createDirectories(dir.resolve("out/locked"));
        makeImmutable(locked);
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            h.agent("DST");
            Path x = TransferHarness.randomFile(dir.resolve("in/x.bin"), 200_000, 1);
            Path y = TransferHarness.randomFile(dir.resolve("in/y.bin"), 200_000, 2);

            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, move(x, locked.resolve("x.bin")),
                    TransferHarness.item(y.toString(), dir.resolve("out/y.bin").toString(), DestinationType.FILE)), 60);

            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isEqualTo(20);
            // The immutable attribute makes the kernel answer EPERM, root or not.
            assertThat(failed(r, x).supplement()).contains(locked.resolve("x.bin").toString())
                    .contains("Operation not permitted");
            assertThat(x).as("the source of a failed item is never deleted").exists();
            assertThat(TransferHarness.md5(dir.resolve("out/y.bin"))).isEqualTo(TransferHarness.md5(y));

            // Writable again: the same item goes through.
            run("chattr", "-i", locked.toString());
            immutable.remove(locked);
            Reply again = h.transfer(TransferHarness.request("SRC", "DST", 0, move(x, locked.resolve("x.bin"))), 60);
            assertThat(again.resultCode()).as("%s", TransferHarness.failedSupplements(again)).isZero();
            assertThat(x).doesNotExist();
        }
        assertThat(listing(locked)).containsExactly("x.bin");
    }

    @Test
    void aSourceNobodyMayReadFailsItsItemAndTheRestGoesOn() throws Exception {
        // Root reads any ordinary file; a write-only kernel setting is refused to everyone
        // (proc_sys_permission answers EACCES even with CAP_DAC_OVERRIDE).
        Path unreadable = Path.of("/proc/sys/vm/drop_caches");
        assumeOrFailInCi(Files.isRegularFile(unreadable) && !Files.isReadable(unreadable),
                () -> unreadable + " is not a file this process is refused to read; no other file is (we run as"
                        + " root), so the unreadable source case cannot be produced here");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            Path ok = TransferHarness.randomFile(dir.resolve("in/ok.bin"), 100_000, 1);

            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(unreadable.toString(), dir.resolve("out/secret.bin").toString(),
                            DestinationType.FILE),
                    TransferHarness.item(ok.toString(), dir.resolve("out/ok.bin").toString(), DestinationType.FILE)),
                    60);

            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isEqualTo(20);
            assertThat(failed(r, unreadable).supplement()).contains("BFGIO0003E", unreadable.toString(),
                    "Permission denied");
            assertThat(listing(dir.resolve("out"))).containsExactly("ok.bin");
            assertThat(TransferHarness.md5(dir.resolve("out/ok.bin"))).isEqualTo(TransferHarness.md5(ok));
        }
    }

    @Test
    void aMissingDestinationDirectoryFailsItsItemWithBFGIO0007EAndTheRestGoesOn() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            Path a = TransferHarness.randomFile(dir.resolve("in/a.bin"), 1000, 1);
            Path b = TransferHarness.randomFile(dir.resolve("in/b.bin"), 1000, 2);
            Path missing = dir.resolve("out/nosuch");

            Reply r = h.transfer(TransferHarness.request("SRC", "DST", 0, move(a, missing.resolve("a.bin")),
                    TransferHarness.item(b.toString(), dir.resolve("out/b.bin").toString(), DestinationType.FILE)), 60);

            assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isEqualTo(20);
            assertThat(failed(r, a).supplement()).contains("BFGIO0007E", missing.toString());
            assertThat(missing).as("the destination directory is not created").doesNotExist();
            assertThat(a).as("the source of a failed item is never deleted").exists();
            assertThat(listing(dir.resolve("out"))).containsExactly("b.bin");
        }
    }

    // ------------------------------------------------------------------------------------------
    // The source changes while it is read

    enum Change {
        DELETED("does not exist") {
            @Override
            void apply(Path file) throws IOException {
                Files.delete(file);
            }
        },
        APPENDED("changed while it was being transferred") {
            @Override
            void apply(Path file) throws IOException {
                Files.write(file, new byte[100_000], StandardOpenOption.APPEND);
            }
        },
        TRUNCATED("changed while it was being transferred") {
            @Override
            void apply(Path file) throws IOException {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ch.truncate(1000);
                }
            }
        },
        /** Same size, new bytes behind the part already read: only the modification time tells. */
        REWRITTEN("last modified") {
            @Override
            void apply(Path file) throws IOException {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    ch.write(ByteBuffer.wrap("rewritten".getBytes(StandardCharsets.US_ASCII)), Files.size(file) / 2);
                }
            }
        };

        final String cause;

        Change(String cause) {
            this.cause = cause;
        }

        abstract void apply(Path file) throws IOException;
    }

    @ParameterizedTest
    @EnumSource(Change.class)
    void aSourceChangedMidTransferFailsItsItemAndLeavesNothingAtTheDestination(Change change) throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("agentChunkSize", "16384", "agentWindowSize", "2", "agentFrameSize", "2"));
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            Path moving = TransferHarness.randomFile(dir.resolve("in/moving.bin"), 1L << 20, 1);
            // An hour old: a change during the test moves the modification time whatever the file
            // system's timestamp granularity.
            Files.setLastModifiedTime(moving,
                    FileTime.fromMillis(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1)));
            Path other = TransferHarness.randomFile(dir.resolve("in/other.bin"), 50_000, 2);
            Path part = dir.resolve("out/moving.bin.part");
            Hold hold = new Hold(0);
            h.progressTap = hold;
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(moving.toString(), dir.resolve("out/moving.bin").toString(),
                            DestinationType.FILE),
                    TransferHarness.item(other.toString(), dir.resolve("out/other.bin").toString(),
                            DestinationType.FILE)))) {
                try {
                    hold.awaitReached();
                    assertThat(part).as("the destination holds part of the file").exists();
                    assertThat(Files.size(part)).isPositive().isLessThan(1L << 20);
                    change.apply(moving);
                } finally {
                    hold.release();
                }
                Reply r = s.awaitFinal(60);
                assertThat(r.resultCode()).as("%s", TransferHarness.failedSupplements(r)).isEqualTo(20);
                assertThat(failed(r, moving).supplement()).contains(moving.toString(), change.cause);
            }
            assertThat(listing(dir.resolve("out"))).as("neither moving.bin nor its .part").containsExactly("other.bin");
            assertThat(TransferHarness.md5(dir.resolve("out/other.bin"))).isEqualTo(TransferHarness.md5(other));
        }
    }

    // ------------------------------------------------------------------------------------------
    // State that cannot be made durable

    @Test
    void aRequestWhoseStateCannotBeRecordedIsRefusedWith40AndLeavesNothing() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            Path src = TransferHarness.randomFile(dir.resolve("in/a.bin"), 1000, 1);
            Path state = dir.resolve("state-SRC");
            makeImmutable(state);
            Reply r;
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), dir.resolve("out/a.bin").toString(), DestinationType.FILE)))) {
                r = s.ack;
            }
            assertThat(r.resultCode()).as("the acknowledgement refuses the request").isEqualTo(40);
            assertThat(r.supplements()).anySatisfy(s -> assertThat(s).startsWith("BFGTR0095E")
                    .contains(state.toString()));
            run("chattr", "-i", state.toString());
            immutable.remove(state);
            assertThat(TransferHarness.transferStateFiles(state)).as("nothing of the refused request is left").isEmpty();
            assertThat(listing(dir.resolve("out"))).isEmpty();
            // The agent goes on: the next request is taken.
            Reply again = h.transfer(TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(src.toString(), dir.resolve("out/a.bin").toString(), DestinationType.FILE)),
                    60);
            assertThat(again.resultCode()).as("%s", TransferHarness.failedSupplements(again)).isZero();
        }
    }

    @Test
    void aSourceThatCannotJournalAnItemsResultFailsTheTransferWithTheReason() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("agentChunkSize", "16384", "agentWindowSize", "2", "agentFrameSize", "2"));
            h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            Path first = TransferHarness.randomFile(dir.resolve("in/first.bin"), 1000, 1);
            Path second = TransferHarness.randomFile(dir.resolve("in/second.bin"), 1L << 20, 2);
            // Held once item 0's result is journaled at the source: its ITEM_DONE may come after
            // acknowledgements of item 1's chunks (the destination forces items beside the next).
            Hold hold = Hold.afterResult(0);
            h.progressTap = hold;
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    TransferHarness.item(first.toString(), dir.resolve("out/first.bin").toString(),
                            DestinationType.FILE),
                    TransferHarness.item(second.toString(), dir.resolve("out/second.bin").toString(),
                            DestinationType.FILE)))) {
                Path journal;
                try {
                    hold.awaitReached();
                    // Item 0 is done and journaled; its journal now refuses every write.
                    journal = dir.resolve("state-SRC").resolve(s.id() + ".src-results");
                    assertThat(journal).exists();
                    assumeOrFailInCi(isLinux(), () -> "the immutable attribute (chattr +i) is Linux's");
                    Command c = run("chattr", "+i", journal.toString());
                    assumeOrFailInCi(c.ok(), () -> "chattr +i failed here: " + c.output());
                    immutable.add(journal);
                } finally {
                    hold.release();
                }
                Reply r = s.awaitFinal(60);
                assertThat(r.resultCode()).isEqualTo(40);
                assertThat(r.supplements()).anySatisfy(x -> assertThat(x).startsWith("BFGTR0095E")
                        .contains(journal.getFileName().toString()));
            }
            // The source told the destination, which forgot the transfer (no COMPLETE_ACK will come).
            TransferHarness.await("the destination to forget the transfer the source gave up", 30,
                    () -> {
                        try {
                            return TransferHarness.transferStateFiles(dir.resolve("state-DST")).isEmpty();
                        } catch (IOException e) {
                            return false;
                        }
                    });
            assertThat(h.events.stream().filter(e -> e.startsWith("ended DESTINATION ")).count())
                    .as("the destination reported the transfer's end once").isOne();
        }
    }

    // ------------------------------------------------------------------------------------------
    // Source disposition delete

    @Test
    void aTransferThatTimesOutInRecoveryNeverDeletesTheSourceOfItsUnconfirmedItem() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("agentChunkSize", "16384", "agentWindowSize", "2", "agentFrameSize", "2",
                    "transferAckTimeout", "1000", "transferAckTimeoutRetries", "1", "transferRecoveryTimeout", "2"));
            Agent destination = h.agent("DST");
            Files.createDirectories(dir.resolve("out"));
            Path src = TransferHarness.randomFile(dir.resolve("in/pending.bin"), 1L << 20, 1);
            String before = TransferHarness.md5(src);
            Hold hold = new Hold(0);
            h.progressTap = hold;
            try (TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "DST", 0,
                    move(src, dir.resolve("out/pending.bin"))))) {
                try {
                    hold.awaitReached();
                    // The destination goes away in the middle of the file and never answers again.
                    destination.close();
                } finally {
                    hold.release();
                }
                Reply r = s.awaitFinal(60);
                assertThat(r.resultCode()).as("%s", r.supplements()).isEqualTo(69);
                assertThat(r.supplements()).anySatisfy(x -> assertThat(x).contains("recovery timed out"));
            }
            assertThat(src).as("disposition delete after result 69").exists();
            assertThat(TransferHarness.md5(src)).isEqualTo(before);
            assertThat(dir.resolve("out/pending.bin")).doesNotExist();
        }
    }

    /**
     * A checksum mismatch cannot be produced with two real agents (the destination checks the bytes
     * it received against the sum of the bytes the source read), so a scripted destination reports
     * one, exactly as {@link DestinationTransfer} does.
     */
    @Test
    void aChecksumMismatchReportedByTheDestinationNeverDeletesTheSource() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC");
            Path src = TransferHarness.randomFile(dir.resolve("in/sum.bin"), 5000, 1);
            String supplement = "BFGTR0062E: The checksum of \"/fake/sum.bin\" does not match the source's";
            try (ScriptedPeer fake = ScriptedPeer.destination(h.peer("FAKE"), "FAKE", "SRC");
                    TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "FAKE", 0,
                            move(src, Path.of("/fake/sum.bin"))))) {
                Message last = fake.acceptStartAndTakeLastChunk();
                fake.send(fake.codec().itemDone(last.getStringProperty(Wire.TRANSFER_ID),
                        last.getIntProperty(Wire.INCARNATION), last.getIntProperty(Wire.ITEM),
                        last.getLongProperty(Wire.SEQ), new ItemOutcome(0, null, null, 0, ItemOutcome.FAILED,
                                supplement, null)));
                // The source finished the transfer with the scripted destination.
                fake.expect(Wire.COMPLETE_ACK);
                Reply r = s.awaitFinal(30);
                assertThat(r.resultCode()).isEqualTo(40);
                assertThat(failed(r, src).supplement()).isEqualTo(supplement);
            }
            assertThat(src).as("the source of an item whose checksum did not match").exists();
        }
    }

    /**
     * The destination's ITEM_DONE is lost on the way (it is not persistent: a queue manager that
     * refuses or drops it loses it, which a real peer cannot be made to do on demand). The source,
     * with everything sent, asks with an ACK_REQUEST naming the item it has no result for; the
     * scripted destination answers with the result, and the transfer ends without resynchronising.
     * The moved file stays until then.
     */
    @Test
    void aLostItemDoneIsAskedForAgainAndTheTransferEndsWithoutResynchronising() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            h.agent("SRC", Map.of("transferAckTimeout", "1000"));
            Path src = TransferHarness.randomFile(dir.resolve("in/lost.bin"), 5000, 3);
            String md5 = ProtocolFaultIT.md5(Files.readAllBytes(src));
            try (ScriptedPeer fake = ScriptedPeer.destination(h.peer("FAKE"), "FAKE", "SRC");
                    TransferHarness.Submission s = h.submit("SRC", TransferHarness.request("SRC", "FAKE", 0,
                            move(src, Path.of("/fake/lost.bin"))))) {
                Message last = fake.acceptStartAndTakeLastChunk();
                String id = last.getStringProperty(Wire.TRANSFER_ID);
                int incarnation = last.getIntProperty(Wire.INCARNATION);
                // Its ITEM_DONE "was lost": the source asks, in the same incarnation.
                Message ask = fake.expect(Wire.ACK_REQUEST);
                assertThat(ask.getIntProperty(Wire.INCARNATION)).as("asked, not resynchronised").isEqualTo(incarnation);
                assertThat(ask.getIntProperty(Wire.FIRST_OPEN_ITEM)).as("the item it has no result for").isZero();
                assertThat(src).as("a moved file before its result arrived").exists();
                fake.send(fake.codec().itemDone(id, incarnation, 0, last.getLongProperty(Wire.SEQ), new ItemOutcome(0,
                        null, "/fake/lost.bin", 5000, ItemOutcome.SUCCESS, null,
                        org.openmft.agent.Checksum.of(ChecksumMethod.MD5, md5))));
                fake.expect(Wire.COMPLETE_ACK);
                Reply r = s.awaitFinal(30);
                assertThat(r.resultCode()).as("%s", r.items()).isZero();
            }
            assertThat(src).as("moved once its result arrived").doesNotExist();
        }
    }

    // ------------------------------------------------------------------------------------------

    /**
     * Holds the source's transfer thread at the first progress event of item {@link #item} (the
     * destination has acknowledged part of it) until {@link #release()}: the test changes things
     * while the source is certainly in the middle of the file.
     */
    static final class Hold implements AgentListener {
        final int item;
        /** Whether it holds at item {@code item}'s result at the source rather than at its progress. */
        private final boolean atResult;
        private final AtomicBoolean taken = new AtomicBoolean();
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        Hold(int item) {
            this(item, false);
        }

        private Hold(int item, boolean atResult) {
            this.item = item;
            this.atResult = atResult;
        }

        /** Holds the source's thread right after it journaled item {@code item}'s result. */
        static Hold afterResult(int item) {
            return new Hold(item, true);
        }

        @Override
        public void progress(String agent, String transferId, int sending, long itemBytesSent, long bytesSent) {
            if (!atResult) {
                hold(sending);
            }
        }

        @Override
        public void itemCompleted(String agent, Role role, String transferId, ItemOutcome done) {
            if (atResult) {
                hold(done.index());
            }
        }

        private void hold(int at) {
            if (at != item || !taken.compareAndSet(false, true)) {
                return;
            }
            reached.countDown();
            try {
                // Bounded: a test that fails before releasing does not hang the agent's close.
                released.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void awaitReached() throws InterruptedException {
            assertThat(reached.await(30, TimeUnit.SECONDS)).as("the source reached item %d", item).isTrue();
        }

        void release() {
            released.countDown();
        }
    }

    /** A binary item with {@code disposition="delete"} and {@code exist="error"}. */
    static TransferItem move(Path source, Path destination) {
        return new TransferItem(Mode.BINARY, ChecksumMethod.MD5,
                new ItemSource(false, Disposition.DELETE, source.toString(), null),
                new ItemDestination(DestinationType.FILE, ExistAction.ERROR, destination.toString(), null, null));
    }

    static ItemResult failed(Reply r, Path source) {
        List<ItemResult> matching = r.items().stream().filter(i -> i.source().equals(source.toString())).toList();
        assertThat(matching).as("the result of %s in %s", source, r.items()).singleElement()
                .satisfies(i -> assertThat(i.resultCode()).as(i.supplement()).isEqualTo(ItemOutcome.FAILED));
        return matching.get(0);
    }

    static List<String> listing(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    static void assertAnswersPing(TransferHarness h, String agent) throws Exception {
        try (TransferHarness.Submission ping = h.submit(agent,
                new PingAgentRequest("6.00", TransferHarness.ME, agent, null, null))) {
            assertThat(ping.ack.resultCode()).as("agent %s answers a ping", agent).isZero();
        }
    }

    /**
     * Mounts a tmpfs of {@code size} at {@code at}; skips the test where that is not permitted, and
     * fails it in CI.
     */
    Path smallFileSystem(Path at, String size) throws Exception {
        assumeOrFailInCi(isLinux(), () -> "a small file system to fill is mounted as tmpfs, which needs Linux");
        Files.createDirectories(at);
        Command c = run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", at.toString());
        assumeOrFailInCi(c.ok(), () -> "the disk-full case needs a small file system and this process may not mount a"
                + " tmpfs: " + c.output());
        mounts.add(at);
        return at;
    }

    /**
     * Sets the immutable attribute, which refuses writes to root too; skips where it cannot, and
     * fails in CI.
     */
    void makeImmutable(Path directory) throws Exception {
        assumeOrFailInCi(isLinux(), () -> "the immutable attribute (chattr +i) is Linux's");
        Command c = run("chattr", "+i", directory.toString());
        assumeOrFailInCi(c.ok(), () -> "a directory root may not write needs chattr +i, which failed here: " + c.output());
        immutable.add(directory);
        boolean refused;
        try {
            Files.delete(Files.createFile(directory.resolve("probe")));
            refused = false;
        } catch (IOException e) {
            refused = true;
        }
        assumeOrFailInCi(refused, () -> "chattr +i did not stop this process writing: no directory here refuses root");
    }

    static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }

    record Command(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    static Command run(String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Command(-1, String.join(" ", command) + " did not finish within 30 s");
            }
            return new Command(p.exitValue(), output);
        } catch (IOException e) {
            return new Command(-1, String.join(" ", command) + ": " + e.getMessage());
        }
    }
}
