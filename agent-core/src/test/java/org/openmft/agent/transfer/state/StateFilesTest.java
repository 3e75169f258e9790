package org.openmft.agent.transfer.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.Checksum;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.files.SelectedFile;
import org.openmft.xml.ChecksumMethod;

/**
 * The results journals read back what was appended, so a resumed transfer knows its finished items;
 * requests, plans and journal lines this agent did not write (tag missing, wrong, made with another
 * key or for another file) are not used; ids that are not transfer ids name no file.
 */
class StateFilesTest {
    static final String T1 = "414d5120514d31202020202020202020aaaaaaaaaaaaaaaa";
    static final String T2 = "414d5120514d31202020202020202020bbbbbbbbbbbbbbbb";

    @TempDir
    Path dir;
    final StateTag tag = StateTag.of(new byte[StateTag.KEY_BYTES]);

    @Test
    void resultsAndRenamesReadBackAsAppended() throws Exception {
        Path journal = StateFiles.destinationResults(dir, T1);
        ItemOutcome done = new ItemOutcome(0, "/in/a b.bin", "/out/a b.bin", 1234, ItemOutcome.SUCCESS, null,
                new Checksum(ChecksumMethod.MD5, "0cc175b9c0f1b6a831c399e269772661"));
        ItemOutcome sha = new ItemOutcome(1, "/in/b.bin", "/out/b.bin", 1, ItemOutcome.SUCCESS, null,
                new Checksum(ChecksumMethod.SHA_256,
                        "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"));
        ItemOutcome failed = new ItemOutcome(2, "/in/c.bin", "/out/c.bin", 0, ItemOutcome.FAILED,
                "BFGIO0006E: File \"/out/c.bin\" already exists.", null);
        StateFiles.appendRename(tag, journal, new StateFiles.Rename(0, "/out/a b.bin", 1234, done.checksum().hex()));
        StateFiles.appendResult(tag, journal, new StateFiles.Result(done, 0, 4));
        StateFiles.appendResult(tag, journal, new StateFiles.Result(sha, 5, 5));
        StateFiles.appendResult(tag, journal, new StateFiles.Result(failed, -1, 9));

        StateFiles.Journal j = StateFiles.readJournal(tag, journal, T1);

        assertThat(j.results()).containsOnlyKeys(0, 1, 2);
        assertThat(j.results().get(0)).isEqualTo(new StateFiles.Result(done, 0, 4));
        assertThat(j.results().get(1)).isEqualTo(new StateFiles.Result(sha, 5, 5));
        assertThat(j.results().get(2)).isEqualTo(new StateFiles.Result(failed, -1, 9));
        assertThat(j.renames().get(0)).isEqualTo(new StateFiles.Rename(0, "/out/a b.bin", 1234, done.checksum().hex()));
    }

    @Test
    void callLinesSayWhichCallsStartedAndHowTheyEndedAndForgedOnesAreIgnored() throws Exception {
        Path journal = StateFiles.sourceResults(dir, T1);
        StateFiles.appendCall(tag, journal, StateFiles.CallRecord.started("postDestinationCall"));
        StateFiles.CallRecord ended = new StateFiles.CallRecord("postDestinationCall", true, "error", 0, null,
                "BFGCR0004E: too much\toutput\n");
        StateFiles.appendCall(tag, journal, ended);
        StateFiles.appendCall(tag, journal, StateFiles.CallRecord.started("postDestinationCall"));
        StateFiles.appendCall(tag, journal, StateFiles.CallRecord.started("postSourceCall"));
        // A line someone else wrote, claiming the post-source call ended: not used.
        Files.writeString(journal, "C\tpostSourceCall\tE\tsuccess\t0\t0\t-\t#forged\n", StandardOpenOption.APPEND);

        StateFiles.Journal j = StateFiles.readJournal(tag, journal, T1);

        assertThat(j.calls().get("postDestinationCall")).isEqualTo(ended);
        assertThat(j.calls().get("postSourceCall")).isEqualTo(StateFiles.CallRecord.started("postSourceCall"));
        assertThat(j.results()).isEmpty();
    }

    @Test
    void aResultLineWrittenBeforeSha256ReadsItsChecksumAsAnMd5() throws Exception {
        Path journal = StateFiles.sourceResults(dir, T1);
        Checksum md5 = new Checksum(ChecksumMethod.MD5, "0cc175b9c0f1b6a831c399e269772661");
        StateFiles.appendResult(tag, journal, new StateFiles.Result(new ItemOutcome(0, "/in/a", "/out/a", 1,
                ItemOutcome.SUCCESS, null, md5), 0, 0));
        // As the version before wrote it: ten fields, the last the MD5, with its tag.
        String line = Files.readAllLines(journal).get(0);
        String fields = line.substring(0, line.indexOf("\t#"));
        String tenFields = fields.substring(0, fields.lastIndexOf('\t'));
        Files.writeString(journal, tenFields + "\t#" + tag.tag("line", journal.getFileName().toString(), tenFields)
                + "\n");

        ItemOutcome read = StateFiles.readJournal(tag, journal, T1).results().get(0).outcome();

        assertThat(read.checksum()).isEqualTo(md5);
    }

    @Test
    void aLineCutShortIsIgnoredAndAMissingJournalIsEmpty() throws Exception {
        Path journal = StateFiles.sourceResults(dir, T2);
        assertThat(StateFiles.readJournal(tag, journal, T2).results()).isEmpty();
        StateFiles.appendResult(tag, journal, new StateFiles.Result(new ItemOutcome(0, "/in/a", "/out/a", 1,
                ItemOutcome.SUCCESS, null, null), 0, 0));
        Files.writeString(journal, "R\t1\t0", java.nio.file.StandardOpenOption.APPEND);

        assertThat(StateFiles.readJournal(tag, journal, T2).results()).containsOnlyKeys(0);
    }

    // ------------------------------------------------------------------------------------------
    // Tags: only what this agent wrote is used

    static final ItemOutcome OK = new ItemOutcome(0, "/in/a", "/out/a", 5, ItemOutcome.SUCCESS, null, null);

    static StateTag otherKey() {
        byte[] key = new byte[StateTag.KEY_BYTES];
        key[0] = 1;
        return StateTag.of(key);
    }

    @Test
    void aRequestIsReadBackWithItsTagAndRefusedAndSetAsideWhenOneByteChanged() throws Exception {
        byte[] xml = "<request version=\"6.00\"/>".getBytes(StandardCharsets.UTF_8);
        StateFiles.writeRequest(tag, dir, T1, xml);
        assertThat(StateFiles.readRequest(tag, dir, T1)).isEqualTo(xml);

        byte[] changed = xml.clone();
        changed[3] ^= 1;
        Files.write(StateFiles.request(dir, T1), changed);
        assertThatThrownBy(() -> StateFiles.readRequest(tag, dir, T1)).isInstanceOf(IOException.class)
                .hasMessageContaining("not written by this agent");
        assertThat(StateFiles.request(dir, T1)).as("moved aside").doesNotExist();
        assertThat(dir.resolve(T1 + ".request.xml" + StateFiles.UNTRUSTED)).hasBinaryContent(changed);
        assertThat(tag.refusedCount()).isOne();
    }

    @Test
    void aRequestTaggedWithAnotherKeyOrWithoutTagIsRefused() throws Exception {
        byte[] xml = "<request/>".getBytes(StandardCharsets.UTF_8);
        StateFiles.writeRequest(otherKey(), dir, T1, xml);
        assertThatThrownBy(() -> StateFiles.readRequest(tag, dir, T1)).hasMessageContaining("not written");

        Files.write(StateFiles.request(dir, T2), xml);
        assertThatThrownBy(() -> StateFiles.readRequest(tag, dir, T2)).hasMessageContaining("not written");
        assertThat(tag.refusedCount()).isEqualTo(2);
    }

    @Test
    void journalLinesNotWrittenByThisAgentAreSkippedAndCounted() throws Exception {
        Path journal = StateFiles.destinationResults(dir, T1);
        StateFiles.appendResult(tag, journal, new StateFiles.Result(OK, 0, 0));
        // A line written with another key, one whose tag was made for another transfer's journal,
        // one altered after it was written, one without a tag.
        StateFiles.appendRename(otherKey(), journal, new StateFiles.Rename(1, "/home/u/.ssh/authorized_keys", 5,
                null));
        Path other = StateFiles.destinationResults(dir, T2);
        StateFiles.appendRename(tag, other, new StateFiles.Rename(2, "/etc/cron.d/x", 5, null));
        Files.writeString(journal, Files.readString(other), StandardOpenOption.APPEND);
        StateFiles.appendResult(tag, other, new StateFiles.Result(new ItemOutcome(3, "/in/a", "/out/a", 5,
                ItemOutcome.SUCCESS, null, null), 0, 0));
        Files.writeString(journal, Files.readAllLines(other).get(1).replace("%2Fout%2Fa", "%2Fetc%2Fa") + "\n",
                StandardOpenOption.APPEND);
        Files.writeString(journal, "N\t4\t%2Fetc%2Fpasswd\t5\t-\n", StandardOpenOption.APPEND);

        StateFiles.Journal j = StateFiles.readJournal(tag, journal, T1);

        assertThat(j.results()).containsOnlyKeys(0);
        assertThat(j.renames()).isEmpty();
        assertThat(tag.refusedCount()).isEqualTo(4);
    }

    @Test
    void aPlanIsRefusedWholeWhenALineIsMissingOrChanged() throws Exception {
        StateFiles.Plan plan = new StateFiles.Plan(List.of(
                new StateFiles.Planned(0, new SelectedFile(Path.of("/in/a"), "a", 1, 2)),
                new StateFiles.Planned(0, new SelectedFile(Path.of("/in/b"), "b", 1, 2))),
                List.of(new StateFiles.PreFailed("/in/c", "/out/c", "BFGIO0001E")));
        Path items = StateFiles.items(dir, T1);
        StateFiles.writePlan(tag, items, plan);
        assertThat(StateFiles.readPlan(tag, items, T1)).isEqualTo(plan);

        List<String> lines = Files.readAllLines(items);
        Files.write(items, List.of(lines.get(0), lines.get(2), lines.get(3)));
        assertThatThrownBy(() -> StateFiles.readPlan(tag, items, T1)).isInstanceOf(IOException.class);
        assertThat(items).as("set aside").doesNotExist();

        StateFiles.writePlan(tag, items, plan);
        Files.write(items, List.of(lines.get(0), lines.get(1).replace("%2Fin%2Fb", "%2Fetc%2Fb"), lines.get(2),
                lines.get(3)));
        assertThatThrownBy(() -> StateFiles.readPlan(tag, items, T1)).hasMessageContaining("not written");
    }

    @Test
    void idsThatAreNotTransferIdsNameNoFile() throws Exception {
        Path outside = Files.createDirectories(dir.resolve("outside"));
        Path victim = Files.writeString(outside.resolve("x.dst-results"), "keep");
        for (String id : List.of(outside.resolve("x").toString(), "../outside/x", "a b", "' OR mftRole='S", "",
                T1.toUpperCase(java.util.Locale.ROOT), T1 + "/..")) {
            assertThatThrownBy(() -> StateFiles.destinationResults(dir.resolve("state"), id))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("transfer id");
            assertThatThrownBy(() -> StateFiles.deleteSource(dir.resolve("state"), id))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> StateFiles.request(dir, id)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(victim).hasContent("keep");
    }

    @Test
    void untaggedFilesOfAnEarlierVersionAreAdoptedAndTaggedOnesLeftAsTheyAre() throws Exception {
        // As the version before tags wrote them.
        Files.writeString(StateFiles.request(dir, T1), "<request/>");
        Files.writeString(StateFiles.items(dir, T1), "I\t0\t5\t7\t%2Fin%2Fa\ta\nF\t%2Fin%2Fb\t%2Fout\tBFGIO0001E\n");
        Files.writeString(StateFiles.sourceResults(dir, T1),
                "R\t0\t0\t5\t0\t3\t%2Fin%2Fa\t%2Fout%2Fa\t-\t-\nR\t1\t0");
        StateFiles.appendResult(otherKey(), StateFiles.destinationResults(dir, T2), new StateFiles.Result(OK, 0, 0));
        String forged = Files.readString(StateFiles.destinationResults(dir, T2));
        Files.writeString(dir.resolve("notes.txt"), "not state");

        assertThat(StateFiles.adoptUntagged(tag, dir)).isEqualTo(3);

        assertThat(StateFiles.readRequest(tag, dir, T1)).isEqualTo("<request/>".getBytes(StandardCharsets.UTF_8));
        assertThat(StateFiles.readPlan(tag, StateFiles.items(dir, T1), T1)).isEqualTo(new StateFiles.Plan(
                List.of(new StateFiles.Planned(0, new SelectedFile(Path.of("/in/a"), "a", 5, 7))),
                List.of(new StateFiles.PreFailed("/in/b", "/out", "BFGIO0001E"))));
        assertThat(StateFiles.readJournal(tag, StateFiles.sourceResults(dir, T1), T1).results()).containsOnlyKeys(0);
        assertThat(StateFiles.destinationResults(dir, T2)).as("a wrong tag is not adopted").hasContent(forged);
        assertThat(StateFiles.readJournal(tag, StateFiles.destinationResults(dir, T2), T2).results()).isEmpty();
        assertThat(dir.resolve("notes.txt")).hasContent("not state");
    }
}
