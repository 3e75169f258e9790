package org.openmft.bench.scenarios.filesizes;

import org.openmft.bench.Scale;
import org.openmft.bench.Section;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openmft.bench.report.JsonFiles;

import com.fasterxml.jackson.databind.JsonNode;

/** The seed 003 section's arithmetic and text, on synthetic measurements. */
class FileSizeReportTest {
    private static final long MIB = Scale.MIB;

    private static FileSizeReport.Measurement m(String tool, int rep, double seconds, double cpuSeconds) {
        return new FileSizeReport.Measurement(tool, MIB, 100, rep, 100 * MIB, (long) (seconds * 1e9),
                (long) (cpuSeconds * 1e9), null);
    }

    @Test
    void ratiosArePairedWithinARepetitionNeverMediansOfMedians() {
        // The agent is twice as fast as rsync in every repetition, though the machine's speed varies
        // from one repetition to the next; a ratio of medians would say 1.
        List<FileSizeReport.Measurement> ms = List.of(
                m("agent", 1, 1, 1), m("rsync", 1, 2, 4),
                m("agent", 2, 4, 1), m("rsync", 2, 8, 1),
                m("agent", 3, 2, 1), m("rsync", 3, 4, 2),
                m("agent", 0, 100, 100), m("rsync", 0, 1, 1));

        FileSizeReport.Ratio r = FileSizeReport.ratio(ms, "agent", "rsync", MIB);

        assertThat(r.rate()).hasSize(3).allSatisfy(v -> assertThat(v).isCloseTo(2.0, within(1e-9)));
        assertThat(r.medianRate()).isCloseTo(2.0, within(1e-9));
        assertThat(r.cpu()).containsExactlyInAnyOrder(0.25, 1.0, 0.5);
        assertThat(r.medianCpu()).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void aFailedOrMissingPartnerGivesNoRatioForThatRepetition() {
        List<FileSizeReport.Measurement> ms = new ArrayList<>(List.of(m("agent", 1, 1, 1), m("agent", 2, 1, 1),
                m("cp", 2, 0.5, 0.5)));
        ms.add(new FileSizeReport.Measurement("cp", MIB, 100, 1, 100 * MIB, 1, 1, "wrong byte"));

        FileSizeReport.Ratio r = FileSizeReport.ratio(ms, "agent", "cp", MIB);

        assertThat(r.rate()).containsExactly(0.5);
        assertThat(FileSizeReport.ratio(ms, "agent", "sftp", MIB).medianRate()).isNaN();
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(FileSizeReport.median(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(2.5);
        assertThat(FileSizeReport.median(List.of())).isNaN();
    }

    @Test
    void theMarkdownHasEveryToolIbmsRowsTheRatiosAndHowToRun() {
        FileSizeSuite.Plan plan = new FileSizeSuite.Plan("test", List.of(MIB, 10 * MIB), 10 * MIB, 1, true);
        List<FileSizeReport.Tool> tools = List.of(
                new FileSizeReport.Tool(FileSizeReport.PRIMARY_AGENT, FileSizeReport.Kind.AGENT, "agents", "JVM", null),
                new FileSizeReport.Tool("rsync", FileSizeReport.Kind.PEER, "rsync -a", "children", null),
                new FileSizeReport.Tool("sftp", FileSizeReport.Kind.PEER, "sftp", "ssh",
                        "sshd is not installed: apt-get install openssh-server"));
        List<FileSizeReport.Measurement> ms = List.of(
                m(FileSizeReport.PRIMARY_AGENT, 1, 1, 0.5), m("rsync", 1, 2, 1),
                new FileSizeReport.Measurement("rsync", 10 * MIB, 1, 1, 10 * MIB, 1, 1, "destination check failed"));
        Section.Context context = new Section.Context(false, null, Path.of("work"), Path.of("results"),
                Path.of("img"), "img", Map.of(), "abc123", Map.of(), false, line -> { });
        FileSizeReport report = new FileSizeReport(context, plan, Instant.EPOCH, Instant.EPOCH.plusSeconds(61), tools, ms);

        String md = report.markdown("");

        assertThat(md).startsWith("## Seed 003").contains("### Tools", "### Transfer rate", "### CPU seconds per GiB",
                "### The agent against every other tool", "### IBM's figures", "### How to run", "### Failures");
        assertThat(md).contains("| rsync | 52.4 | – (failures) |");
        assertThat(md).contains("apt-get install openssh-server").contains("| sftp | unavailable | unavailable |");
        assertThat(md).contains("| rsync | 2.00 | 0.50 | – | – |");
        assertThat(md).contains("100.76").contains(FileSizeIbmFigures.WHERE);
        assertThat(md).contains("--scenario seed003").contains("rsync openssh-server openssh-client");
        assertThat(md).doesNotContain("NaN");
        assertThat(md.lines().filter(l -> l.startsWith("#")).allMatch(l -> l.startsWith("## ") || l.startsWith("### ")))
                .isTrue();

        assertThat(report.csv().lines()).hasSize(4).first().asString().startsWith("tool,kind,file_bytes");
        JsonNode json = JsonFiles.read(report.json());
        assertThat(json.get("ratios").findValues("median_rate")).extracting(JsonNode::asDouble).contains(2.0);
        assertThat(report.json()).doesNotContain("NaN");
    }
}
