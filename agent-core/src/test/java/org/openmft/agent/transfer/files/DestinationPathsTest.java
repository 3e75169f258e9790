package org.openmft.agent.transfer.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DestinationPathsTest {

    @TempDir
    Path dest;

    @Test
    void fileDestinationIsTheDestinationItself() throws Exception {
        Path target = dest.resolve("out/final.csv");
        assertEquals(target, DestinationPaths.resolve(DestinationType.FILE, target, "ignored/name.txt"));
        assertEquals(target, DestinationPaths.resolve(DestinationType.FILE, target, null));
    }

    @Test
    void directoryDestinationAppendsTheRelativePath() throws Exception {
        assertEquals(dest.resolve("a.txt"), DestinationPaths.resolve(DestinationType.DIRECTORY, dest, "a.txt"));
        assertEquals(dest.resolve("tree").resolve("sub").resolve("b.txt"),
                DestinationPaths.resolve(DestinationType.DIRECTORY, dest, "tree/sub/b.txt"));
        assertEquals(dest.resolve("..name"), DestinationPaths.resolve(DestinationType.DIRECTORY, dest, "..name"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "a/../../x", "/etc/passwd", "a//b", "./a", "a/.", "", "a/", "bad\0name"})
    void relativePathsThatCouldEscapeAreRefused(String relative) {
        PathRefusedException e = assertThrows(PathRefusedException.class,
                () -> DestinationPaths.resolve(DestinationType.DIRECTORY, dest, relative));
        assertEquals(relative, e.path());
        assertTrue(e.getMessage().contains(dest.toString()), e.getMessage());
    }

    @Test
    void partFilesFollowIbmNaming() {
        Path file = dest.resolve("report.txt");
        assertEquals(dest.resolve("report.txt.part"), DestinationPaths.partFile(file));
        assertEquals(dest.resolve("report.txt.part"), DestinationPaths.partFile(file, 0));
        assertEquals(dest.resolve("report.txt.part7"), DestinationPaths.partFile(file, 7));
        assertEquals(dest.resolve("report.txt.part1000"), DestinationPaths.partFile(file, 1000));
        assertThrows(IllegalArgumentException.class, () -> DestinationPaths.partFile(file, 1001));
        assertThrows(IllegalArgumentException.class, () -> DestinationPaths.partFile(Path.of("/")));
    }
}
