package org.openmft.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openmft.bench.Scale;
import org.openmft.bench.scenarios.transfer.Sample;
import org.openmft.bench.scenarios.transfer.Scenario;

/** The transfer section's figures for issue 18's goals: each ratio taken pair by pair, within a repetition. */
class ReportHeadlineTest {
    private static final long GIB = Scale.GIB;

    /** One GiB moved in {@code seconds} with {@code cpuSeconds} of this JVM's CPU (negative: not measured). */
    private static Sample gib(Scenario scenario, int repetition, double seconds, double cpuSeconds) {
        return new Sample(scenario, repetition, GIB, 1, (long) (seconds * 1e9),
                cpuSeconds < 0 ? -1 : (long) (cpuSeconds * 1e9), 0, 0, null, null);
    }

    @Test
    void cpuOverRawJmsIsPairedByRepetitionAndTheMachinesPaceIsRawJmsInVm() {
        List<Sample> samples = new ArrayList<>();
        // Agents' CPU per GiB 1.5, 1.2, 1.3 beside raw JMS's 1.0, 0.6, 1.3: paired 1.5, 2.0, 1.0, median 1.5;
        // the medians' ratio would be 1.3.
        double[] agentCpu = {1.5, 1.2, 1.3};
        double[] rawCpu = {1.0, 0.6, 1.3};
        for (int rep = 1; rep <= 3; rep++) {
            samples.add(gib(Scenario.RAW_JMS_BINDINGS, rep, 1.0, rawCpu[rep - 1]));
            samples.add(gib(Scenario.COPY_SYNC, rep, 0.5, -1));
            samples.add(gib(Scenario.AGENT_BINDINGS_NONE, rep, 1.25, agentCpu[rep - 1]));
            samples.add(gib(Scenario.AGENT_BINDINGS_MD5, rep, 2.5, agentCpu[rep - 1] + 3.0));
            samples.add(gib(Scenario.RAW_JMS_CLIENT, rep, 1.0, 1.5));
            samples.add(gib(Scenario.AGENT_CLIENT_NONE, rep, 2.0, 2.0));
        }
        // A raw JMS run in a fourth repetition, where the agents did not run, pairs with nothing.
        samples.add(gib(Scenario.RAW_JMS_BINDINGS, 4, 1.0, 0.1));

        Map<String, Double> h = new Report(null, samples).withPeers(Map.of(), Map.of(), 1.2).headline();

        assertThat(h.get(Goals.CPU_NONE_OVER_RAW)).isCloseTo(1.5, within(1e-9));
        assertThat(h.get(Goals.CPU_NONE)).isCloseTo(1.3, within(1e-9));
        // Raw JMS is the lower ceiling here (1 s against cp + sync's 0.5 s): the agents' 1.25 s is 80% of it.
        assertThat(h.get(Goals.FILE_BINDINGS_OF_MIN)).isCloseTo(0.8, within(1e-9));
        assertThat(h.get(Goals.FILE_CLIENT_OF_RAW)).isCloseTo(0.5, within(1e-9));
        // The pace: raw JMS in-VM's median rate and CPU per GiB over its four runs.
        assertThat(h.get(Goals.RAW_JMS_VM_MB_S)).isCloseTo(GIB / 1e6, within(1e-6));
        assertThat(h.get(Goals.RAW_JMS_VM_CPU)).isCloseTo(0.8, within(1e-9));
        // MD5 adds 3.0 s per GiB, against 2 x 1.2 for the digest on two sides.
        assertThat(h.get(Goals.MD5_EXTRA_CPU)).isCloseTo(3.0, within(1e-9));
        assertThat(h.get(Goals.MD5_EXTRA_OVER_DIGEST)).isCloseTo(1.25, within(1e-9));
    }
}
