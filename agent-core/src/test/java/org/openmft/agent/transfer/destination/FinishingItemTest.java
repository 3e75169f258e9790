package org.openmft.agent.transfer.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.transfer.state.StateFiles;

/**
 * A file that cannot be forced fails its item with BFGIO0341E, whether the force ran on the
 * caller's thread or was handed to another: nothing is journaled or renamed, the partial file
 * goes (the force's error must not escape as an unchecked exception into the DATA dispatcher).
 */
class FinishingItemTest {
    @TempDir
    Path dir;

    private FinishingItem item(FileChannel channel) {
        return new FinishingItem("t", 0, 3, "/in/a", dir.resolve("a.part"), dir.resolve("a"), false, 4, null,
                channel);
    }

    /** A channel whose force fails: it is closed already (a ClosedChannelException, an IOException). */
    private FileChannel unforceable() throws Exception {
        Files.writeString(dir.resolve("a.part"), "abcd");
        FileChannel c = FileChannel.open(dir.resolve("a.part"), StandardOpenOption.WRITE);
        c.close();
        return c;
    }

    @Test
    void aForceThatFailsOnTheCallersThreadFailsTheItem() throws Exception {
        List<StateFiles.Rename> journaled = new ArrayList<>();
        FinishingItem f = item(unforceable());

        assertThatThrownBy(() -> f.complete(journaled::add)).isInstanceOf(ItemWriter.ItemFailure.class)
                .hasMessageStartingWith("BFGIO0341E: The temporary file \"" + dir.resolve("a.part"));
        assertNothingJournaledOrLeft(journaled);
    }

    @Test
    void aForceThatFailsOnAnotherThreadFailsTheItemTheSameWay() throws Exception {
        List<StateFiles.Rename> journaled = new ArrayList<>();
        FinishingItem f = item(unforceable());
        f.forceWith(r -> new Thread(r, "test-force").start());

        assertThatThrownBy(() -> f.complete(journaled::add)).isInstanceOf(ItemWriter.ItemFailure.class)
                .hasMessageStartingWith("BFGIO0341E");
        assertNothingJournaledOrLeft(journaled);
    }

    /** A failed item: no rename journaled, neither its partial file nor its final name on disk. */
    private void assertNothingJournaledOrLeft(List<StateFiles.Rename> journaled) {
        assertThat(journaled).isEmpty();
        assertThat(dir.resolve("a.part")).doesNotExist();
        assertThat(dir.resolve("a")).doesNotExist();
    }

    @Test
    void aForcedItemIsJournaledThenRenamed() throws Exception {
        List<StateFiles.Rename> journaled = new ArrayList<>();
        Files.writeString(dir.resolve("a.part"), "abcd");
        FinishingItem f = item(FileChannel.open(dir.resolve("a.part"), StandardOpenOption.WRITE));
        f.forceWith(Runnable::run);

        ItemWriter.Finished done = f.complete(journaled::add);

        assertThat(done.destination()).isEqualTo(dir.resolve("a").toString());
        assertThat(journaled).singleElement().satisfies(r -> assertThat(r.finalPath()).isEqualTo(done.destination()));
        assertThat(Files.readString(dir.resolve("a"))).isEqualTo("abcd");
        assertThat(dir.resolve("a.part")).doesNotExist();
    }
}
