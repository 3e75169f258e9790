package org.openmft.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

import org.openmft.agent.config.DataDirectory;
import org.openmft.coordination.template.TemplateStore;
import org.openmft.xml.TemplateWriter;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferTemplate;

import ch.qos.logback.classic.Level;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mft template} (IBM's fteCreateTemplate, fteListTemplates, fteDeleteTemplates): transfer
 * templates kept where IBM keeps them, as retained publications on the coordination queue manager
 * ({@link TemplateStore}). A template is sent as a transfer with {@code fteCreateTransfer
 * --template NAME} (see {@link TemplateFlags}).
 */
@Command(name = "template", mixinStandardHelpOptions = true,
        description = "Create, list and delete transfer templates on the coordination queue manager.",
        subcommands = {TemplateCommands.Create.class, TemplateCommands.ListTemplates.class,
                TemplateCommands.Delete.class})
final class TemplateCommands {
    /** A template name that can be a file name as it is (for -x). */
    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}");

    private TemplateCommands() {
    }

    /**
     * The templates of a coordination queue manager, once it is known to run.
     *
     * @throws CommandFailure 78 without coordination.properties, 75 when it is not running
     */
    static TemplateStore store(DataDirectory dd, String coordination) throws Exception {
        return TemplateStore.forCoordination(AgentQueryCommands.runningCoordination(dd, coordination), dd.qmgrsDir());
    }

    /** Prints the skipped publications as warnings: one bad template hides nothing else. */
    private static void warnSkipped(TemplateStore.Listing listing, PrintWriter err) {
        for (String skipped : listing.skipped()) {
            err.println("Warning: skipped the retained publication " + skipped);
        }
        err.flush();
    }

    /**
     * Gives the template command fteCreateTransfer's options, bound to its
     * {@link Create#flags}: the definitions (names, types, descriptions) are
     * {@link CreateTransferCommand}'s, not copies. What only sending means (-w, -gt,
     * --no-progress, --template) stays out; the help options are the template command's own.
     */
    static final class TransferFlags implements CommandLine.IModelTransformer {
        private static final Set<String> LEFT_OUT = Set.of("-w", "-gt", "--no-progress", "--template", "-h", "--help",
                "-V", "--version");
        private static final Map<String, String> OPTIONAL_HERE = Map.of(
                "-sa", "Source agent (any case); may be left for fteCreateTransfer --template to give.",
                "-da", "Destination agent (any case); may be left for fteCreateTransfer --template to give.");

        @Override
        public CommandSpec transform(CommandSpec spec) {
            Create create = (Create) spec.userObject();
            CommandSpec transfer = CommandSpec.forAnnotatedObject(create.flags);
            for (OptionSpec o : transfer.options()) {
                if (java.util.Arrays.stream(o.names()).anyMatch(n -> LEFT_OUT.contains(n)
                        || spec.optionsMap().containsKey(n))) {
                    continue; // Picocli transforms the command once per name (create, fteCreateTemplate).
                }
                OptionSpec.Builder copy = OptionSpec.builder(o);
                if (OPTIONAL_HERE.containsKey(o.longestName())) {
                    copy.description(OPTIONAL_HERE.get(o.longestName())); // a template may leave them out
                }
                spec.addOption(copy.build());
            }
            // IBM's flags not supported yet, refused by name rather than taken for clusters (-tr as -t r).
            new CreateTransferCommand.UnsupportedFlags().transform(spec);
            if (spec.positionalParameters().isEmpty()) {
                for (PositionalParamSpec p : transfer.positionalParameters()) {
                    spec.addPositional(PositionalParamSpec.builder(p).build());
                }
            }
            return spec;
        }
    }

    @Command(name = "create", aliases = "fteCreateTemplate", mixinStandardHelpOptions = true, sortOptions = false,
            modelTransformer = TransferFlags.class,
            description = {"Create a transfer template on the coordination queue manager (fteCreateTemplate):"
                    + " fteCreateTransfer's flags, kept under a name (-tn) as a retained publication on"
                    + " SYSTEM.FTE/Templates/<id>, where IBM MFT keeps templates.",
                    "Only -tn is required; sources and a destination go together. Send a template with"
                            + " 'fteCreateTransfer --template NAME', giving flags to change its values."},
            footer = {"", "Examples:",
                    "  fteCreateTemplate -tn NIGHTLY -sa AGENT1 -sm QM1 -da AGENT2 -dm QM1 \\",
                    "      -dd /data/in -de overwrite -jn NIGHTLY \"/data/out/*.csv\"",
                    "  fteCreateTemplate -tn NIGHTLY -f -sa AGENT1 -da AGENT2 -dd /archive \\",
                    "      /data/out/a.csv          (-f replaces the template NIGHTLY)",
                    "  fteCreateTemplate -tn ORDERS -sa AGENT1 -da AGENT2 -df /in/orders.txt -sqgi -sqwt 30 -sq ORDERS",
                    "      (message to file: the -sq flags are fteCreateTransfer's, checked the same way)",
                    "  fteCreateTransfer --template NIGHTLY -de error -w",
                    "",
                    "Exit codes: 0 created, 1 wrong command line or the name exists (without -f), 75 coordination"
                            + " queue manager unavailable, 78 configuration problem."})
    static final class Create implements Callable<Integer> {
        @Spec CommandSpec spec;
        /** Holds fteCreateTransfer's flags, which {@link TransferFlags} binds to this command. */
        final CreateTransferCommand flags = new CreateTransferCommand();
        @Option(names = "-tn", required = true, paramLabel = "NAME", description = "The template's name (required;"
                + " no * or ?).", order = -2)
        String name;
        @Option(names = "-f", description = "Replace the template of this name if there is one.", order = -1)
        boolean force;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(flags.global);
            TransferTemplate template = TemplateFlags.creation(flags, spec.commandLine().getParseResult(), name);
            DataDirectory dd = flags.global.dataDirectory();
            String coordination = flags.global.configurationOptions(flags.configurationOptions);
            TemplateStore store = store(dd, coordination);
            TemplateStore.Listing listing = store.read();
            PrintWriter out = spec.commandLine().getOut();
            warnSkipped(listing, spec.commandLine().getErr());
            List<TransferTemplate> existing = listing.named(template.name());
            if (!existing.isEmpty() && !force) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: a template named " + template.name()
                        + " already exists on " + store.description() + ": use -f to replace it; nothing was saved");
            }
            if (!existing.isEmpty()) {
                // Published under the same id, the new document replaces the old one in one step.
                template = template.withId(existing.get(0).id());
            }
            store.save(template);
            for (TransferTemplate duplicate : existing.subList(Math.min(1, existing.size()), existing.size())) {
                store.delete(duplicate);
            }
            out.println("Template " + template.name() + " " + (existing.isEmpty() ? "created" : "replaced")
                    + " (id " + template.id() + ") on " + store.description() + ".");
            out.flush();
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", aliases = "fteListTemplates", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"List the transfer templates of the coordination queue manager (fteListTemplates): their"
                    + " names; with -v a summary of each; with -x -o DIR each one's XML written to DIR/<name>.xml"
                    + " (<id>.xml for a name that is not a plain file name).",
                    "A retained publication that is not a valid template is skipped with a warning naming its"
                            + " topic."},
            footer = {"", "Examples:", "  fteListTemplates", "  fteListTemplates -v 'NIGHT*'",
                    "  fteListTemplates -x -o exported -f NIGHTLY"})
    static final class ListTemplates implements Callable<Integer> {
        @Spec CommandSpec spec;
        @CommandLine.Mixin AgentQueryCommands.Options options;
        @Option(names = {"-v", "--verbose"}, description = "A summary of each template (and a stack trace on"
                + " failure).")
        boolean verbose;
        @Option(names = "-x", description = "Write each template's XML into the directory of -o.") boolean xml;
        @Option(names = "-o", paramLabel = "DIR", description = "With -x: the directory to write to.") Path output;
        @Option(names = "-f", description = "With -x: overwrite files that exist.") boolean force;
        @Parameters(arity = "0..*", paramLabel = "NAME", description = "Template names; * matches any characters,"
                + " ? one; any case (default: all).")
        List<String> names = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            if (xml != (output != null)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + (xml ? "-x needs -o DIR, the directory"
                        + " to write the templates to" : "-o applies to -x only: add -x"));
            }
            LogSetup.consoleLevel(Level.WARN);
            GlobalOptions global = options.global();
            TemplateStore store = store(global.dataDirectory(), global.configurationOptions(
                    options.configurationOptions));
            TemplateStore.Listing listing = store.read();
            PrintWriter out = spec.commandLine().getOut();
            warnSkipped(listing, spec.commandLine().getErr());
            List<TransferTemplate> templates = listing.matching(names);
            if (xml) {
                return export(templates, out);
            }
            if (options.json) {
                Listing.json(out, templates.stream().map(TemplateCommands::json).toList());
            } else if (templates.isEmpty()) {
                out.println("No templates exist that match the current selection criteria.");
            } else if (!verbose) {
                templates.forEach(t -> out.println(t.name()));
            } else {
                List<List<String>> rows = new ArrayList<>();
                for (TransferTemplate t : templates) {
                    rows.add(List.of(t.name(), agent(t.sourceAgent(), t.sourceQMgr()),
                            agent(t.destinationAgent(), t.destinationQMgr()), files(t), Integer.toString(t.priority()),
                            t.jobName() == null ? "-" : t.jobName()));
                }
                Listing.table(out, List.of("Template Name:", "Source Agent:", "Destination Agent:", "Files:",
                        "Priority:", "Job Name:"), rows);
            }
            out.flush();
            return ExitCodes.OK;
        }

        /** Writes every file or none: existing files are refused (without -f) before anything is written. */
        private int export(List<TransferTemplate> templates, PrintWriter out) throws CommandFailure {
            Map<Path, TransferTemplate> files = new LinkedHashMap<>();
            Set<String> taken = new HashSet<>();
            for (TransferTemplate t : templates) {
                String base = FILE_NAME.matcher(t.name()).matches() && taken.add(t.name().toLowerCase(
                        java.util.Locale.ROOT)) ? t.name() : t.id();
                files.put(output.resolve(base + ".xml"), t);
            }
            if (!Files.isDirectory(output)) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -o " + output + " is not a directory");
            }
            if (!force) {
                for (Path file : files.keySet()) {
                    if (Files.exists(file)) {
                        throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + file + " exists: use -f to"
                                + " overwrite it; nothing was written");
                    }
                }
            }
            TemplateWriter writer = new TemplateWriter();
            for (Map.Entry<Path, TransferTemplate> e : files.entrySet()) {
                write(e.getKey(), writer.write(e.getValue()));
                out.println("Template " + e.getValue().name() + " written to " + e.getKey());
            }
            if (files.isEmpty()) {
                out.println("No templates exist that match the current selection criteria.");
            }
            out.flush();
            return ExitCodes.OK;
        }

        private static void write(Path file, String content) throws CommandFailure {
            try {
                Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), "." + file.getFileName(), ".tmp");
                try {
                    Files.writeString(tmp, content, StandardCharsets.UTF_8);
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } finally {
                    Files.deleteIfExists(tmp);
                }
            } catch (IOException e) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + file + " cannot be written: " + e);
            }
        }
    }

    @Command(name = "delete", aliases = "fteDeleteTemplates", mixinStandardHelpOptions = true,
            description = {"Delete transfer templates from the coordination queue manager (fteDeleteTemplates):"
                    + " each one's retained publication is replaced by an empty one, as IBM MFT does.",
                    "Names are exact, as fteListTemplates shows them. When one does not exist nothing is deleted"
                            + " and the exit code is 1."},
            footer = {"", "Examples:", "  fteDeleteTemplates NIGHTLY", "  fteDeleteTemplates -p QM1 NIGHTLY WEEKLY"})
    static final class Delete implements Callable<Integer> {
        @Spec CommandSpec spec;
        @CommandLine.Mixin AgentQueryCommands.Options options;
        @Option(names = {"-v", "--verbose"}, description = "Print a stack trace on failure.") boolean verbose;
        @Parameters(arity = "1..*", paramLabel = "NAME", description = "Template names.")
        List<String> names = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            LogSetup.consoleLevel(Level.WARN);
            GlobalOptions global = options.global();
            TemplateStore store = store(global.dataDirectory(), global.configurationOptions(
                    options.configurationOptions));
            TemplateStore.Listing listing = store.read();
            warnSkipped(listing, spec.commandLine().getErr());
            List<String> missing = names.stream().map(String::strip).filter(n -> listing.named(n).isEmpty())
                    .distinct().toList();
            if (!missing.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + (missing.size() == 1 ? "there is no"
                        + " template " : "there are no templates ") + String.join(", ", missing) + " on "
                        + store.description() + " ('fteListTemplates' lists them); nothing was deleted");
            }
            PrintWriter out = spec.commandLine().getOut();
            for (String name : new java.util.LinkedHashSet<>(names.stream().map(String::strip).toList())) {
                for (TransferTemplate t : listing.named(name)) {
                    store.delete(t);
                    out.println("Template " + t.name() + " (id " + t.id() + ") deleted from " + store.description()
                            + ".");
                }
            }
            out.flush();
            return ExitCodes.OK;
        }
    }

    private static String agent(String agent, String qmgr) {
        return agent == null ? "-" : qmgr == null ? agent : agent + "@" + qmgr;
    }

    private static String files(TransferTemplate t) {
        List<TransferItem> items = t.items();
        if (items.isEmpty()) {
            return "-";
        }
        TransferItem first = items.get(0);
        return first.source().path() + " -> " + first.destination().path()
                + (items.size() > 1 ? " (+" + (items.size() - 1) + " more)" : "");
    }

    private static Map<String, Object> json(TransferTemplate t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", t.name());
        m.put("id", t.id());
        m.put("sourceAgent", t.sourceAgent());
        m.put("sourceQMgr", t.sourceQMgr());
        m.put("destinationAgent", t.destinationAgent());
        m.put("destinationQMgr", t.destinationQMgr());
        List<Map<String, Object>> items = new ArrayList<>();
        for (TransferItem i : t.items()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("source", i.source().path());
            item.put("destination", i.destination().path());
            item.put("destinationType", i.destination().queue() != null ? "queue" : i.destination().type().xmlValue());
            item.put("exist", i.destination().exist().xmlValue());
            item.put("disposition", i.source().disposition().xmlValue());
            item.put("mode", i.mode().xmlValue());
            item.put("checksumMethod", i.checksumMethod().xmlValue());
            items.add(item);
        }
        m.put("items", items);
        m.put("priority", t.priority());
        m.put("recoveryTimeout", t.recoveryTimeoutSeconds());
        m.put("metadata", t.metadata());
        m.put("jobName", t.jobName());
        return m;
    }
}
