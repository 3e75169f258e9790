package org.openmft.bench.harness;

import org.openmft.bench.Scale;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's own correctness check: a run whose files did not arrive intact gives no figure. */
class TestFilesTest {
    private static final Scale TINY = new Scale("tiny", 3 * Scale.MIB + 7, 3, 64 * 1024 + 1, 1);

    @TempDir
    Path dir;

    @Test
    void generatedFilesHaveTheirSizesAndRecordedMd5s() throws Exception {
        TestFiles files = TestFiles.generate(dir, TINY);
        assertThat(Files.size(files.single)).isEqualTo(TINY.singleFileBytes());
        assertThat(files.set).hasSize(3).allSatisfy(p -> assertThat(p).hasSize(TINY.setFileBytes()));
        assertThat(files.md5Of(files.single)).isEqualTo(TestFiles.md5(files.single));
        assertThat(files.md5Of(files.set.get(0))).isNotEqualTo(files.md5Of(files.set.get(1)));
    }

    @Test
    void intactCopiesVerify() throws Exception {
        TestFiles files = TestFiles.generate(dir, TINY);
        for (Path p : files.set) {
            Files.copy(p, files.destinationFor(p));
        }
        assertThat(files.verify(files.set)).isNull();
    }

    @Test
    void oneFlippedByteIsAFailure() throws Exception {
        TestFiles files = TestFiles.generate(dir, TINY);
        Path copy = files.destinationFor(files.single);
        Files.copy(files.single, copy);
        try (FileChannel ch = FileChannel.open(copy, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, 1_000_000);
            b.put(0, (byte) (b.get(0) ^ 1)).rewind();
            ch.write(b, 1_000_000);
        }
        assertThat(files.verify(List.of(files.single))).contains("single.bin: MD5").contains("differs");
    }

    @Test
    void aMissingOrAnExtraFileIsAFailure() throws Exception {
        TestFiles files = TestFiles.generate(dir, TINY);
        assertThat(files.verify(List.of(files.single))).contains("missing");
        Files.copy(files.single, files.destinationFor(files.single));
        Files.writeString(files.destinationDir.resolve("single.bin.part"), "left over");
        assertThat(files.verify(List.of(files.single))).contains("2 files at the destination");
        files.cleanDestination();
        assertThat(files.destinationDir).isEmptyDirectory();
    }
}
