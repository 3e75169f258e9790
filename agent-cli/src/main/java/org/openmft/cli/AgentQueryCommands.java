package org.openmft.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openmft.client.AgentInfo;
import org.openmft.client.ClientSettings;
import org.openmft.client.MftClient;
import org.openmft.coordination.query.AgentView;

import ch.qos.logback.classic.Level;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mft agent list} and {@code mft agent show} (fteListAgents, fteShowAgentDetails): the
 * agents as their retained status publications on the coordination queue manager describe them
 * (reference §5.1), read through the client API ({@link MftClient#agents}, {@link MftClient#agent}).
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
     * The client API on the coordination configuration of {@code -p}, and that configuration, once
     * its queue manager is known to run when it is a bindings queue manager of this host.
     *
     * @param config the coordination configuration (its jitter tolerance explains an UNKNOWN status)
     * @param client the client the agents are read with
     */
    record Estate(CoordinationConfig config, MftClient client) {
        /**
         * Reads the coordination configuration of {@code -p}.
         *
         * @throws CommandFailure 78 without coordination.properties, 75 when a bindings coordination
         *     queue manager of this host is not running
         */
        static Estate of(Options options) throws Exception {
            // Warnings only: these commands print their results on the console.
            LogSetup.consoleLevel(Level.WARN);
            GlobalOptions global = options.global();
            return of(global.dataDirectory(), global.configurationOptions(options.configurationOptions));
        }

        /**
         * Reads the coordination configuration {@code coordination} of {@code dd}.
         *
         * @throws CommandFailure as {@link #of(Options)}
         */
        static Estate of(DataDirectory dd, String coordination) throws Exception {
            CoordinationConfig config = runningCoordination(dd, coordination);
            return new Estate(config, MftClient.connect(ClientSettings.forCoordinationQueueManager(dd.root(),
                    coordination)));
        }
    }

    /**
     * The coordination configuration of {@code coordination}, once its queue manager is known to
     * run when it is a bindings queue manager of this host (so that the command says so rather
     * than failing to connect).
     *
     * @throws CommandFailure 78 without coordination.properties, 75 when it is not running
     */
    static CoordinationConfig runningCoordination(DataDirectory dd, String coordination) throws Exception {
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

    /** How an agent connects to its queue manager, as its status says. */
    static String connection(AgentInfo a) {
        if (a.bindings()) {
            return "bindings";
        }
        return "client " + a.queueManagerHost() + "(" + (a.queueManagerPort() < 0 ? "?" : a.queueManagerPort())
                + ") channel " + (a.queueManagerChannel() == null ? "?" : a.queueManagerChannel());
    }

    /** "running/max" for a transfer count and its limit. */
    static String ofMax(int count, int max) {
        return count + "/" + (max < 0 ? "?" : max);
    }

    /** One agent as JSON: every field of its status, with the shown status and its age. */
    static Map<String, Object> json(AgentInfo a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", a.name());
        m.put("description", a.description());
        m.put("status", a.status());
        m.put("publishedStatus", a.publishedStatus());
        m.put("statusAgeSeconds", a.statusAge() == null ? null : a.statusAge().toSeconds());
        m.put("publishTime", Listing.isoTime(a.publishTime()));
        m.put("publishRateMinSeconds", nullIfUnknown(a.publishRateMinSeconds()));
        m.put("startTime", Listing.isoTime(a.startTime()));
        m.put("queueManager", a.queueManager());
        Map<String, Object> conn = new LinkedHashMap<>();
        conn.put("mode", a.bindings() ? "bindings" : "client");
        if (!a.bindings()) {
            conn.put("host", a.queueManagerHost());
            conn.put("port", nullIfUnknown(a.queueManagerPort()));
            conn.put("channel", a.queueManagerChannel());
        }
        m.put("connection", conn);
        m.put("agentType", a.agentType());
        m.put("version", a.version());
        m.put("osName", a.osName());
        m.put("timeZone", a.timeZone());
        m.put("hostName", a.hostName());
        m.put("maxSourceTransfers", nullIfUnknown(a.maxSourceTransfers()));
        m.put("maxDestinationTransfers", nullIfUnknown(a.maxDestinationTransfers()));
        m.put("maxQueuedTransfers", nullIfUnknown(a.maxQueuedTransfers()));
        m.put("queuedTransfers", nullIfUnknown(a.queuedTransfers()));
        m.put("sourceTransfers", a.sourceTransfers());
        m.put("destinationTransfers", a.destinationTransfers());
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
            List<AgentInfo> agents = Estate.of(options).client().agents(pattern);
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
            for (AgentInfo a : agents) {
                List<String> row = new ArrayList<>(List.of(a.name(), a.queueManager() == null ? "-"
                        : a.queueManager(), a.status(), Listing.age(a.statusAge())));
                if (verbose) {
                    row.add(ofMax(a.sourceTransfers().size(), a.maxSourceTransfers()));
                    row.add(ofMax(a.destinationTransfers().size(), a.maxDestinationTransfers()));
                    row.add(ofMax(Math.max(0, a.queuedTransfers()), a.maxQueuedTransfers()));
                    row.add(a.description() == null ? "" : a.description());
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
            Estate estate = Estate.of(options);
            Optional<AgentInfo> found = estate.client().agent(name);
            if (found.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0014E: agent " + name + " has no status on the"
                        + " coordination queue manager: is the name right, and has the agent ever started?");
            }
            AgentInfo a = found.get();
            PrintWriter out = spec.commandLine().getOut();
            if (options.json) {
                Listing.json(out, json(a));
                return ExitCodes.OK;
            }
            Listing.section(out, "Agent Information", true);
            Listing.field(out, "Name", a.name());
            Listing.field(out, "Description", a.description());
            Listing.field(out, "Type", a.agentType());
            Listing.field(out, "Version", a.version());
            Listing.field(out, "Operating System", a.osName());
            Listing.field(out, "Time Zone", a.timeZone());
            Listing.field(out, "Host", a.hostName());
            Listing.field(out, "Started", Listing.time(a.startTime()));

            Listing.section(out, "Agent Availability Information", false);
            Listing.field(out, "Status", a.status());
            Listing.field(out, "Status Age", Listing.age(a.statusAge()));
            Listing.field(out, "Last Published", Listing.time(a.publishTime()));
            if (a.overdue()) {
                int publishInterval = a.publishRateMinSeconds() > 0 ? a.publishRateMinSeconds()
                        : AgentView.DEFAULT_PUBLISH_RATE_MIN_SECONDS;
                Listing.field(out, "Status Details", "the last status, " + a.publishedStatus()
                        + ", is older than the agent's publish interval (" + publishInterval
                        + " s) plus agentStatusJitterTolerance ("
                        + estate.config().agentStatusJitterTolerance().toMillis()
                        + " ms): the agent may have ended without stopping, or cannot reach the coordination"
                        + " queue manager");
            } else if (a.statusAge() == null) {
                Listing.field(out, "Status Details", "the status carries no publish time");
            }

            Listing.section(out, "Queue Manager Information", false);
            Listing.field(out, "Name", a.queueManager());
            Listing.field(out, "Connection", connection(a));

            Listing.section(out, "Transfers", false);
            Listing.field(out, "Maximum Source Transfers", unknownAsDash(a.maxSourceTransfers()));
            Listing.field(out, "Maximum Destination Transfers", unknownAsDash(a.maxDestinationTransfers()));
            Listing.field(out, "Maximum Queued Transfers", unknownAsDash(a.maxQueuedTransfers()));
            Listing.field(out, "Queued Transfers", unknownAsDash(a.queuedTransfers()));

            transfers(out, "Source Transfers", a.sourceTransfers());
            transfers(out, "Destination Transfers", a.destinationTransfers());
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
