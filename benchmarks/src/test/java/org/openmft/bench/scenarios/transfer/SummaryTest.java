package org.openmft.bench.scenarios.transfer;

import org.openmft.bench.Scale;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class SummaryTest {
    private static Sample ok(Scenario s, int rep, double seconds) {
        return new Sample(s, rep, Scale.GIB, 1, (long) (seconds * 1e9), (long) (seconds * 1e9), 0, 0, null, null);
    }

    @Test
    void mediansLeaveOutTheWarmUp() {
        Summary x = new Summary(Scenario.AGENT_BINDINGS_NONE, List.of(ok(Scenario.AGENT_BINDINGS_NONE, 0, 100),
                ok(Scenario.AGENT_BINDINGS_NONE, 1, 4), ok(Scenario.AGENT_BINDINGS_NONE, 2, 2),
                ok(Scenario.AGENT_BINDINGS_NONE, 3, 3), ok(Scenario.RAW_JMS_BINDINGS, 1, 1)));
        assertThat(x.samples).hasSize(3);
        assertThat(x.medianSeconds()).isEqualTo(3.0);
        assertThat(x.medianCpuSecondsPerGib()).isEqualTo(3.0);
        assertThat(x.ok()).isTrue();
    }

    @Test
    void oneFailedRepetitionFailsTheScenario() {
        Summary x = new Summary(Scenario.COPY, List.of(ok(Scenario.COPY, 1, 1),
                ok(Scenario.COPY, 2, 1).withFailure("destination check failed: MD5 differs")));
        assertThat(x.ok()).isFalse();
        assertThat(x.failed()).isEqualTo("repetition 2: destination check failed: MD5 differs");
        assertThat(new Summary(Scenario.COPY, List.of()).failed()).isEqualTo("did not run");
    }

    @Test
    void ratiosPairRunsOfTheSameRepetition() {
        Summary agent = new Summary(Scenario.AGENT_CLIENT_NONE, List.of(ok(Scenario.AGENT_CLIENT_NONE, 1, 2),
                ok(Scenario.AGENT_CLIENT_NONE, 2, 4)));
        Summary raw = new Summary(Scenario.RAW_JMS_CLIENT, List.of(ok(Scenario.RAW_JMS_CLIENT, 1, 1),
                ok(Scenario.RAW_JMS_CLIENT, 2, 1)));
        assertThat(agent.pairedRatios(raw)).containsExactly(0.5, 0.25);
    }

    @Test
    void medianOfAnEvenCountIsTheMean() {
        assertThat(Summary.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(Summary.median(new double[] {Double.NaN})).isNaN();
    }
}
