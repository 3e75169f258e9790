package org.openmft.bench.scenarios.channels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.openmft.bench.scenarios.channels.ChunkSizeIbmFigures.Figure;

class ChunkSizeIbmFiguresTest {
    @Test
    void everyBindingsCellOfTheReportIsThereOnce() {
        assertThat(ChunkSizeIbmFigures.all()).hasSize(24);
        for (int chunk : new int[] {65536, 131072, 262144, 524288}) {
            for (int mb : new int[] {1, 10, 100}) {
                for (boolean parallel : new boolean[] {false, true}) {
                    assertThat(ChunkSizeIbmFigures.find(chunk, mb, parallel)).as("%d %d MB %s", chunk, mb, parallel)
                            .isPresent();
                }
            }
        }
    }

    @Test
    void rowsReadAsPrinted() {
        Figure f = ChunkSizeIbmFigures.find(65536, 1, false).orElseThrow();
        assertThat(f.seconds()).isEqualTo(93.43);
        assertThat(f.megabitsPerSecond()).isEqualTo(87.68);
        assertThat(f.agent1Cpu()).isEqualTo("20");
        assertThat(f.where()).contains("65635 ChunkSize");
        Figure decimals = ChunkSizeIbmFigures.find(131072, 10, false).orElseThrow();
        assertThat(decimals.agent2Cpu()).isEqualTo("29.45");
    }

    /** IBM's rate is its 1 GB (1024 MB, in megabits) over its time: a misread cell would break that. */
    @Test
    void everyRateIsTheSetOverTheTime() {
        for (Figure f : ChunkSizeIbmFigures.all()) {
            assertThat(f.megabitsPerSecond() * f.seconds()).as(f.where()).isCloseTo(1024 * 8, within(8.0));
        }
    }

    @Test
    void aBadLineIsNamed() {
        String csv = "chunk_bytes,file_mb,transfers,agent1_cpu_pct,agent2_cpu_pct,coord_cpu_pct,seconds,rate_mbit,where\n"
                + "65536,1,twice,20,14,1,93.43,87.68,\"x\"\n";
        assertThatThrownBy(() -> ChunkSizeIbmFigures.parse(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8))))
                .hasMessageContaining("line 2").hasMessageContaining("twice");
        String shortLine = "header\n65536,1,single\n";
        assertThatThrownBy(() -> ChunkSizeIbmFigures.parse(new ByteArrayInputStream(
                shortLine.getBytes(StandardCharsets.UTF_8)))).hasMessageContaining("9 fields");
    }
}
