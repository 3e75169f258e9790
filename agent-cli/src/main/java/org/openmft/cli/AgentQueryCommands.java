package org.openmft.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.coordination.query.AgentDirectory;
import org.openmft.coordination.query.AgentView;
import org.openmft.xml.log.AgentStatus;

import ch.qos.logback.classic.Level;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mft agent list} and {@code mft agent show} (fteListAgents, fteShowAgentDetails): the
 * agents as their retained status publications on the coordination queue manager describe them
 * (reference §5.1), read through {@link AgentDirectory}.
 */
final class AgentQueryCommands {
    /** IBM's message when no agent matches. */
    static final String NO_AGENTS = "BFGCL0014W: No agents exist that match the current selection criteria.";

    private AgentQueryCommands() {
    }

    /**
     * The options of these commands: as {@link GlobalOptions}, except that {@code -v} is IBM's
     * verbose listing (and, on failure, the stack trace), not debug logging.
     */
    static final class Options {
        @Option(names = "--data-dir", paramLabel = "DIR",
                description = "The OpenMFT data directory (default: $OPENMFT_DATA, else ~/.openmft).")
        Path dataDir;
        @Option(names = "-p", description = "Configuration options set: the coordination queue manager"
                + " (default: the default one).")
        String configurationOptions;
        @Option(names = "--json", description = "Print JSON, for scripts.") boolean json;

        GlobalOptions global() {
            GlobalOptions g = new GlobalOptions();
            g.dataDir = dataDir;
            return g;
        }
    }

    /**
     * Reads the coordination configuration of {@code -p} and makes a directory of its agents.
     *
     * @throws CommandFailure 78 without coordination.properties, 75 when a bindings coordination
     *     queue manager of this host is not running
     */
    static AgentDirectory directory(Options options) throws Exception {
        // Warnings only: these commands print their results on the console.
        LogSetup.consoleLevel(Level.WARN);
        GlobalOptions global = options.global();
        DataDirectory dd = global.dataDirectory();
        String coordination = global.configurationOptions(options.configurationOptions);
        return directory(dd, coordination);
    }

    static AgentDirectory directory(DataDirectory dd, String coordination) throws Exception {
        CoordinationConfig config = coordinationConfig(dd, coordination);
        return AgentDirectory.forCoordination(config, dd.qmgrsDir(), Clock.systemUTC());
    }

    /**
     * The coordination configuration of {@code coordination}, its queue manager checked to be
     * running when it is a bindings one of this host.
     *
     * @throws CommandFailure 78 without coordination.properties, 75 when a bindings coordination
     *     queue manager of this host is not running
     */
    static CoordinationConfig coordinationConfig(DataDirectory dd, String coordination) throws Exception {
        CoordinationConfig config = SetupCommands.loadCoordination(dd, coordination);
        String qmgr = config.coordinationQMgr();
        if (!config.clientMode() && config.provider() == MessagingProvider.ARTEMIS
                && Files.exists(dd.qmgrDir(qmgr).resolve(QueueManagerSettings.FILE_NAME))) {
            boolean running;
            try {
                running = QmgrCommands.running(QmgrCommands.load(dd, qmgr));
            } catch (IOException e) {
                running = true; // Let the connection attempt say what is wrong.
            }
            if (!running) {
                throw new CommandFailure(ExitCodes.QMGR_UNAVAILABLE, "coordination queue manager " + qmgr
                        + " is not running: start it with 'mft qmgr start " + qmgr + "'");
            }
        }
        return config;
    }

    /** How an agent connects to its queue manager, as the status says. */
    static String connection(AgentStatus s) {
        if (s.queueManagerHost() == null) {
            return "bindings";
        }
        return "client " + s.queueManagerHost() + "(" + (s.queueManagerPort() < 0 ? "?" : s.queueManagerPort())
                + ") channel " + (s.queueManagerChannel() == null ? "?" : s.queueManagerChannel());
    }

    /** "running/max" for a transfer count and its limit. */
    static String ofMax(int count, int max) {
        return count + "/" + (max < 0 ? "?" : max);
    }

    /** One agent as JSON: every field of its status, with the shown status and its age. */
    static Map<String, Object> json(AgentView v) {
        AgentStatus s = v.status();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.agentName());
        m.put("description", s.description());
        m.put("status", v.shownStatus());
        m.put("publishedStatus", v.publishedStatus());
        m.put("statusAgeSeconds", v.age() == null ? null : v.age().toSeconds());
        m.put("publishTime", Listing.isoTime(s.publishTime()));
        m.put("publishRateMinSeconds", nullIfUnknown(s.publishRateMinSeconds()));
        m.put("startTime", Listing.isoTime(s.startTime()));
        m.put("queueManager", s.queueManager());
        Map<String, Object> conn = new LinkedHashMap<>();
        conn.put("mode", s.queueManagerHost() == null ? "bindings" : "client");
        if (s.queueManagerHost() != null) {
            conn.put("host", s.queueManagerHost());
            conn.put("port", nullIfUnknown(s.queueManagerPort()));
            conn.put("channel", s.queueManagerChannel());
        }
        m.put("connection", conn);
        m.put("agentType", s.agentType());
        m.put("version", s.version());
        m.put("osName", s.osName());
        m.put("timeZone", s.timeZone());
        m.put("hostName", s.hostName());
        m.put("maxSourceTransfers", nullIfUnknown(s.maxSourceTransfers()));
        m.put("maxDestinationTransfers", nullIfUnknown(s.maxDestinationTransfers()));
        m.put("maxQueuedTransfers", nullIfUnknown(s.maxQueuedTransfers()));
        m.put("queuedTransfers", nullIfUnknown(s.queuedTransfers()));
        m.put("sourceTransfers", s.sourceTransferStates());
        m.put("destinationTransfers", s.destinationTransferStates());
        return m;
    }

    private static Integer nullIfUnknown(int value) {
        return value < 0 ? null : value;
    }

    @Command(name = "list", aliases = "fteListAgents", mixinStandardHelpOptions = true,
            description = {"List the agents of a coordination queue manager from their status publications"
                    + " (fteListAgents).",
                    "A status older than the agent's agentStatusPublishRateMin plus agentStatusJitterTolerance"
                            + " (coordination.properties, default 3000 ms) is shown as UNKNOWN, unless the agent"
                            + " stopped."},
            footer = {"", "Examples:", "  mft agent list", "  fteListAgents -v 'PAY*'"})
    static final class ListAgents implements Callable<Integer> {
        @Spec CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin Options options;
        @Parameters(index = "0", arity = "0..1", paramLabel = "PATTERN",
                description = "Agent name pattern: * matches any characters, ? one; any case (default: all).")
        String pattern;
        @Option(names = {"-v", "--verbose"}, description = "Also show the description and the running and queued"
                + " transfers against their limits (and a stack trace on failure).")
        boolean verbose;

        @Override
        public Integer call() throws Exception {
            List<AgentView> agents = directory(options).agents(pattern);
            PrintWriter out = spec.commandLine().getOut();
            if (options.json) {
                Listing.json(out, agents.stream().map(AgentQueryCommands::json).toList());
                return ExitCodes.OK;
            }
            if (agents.isEmpty()) {
                out.println(NO_AGENTS);
                return ExitCodes.OK;
            }
            List<String> headers = new ArrayList<>(List.of("Agent Name:", "Queue Manager Name:", "Status:",
                    "Status Age:"));
            if (verbose) {
                headers.addAll(List.of("Source Transfers:", "Destination Transfers:", "Queued Transfers:",
                        "Description:"));
            }
            List<List<String>> rows = new ArrayList<>();
            for (AgentView v : agents) {
                AgentStatus s = v.status();
                List<String> row = new ArrayList<>(List.of(s.agentName(), s.queueManager() == null ? "-"
                        : s.queueManager(), v.shownStatus(), Listing.age(v.age())));
                if (verbose) {
                    row.add(ofMax(s.sourceTransferStates().size(), s.maxSourceTransfers()));
                    row.add(ofMax(s.destinationTransferStates().size(), s.maxDestinationTransfers()));
                    row.add(ofMax(Math.max(0, s.queuedTransfers()), s.maxQueuedTransfers()));
                    row.add(s.description() == null ? "" : s.description());
                }
                rows.add(row);
            }
            Listing.table(out, headers, rows);
            return ExitCodes.OK;
        }
    }

    @Command(name = "show", aliases = "fteShowAgentDetails", mixinStandardHelpOptions = true,
            description = "Show one agent's details from its status publication (fteShowAgentDetails).",
            footer = {"", "Examples:", "  fteShowAgentDetails SRC", "  mft agent show SRC --json", "Exit code 1 when the agent has published no status on the coordination queue manager."})
    static final class ShowAgent implements Callable<Integer> {
        @Spec CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin Options options;
        @Parameters(index = "0", paramLabel = "AGENT", description = "The agent name, any case.") String agent;
        @Option(names = {"-v", "--verbose"}, description = "Print a stack trace on failure.") boolean verbose;

        @Override
        public Integer call() throws Exception {
            String name = AgentCommands.validName(agent);
            AgentDirectory directory = directory(options);
            Optional<AgentView> found = directory.agent(name);
            if (found.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0014E: agent " + name + " has no status on the"
                        + " coordination queue manager: is the name right, and has the agent ever started?");
            }
            AgentView v = found.get();
            PrintWriter out = spec.commandLine().getOut();
            if (options.json) {
                Listing.json(out, json(v));
                return ExitCodes.OK;
            }
            AgentStatus s = v.status();
            Listing.section(out, "Agent Information", true);
            Listing.field(out, "Name", s.agentName());
            Listing.field(out, "Description", s.description());
            Listing.field(out, "Type", s.agentType());
            Listing.field(out, "Version", s.version());
            Listing.field(out, "Operating System", s.osName());
            Listing.field(out, "Time Zone", s.timeZone());
            Listing.field(out, "Host", s.hostName());
            Listing.field(out, "Started", Listing.time(s.startTime()));

            Listing.section(out, "Agent Availability Information", false);
            Listing.field(out, "Status", v.shownStatus());
            Listing.field(out, "Status Age", Listing.age(v.age()));
            Listing.field(out, "Last Published", Listing.time(s.publishTime()));
            if (v.overdue()) {
                Listing.field(out, "Status Details", "the last status, " + v.publishedStatus()
                        + ", is older than the agent's publish interval ("
                        + AgentView.allowedAge(s, java.time.Duration.ZERO).toSeconds()
                        + " s) plus agentStatusJitterTolerance (" + directory.jitterTolerance().toMillis()
                        + " ms): the agent may have ended without stopping, or cannot reach the coordination"
                        + " queue manager");
            } else if (v.age() == null) {
                Listing.field(out, "Status Details", "the status carries no publish time");
            }

            Listing.section(out, "Queue Manager Information", false);
            Listing.field(out, "Name", s.queueManager());
            Listing.field(out, "Connection", connection(s));

            Listing.section(out, "Transfers", false);
            Listing.field(out, "Maximum Source Transfers", unknownAsDash(s.maxSourceTransfers()));
            Listing.field(out, "Maximum Destination Transfers", unknownAsDash(s.maxDestinationTransfers()));
            Listing.field(out, "Maximum Queued Transfers", unknownAsDash(s.maxQueuedTransfers()));
            Listing.field(out, "Queued Transfers", unknownAsDash(s.queuedTransfers()));

            transfers(out, "Source Transfers", s.sourceTransferStates());
            transfers(out, "Destination Transfers", s.destinationTransferStates());
            return ExitCodes.OK;
        }

        private static Object unknownAsDash(int value) {
            return value < 0 ? null : value;
        }

        private static void transfers(PrintWriter out, String title, Map<String, String> states) {
            Listing.section(out, title + " (" + states.size() + ")", false);
            if (states.isEmpty()) {
                out.println("    No current transfers");
                return;
            }
            states.forEach((id, state) -> out.println("    " + id + "  " + state));
        }
    }
}
