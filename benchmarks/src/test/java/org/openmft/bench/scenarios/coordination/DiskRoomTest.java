package org.openmft.bench.scenarios.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.bench.Scale;

class DiskRoomTest {
    private static final long GIB = Scale.GIB;
    private static final long SMALL = CoordinationScenario.SMALL_FILE_BYTES;

    @Test
    void theLastTenthOfTheFileSystemIsNotRoom() {
        // 252 GiB with 79 free: 25.2 are past Artemis's 90%, so 53.8 may be written.
        long room = DiskRoom.roomBelow(252 * GIB, 79 * GIB, 0.9);
        assertThat(room / (double) GIB).isCloseTo(53.8, org.assertj.core.data.Offset.offset(0.01));
        assertThat(DiskRoom.roomBelow(100 * GIB, 5 * GIB, 0.9)).isZero();
    }

    @Test
    void aCellNeedsItsSourcesItsDestinationsAndTheQueueManagers() {
        long perPair = CoordinationScenario.FILES_PER_TRANSFER * 10 * Scale.MIB + SMALL;
        assertThat(DiskRoom.destinationBytes(250, 10 * Scale.MIB, SMALL)).isEqualTo(250 * perPair);
        assertThat(DiskRoom.cellBytes(250, 10 * Scale.MIB, SMALL))
                .isEqualTo(2 * 250 * perPair + DiskRoom.QUEUE_MANAGER_ALLOWANCE);
    }

    @Test
    void theShortfallSaysWhatIsNeededWhatThereIsAndWhy() {
        long need = DiskRoom.cellBytes(250, 10 * Scale.MIB, SMALL);
        String why = DiskRoom.shortfall(252 * GIB, 74 * GIB, need, 0.9);
        assertThat(why).contains("needs 50.9 GiB", "has 48.8 GiB", "74.0 GiB are free", "max-disk-usage of 90%");
        assertThat(DiskRoom.shortfall(252 * GIB, 80 * GIB, need, 0.9)).isNull();
    }

    @Test
    void theLargestCellThatFitsIsChosenAndNoneWhenNoneFits() {
        List<Integer> counts = List.of(50, 100, 150, 200, 250);
        long fileBytes = 10 * Scale.MIB;
        long room = DiskRoom.cellBytes(200, fileBytes, SMALL);
        assertThat(DiskRoom.largestFitting(counts, fileBytes, SMALL, room)).isEqualTo(200);
        assertThat(DiskRoom.largestFitting(counts, fileBytes, SMALL, room - 1)).isEqualTo(150);
        assertThat(DiskRoom.largestFitting(counts, fileBytes, SMALL, DiskRoom.QUEUE_MANAGER_ALLOWANCE)).isZero();
    }

    @Test
    void theFileSystemOfADirectoryIsReadAsArtemisReadsIt(@TempDir Path dir) throws Exception {
        double used = DiskRoom.usedShare(dir);
        assertThat(used).isBetween(0.0, 1.0);
        java.nio.file.FileStore store = java.nio.file.Files.getFileStore(dir);
        long room = DiskRoom.roomBelow(store.getTotalSpace(), store.getUsableSpace(), DiskRoom.limit());
        assertThat(DiskRoom.shortfall(dir, Math.max(0, room - GIB), 0)).isNull();
        assertThat(DiskRoom.shortfall(dir, room + 64 * GIB, 0)).startsWith("needs ");
        assertThat(DiskRoom.shortfall(dir, room + 64 * GIB, 65 * GIB)).as("once 65 GiB are deleted").isNull();
        assertThat(DiskRoom.room(dir, 65 * GIB)).isGreaterThan(room + 64 * GIB);
        assertThat(DiskRoom.limit()).isEqualTo(0.9);
    }
}
