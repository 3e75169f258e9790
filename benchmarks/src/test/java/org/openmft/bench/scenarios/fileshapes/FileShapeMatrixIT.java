package org.openmft.bench.scenarios.fileshapes;

import org.openmft.bench.Section;
import org.openmft.bench.harness.ConnectionMode;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.bench.report.JsonFiles;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The seed 000 matrix at a tiny scale, with the real embedded queue manager and agents: every
 * dimension (text and binary, MD5 and none, one and 10 parallel transfers, bindings and client, one
 * chunk size), the raw JMS ceilings and the peers; and one destination file damaged after its
 * transfer, which must come out as that cell's failure and nothing else.
 */
class FileShapeMatrixIT {
    private static final FileShapeMatrix.MatrixScale TINY = new FileShapeMatrix.MatrixScale("tiny",
            List.of(new FileShapeMatrix.FileSet(10, 160 * 1024, 1)), List.of(131_072), 1, false);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void runsEveryDimensionChecksEveryFileAndReportsADamagedDestination() throws Exception {
        FileShapeRun.Group damagedGroup = new FileShapeRun.Group(ConnectionMode.CLIENT, 131_072, TINY.fileSets().get(0));
        FileShapeRun.Cell damaged = new FileShapeRun.Cell(damagedGroup, true, true, true);
        List<String> damage = Collections.synchronizedList(new ArrayList<>());
        FileShapeMatrix.AfterTransfer corrupt = (cell, repetition, destinationDir) -> {
            if (cell.equals(damaged)) {
                damage.add(cell.label());
                flipFirstByte(destinationDir);
            }
        };
        long t0 = System.nanoTime();
        Path results = dir.resolve("results");
        Path images = dir.resolve("img");
        Section.Context context = new Section.Context(false, null, Files.createDirectories(dir.resolve("work")),
                results, images, "img", Map.of(), "test", Map.of("agentChunkSize", "262144"), false,
                line -> System.out.printf("%6.1f s %s%n", (System.nanoTime() - t0) / 1e9, line));

        Section.Outcome outcome = new FileShapeMatrix(TINY, corrupt).run(context);

        assertThat(damage).containsExactly(damaged.label());
        assertThat(outcome.failures()).as(outcome.markdown()).hasSize(1);
        assertThat(outcome.failures().get(0)).startsWith(damaged.label() + " repetition 1: destination check failed")
                .contains("differs from its source");
        assertThat(outcome.markdown()).contains("## Seed 000 matrix").contains("### Failures")
                .contains("img/seed000-time-by-file-set.png").contains("img/seed000-time-by-chunk.png");

        List<String> csv = Files.readAllLines(results.resolve("seed000-tiny.csv"));
        JsonNode json = JsonFiles.read(Files.readString(results.resolve("seed000-tiny.json")));
        int peersRun = (int) StreamSupport.stream(json.get("peers").spliterator(), false)
                .filter(p -> p.get("unavailable").isNull()).count();
        assertThat(peersRun).as("cp at least").isPositive();
        // 2 modes x 8 cells, a raw JMS run per group (2), each peer once on the one set.
        assertThat(csv).hasSize(1 + 16 + 2 + peersRun);
        assertThat(csv.stream().filter(l -> l.startsWith("agent,")).count()).isEqualTo(16);
        assertThat(csv.stream().filter(l -> l.startsWith("raw-jms,")).count()).isEqualTo(2);
        assertThat(csv.stream().filter(l -> l.contains(",false,")).count()).as("failed rows").isEqualTo(1);
        assertThat(json.get("runs").findValuesAsText("kind")).filteredOn("agent"::equals).hasSize(16);

        for (String png : List.of("seed000-time-by-file-set.png", "seed000-time-by-chunk.png")) {
            assertThat(ImageIO.read(images.resolve(png).toFile())).as(png).isNotNull();
        }
        try (Stream<Path> left = Files.list(dir.resolve("work"))) {
            assertThat(left).as("each queue manager's directory is deleted after it closed")
                    .noneMatch(p -> p.getFileName().toString().startsWith("mft-"));
        }
    }

    private static void flipFirstByte(Path destinationDir) throws IOException {
        try (Stream<Path> files = Files.list(destinationDir)) {
            Path first = files.sorted().findFirst().orElseThrow();
            try (RandomAccessFile f = new RandomAccessFile(first.toFile(), "rw")) {
                int b = f.read();
                f.seek(0);
                f.write(b ^ 0x01);
            }
        }
    }
}
