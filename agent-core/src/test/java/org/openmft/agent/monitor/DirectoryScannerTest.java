package org.openmft.agent.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What one poll lists: regular files to the recursion level, a link as its target, with size and time. */
class DirectoryScannerTest {
    @TempDir
    Path dir;

    @Test
    void listsRegularFilesDownToTheRecursionLevelAndLinksAsTheirTargets() throws Exception {
        Path a = Files.writeString(dir.resolve("a.dat"), "12345");
        Files.setLastModifiedTime(a, FileTime.fromMillis(1_000_000));
        Path sub = Files.createDirectories(dir.resolve("sub/deeper"));
        Files.writeString(sub.getParent().resolve("b.dat"), "1");
        Files.writeString(sub.resolve("c.dat"), "1");
        Files.createSymbolicLink(dir.resolve("link.dat"), a);
        Files.createSymbolicLink(dir.resolve("dangling.dat"), dir.resolve("gone"));
        Files.createSymbolicLink(dir.resolve("linkdir"), sub);

        List<FileSnapshot> top = DirectoryScanner.scan(dir, 0);
        assertThat(top).extracting(FileSnapshot::name).containsExactlyInAnyOrder("a.dat", "link.dat");
        FileSnapshot link = top.stream().filter(f -> f.name().equals("link.dat")).findFirst().orElseThrow();
        assertThat(link.path()).isEqualTo(dir.resolve("link.dat").toString());
        assertThat(link.size()).isEqualTo(5);
        assertThat(link.lastModifiedMillis()).isEqualTo(1_000_000);

        assertThat(DirectoryScanner.scan(dir, 1)).extracting(FileSnapshot::path).containsExactlyInAnyOrder(
                a.toString(), dir.resolve("link.dat").toString(), dir.resolve("sub/b.dat").toString());
        assertThat(DirectoryScanner.scan(dir, 2)).extracting(FileSnapshot::name)
                .containsExactlyInAnyOrder("a.dat", "link.dat", "b.dat", "c.dat");
    }

    @Test
    void aDirectoryThatIsNotThereIsNullNotEmpty() throws Exception {
        assertThat(DirectoryScanner.scan(dir.resolve("missing"), 0)).isNull();
        assertThat(DirectoryScanner.scan(dir, 0)).isEmpty();
    }
}
