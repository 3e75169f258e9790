package org.openmft.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.openmft.client.MftClient;
import org.openmft.client.MftClientException;
import org.openmft.client.MonitorSpec;
import org.openmft.client.internal.CommandChannel;
import org.openmft.client.internal.MonitorDocuments;
import org.openmft.agent.config.QueueNames;
import org.openmft.xml.CommandDocument;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MalformedRequestException;
import org.openmft.xml.MonitorCondition;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TriggerContent;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mft monitor}: IBM's resource monitor commands. Each sends a Monitor.xsd document to the
 * monitoring agent's COMMAND queue through the client API ({@link MftClient#createMonitor} and the
 * others), as IBM's commands do, and waits for the agent's answer: {@code fteCreateMonitor}
 * ({@code <monitor>}), {@code fteDeleteMonitor} ({@code <deleteMonitor>}), {@code fteStartMonitor}
 * and {@code fteStopMonitor} ({@code <startMonitor>}, {@code <stopMonitor>}: IBM does not publish
 * these documents).
 */
@Command(name = "monitor", mixinStandardHelpOptions = true,
        description = "Create, list, delete, start and stop resource monitors.",
        subcommands = {MonitorCommands.Create.class, MonitorCommands.Delete.class, MonitorCommands.Start.class,
                MonitorCommands.Stop.class, MonitorCommands.ClearHistory.class, ListMonitorsCommand.class})
final class MonitorCommands {
    private MonitorCommands() {
    }

    @Command(name = "create", aliases = "fteCreateMonitor", mixinStandardHelpOptions = true, sortOptions = false,
            footer = {"", "Examples:",
                    "  fteCreateMonitor -ma SRC -md /srv/outbox -mn INVOICES -mt task.xml -tr \"match,*.xml\" -pi 30 -pu seconds",
                    "  fteCreateMonitor -ma SRC -md /srv/outbox -mn INVOICES -mt task.xml -tr \"noSizeChange=2,*.csv\" -bs 10",
                    "  fteCreateMonitor -ma SRC -mq ORDERS -mn ORDERS -mt task.xml -tr completeGroups -dv name=orders.txt",
                    "  fteCreateMonitor -ma SRC -md /srv/lists -mn LISTS -mt task.xml -tr \"match,*.trig\" -tc",
                    "  fteCreateMonitor -ix exported.xml -f",
                    "  fteCreateMonitor -ma SRC -md /srv/outbox -mn INVOICES -mt task.xml -ox INVOICES.xml"},
            description = {"Create a directory resource monitor on an agent (fteCreateMonitor, IBM's flags).",
                    "The task (-mt) is a transfer request, usually from fteCreateTransfer -gt, or a managed call"
                            + " (<request><managedCall>, run once per trigger), that may use IBM's"
                            + " variables ${FilePath}, ${FileName}, ${FileSize}, ${AgentName}, ${CurrentTimeStamp}"
                            + " ... and {token=N}{separator=c}.",
                    "A queue monitor (-mq, -tr queueNotEmpty or completeGroups) provides ${AgentName}, ${QueueName},"
                            + " ${MessageId}, ${GroupId}, ${Encoding}, the time stamps and the first message's user"
                            + " properties by name; -dv gives defaults.",
                    "With -tc the trigger file lists the files to transfer, one source or source,destination a"
                            + " line (-tcr: a regex, group 1 the source, group 2 the destination; -tcc destSrc: the"
                            + " other way round): the task's item uses ${contentSource} and ${contentDestination}"
                            + " and repeats per line, one transfer per trigger file.",
                    "Monitor exits (-mmd) are not supported yet."})
    static final class Create implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "-ma", paramLabel = "AGENT", description = "The monitoring agent: the task's source agent.")
        String agent;
        @Option(names = "-mm", paramLabel = "QMGR", description = "The agent's queue manager.") String agentQMgr;
        @Option(names = "-md", paramLabel = "DIRECTORY", description = "The directory to monitor (absolute).")
        String directory;
        @Option(names = "-mq", paramLabel = "QUEUE", description = "A queue of the agent's queue manager to monitor.")
        String queue;
        @Option(names = "-mn", paramLabel = "NAME", description = "The monitor's name (no * % ?; stored upper case).")
        String name;
        @Option(names = "-mt", paramLabel = "FILE", description = "The task: a transfer request document, or a managed call"
                + " (<request><managedCall>) the monitoring agent runs.")
        Path taskFile;
        @Option(names = "-pi", paramLabel = "N", description = "Poll interval (default 1).") Long pollInterval;
        @Option(names = "-pu", paramLabel = "UNITS",
                description = "seconds, minutes (default), hours or days, any case.") String pollUnits;
        @Option(names = "-rl", paramLabel = "N", description = "Subdirectory levels to descend (default 0).")
        Integer recursionLevel;
        @Option(names = "-bs", paramLabel = "N", description = "Most trigger matches one task takes (default 1).")
        Integer batchSize;
        @Option(names = "-tr", paramLabel = "CONDITION", description = "match,P (default: match,*), noMatch,P,"
                + " noSizeChange=N,P or fileSize>=N[B|KB|MB|GB],P.")
        String trigger;
        @Option(names = "-pt", paramLabel = "TYPE", description = "wildcard (default) or regex: how -tr and -x"
                + " patterns are read.") String patternType;
        @Option(names = "-x", paramLabel = "PATTERN", description = "Files left out although they match.")
        String exclude;
        @Option(names = "-tc", description = "The trigger file lists the files to transfer (with -tr match or"
                + " noSizeChange; not with -bs).") boolean triggerContent;
        @Option(names = "-tcr", paramLabel = "REGEX", description = "With -tc: a Java regex each whole line matches,"
                + " group 1 the source, optional group 2 the destination.") String triggerContentRegex;
        @Option(names = "-tcc", paramLabel = "ORDER", description = "With -tcr: srcDest (default) or destSrc, which"
                + " group is the source.") String triggerContentOrder;
        @Option(names = "-jn", paramLabel = "JOB", description = "Job name of the transfers the monitor starts.")
        String jobName;
        @Option(names = "-mmd", paramLabel = "K=V", description = "Monitor exit metadata: not supported yet.")
        List<String> metadata;
        @Option(names = "-dv", paramLabel = "K=V", description = "Default values of variables a queue monitor's"
                + " message lacks: var=value[,var=value...].")
        List<String> defaultVariables;
        @Option(names = "-ix", paramLabel = "FILE", description = "Import a monitor definition (IBM's -ox export);"
                + " other flags override it.") Path importFile;
        @Option(names = "-ox", paramLabel = "FILE", description = "Write the definition to FILE instead of sending it.")
        Path exportFile;
        @Option(names = "-f", description = "Replace a monitor of the same name.") boolean force;
        @Option(names = "-c", description = "With -f: clear the replaced monitor's history.") boolean clear;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            refuseUnsupported();
            MonitorDefinition monitor = build();
            if (exportFile != null) {
                Files.writeString(exportFile, new DocumentWriter().write(monitor.withReply(null)), StandardCharsets.UTF_8);
                System.out.println("BFGCL0253I: The monitor definition " + monitor.name() + " was written to "
                        + exportFile + "; nothing was sent.");
                return ExitCodes.OK;
            }
            // The document fteCreateMonitor -ox would write is what the client sends.
            MonitorSpec spec = MonitorSpec.fromXml(new DocumentWriter().write(monitor));
            client(global, configurationOptions).createMonitor(spec, agentQMgr);
            System.out.println("BFGCL0251I: The monitor " + monitor.name() + " was created on agent " + monitor.agent()
                    + ".");
            return ExitCodes.OK;
        }

        private void refuseUnsupported() throws CommandFailure {
            if (metadata != null) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -mmd (monitor exits) is not supported yet;"
                        + " nothing was sent");
            }
            if (!triggerContent && (triggerContentRegex != null || triggerContentOrder != null)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + (triggerContentRegex != null ? "-tcr"
                        : "-tcc") + " needs -tc; nothing was sent");
            }
            if (clear && !force) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -c needs -f; nothing was sent");
            }
        }

        MonitorDefinition build() throws Exception {
            MonitorDefinition imported = importFile == null ? null : imported();
            if (imported == null) {
                List<String> missing = new java.util.ArrayList<>();
                if (agent == null) {
                    missing.add("-ma");
                }
                if (directory == null && queue == null) {
                    missing.add("-md or -mq");
                }
                if (name == null) {
                    missing.add("-mn");
                }
                if (taskFile == null) {
                    missing.add("-mt");
                }
                if (!missing.isEmpty()) {
                    throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: missing " + String.join(", ", missing)
                            + " (or -ix); nothing was sent");
                }
            }
            if (directory != null && queue != null) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -md and -mq cannot be used together; nothing"
                        + " was sent");
            }
            try {
                MonitorDefinition.TimeUnit unit = pollUnits != null ? MonitorDefinition.TimeUnit.fromXml(pollUnits)
                        : imported != null ? imported.pollInterval().unit() : MonitorDefinition.TimeUnit.MINUTES;
                long interval = pollInterval != null ? pollInterval : imported != null && pollUnits == null
                        ? imported.pollInterval().value() : 1;
                List<MonitorCondition> conditions = trigger != null || imported == null ? List.of(condition())
                        : imported.conditions();
                MonitorDefinition.MonitorTask task = taskFile != null ? task() : imported.task();
                return new MonitorDefinition("6.00",
                        name != null ? name : imported.name(),
                        imported == null ? null : imported.description(),
                        new MonitorDefinition.PollInterval(interval, unit),
                        batchSize != null ? batchSize : imported != null ? imported.batchSize() : 1,
                        agent != null ? validAgent(agent) : imported.agent(),
                        watchesQueue(imported) ? null : directory != null ? directory : imported.directory(),
                        recursionLevel != null ? recursionLevel : imported != null ? imported.recursionLevel() : 0,
                        imported == null || trigger != null || imported.allOf(), conditions, null, task,
                        CommandChannel.originator(),
                        jobName != null ? jobName : imported == null ? null : imported.jobName(), force, clear,
                        !watchesQueue(imported) ? null : queue != null ? queue : imported.queue(),
                        defaultVariables != null ? defaults() : imported == null ? Map.of() : imported.defaultVariables(),
                        triggerContent(imported));
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + e.getMessage() + "; nothing was sent");
            }
        }

        /** -tc, -tcr, -tcc; without -tc, what an imported definition says. */
        private TriggerContent triggerContent(MonitorDefinition imported) {
            if (!triggerContent) {
                return imported == null ? null : imported.triggerContent();
            }
            return new TriggerContent(triggerContentRegex,
                    triggerContentOrder != null && TriggerContent.destinationFirst(triggerContentOrder));
        }

        /** Whether the monitor built watches a queue: -mq, or an imported queue monitor without -md. */
        private boolean watchesQueue(MonitorDefinition imported) {
            return queue != null || directory == null && imported != null && imported.queueMonitor();
        }

        /** -dv var=value[,var=value...], repeatable. */
        private Map<String, String> defaults() {
            Map<String, String> values = new java.util.LinkedHashMap<>();
            for (String list : defaultVariables) {
                for (String pair : list.split(",")) {
                    int eq = pair.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("-dv " + pair + " is not valid; expected variable=value");
                    }
                    values.put(pair.substring(0, eq).strip(), pair.substring(eq + 1));
                }
            }
            return values;
        }

        private static String validAgent(String agent) {
            return QueueNames.validateAgentName(agent);
        }

        private MonitorDefinition imported() throws CommandFailure {
            try {
                CommandDocument d = new RequestParser().parse(Files.readAllBytes(importFile));
                if (d instanceof MonitorDefinition m) {
                    return m;
                }
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0003E: " + importFile
                        + " is not a monitor definition (<monitor:monitor>); nothing was sent");
            } catch (MalformedRequestException e) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0003E: " + importFile + " is not a valid monitor"
                        + " definition: " + e.getMessage() + "; nothing was sent");
            } catch (java.io.IOException e) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0002E: cannot read " + importFile + ": " + e.getMessage());
            }
        }

        /** The -tr condition, with -pt and -x. */
        MonitorCondition condition() {
            return MonitorDocuments.condition(trigger, patternType, exclude, queue != null);
        }

        /** The -mt file's {@code <request>}, without its XML declaration. */
        private MonitorDefinition.MonitorTask task() throws CommandFailure, MftClientException {
            String text;
            try {
                if (Files.size(taskFile) > RequestParser.DEFAULT_MAX_DOCUMENT_BYTES) {
                    throw new CommandFailure(ExitCodes.FAILED, "BFGCL0003E: the task file " + taskFile
                            + " is larger than " + RequestParser.DEFAULT_MAX_DOCUMENT_BYTES + " bytes");
                }
                text = Files.readString(taskFile, StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0002E: cannot read the task file " + taskFile + ": "
                        + e.getMessage());
            }
            return MonitorDocuments.task(text, "the task file " + taskFile);
        }
    }

    /** Options of the commands that name a monitor on an agent. */
    static final class Target {
        @Option(names = "-ma", required = true, paramLabel = "AGENT", description = "The monitoring agent.")
        String agent;
        @Option(names = "-mm", paramLabel = "QMGR", description = "The agent's queue manager.") String agentQMgr;
        @Option(names = "-mn", required = true, paramLabel = "NAME", description = "The monitor.") String name;
        @Option(names = "-p", description = "Configuration options set.") String configurationOptions;

        String monitorName() throws CommandFailure {
            try {
                return MonitorDefinition.monitorName(name);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + e.getMessage());
            }
        }
    }

    @Command(name = "delete", aliases = "fteDeleteMonitor", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteDeleteMonitor -ma SRC -mn INVOICES"},
            description = "Stop and delete a resource monitor; the agent must be running (fteDeleteMonitor).")
    static final class Delete implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Mixin Target target;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            String monitor = target.monitorName();
            String agent = AgentCommands.validName(target.agent);
            System.out.println("BFGCL0192I: Request to delete monitor " + monitor + " on agent " + agent + " issued.");
            client(global, target.configurationOptions).deleteMonitor(agent, target.agentQMgr, monitor);
            System.out.println("BFGCL0251I: The request has successfully completed.");
            return ExitCodes.OK;
        }
    }

    /** What {@link Control} asks of a monitor. */
    enum Action {
        START("started"), STOP("stopped"), CLEAR_HISTORY("cleared of its history");

        private final String done;

        Action(String done) {
            this.done = done;
        }
    }

    /**
     * fteStartMonitor, fteStopMonitor and fteClearMonitorHistory: one request naming the monitor,
     * answered by the agent; the subclasses only name the command and its action.
     */
    abstract static class Control implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Mixin Target target;
        private final Action action;

        Control(Action action) {
            this.action = action;
        }

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            String monitor = target.monitorName();
            String agent = AgentCommands.validName(target.agent);
            MftClient client = client(global, target.configurationOptions);
            switch (action) {
                case START -> client.startMonitor(agent, target.agentQMgr, monitor);
                case STOP -> client.stopMonitor(agent, target.agentQMgr, monitor);
                case CLEAR_HISTORY -> client.clearMonitorHistory(agent, target.agentQMgr, monitor);
            }
            System.out.println("BFGCL0251I: The monitor " + monitor + " on agent " + agent + " is " + action.done + ".");
            return ExitCodes.OK;
        }
    }

    @Command(name = "start", aliases = "fteStartMonitor", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteStartMonitor -ma SRC -mn INVOICES"},
            description = "Start a stopped resource monitor (fteStartMonitor).")
    static final class Start extends Control {
        Start() {
            super(Action.START);
        }
    }

    @Command(name = "stop", aliases = "fteStopMonitor", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteStopMonitor -ma SRC -mn INVOICES"},
            description = "Stop a resource monitor without deleting it (fteStopMonitor).")
    static final class Stop extends Control {
        Stop() {
            super(Action.STOP);
        }
    }

    @Command(name = "clear-history", aliases = "fteClearMonitorHistory", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  fteClearMonitorHistory -ma SRC -mn INVOICES"},
            description = {"Forget which files a resource monitor has triggered on (fteClearMonitorHistory): its"
                    + " next poll triggers on every matching file again. The agent must be running."})
    static final class ClearHistory extends Control {
        ClearHistory() {
            super(Action.CLEAR_HISTORY);
        }
    }

    /** The client API on the command configuration of the configuration options set {@code -p}. */
    private static MftClient client(GlobalOptions global, String configurationOptions) throws Exception {
        return AgentCommands.client(global.dataDirectory(), global.configurationOptions(configurationOptions));
    }
}
