package org.openmft.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.LoggerConfig;
import org.openmft.agent.config.LoggerProperties.LoggerType;
import org.openmft.agent.config.QueueNames;
import org.openmft.client.AgentInfo;
import org.openmft.coordination.logger.LogStore;
import org.openmft.coordination.logger.LogStoreException;
import org.openmft.coordination.logger.StoredItem;
import org.openmft.coordination.logger.StoredTransfer;
import org.openmft.coordination.logger.TransferQuery;
import org.openmft.coordination.logger.TransferState;
import org.openmft.coordination.query.ConfiguredLoggers;

import ch.qos.logback.classic.Level;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mft transfer list} and {@code mft transfer show}: the transfer history a database logger
 * keeps ({@code config/<coordQM>/loggers/<LOGGER>/logger.properties} of type DATABASE). Without one,
 * {@code list} shows what the agents' current status publications tell (running and queued
 * transfers) and {@code show} explains that details need a database logger.
 */
final class TransferQueryCommands {
    /** Exit code when the history was asked for and no database logger can answer: unsuccessful. */
    static final int NO_HISTORY = ExitCodes.FAILED;
    /** The default of {@code --limit}. */
    static final int DEFAULT_LIMIT = 50;

    private TransferQueryCommands() {
    }

    /** Options shared by list and show. */
    static final class Options {
        @Option(names = "--data-dir", paramLabel = "DIR",
                description = "The OpenMFT data directory (default: $OPENMFT_DATA, else ~/.openmft).")
        java.nio.file.Path dataDir;
        @Option(names = {"-v", "--verbose"}, description = "Show a stack trace on failure.") boolean verbose;
        @Option(names = "-p", description = "Configuration options set: the coordination queue manager"
                + " (default: the default one).")
        String configurationOptions;
        @Option(names = "--logger", paramLabel = "NAME", description = "The database logger to read (needed only"
                + " when there are several).")
        String logger;
        @Option(names = "--json", description = "Print JSON, for scripts.") boolean json;

        GlobalOptions global() {
            GlobalOptions g = new GlobalOptions();
            g.dataDir = dataDir;
            return g;
        }
    }

    /** Where the history comes from: a database logger, or none configured. */
    private record Source(DataDirectory dd, String coordination, LoggerConfig logger) {
        boolean hasHistory() {
            return logger != null;
        }
    }

    private static Source source(Options options, PrintWriter err) throws Exception {
        LogSetup.consoleLevel(Level.WARN);
        GlobalOptions global = options.global();
        DataDirectory dd = global.dataDirectory();
        String coordination = global.configurationOptions(options.configurationOptions);
        ConfiguredLoggers loggers = ConfiguredLoggers.scan(dd, coordination, System.getenv());
        if (options.logger != null) {
            String name;
            try {
                name = QueueNames.validateLoggerName(options.logger);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
            }
            if (loggers.unreadable().containsKey(name)) {
                throw new CommandFailure(ExitCodes.CONFIGURATION, loggers.unreadable().get(name));
            }
            LoggerConfig named = loggers.named(name).orElseThrow(() -> new CommandFailure(ExitCodes.CONFIGURATION,
                    "logger " + name + " is not configured: " + dd.loggerProperties(coordination, name)
                            + " does not exist"));
            if (named.loggerType() != LoggerType.DATABASE) {
                throw new CommandFailure(NO_HISTORY, "logger " + name + " is a " + named.loggerType()
                        + " logger: its files can be read, but only a DATABASE logger can be queried");
            }
            return new Source(dd, coordination, named);
        }
        loggers.unreadable().forEach((name, reason) -> err.println("Logger " + name + " skipped: " + reason));
        List<LoggerConfig> databases = loggers.databaseLoggers();
        if (databases.size() > 1) {
            throw new CommandFailure(ExitCodes.FAILED, "coordination queue manager " + coordination + " has "
                    + databases.size() + " database loggers ("
                    + databases.stream().map(LoggerConfig::loggerName).collect(Collectors.joining(", "))
                    + "): choose one with --logger");
        }
        return new Source(dd, coordination, databases.isEmpty() ? null : databases.get(0));
    }

    private static String needsDatabaseLogger(String coordination) {
        return "transfer history needs a database logger, and coordination queue manager " + coordination
                + " has none: create one with 'mft logger create <NAME> -loggerType DATABASE' and start it with"
                + " 'mft logger start <NAME>' (it records transfers from then on)";
    }

    /** Opens the logger's store; empty when its embedded database does not exist yet. */
    private static Optional<LogStore> open(Source source) throws CommandFailure {
        try {
            return ConfiguredLoggers.openDatabase(source.dd(), source.coordination(), source.logger());
        } catch (LogStoreException e) {
            throw new CommandFailure(ExitCodes.FAILED, "logger " + source.logger().loggerName() + ": "
                    + e.getMessage(), e);
        }
    }

    private static String agentAndQMgr(String agent, String qmgr) {
        if (agent == null) {
            return null;
        }
        return qmgr == null ? agent : agent + " (" + qmgr + ")";
    }

    static Map<String, Object> json(StoredTransfer t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", t.id());
        m.put("state", t.state().name());
        m.put("resultCode", t.resultCode());
        m.put("supplements", t.supplements());
        m.put("sourceAgent", t.sourceAgent());
        m.put("sourceQMgr", t.sourceQMgr());
        m.put("destinationAgent", t.destinationAgent());
        m.put("destinationQMgr", t.destinationQMgr());
        m.put("originatorUser", t.originatorUser());
        m.put("originatorHost", t.originatorHost());
        m.put("jobName", t.jobName());
        m.put("startTime", Listing.isoTime(t.startTime()));
        m.put("endTime", Listing.isoTime(t.endTime()));
        m.put("totalItems", t.totalItems() < 0 ? null : t.totalItems());
        m.put("bytesSent", t.bytesSent() < 0 ? null : t.bytesSent());
        return m;
    }

    static Map<String, Object> json(StoredItem i) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", i.index());
        m.put("source", i.source());
        m.put("sourceSize", i.sourceSize() < 0 ? null : i.sourceSize());
        m.put("destination", i.destination());
        m.put("destinationSize", i.destinationSize() < 0 ? null : i.destinationSize());
        m.put("mode", i.mode());
        m.put("resultCode", i.resultCode());
        m.put("checksumMethod", i.checksumMethod());
        m.put("checksum", i.checksum());
        m.put("supplement", i.supplement());
        return m;
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"List transfers, newest first, from the database logger of the coordination queue"
                    + " manager.",
                    "Without a database logger, list the transfers the agents' status publications show running"
                            + " or recovering now, and how many are queued; --state then matches STARTED and"
                            + " IN_PROGRESS only (nothing that ended is known)."},
            footer = {"", "Examples:", "  mft transfer list --agent SRC --state FAILED",
                    "  mft transfer list --limit 500 --json"})
    static final class ListTransfers implements Callable<Integer> {
        @Spec CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin Options options;
        @Option(names = "--agent", paramLabel = "AGENT", description = "Only transfers from or to this agent.")
        String agent;
        @Option(names = "--state", paramLabel = "STATE", description = "Only transfers in this state: ${COMPLETION-CANDIDATES}.")
        TransferState state;
        @Option(names = "--limit", paramLabel = "N", defaultValue = "" + DEFAULT_LIMIT,
                description = "At most N transfers (default: ${DEFAULT-VALUE}).")
        int limit;

        @Override
        public Integer call() throws Exception {
            if (limit < 1 || limit > TransferQuery.MAX_LIMIT) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: --limit must be from 1 to "
                        + TransferQuery.MAX_LIMIT + ", not " + limit);
            }
            String agentName = agent == null ? null : AgentCommands.validName(agent);
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Source source = source(options, err);
            if (!source.hasHistory()) {
                return current(source, agentName, out, err);
            }
            List<StoredTransfer> transfers;
            Optional<LogStore> store = open(source);
            if (store.isEmpty()) {
                transfers = List.of();
            } else {
                try (LogStore s = store.get()) {
                    TransferQuery query = TransferQuery.latest(limit).withAgent(agentName);
                    transfers = s.transfers(state == null ? query : query.withState(state));
                } catch (LogStoreException e) {
                    throw new CommandFailure(ExitCodes.FAILED, "logger " + source.logger().loggerName() + ": "
                            + e.getMessage(), e);
                }
            }
            if (options.json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("source", "logger");
                m.put("logger", source.logger().loggerName());
                m.put("transfers", transfers.stream().map(TransferQueryCommands::json).toList());
                Listing.json(out, m);
                return ExitCodes.OK;
            }
            if (transfers.isEmpty()) {
                out.println("No transfers in the database of logger " + source.logger().loggerName()
                        + " match the current selection criteria.");
                return ExitCodes.OK;
            }
            List<List<String>> rows = new ArrayList<>();
            for (StoredTransfer t : transfers) {
                rows.add(java.util.Arrays.asList(t.id(), t.state().name(),
                        t.resultCode() == null ? null : t.resultCode().toString(), t.sourceAgent(),
                        t.destinationAgent(), Listing.time(t.startTime()), Listing.time(t.endTime()), t.jobName()));
            }
            Listing.table(out, List.of("Transfer ID:", "State:", "Result:", "Source Agent:", "Destination Agent:",
                    "Started:", "Ended:", "Job:"), rows);
            return ExitCodes.OK;
        }

        /** Without a database logger: what the agents' status publications say now. */
        private int current(Source source, String agentName, PrintWriter out, PrintWriter err) throws Exception {
            err.println("Note: " + needsDatabaseLogger(source.coordination()) + ". Showing the transfers in the"
                    + " agents' current status publications.");
            List<AgentInfo> agents = AgentQueryCommands.Estate.of(source.dd(), source.coordination()).client()
                    .agents(agentName);
            boolean currentStates = state == null || !state.ended();
            List<List<String>> rows = new ArrayList<>();
            Map<String, Integer> queued = new LinkedHashMap<>();
            for (AgentInfo a : agents) {
                if (currentStates) {
                    a.sourceTransfers().forEach((id, st) -> rows.add(List.of(id, a.name(), "source", st)));
                    a.destinationTransfers().forEach((id, st) -> rows.add(List.of(id, a.name(), "destination",
                            st)));
                }
                if (currentStates && a.queuedTransfers() > 0) {
                    queued.put(a.name(), a.queuedTransfers());
                }
            }
            List<List<String>> shown = rows.size() > limit ? rows.subList(0, limit) : rows;
            if (options.json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("source", "agentStatus");
                m.put("transfers", shown.stream().map(r -> {
                    Map<String, Object> t = new LinkedHashMap<>();
                    t.put("id", r.get(0));
                    t.put("agent", r.get(1));
                    t.put("role", r.get(2));
                    t.put("state", r.get(3));
                    return t;
                }).toList());
                m.put("queued", queued);
                Listing.json(out, m);
                return ExitCodes.OK;
            }
            if (shown.isEmpty() && queued.isEmpty()) {
                out.println("No transfers are running or queued at the agents that match the current selection"
                        + " criteria.");
                return ExitCodes.OK;
            }
            if (!shown.isEmpty()) {
                Listing.table(out, List.of("Transfer ID:", "Agent:", "Role:", "State:"), shown);
            }
            if (!queued.isEmpty()) {
                out.println("Queued transfers: " + queued.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                        .collect(Collectors.joining(", ")));
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Show one transfer and its items from the database logger of the coordination queue"
                    + " manager.",
            footer = {"", "Examples:", "  mft transfer show 414d5120514d31202020202020202020...", "  mft transfer show <id> --json", "Exit code 1 when the transfer is not in the database, or there is no database logger."})
    static final class ShowTransfer implements Callable<Integer> {
        @Spec CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin Options options;
        @Parameters(index = "0", paramLabel = "ID", description = "The transfer ID (48 hexadecimal characters).")
        String id;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            Source source = source(options, spec.commandLine().getErr());
            if (!source.hasHistory()) {
                throw new CommandFailure(NO_HISTORY, "cannot show transfer " + id.strip() + ": "
                        + needsDatabaseLogger(source.coordination()) + "; 'mft transfer list' shows the transfers"
                        + " running now");
            }
            String logger = source.logger().loggerName();
            Optional<StoredTransfer> found = Optional.empty();
            Optional<LogStore> store = open(source);
            if (store.isPresent()) {
                try (LogStore s = store.get()) {
                    found = s.transfer(id.strip());
                } catch (LogStoreException e) {
                    throw new CommandFailure(ExitCodes.FAILED, "logger " + logger + ": " + e.getMessage(), e);
                }
            }
            if (found.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "transfer " + id.strip()
                        + " is not in the database of logger " + logger);
            }
            StoredTransfer t = found.get();
            if (options.json) {
                Map<String, Object> m = json(t);
                m.put("items", t.items().stream().map(TransferQueryCommands::json).toList());
                Listing.json(out, m);
                return ExitCodes.OK;
            }
            Listing.section(out, "Transfer " + t.id(), true);
            Listing.field(out, "State", t.state().name());
            Listing.field(out, "Result", t.resultCode());
            for (String supplement : t.supplements()) {
                Listing.field(out, "Supplement", supplement);
            }
            Listing.field(out, "Source Agent", agentAndQMgr(t.sourceAgent(), t.sourceQMgr()));
            Listing.field(out, "Destination Agent", agentAndQMgr(t.destinationAgent(), t.destinationQMgr()));
            Listing.field(out, "Originator", t.originatorUser() == null ? null
                    : t.originatorUser() + (t.originatorHost() == null ? "" : " on " + t.originatorHost()));
            Listing.field(out, "Job", t.jobName());
            Listing.field(out, "Started", Listing.time(t.startTime()));
            Listing.field(out, "Ended", Listing.time(t.endTime()));
            Listing.field(out, "Items", t.items().size() + (t.totalItems() < 0 ? "" : " of " + t.totalItems()));
            Listing.field(out, "Bytes Sent", t.bytesSent() < 0 ? null : t.bytesSent());
            for (StoredItem i : t.items()) {
                Listing.section(out, "Item " + i.index(), false);
                Listing.field(out, "Source", withSize(i.source(), i.sourceSize()));
                Listing.field(out, "Destination", withSize(i.destination(), i.destinationSize()));
                Listing.field(out, "Mode", i.mode());
                Listing.field(out, "Result", i.resultCode() + " (" + itemResult(i.resultCode()) + ")");
                Listing.field(out, "Checksum", i.checksum() == null ? null
                        : (i.checksumMethod() == null ? "" : i.checksumMethod() + " ") + i.checksum());
                Listing.field(out, "Supplement", i.supplement());
            }
            return ExitCodes.OK;
        }

        private static String withSize(String path, long size) {
            if (path == null) {
                return null;
            }
            return size < 0 ? path : path + " (" + size + " bytes)";
        }

        private static String itemResult(int code) {
            return switch (code) {
                case 0 -> "success";
                case 1 -> "failure";
                case 2 -> "warning";
                default -> "result " + code;
            };
        }
    }
}
