package org.openmft.cli;

import java.util.List;
import java.util.concurrent.Callable;

import org.openmft.client.MftClient;
import org.openmft.client.ScheduledTransfer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft schedule list} and {@code mft schedule delete} (fteListScheduledTransfers,
 * fteDeleteScheduledTransfer), with the client API ({@link MftClient#schedules},
 * {@link MftClient#deleteSchedule}): schedules are created with {@code fteCreateTransfer -ss}, held by
 * their source agent and published, retained, on {@code SYSTEM.FTE/Scheduler/<agent>}.
 */
@Command(name = "schedule", mixinStandardHelpOptions = true,
        description = "List and delete scheduled transfers (create them with fteCreateTransfer -ss).",
        subcommands = {ScheduleCommands.ListSchedules.class, ScheduleCommands.DeleteSchedule.class})
final class ScheduleCommands {
    private ScheduleCommands() {}

    @Command(name = "list", aliases = "fteListScheduledTransfers", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteListScheduledTransfers", "  fteListScheduledTransfers \"AGENT*\""},
            description = "List the scheduled transfers their source agents published on the coordination queue"
                    + " manager (fteListScheduledTransfers); PATTERN matches source agent names (* and ?).")
    static final class ListSchedules implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;
        @Parameters(arity = "0..1", paramLabel = "PATTERN", description = "Source agents to list (default all).")
        String pattern;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            MftClient client = AgentQueryCommands.Estate.of(global.dataDirectory(),
                    global.configurationOptions(configurationOptions)).client();
            List<ScheduledTransfer> schedules = client.schedules(pattern);
            schedules.forEach(ListSchedules::print);
            if (schedules.isEmpty()) {
                System.out.println("No scheduled transfers match the current selection criteria.");
            } else {
                System.out.println("Total number of scheduled transfers listed: " + schedules.size());
            }
            return ExitCodes.OK;
        }

        /** One schedule with IBM's field names. */
        private static void print(ScheduledTransfer e) {
            System.out.println("Schedule Identifier:     " + e.id());
            System.out.println("Job Name:                " + (e.jobName() == null ? "" : e.jobName()));
            System.out.println("Source Agent Name:       " + e.sourceAgent());
            for (ScheduledTransfer.Item i : e.items()) {
                System.out.println("   Source File Name:             " + i.source());
                System.out.println("   Destination File Name:        " + i.destination());
                System.out.println("   Conversion Type:              " + i.mode());
            }
            System.out.println("Destination Agent Name:  " + e.destinationAgent());
            System.out.println("Schedule Start Time:     " + e.start());
            System.out.println("Next Transfer:           " + (e.next() == null ? "-" : e.next()));
            System.out.println("Schedule Time Base:      " + e.timeBase());
            System.out.println("Repeat Interval:         " + (e.interval() == null ? "-" : e.interval()));
            System.out.println("Repeat Frequency:        " + (e.interval() == null ? "-" : e.frequency()));
            if (e.occurrences() > 0) {
                System.out.println("Repeat Count:            " + e.occurrences());
            }
            if (e.end() != null) {
                System.out.println("Repeat End Time:         " + e.end());
            }
            System.out.println();
        }
    }

    @Command(name = "delete", aliases = "fteDeleteScheduledTransfer", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteDeleteScheduledTransfer -agentName AGENT1 5"},
            description = "Delete a scheduled transfer from its source agent, which must be running"
                    + " (fteDeleteScheduledTransfer).")
    static final class DeleteSchedule implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "-agentName", required = true, paramLabel = "AGENT", description = "The source agent.")
        String agent;
        @Option(names = "-m", paramLabel = "QMGR", description = "The agent's queue manager.") String agentQMgr;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;
        @Parameters(paramLabel = "ID", description = "The schedule's id, as fteListScheduledTransfers shows it.")
        String id;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            String name = AgentCommands.validName(agent);
            long scheduleId;
            try {
                scheduleId = Long.parseLong(id.strip());
            } catch (NumberFormatException e) {
                scheduleId = 0;
            }
            if (scheduleId < 1) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: the schedule ID '" + id + "' is not a positive"
                        + " whole number");
            }
            MftClient client = AgentCommands.client(global.dataDirectory(),
                    global.configurationOptions(configurationOptions));
            System.out.println(client.deleteSchedule(name, agentQMgr, scheduleId));
            return ExitCodes.OK;
        }
    }
}
