package org.openmft.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** Issue 18's goals: verdicts only with a figure, the before-and-after arithmetic, the baseline file. */
class GoalsTest {
    private static final HeadlineFigures BASELINE = HeadlineFigures.parse("{\"source\": \"the baseline\", \"figures\": {"
            + "\"" + Goals.CPU_NONE + "\": {\"value\": 5.0, \"date\": \"2026-11-26\", \"revision\": \"4913880\"},"
            + "\"" + Goals.FILE_BINDINGS_OF_MIN + "\": {\"value\": 0.5, \"date\": \"2026-11-26\", \"revision\": \"4913880\"},"
            + "\"" + Goals.RAW_JMS_VM_MB_S + "\": {\"value\": 621, \"date\": \"2026-11-26\", \"revision\": \"4913880\","
            + " \"machine\": \"AMD EPYC\"}}}");

    @Test
    void aGoalWithoutAFigureHasNoVerdictAndOneWithAFigureIsJudgedByItsTarget() {
        HeadlineFigures now = HeadlineFigures.empty("this run").with(Map.of(Goals.CPU_NONE, 2.5,
                Goals.FILE_BINDINGS_OF_MIN, 0.75, Goals.BIG_FILE_PASSED, 1.0, Goals.RAW_JMS_VM_MB_S, 1612.0,
                Goals.RAW_JMS_VM_CPU, 1.14), "2026-11-27", "abc1234", "Intel Xeon");

        String md = Goals.markdown(now, BASELINE, false);

        assertThat(md).startsWith(Goals.BEGIN).endsWith(Goals.END + "\n")
                .contains("## Issue 18 goals").contains("## Before and after").contains("## Profiling findings")
                .contains("[profiling.md](profiling.md)")
                .contains("| CPU per GiB, bindings, no checksum | 2.50 s/GiB | ≤ 2.00 s/GiB | **not met** | transfer"
                        + " | 2026-11-27, `abc1234`, Intel Xeon |")
                .contains("| bindings rate ÷ min(raw JMS in-VM, `cp` then `sync`) | 75% | ≥ 70% | met |")
                .contains("| 4 GiB file, child JVM with -Xmx256m | passed | passes | met |")
                .contains("| agents (no checksum) ÷ `rsync -a --fsync` | — | ≤ 1.20x | not measured in this run |")
                // CPU down from 5.0 to 2.5: -50%, better, and it moves with the machine; the fraction up from
                // 50% to 75%: +50%, better, a ratio to ceilings of the same repetition.
                .contains("| CPU per GiB, bindings, no checksum | 5.00 s/GiB | 2.50 s/GiB | -50% | better | absolute |")
                .contains("| bindings rate ÷ min(raw JMS in-VM, `cp` then `sync`) | 50% | 75% | +50% | better | |")
                // The machine's pace beside them, each side with its date, revision and CPU model.
                .contains("raw JMS put/get in-VM on the same queue manager: before, 621 MB/s (2026-11-26,"
                        + " `4913880`, AMD EPYC); after, 1,612 MB/s at 1.14 s/GiB (2026-11-27, `abc1234`, Intel Xeon).");
        // Every goal of the issue has a row, measured or not.
        for (Goals.Goal g : Goals.GOALS) {
            assertThat(md).contains("| " + MarkdownTable.escape(g.text()) + " |");
        }
        assertThat(md.lines().filter(l -> l.contains("| met |") || l.contains("| **not met** |"))
                .allMatch(l -> !l.contains("| — |"))).isTrue();
    }

    @Test
    void theCheckedInBaselineNamesOnlyFiguresTheGoalsRead() {
        HeadlineFigures b = HeadlineFigures.baseline();
        assertThat(b.source()).contains("4913880");
        assertThat(b.figures()).isNotEmpty();
        assertThat(Goals.keys()).containsAll(b.figures().keySet());
        b.figures().values().forEach(f -> assertThat(f.date()).isNotBlank());
        b.figures().values().forEach(f -> assertThat(f.machine()).isEqualTo("AMD EPYC"));
    }

    @Test
    void figuresRoundTripThroughTheirJsonAndNewerOnesReplaceOlder() {
        HeadlineFigures a = HeadlineFigures.empty("this run").with(Map.of("x", 1.0, "y", 2.0), "2026-11-26", "r1",
                "AMD EPYC");
        HeadlineFigures b = HeadlineFigures.parse(a.json()).with(Map.of("y", 3.0, "x", Double.NaN), "2026-11-27", "r2",
                null);
        assertThat(b.get("x").orElseThrow()).isEqualTo(new HeadlineFigures.Figure(1.0, "2026-11-26", "r1", "AMD EPYC"));
        assertThat(b.get("y").orElseThrow()).isEqualTo(new HeadlineFigures.Figure(3.0, "2026-11-27", "r2", null));
        assertThat(HeadlineFigures.parse(b.json()).get("y").orElseThrow().machine()).isNull();
    }

    @Test
    void aMarkdownTableEscapesItsCellsAndPadsShortRows() {
        String t = MarkdownTable.of("a", "b", "c").row("x|y", 2).toString();
        assertThat(t).isEqualTo("| a | b | c |\n|---|---|---|\n| x\\|y | 2 | |\n");
        assertThatThrownBy(() -> MarkdownTable.of("a").row(1, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theGoalsGoNearTheTopOfAReportThatHasNoneAndReplaceThemWhereItHas() {
        String report = "# OpenMFT performance\n\n| run | |\n\n## Machine\n\nx\n";
        String goals = Goals.BEGIN + "\n## Issue 18 goals\n" + Goals.END + "\n";
        String once = ReportSections.spliceNearTop(report, goals, Goals.BEGIN, Goals.END);
        assertThat(once).isEqualTo("# OpenMFT performance\n\n| run | |\n\n" + goals + "\n## Machine\n\nx\n");
        String newer = Goals.BEGIN + "\n## Issue 18 goals, newer\n" + Goals.END + "\n";
        assertThat(ReportSections.spliceNearTop(once, newer, Goals.BEGIN, Goals.END))
                .isEqualTo("# OpenMFT performance\n\n| run | |\n\n" + newer + "\n## Machine\n\nx\n");
    }
}
