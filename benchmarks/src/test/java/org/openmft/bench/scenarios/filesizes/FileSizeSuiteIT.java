package org.openmft.bench.scenarios.filesizes;

import org.openmft.bench.BenchmarkRunner;
import org.openmft.bench.Scale;
import org.openmft.bench.Section;
import org.openmft.bench.measure.MachineInfo;
import org.openmft.bench.report.Charts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run of the seed 003 section: two sizes of a few MiB, one repetition, every tool. */
class FileSizeSuiteIT {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void aTinyRunMovesEveryByteAndWritesItsFiles() throws Exception {
        FileSizeSuite.Plan tiny = new FileSizeSuite.Plan("tiny", List.of(Scale.MIB, 2 * Scale.MIB), 2 * Scale.MIB, 1, false);
        Path results = dir.resolve("results");
        Path images = dir.resolve("img");
        Section.Context context = new Section.Context(true, null, Files.createDirectories(dir.resolve("work")),
                results, images, "img", MachineInfo.describe(dir), null,
                Map.of("agentChunkSize", String.valueOf(BenchmarkRunner.CHUNK_SIZE)), false, System.out::println);

        Section.Outcome outcome = new FileSizeSuite(tiny).run(context);

        assertThat(outcome.failures()).isEmpty();
        assertThat(outcome.ok()).isTrue();
        assertThat(outcome.markdown()).contains("## Seed 003", "### Charts", "img/seed003-rate.png");
        assertThat(outcome.markdown()).doesNotContain("**unavailable:**");
        // Fourteen tools (three agent runs, two raw JMS, nine peers, the durable ones among them), one
        // repetition at each of the two sizes (no warm-up in this plan).
        List<String> csv = Files.readAllLines(results.resolve("seed003-tiny.csv"));
        assertThat(csv).hasSize(1 + 14 * 2);
        assertThat(csv).anyMatch(l -> l.startsWith("cp-sync,peer,")).anyMatch(l -> l.startsWith("rsync-fsync,peer,"))
                .anyMatch(l -> l.startsWith("rsync-I-fsync,peer,")).anyMatch(l -> l.startsWith("rsync-I-fsync-md5,peer,"));
        assertThat(csv.subList(1, csv.size())).allSatisfy(l -> assertThat(l).endsWith(","));
        assertThat(results.resolve("seed003-tiny.json")).isRegularFile();
        for (String png : List.of("seed003-rate.png", "seed003-cpu.png")) {
            assertThat(ImageIO.read(images.resolve(png).toFile())).as(png).isNotNull();
        }
    }
}
