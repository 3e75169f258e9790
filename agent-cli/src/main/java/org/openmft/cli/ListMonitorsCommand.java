package org.openmft.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.coordination.query.AgentNamePattern;
import org.openmft.coordination.query.MonitorDirectory;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.MonitorCondition;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.MonitorListing;

import ch.qos.logback.classic.Level;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code mft monitor list} (fteListMonitors): the resource monitors as their agents' retained
 * listings on the coordination queue manager describe them ({@code SYSTEM.FTE/monitors/<agent>/
 * <monitor>}, MonitorList.xsd; IBM has no command message for this either), filtered by agent and
 * monitor name patterns; {@code -v} adds each monitor's status and configuration, {@code -ox}
 * exports one monitor's definition as the Monitor.xsd document {@code fteCreateMonitor -ix}
 * imports, and {@code -od} every selected one, a file each.
 */
@Command(name = "list", aliases = "fteListMonitors", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"List resource monitors from the listings their agents publish on the coordination queue"
                + " manager (fteListMonitors, IBM's flags).",
                "-ox writes one monitor's definition (with -ma and -mn) as fteCreateMonitor -ix imports it; -od"
                        + " writes each selected monitor to DIR/<monitor>.xml, with \\ / : < > \" | in the name"
                        + " written as %5C %2F %3A %3C %3E %22 %7C."},
        footer = {"", "Examples:",
                "  fteListMonitors",
                "  fteListMonitors -ma SRC -mn \"INV*\" -v",
                "  fteListMonitors -ma SRC -mn INVOICES -ox INVOICES.xml",
                "  fteListMonitors -od /tmp/monitors",
                "", "Exit codes: 0 listed (also when nothing matches), 1 refused, 75 coordination queue manager"
                        + " unavailable, 78 not configured."})
final class ListMonitorsCommand implements Callable<Integer> {
    /** IBM's message when nothing matches. */
    static final String NO_MONITORS = "BFGCL0014W: No monitors exist that match the current selection criteria.";

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "The OpenMFT data directory (default: $OPENMFT_DATA, else ~/.openmft).")
    Path dataDir;
    @Option(names = "-p", description = "Configuration options set: the coordination queue manager.")
    String configurationOptions;
    @Option(names = "-ma", paramLabel = "PATTERN", description = "Agents whose monitors are listed (* and ?).")
    String agentPattern;
    @Option(names = "-mn", paramLabel = "PATTERN", description = "Monitors listed (* and ?).") String namePattern;
    @Option(names = "-v", description = "Verbose: each monitor's status, resource, poll interval, batch size and"
            + " conditions.") boolean verbose;
    @Option(names = "-ox", paramLabel = "FILE", description = "Write the one selected monitor's definition to FILE"
            + " (needs -ma and -mn).") Path exportFile;
    @Option(names = "-od", paramLabel = "DIR", description = "Write each selected monitor's definition to a file"
            + " in DIR.") Path exportDirectory;

    @Override
    public Integer call() throws Exception {
        LogSetup.consoleLevel(Level.WARN);
        if (exportFile != null && exportDirectory != null) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -ox and -od cannot be used together");
        }
        if (exportFile != null && (agentPattern == null || namePattern == null)) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -ox needs -ma and -mn naming one monitor");
        }
        GlobalOptions global = new GlobalOptions();
        global.dataDir = dataDir;
        DataDirectory dd = global.dataDirectory();
        CoordinationConfig config = AgentQueryCommands.runningCoordination(dd,
                global.configurationOptions(configurationOptions));
        AgentNamePattern agents = AgentNamePattern.of(agentPattern);
        AgentNamePattern names = AgentNamePattern.of(namePattern);
        List<MonitorListing> selected = new ArrayList<>();
        for (MonitorListing l : MonitorDirectory.of(QueueManagerConnector.forCommand(config.endpoint(),
                dd.qmgrsDir(), null)).read()) {
            if (agents.matches(l.agent()) && names.matches(l.name())) {
                selected.add(l);
            }
        }
        if (exportFile != null) {
            return exportOne(selected);
        }
        if (exportDirectory != null) {
            return exportAll(selected);
        }
        if (selected.isEmpty()) {
            System.out.println(NO_MONITORS);
            return ExitCodes.OK;
        }
        System.out.print(verbose ? verbose(selected) : table(selected));
        return ExitCodes.OK;
    }

    private int exportOne(List<MonitorListing> selected) throws Exception {
        if (selected.size() != 1) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -ox exports one monitor, but " + selected.size()
                    + " match -ma " + agentPattern + " -mn " + namePattern + "; nothing was written");
        }
        write(exportFile, selected.get(0));
        System.out.println("The definition of monitor " + selected.get(0).name() + " was written to " + exportFile
                + ".");
        return ExitCodes.OK;
    }

    private int exportAll(List<MonitorListing> selected) throws Exception {
        if (selected.isEmpty()) {
            System.out.println(NO_MONITORS);
            return ExitCodes.OK;
        }
        Map<String, MonitorListing> files = new LinkedHashMap<>();
        for (MonitorListing l : selected) {
            MonitorListing other = files.put(fileName(l.name()), l);
            if (other != null) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: monitor " + l.name() + " exists on agents "
                        + other.agent() + " and " + l.agent() + " and both would be written to "
                        + exportDirectory.resolve(fileName(l.name())) + "; select one agent with -ma; nothing was"
                        + " written");
            }
        }
        Files.createDirectories(exportDirectory);
        for (Map.Entry<String, MonitorListing> e : files.entrySet()) {
            write(exportDirectory.resolve(e.getKey()), e.getValue());
        }
        System.out.println(files.size() + " monitor definition(s) written to " + exportDirectory + ".");
        return ExitCodes.OK;
    }

    private static void write(Path file, MonitorListing listing) throws java.io.IOException {
        Files.writeString(file, new DocumentWriter().write(listing.definition()), StandardCharsets.UTF_8);
    }

    /** IBM's file name for a monitor under -od: the characters file systems refuse, escaped. */
    static String fileName(String monitor) {
        StringBuilder out = new StringBuilder();
        for (char c : monitor.toCharArray()) {
            switch (c) {
                case '\\' -> out.append("%5C");
                case '/' -> out.append("%2F");
                case ':' -> out.append("%3A");
                case '<' -> out.append("%3C");
                case '>' -> out.append("%3E");
                case '"' -> out.append("%22");
                case '|' -> out.append("%7C");
                default -> out.append(c);
            }
        }
        return out.append(".xml").toString();
    }

    private static String table(List<MonitorListing> selected) {
        int agentWidth = Math.max("Agent Name:".length(), selected.stream().mapToInt(l -> l.agent().length()).max()
                .orElse(0)) + 3;
        int nameWidth = Math.max("Monitor Name:".length(), selected.stream().mapToInt(l -> l.name().length()).max()
                .orElse(0)) + 3;
        String row = "%-" + agentWidth + "s%-" + nameWidth + "s%s%n";
        StringBuilder out = new StringBuilder(String.format(row, "Agent Name:", "Monitor Name:", "Resource Type:"));
        for (MonitorListing l : selected) {
            out.append(String.format(row, l.agent(), l.name(), resourceType(l.definition())));
        }
        return out.toString();
    }

    private static String verbose(List<MonitorListing> selected) {
        StringBuilder out = new StringBuilder();
        for (MonitorListing l : selected) {
            MonitorDefinition m = l.definition();
            out.append("Monitor Information:\n");
            field(out, "Name:", m.name());
            field(out, "Agent:", l.agent());
            field(out, "Status:", l.started() ? "Started" : "Stopped");
            field(out, "Resource Type:", resourceType(m));
            field(out, "Resource:", m.queueMonitor() ? m.queue() : m.directory());
            field(out, "Poll interval:", m.pollInterval().toString());
            field(out, "Batch size:", Integer.toString(m.batchSize()));
            for (MonitorCondition c : m.conditions()) {
                field(out, "Condition:", condition(c));
                if (c.pattern() != null) {
                    field(out, "Pattern:", pattern(c.pattern()));
                }
                if (c.exclude() != null) {
                    field(out, "Exclude:", pattern(c.exclude()));
                }
            }
            if (m.triggerContent() != null) {
                field(out, "Trigger content:", m.triggerContent().regex() == null ? "source[,destination] per line"
                        : m.triggerContent().regex() + " (" + m.triggerContent().captureOrder() + ")");
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static void field(StringBuilder out, String label, String value) {
        out.append(String.format("    %-21s%s%n", label, value));
    }

    private static String resourceType(MonitorDefinition m) {
        return m.queueMonitor() ? "Queue" : "Directory";
    }

    private static String condition(MonitorCondition c) {
        if (c instanceof MonitorCondition.QueueNotEmpty) {
            return "Queue Not Empty";
        }
        if (c instanceof MonitorCondition.CompleteGroups) {
            return "Complete Groups";
        }
        if (c instanceof MonitorCondition.FileNoMatch) {
            return "No Match";
        }
        if (c instanceof MonitorCondition.FileSizeSame same) {
            return "No Size Change (" + same.polls() + " polls)";
        }
        if (c instanceof MonitorCondition.FileSize size) {
            return "File Size >= " + size.amount() + " " + size.units().name();
        }
        return "Match";
    }

    private static String pattern(MonitorCondition.FilePattern p) {
        return p.text() + (p.regex() ? " (regex)" : " (wildcard)");
    }
}
