package org.openmft.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CoordinationReportTest {
    private static final String SECTION = CoordinationReport.BEGIN + "\n## Coordination\nnew\n" + CoordinationReport.END
            + "\n";

    @Test
    void aSectionGoesBeforeTheObservationsTheFirstTime() {
        String report = "# OpenMFT performance\n\n## Seed 000\nfigures\n\n## Observations\n- x\n";
        String spliced = CoordinationReport.splice(report, SECTION);
        assertThat(spliced).isEqualTo("# OpenMFT performance\n\n## Seed 000\nfigures\n\n" + SECTION
                + "\n## Observations\n- x\n");
    }

    @Test
    void aSectionReplacesTheOldOneAndLeavesTheRestAlone() {
        String old = CoordinationReport.BEGIN + "\n## Coordination\nold\n" + CoordinationReport.END + "\n";
        String report = "# head\n\n" + old + "\n## Observations\n- x\n";
        String spliced = CoordinationReport.splice(report, SECTION);
        assertThat(spliced).isEqualTo("# head\n\n" + SECTION + "\n## Observations\n- x\n");
        assertThat(CoordinationReport.splice(spliced, SECTION)).isEqualTo(spliced);
    }

    @Test
    void withoutObservationsTheSectionIsAppended() {
        assertThat(CoordinationReport.splice("# head\n", SECTION)).isEqualTo("# head\n\n" + SECTION);
    }

    @Test
    void threadsAreGroupedByBrokerAndRole() {
        assertThat(CoordinationScenario.artemisName("QMAGENT")).isEqualTo("-q-m-a-g-e-n-t");
        assertThat(CoordinationScenario.classify("Thread-3 (activemq-q-m-a-g-e-n-t)"))
                .isEqualTo(CoordinationScenario.G_AGENT_QM);
        assertThat(CoordinationScenario.classify("Thread-1 (activemq-remoting-tcp--q-m-c-o-o-r-d)"))
                .isEqualTo(CoordinationScenario.G_COORDINATION_QM);
        assertThat(CoordinationScenario.classify(
                "Thread-8 (activemq-org.apache.activemq.artemis.core.remoting.impl.invm.-in-v-m-connector)"))
                .isEqualTo(CoordinationScenario.G_IN_VM);
        assertThat(CoordinationScenario.classify("openmft-publisher")).isEqualTo(CoordinationScenario.G_PUBLISHERS);
        assertThat(CoordinationScenario.classify("openmft-SRC001-publisher")).isEqualTo(CoordinationScenario.G_PUBLISHERS);
        assertThat(CoordinationScenario.classify("openmft-SRC001-transfer-0c2430a"))
                .isEqualTo(CoordinationScenario.G_AGENTS);
        assertThat(CoordinationScenario.classify("bench-logger")).isEqualTo(CoordinationScenario.G_LOGGER);
        assertThat(CoordinationScenario.classify("Thread-0 (activemq-client-global)"))
                .isEqualTo(CoordinationScenario.G_CLIENT);
    }

    @Test
    void percentilesAreNearestRank() {
        double[] v = {5, 1, 4, 2, 3};
        assertThat(CoordinationResult.Stats.percentile(v, 50)).isEqualTo(3);
        assertThat(CoordinationResult.Stats.percentile(v, 95)).isEqualTo(5);
        assertThat(CoordinationResult.Stats.max(v)).isEqualTo(5);
        assertThat(CoordinationResult.Stats.mean(v)).isEqualTo(3);
        assertThat(CoordinationResult.Stats.percentile(new double[0], 50)).isNaN();
    }

    @Test
    void cellsFollowSeed001() {
        var quick = CoordinationScenario.cells(Scale.QUICK, null);
        assertThat(quick).extracting(CoordinationScenario.Cell::agents).containsOnly(100);
        var full = CoordinationScenario.cells(Scale.FULL, null);
        assertThat(full).extracting(CoordinationScenario.Cell::seedMegabytes).containsExactly(10, 10, 100);
        assertThat(full.get(0).agents()).isEqualTo(500);
        assertThat(Seed001.find(500, 10)).hasValueSatisfying(f -> assertThat(f.averageSeconds()).isEqualTo(19.46));
    }
}
