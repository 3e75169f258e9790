package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.ItemOutcome;
import org.openmft.agent.transfer.state.StateFiles;

/** The results journals read back what was appended, so a resumed transfer knows its finished items. */
class StateFilesTest {
    @TempDir
    Path dir;

    @Test
    void resultsAndRenamesReadBackAsAppended() throws Exception {
        Path journal = StateFiles.destinationResults(dir, "T1");
        ItemOutcome done = new ItemOutcome(0, "/in/a b.bin", "/out/a b.bin", 1234, ItemOutcome.SUCCESS, null,
                "0cc175b9c0f1b6a831c399e269772661");
        ItemOutcome failed = new ItemOutcome(2, "/in/c.bin", "/out/c.bin", 0, ItemOutcome.FAILED,
                "BFGIO0006E: File \"/out/c.bin\" already exists.", null);
        StateFiles.appendRename(journal, new StateFiles.Rename(0, "/out/a b.bin", 1234, done.md5()));
        StateFiles.appendResult(journal, new StateFiles.Result(done, 0, 4));
        StateFiles.appendResult(journal, new StateFiles.Result(failed, -1, 9));

        StateFiles.Journal j = StateFiles.readJournal(journal);

        assertThat(j.results()).containsOnlyKeys(0, 2);
        assertThat(j.results().get(0)).isEqualTo(new StateFiles.Result(done, 0, 4));
        assertThat(j.results().get(2)).isEqualTo(new StateFiles.Result(failed, -1, 9));
        assertThat(j.renames().get(0)).isEqualTo(new StateFiles.Rename(0, "/out/a b.bin", 1234, done.md5()));
    }

    @Test
    void aLineCutShortIsIgnoredAndAMissingJournalIsEmpty() throws Exception {
        Path journal = StateFiles.sourceResults(dir, "T2");
        assertThat(StateFiles.readJournal(journal).results()).isEmpty();
        StateFiles.appendResult(journal, new StateFiles.Result(new ItemOutcome(0, "/in/a", "/out/a", 1,
                ItemOutcome.SUCCESS, null, null), 0, 0));
        Files.writeString(journal, "R\t1\t0", java.nio.file.StandardOpenOption.APPEND);

        assertThat(StateFiles.readJournal(journal).results()).containsOnlyKeys(0);
    }
}
