package org.openmft.bench.report;

import org.openmft.bench.scenarios.coordination.CoordinationReport;
import org.openmft.bench.scenarios.soak.SoakReport;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReportSectionsTest {
    private static final String SOAK = SoakReport.BEGIN + "\n## Soak\nfigures\n" + SoakReport.END + "\n";
    private static final String COORDINATION = CoordinationReport.BEGIN + "\n## Coordination\nfigures\n"
            + CoordinationReport.END + "\n";

    @Test
    void aRegeneratedReportKeepsTheSectionsOfScenariosThatDidNotRun() {
        String old = "# OpenMFT performance\n\nold figures\n\n" + COORDINATION + "\n" + SOAK + "\n## Observations\n- old\n";
        String fresh = "# OpenMFT performance\n\nnew figures\n\n## Observations\n- new\n";

        String md = ReportSections.carryOver(old, fresh, CoordinationReport.BEGIN, CoordinationReport.END);
        md = ReportSections.carryOver(old, md, SoakReport.BEGIN, SoakReport.END);

        assertThat(md).isEqualTo("# OpenMFT performance\n\nnew figures\n\n" + COORDINATION + "\n" + SOAK
                + "\n## Observations\n- new\n");
    }

    @Test
    void nothingToCarryOverLeavesTheFreshReportAlone() {
        String fresh = "# head\n\n## Observations\n- x\n";
        assertThat(ReportSections.carryOver("", fresh, SoakReport.BEGIN, SoakReport.END)).isEqualTo(fresh);
        assertThat(ReportSections.extract(fresh, SoakReport.BEGIN, SoakReport.END)).isNull();
    }

    @Test
    void theSoakSectionReplacesOnlyItself() {
        String report = "# head\n\n" + COORDINATION + "\n" + SOAK + "\n## Observations\n- x\n";
        String newer = SoakReport.BEGIN + "\n## Soak\nnewer\n" + SoakReport.END + "\n";
        assertThat(ReportSections.splice(report, newer, SoakReport.BEGIN, SoakReport.END))
                .isEqualTo("# head\n\n" + COORDINATION + "\n" + newer + "\n## Observations\n- x\n");
    }
}
