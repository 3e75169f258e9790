package org.openmft.bench.scenarios.micro;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.openmft.bench.report.CsvTable;
import org.openmft.bench.report.JsonFiles;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.io.TempDir;

/** Rows to CSV, JSON, tables and the section's markdown, from synthetic rows. */
class MicroResultsTest {
    private static MicroResults.Row chunkRead(String method, int chunk, double opsPerSecond) {
        return new MicroResults.Row("chunk-reading", "ChunkReadBenchmark.read", Map.of("method", method, "chunkBytes",
                String.valueOf(chunk), "fileBytes", "67108864"), opsPerSecond, 1.5, "ops/s", 67_108_864, 0);
    }

    private static final List<MicroResults.Row> ROWS = List.of(
            chunkRead("MMAP", 262144, 40), chunkRead("FILE_CHANNEL_HEAP", 65536, 20),
            chunkRead("FILE_CHANNEL_HEAP", 262144, 30),
            new MicroResults.Row("checksums", "ChecksumBenchmark.heapChunk", Map.of("algorithm", "MD5", "chunkBytes",
                    "262144"), 2000, Double.NaN, "ops/s", 262_144, 0),
            new MicroResults.Row("checksums", "ChecksumBenchmark.heapChunk", Map.of("algorithm", "CRC32C",
                    "chunkBytes", "262144"), 20000, 100, "ops/s", 262_144, 0),
            new MicroResults.Row("checksums", "ChecksumBenchmark.md5DirectChunk", Map.of("chunkBytes", "262144"),
                    1000, 10, "ops/s", 262_144, 0),
            new MicroResults.Row("request-xml", "RequestParsingBenchmark.parseString", Map.of("items", "1000"), 100,
                    2, "ops/s", 0, 1000),
            new MicroResults.Row("request-xml", "RequestParsingBenchmark.parseString", Map.of("items", "1"), 50000,
                    20, "ops/s", 0, 1));

    @Test
    void ratesComeFromTheBytesAndItemsOfOneOperation() {
        MicroResults.Row r = ROWS.get(0);
        assertThat(r.mbPerSecond()).isEqualTo(40.0 * 67_108_864 / 1e6);
        assertThat(r.mbPerSecondError()).isEqualTo(1.5 * 67_108_864 / 1e6);
        assertThat(r.itemsPerSecond()).isNaN();
        assertThat(ROWS.get(6).itemsPerSecond()).isEqualTo(100_000);
        assertThat(ROWS.get(6).mbPerSecond()).isNaN();
        assertThat(new MicroResults.Row("g", "B.m", Map.of(), 3, 0, "us/op", 100, 0).mbPerSecond()).isNaN();
        assertThat(r.method()).isEqualTo("read");
        assertThat(r.paramsText()).isEqualTo("chunkBytes=262144;fileBytes=67108864;method=MMAP");
    }

    @Test
    void csvHasOneLinePerRowAndLeavesUnknownsEmpty() {
        String[] lines = MicroResults.csv(ROWS).split("\n");
        assertThat(lines).hasSize(ROWS.size() + 1);
        assertThat(lines[0]).isEqualTo("group,benchmark,params,score,error,unit,bytes_per_op,mb_per_s,mb_per_s_error,"
                + "items_per_op,items_per_s");
        assertThat(lines[1]).isEqualTo("chunk-reading,ChunkReadBenchmark.read,chunkBytes=262144;fileBytes=67108864;"
                + "method=MMAP,40.0000,1.5000,ops/s,67108864,2684.3546,100.6633,0,");
        assertThat(lines[4]).startsWith("checksums,ChecksumBenchmark.heapChunk,algorithm=MD5;chunkBytes=262144,"
                + "2000.0000,,ops/s,");
        List<CSVRecord> read = CsvTable.read(MicroResults.csv(ROWS));
        assertThat(read).hasSize(ROWS.size());
        assertThat(read.get(3).get("params")).isEqualTo("algorithm=MD5;chunkBytes=262144");
        assertThat(read.get(3).get("error")).isEmpty();
        assertThat(read.get(6).get("items_per_s")).isEqualTo("100000.0000");
    }

    @Test
    void jsonNamesTheRunAndEveryRow() {
        JsonNode json = JsonFiles.read(MicroResults.json(Map.of("scale", "quick"), ROWS));
        assertThat(json.get("scale").asText()).isEqualTo("quick");
        assertThat(json.get("results")).hasSize(ROWS.size());
        assertThat(json.get("results").get(0).get("benchmark").asText()).isEqualTo("ChunkReadBenchmark.read");
        JsonNode md5 = json.get("results").get(3);
        assertThat(md5.get("params").get("algorithm").asText()).isEqualTo("MD5");
        assertThat(md5.get("params").get("chunkBytes").asText()).isEqualTo("262144");
        assertThat(md5.get("error").isNull()).isTrue();
        assertThat(md5.get("score").asDouble()).isEqualTo(2000);
    }

    @Test
    void pivotOrdersLinesAndColumnsAndMarksGaps() {
        List<MicroResults.Row> g = ROWS.subList(0, 3);
        String table = MicroResults.pivot(g, "method",
                MicroResults.Axis.of(g, r -> r.param("method"), String::compareTo, m -> m),
                MicroResults.Axis.of(g, r -> r.param("chunkBytes"), MicroResults.NUMERIC, c -> c + " B"),
                r -> String.valueOf((int) r.score()));
        assertThat(table).isEqualTo("""
                | method | 65536 B | 262144 B |
                |---|---:|---:|
                | FILE_CHANNEL_HEAP | 20 | 30 |
                | MMAP | — | 40 |
                """);
    }

    @Test
    void sectionHasEveryGroupItsChartsAndComputedRemarks(@TempDir Path images) throws Exception {
        String md = new MicroReport(ROWS, List.of("Text conversion: self-check failed: x"), "| run | |\n",
                images, "img").markdown();
        assertThat(md).contains("## Micro-benchmarks (JMH)", "### Reading chunks", "### Checksums",
                "### Text conversion", "### Request XML", "### How to run", "**Failed**",
                "- Text conversion: self-check failed: x", "org.openjdk.jmh.Main",
                "`FileChannel.read` into a heap array **(agent)**",
                "![Reading a file in chunks (page cache)](img/micro-chunk-reading.png)",
                "(img/micro-checksums.png)",
                // 40 / 30 files per second at 256 KiB:
                "the fastest alternative, `FileChannel.map`, 2,684 MB/s (1.33× the agent's)",
                // CRC32C at ten times MD5's rate, MD5 from a direct buffer at half of it:
                "(10.00× MD5)", "0.50× its rate from a heap array",
                "takes 10.00 ms (10.00 µs per item); one of 1 takes 20.0 µs");
        assertThat(md).doesNotContain("null");
        assertThat(Files.size(images.resolve("micro-chunk-reading.png"))).isPositive();
        assertThat(Files.size(images.resolve("micro-checksums.png"))).isPositive();
    }
}
