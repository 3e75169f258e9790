package org.openmft.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineInfoTest {
    @Test
    void anExt4FileSystemWithoutAJournalIsNamedWithWhatItCosts(@TempDir Path procFs) throws Exception {
        Files.createDirectories(procFs.resolve("ext4/vda"));
        Files.createDirectories(procFs.resolve("jbd2"));
        assertThat(MachineInfo.ext4WithoutJournal("ext4", "/dev/vda", procFs))
                .startsWith("no journal: a new file walks past every inode deleted");
    }

    @Test
    void aJournaledExt4FileSystemIsNotNamed(@TempDir Path procFs) throws Exception {
        Files.createDirectories(procFs.resolve("ext4/vda"));
        Files.createDirectories(procFs.resolve("jbd2/vda-8"));
        assertThat(MachineInfo.ext4WithoutJournal("ext4", "/dev/vda", procFs)).isNull();
        // Another device's journal says nothing of this one.
        Files.createDirectories(procFs.resolve("ext4/vdb"));
        assertThat(MachineInfo.ext4WithoutJournal("ext4", "/dev/vdb", procFs)).isNotNull();
    }

    @Test
    void otherFileSystemsAndUnknownDevicesAreNotNamed(@TempDir Path procFs) throws Exception {
        Files.createDirectories(procFs.resolve("ext4/vda"));
        assertThat(MachineInfo.ext4WithoutJournal("xfs", "/dev/vda", procFs)).isNull();
        assertThat(MachineInfo.ext4WithoutJournal("ext4", "/dev/sdz", procFs)).isNull();
        assertThat(MachineInfo.ext4WithoutJournal("ext4", "", procFs)).isNull();
        assertThat(MachineInfo.ext4WithoutJournal("tmpfs", "tmpfs", procFs)).isNull();
    }
}
