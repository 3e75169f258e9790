package org.openmft.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.openmft.bench.Scale;
import org.openmft.bench.scenarios.transfer.Sample;
import org.openmft.bench.scenarios.transfer.Scenario;

import com.fasterxml.jackson.databind.JsonNode;

/** The transfer samples' CSV and JSON, written and read back: columns and field names as before. */
class ResultFilesTest {
    private static final String AWKWARD = "no final reply, \"timeout\"\nafter 60 s";

    private static final List<Sample> SAMPLES = List.of(
            new Sample(Scenario.COPY, 1, 1_048_576, 1, 500_000_000L, -1, 100_000_000L, 0, null, null),
            new Sample(Scenario.AGENT_BINDINGS_NONE, 2, 1_048_576, 1, 2_000_000_000L, 1_000_000_000L, 0, 3, null,
                    Map.of("source", 7L)).withFailure(AWKWARD));

    @Test
    void csvKeepsItsColumnsAndReadsBackAFailureWithCommasQuotesAndLineEnds() {
        String csv = ResultFiles.csv(SAMPLES);
        assertThat(csv).startsWith("scenario,repetition,bytes,files,seconds,mb_per_s,cpu_seconds,cpu_s_per_gib,"
                + "extra_seconds,resends,ok,failure\n");
        List<CSVRecord> rows = CsvTable.read(csv);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("scenario")).isEqualTo("cp");
        assertThat(rows.get(0).get("seconds")).isEqualTo("0.5000");
        assertThat(rows.get(0).get("cpu_seconds")).isEmpty();
        assertThat(rows.get(0).get("extra_seconds")).isEqualTo("0.1000");
        assertThat(rows.get(0).get("ok")).isEqualTo("true");
        assertThat(rows.get(1).get("resends")).isEqualTo("3");
        assertThat(rows.get(1).get("seconds")).isEmpty();
        assertThat(rows.get(1).get("ok")).isEqualTo("false");
        assertThat(rows.get(1).get("failure")).isEqualTo(AWKWARD);
    }

    @Test
    void jsonKeepsItsFieldsAndReadsBack() {
        Report.Context c = new Report.Context(Scale.QUICK, 262_144, Map.of("agentChunkSize", "262144"),
                Instant.parse("2026-01-02T03:04:05Z"), Duration.ofSeconds(61), Map.of("CPU", "a \"quoted\" one"),
                null, Double.NaN, AWKWARD);
        JsonNode json = JsonFiles.read(ResultFiles.json(c, SAMPLES));
        assertThat(json.get("started").asText()).isEqualTo("2026-01-02T03:04:05Z");
        assertThat(json.get("durationSeconds").asLong()).isEqualTo(61);
        assertThat(json.get("revision").isNull()).isTrue();
        assertThat(json.get("scale").get("name").asText()).isEqualTo("quick");
        assertThat(json.get("scale").get("chunkBytes").asInt()).isEqualTo(262_144);
        assertThat(json.get("agentProperties").get("agentChunkSize").asText()).isEqualTo("262144");
        assertThat(json.get("idleCoresBusy").isNull()).isTrue();
        assertThat(json.get("aborted").asText()).isEqualTo(AWKWARD);
        assertThat(json.get("machine").get("CPU").asText()).isEqualTo("a \"quoted\" one");
        JsonNode second = json.get("samples").get(1);
        assertThat(second.get("scenario").asText()).isEqualTo("agent-bindings-none");
        assertThat(second.get("wallNanos").asLong()).isEqualTo(2_000_000_000L);
        assertThat(second.get("ok").asBoolean()).isFalse();
        assertThat(second.get("failure").asText()).isEqualTo(AWKWARD);
        assertThat(second.get("threadCpuNanos").get("source").asLong()).isEqualTo(7);
        assertThat(json.get("samples").get(0).get("threadCpuNanos").size()).isZero();
    }
}
