package org.openmft.bench.scenarios.coordination;

import org.openmft.bench.report.Report;

import java.util.List;
import java.util.Optional;

/**
 * IBM's figures for many agents on one queue manager, from "IBM MQ 9.0.5 Managed File Transfer
 * Performance Report for – Number of Agents connecting to Agent Queue Manager" (2018), summary
 * tables 3.1 and 3.2.
 *
 * <p>IBM's set-up: half the agents sources, half destinations, paired; every pair runs one transfer
 * of 10 files at once, all submitted together ("10 MB of files" is 10 x 1 MB per transfer, "100 MB"
 * 10 x 10 MB: 50 transfers move 500 files of 500 MB, resp. 5 GB); text mode, random data, default
 * agent properties. Agents in client mode on 4-CPU machines (50 agents each) to one agent queue
 * manager on an 8-CPU machine (MAQM1); the coordination queue manager on a machine of its own,
 * which we take to be one of the 4-CPU MULTIAGENT machines (the report lists eleven: ten hold the
 * 500 agents). CPU is given as a percentage of each machine, over a window the report does not
 * state, and no elapsed time of the whole set is given.
 */
final class ManyAgentsIbmFigures {
    /** CPUs of the agent queue manager's machine (MAQM1). */
    static final int AGENT_QM_CPUS = 8;
    /** CPUs of the coordination queue manager's machine (assumed a MULTIAGENT machine). */
    static final int COORDINATION_QM_CPUS = 4;
    /** Files in each transfer. */
    static final int FILES_PER_TRANSFER = 10;

    /**
     * One row of IBM's summary tables.
     *
     * @param agents             agents in all (half sources)
     * @param megabytesPerTransfer 10 or 100 (decimal MB, as 10 files)
     * @param agentQmPercent     agent queue manager machine CPU, % of its 8 CPUs
     * @param coordinationQmPercent coordination queue manager machine CPU, % of its CPUs
     * @param averageSeconds     average time per transfer
     * @param source             where it is in the report
     */
    record Figure(int agents, int megabytesPerTransfer, double agentQmPercent, double coordinationQmPercent,
            double averageSeconds, String source) {

        /** Average busy CPUs of the agent queue manager machine. */
        double agentQmCores() {
            return agentQmPercent / 100 * AGENT_QM_CPUS;
        }

        /** Average busy CPUs of the coordination queue manager machine. */
        double coordinationQmCores() {
            return coordinationQmPercent / 100 * COORDINATION_QM_CPUS;
        }
    }

    static final List<Figure> FIGURES = List.of(
            new Figure(100, 10, 20.70, 5.01, 2.42, "3.1"),
            new Figure(200, 10, 22.56, 5.02, 5.49, "3.1"),
            new Figure(300, 10, 24.25, 6.86, 12.28, "3.1"),
            new Figure(400, 10, 26.02, 8.22, 17.58, "3.1"),
            new Figure(500, 10, 28.46, 12.22, 19.46, "3.1"),
            new Figure(100, 100, 19.48, 8.88, 69.44, "3.2"),
            new Figure(200, 100, 25.87, 12.19, 125.91, "3.2"),
            new Figure(300, 100, 29.97, 14.22, 179.02, "3.2"),
            new Figure(400, 100, 30.84, 15.00, 219.28, "3.2"),
            new Figure(500, 100, 35.99, 20.47, 338.80, "3.2"));

    private ManyAgentsIbmFigures() {
    }

    /** IBM's row for {@code agents} agents moving {@code megabytesPerTransfer} MB per transfer, if any. */
    static Optional<Figure> find(int agents, int megabytesPerTransfer) {
        return FIGURES.stream().filter(f -> f.agents() == agents && f.megabytesPerTransfer() == megabytesPerTransfer)
                .findFirst();
    }
}
