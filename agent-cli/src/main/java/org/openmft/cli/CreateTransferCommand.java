package org.openmft.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;

import org.openmft.client.Acknowledgement;
import org.openmft.client.ClientSettings;
import org.openmft.client.ConnectionListener;
import org.openmft.client.ItemOutcome;
import org.openmft.client.MftClient;
import org.openmft.client.ProgressEvent;
import org.openmft.client.ProgressListener;
import org.openmft.client.TransferHandle;
import org.openmft.client.TransferOutcome;
import org.openmft.client.TransferSpec;
import org.openmft.client.internal.CommandChannel;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.lifecycle.AgentThreads;
import org.openmft.xml.AgentRef;
import org.openmft.xml.CallSpecs;
import org.openmft.xml.CallType;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.LineEnding;
import org.openmft.xml.Mode;
import org.openmft.xml.Originator;
import org.openmft.xml.ProgramCall;
import org.openmft.xml.ProgramCalls;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferTrigger;
import org.openmft.xml.TransferSet;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code mft transfer create} (IBM's {@code fteCreateTransfer}, reference §6): builds a transfer
 * request from IBM's flags, puts it on the source agent's COMMAND queue through the command queue
 * manager (with the client API, {@link MftClient}, as an application would) and prints the transfer ID; with {@code -w} it waits for the outcome, showing the
 * transfer's live progress publications, and exits with the transfer's result code.
 *
 * <p>The command line is checked whole before anything is connected to: a wrong or missing flag
 * is one line naming it and exit code 1, with nothing put on any queue. IBM flags for what OpenMFT
 * does not do yet (queues, data sets, program calls ...) are recognised and
 * refused by name ({@link #UNSUPPORTED}) rather than taken for unknown options.
 */
@Command(name = "create", aliases = "fteCreateTransfer", mixinStandardHelpOptions = true, sortOptions = false,
        modelTransformer = CreateTransferCommand.UnsupportedFlags.class,
        description = {"Create a file transfer with IBM MFT's fteCreateTransfer flags: the request goes to the"
                + " source agent's COMMAND queue through the command queue manager (command.properties) and the"
                + " transfer ID is printed.",
                "With -w, wait for the outcome: the exit code is the transfer's result code (0 success, 20 partly"
                        + " successful, 40 failed, 41 cancelled, 69 recovery timed out ...), 2 when the wait ran"
                        + " out. While waiting, the agent's progress publications are shown: a bar redrawn in place"
                        + " on a terminal, a plain line every few seconds otherwise (environment OPENMFT_PROGRESS="
                        + "bar|lines|off to choose).",
                "Sources come last: files, directories (with -r) or wildcards (* and ? in the last part), paths"
                        + " as the source agent sees them; quote wildcards for the agent to expand them, or let the"
                        + " shell expand them.", ""},
        footer = {"", "Examples:",
                "  fteCreateTransfer -sa AGENT1 -sm QM1 -da AGENT2 -dm QM1 -dd /data/in \\",
                "      -de overwrite \"/data/out/*.csv\" -w",
                "  mft transfer create -sa AGENT1 -da AGENT2 -df /bank/SUMMARY.TXT \\",
                "      -t text -dce IBM-1047 -dle CRLF /data/summary.txt",
                "  fteCreateTransfer -sa AGENT1 -da AGENT2 -dd /archive -r -sd delete \\",
                "      -jn NIGHTLY -md batch=42,owner=ops /data/outbox -w 3600",
                "  fteCreateTransfer -sa AGENT1 -da AGENT2 -dd /in -presrc \"check.sh(/data/out)\" \\",
                "      -postdst \"load.sh(/in,nightly),2,30,0|4\" /data/out/orders.csv",
                "      (programs from each agent's commandPath; the call is name(args),retries,wait,successRC)",
                "  fteCreateTransfer -sa AGENT1 -da AGENT2 -td payroll-items.xml -pr 5 -w",
                "  fteCreateTransfer -sa AGENT1 -da AGENT2 -dd /in -gt request.xml /out/a.pdf",
                "      (writes the request; send it later with 'mft transfer submit request.xml')",
                "  fteCreateTransfer -sa AGENT1 -da AGENT2 -dd /in -tb UTC -ss 2030-01-01T02:00 \\",
                "      -oi days -of 1 -oc 30 -tr file=exist,/out/ready.flag /out/report.csv",
                "      (a schedule, one transfer a day for 30 days, each when the flag file exists)",
                "",
                "  fteCreateTransfer -sa AGENT1 -da AGENT2 -dq PAYMENTS@QM2 -qs 64K -qmp true /data/out/batch.dat",
                "      (file to message: 64 KiB messages in one group, IBM's usr.WMQFTE* properties on the first)",
                "",
                "  fteCreateTransfer -sa AGENT1 -da AGENT2 -df /in/orders.txt -sqgi -sqwt 30 -sqdt \\n -sq ORDERS",
                "      (message to file: the first complete group on ORDERS, a new line after each message; the",
                "       messages leave the queue once AGENT2 has the file)",
                "",
                "Not supported yet, refused with exit code 1: -ds -dp (data set destinations),"
                        + " Ant-script and JCL calls, -dtr -skeep, -cdNode, -mquserid -mqpassword.",
                "",
                "Exit codes: 0 request issued (without -w) or transfer successful, 1 wrong command line or"
                        + " request refused, 2 timed out waiting for the outcome, 3 the agent did not acknowledge,"
                        + " 20/40/41/69... the transfer's result code, 75 queue manager unavailable, 78"
                        + " configuration problem."})
final class CreateTransferCommand implements Callable<Integer> {
    /** Environment variable choosing the progress display: bar, lines, off (or auto). */
    static final String PROGRESS_ENV = "OPENMFT_PROGRESS";
    /** The wait of {@code -w} without a value: IBM waits for ever; a century will do. */
    static final Duration FOREVER = Duration.ofDays(36_500);

    /**
     * IBM fteCreateTransfer flags that OpenMFT does not implement yet, and what they are for. They
     * are accepted by the parser (with an optional value, so that their arguments are not taken
     * for sources) and refused before anything else is checked.
     */
    static final Map<String, String> UNSUPPORTED = unsupported();

    private static Map<String, String> unsupported() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("-ds", "a data set destination");
        m.put("-dp", "a partitioned data set destination");
        m.put("-dtr", "truncating records of a record-oriented destination");
        m.put("-skeep", "keeping trailing spaces of record-oriented sources");
        m.put("-cdNode", "Connect:Direct bridge transfers");
        m.put("-mquserid", "a user id for the command queue manager");
        m.put("-mqpassword", "a password for the command queue manager");
        return java.util.Collections.unmodifiableMap(m);
    }

    /** Adds {@link #UNSUPPORTED} to the command's options, hidden from the option list. */
    static final class UnsupportedFlags implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            for (Map.Entry<String, String> e : UNSUPPORTED.entrySet()) {
                if (spec.optionsMap().containsKey(e.getKey())) {
                    continue; // Picocli transforms the command once per name (create, fteCreateTransfer).
                }
                spec.addOption(OptionSpec.builder(e.getKey()).arity("0..1").hidden(true).type(String.class)
                        .description("Not supported yet: " + e.getValue() + ".").build());
            }
            return spec;
        }
    }

    @Spec CommandSpec spec;
    @Mixin GlobalOptions global;
    @Mixin QueueDestinationOptions queueDestination = new QueueDestinationOptions();
    @Mixin QueueSourceOptions queueSource = new QueueSourceOptions();

    @Option(names = "-sa", paramLabel = "AGENT", description = "Source agent (required; any case).")
    String sourceAgent;
    @Option(names = "-sm", paramLabel = "QMGR", description = "The source agent's queue manager.")
    String sourceQmgr;
    @Option(names = "-da", paramLabel = "AGENT", description = "Destination agent (required; any case).")
    String destinationAgent;
    @Option(names = "-dm", paramLabel = "QMGR", description = "The destination agent's queue manager.")
    String destinationQmgr;
    @Option(names = "-df", paramLabel = "FILE", description = "Destination file, for a single source file.")
    String destinationFile;
    @Option(names = "-dd", paramLabel = "DIR", description = "Destination directory; each source file's name is"
            + " appended.")
    String destinationDirectory;
    @Option(names = "-de", paramLabel = "error|overwrite", description = "When a destination file exists: fail the"
            + " item (error, the default) or replace it.")
    String exist;
    @Option(names = "-sd", paramLabel = "leave|delete", description = "What happens to each source file after it"
            + " is transferred (default leave).")
    String disposition;
    @Option(names = "-r", description = "Transfer directories with everything below them.")
    boolean recursive;
    @Option(names = "-t", paramLabel = "binary|text", description = "Transfer mode (default binary); text converts"
            + " encodings and line endings.")
    String mode;
    @Option(names = "-cs", paramLabel = "MD5|SHA-256|none", description = "Checksum (default MD5, IBM's;"
            + " SHA-256 is OpenMFT's own, collision resistant).")
    String checksum;
    @Option(names = "-pr", paramLabel = "0-9", description = "Priority (default 0).")
    String priority;
    @Option(names = "-jn", paramLabel = "NAME", description = "Job name, shown in the transfer log.")
    String jobName;
    @Option(names = "-md", paramLabel = "KEY=VALUE[,KEY=VALUE...]", description = "Metadata for the transfer log.")
    String metadata;
    @Option(names = "-rt", paramLabel = "SECONDS", description = "Recovery timeout: -1 recover for ever, 0 not at"
            + " all, or a number of seconds (default: the source agent's transferRecoveryTimeout).")
    String recoveryTimeout;
    @Option(names = "-sce", paramLabel = "ENCODING", description = "Text mode: the source files' encoding.")
    String sourceEncoding;
    @Option(names = "-dce", paramLabel = "ENCODING", description = "Text mode: the destination files' encoding.")
    String destinationEncoding;
    @Option(names = "-dle", paramLabel = "LF|CRLF", description = "Text mode: the destination's line ending.")
    String lineEnding;
    @Option(names = "-w", arity = "0..1", fallbackValue = "forever", paramLabel = "SECONDS",
            description = "Wait for the outcome, at most SECONDS (without a value, for ever), showing progress.")
    String waitValue;
    @Option(names = "-gt", paramLabel = "FILE", description = "Write the request XML to FILE instead of sending it.")
    Path generateTo;
    @Option(names = "-td", paramLabel = "FILE", description = "Transfer definition file: IBM's"
            + " <transferSpecifications> document with the items (instead of sources and -df/-dd).")
    Path definitionFile;
    @Option(names = "-presrc", paramLabel = "CALL", description = "Program the source agent runs before the"
            + " transfer: [executable:]name[(arg1,arg2...)][,[retrycount][,[retrywait][,successrc]]], from its"
            + " commandPath.")
    String preSourceCall;
    @Option(names = "-postsrc", paramLabel = "CALL", description = "Program the source agent runs after a"
            + " successful or partly successful transfer whose post-destination call succeeded.")
    String postSourceCall;
    @Option(names = "-predst", paramLabel = "CALL", description = "Program the destination agent runs before the"
            + " transfer.")
    String preDestinationCall;
    @Option(names = "-postdst", paramLabel = "CALL", description = "Program the destination agent runs after a"
            + " successful or partly successful transfer.")
    String postDestinationCall;
    @Option(names = "-tr", paramLabel = "file=exist|file!=exist|filesize>=N[B|KB|MB|GB],NAME[,NAME...]",
            description = "Trigger: the source agent runs the transfer only when one NAME meets the condition,"
                    + " else it ends with result 42.")
    String trigger;
    @Option(names = "-tl", paramLabel = "yes|no", description = "Publish a transfer log when the trigger is not met"
            + " (default yes).")
    String triggerLog;
    @Option(names = "-tb", paramLabel = "admin|source|UTC", description = "Time base of -ss and -es (default admin:"
            + " this host's time zone).")
    String timeBase;
    @Option(names = "-ss", paramLabel = "yyyy-MM-ddThh:mm|hh:mm", description = "Schedule: start the transfer then"
            + " (hh:mm: its next occurrence); the source agent keeps the schedule.")
    String scheduleStart;
    @Option(names = "-oi", paramLabel = "minutes|hours|days|weeks|months|years", description = "Repeat the"
            + " scheduled transfer every -of of these units.")
    String repeatUnit;
    @Option(names = "-of", paramLabel = "N", description = "Units between repeats (default 1).")
    String repeatFrequency;
    @Option(names = "-oc", paramLabel = "N", description = "Occurrences in all (not with -es; neither: until deleted).")
    String repeatCount;
    @Option(names = "-es", paramLabel = "yyyy-MM-ddThh:mm|hh:mm", description = "No occurrence after this time.")
    String scheduleEnd;
    @Option(names = "-p", paramLabel = "NAME", description = "Configuration options set (default: the default one).")
    String configurationOptions;
    @Option(names = "--no-progress", description = "With -w, show no progress while waiting.")
    boolean noProgress;
    @Option(names = "--template", paramLabel = "NAME", description = "OpenMFT's: start from the transfer template"
            + " NAME (fteCreateTemplate) on the coordination queue manager; the flags given override its values.")
    String template;
    @Parameters(paramLabel = "SOURCE", arity = "0..*", description = "Source files, directories or wildcards.")
    List<String> sources = new ArrayList<>();

    /** The wait of -w, checked: null without -w. */
    private Duration waitFor;

    @Override
    public Integer call() throws Exception {
        Mft.prepare(global);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        refuseUnsupported();
        readWait();
        if (generateTo != null && waitFor != null) {
            throw usage("-w cannot be used with -gt: with -gt nothing is sent");
        }
        TransferRequest request = template == null ? request(CommandChannel.originator())
                : TemplateFlags.submission(this, CommandChannel.originator());
        if (request.schedule() != null && waitFor != null) {
            throw usage("-w cannot be used with -ss: a scheduled transfer has no outcome to wait for now");
        }
        if (generateTo != null) {
            write(request, generateTo);
            out.println("The transfer request was written to " + generateTo + "; nothing was sent. Send it with"
                    + " 'mft transfer submit " + generateTo + "'.");
            out.flush();
            return ExitCodes.OK;
        }
        ProgressRenderer.Style style = waitFor == null ? ProgressRenderer.Style.OFF : progressStyle();
        DataDirectory dd = global.dataDirectory();
        String coordination = global.configurationOptions(configurationOptions);
        // Notices about the connection go to stderr, past the progress display once there is one.
        java.util.concurrent.atomic.AtomicReference<ProgressRenderer> shown =
                new java.util.concurrent.atomic.AtomicReference<>();
        ConnectionListener notices = text -> {
            ProgressRenderer r = shown.get();
            if (r != null) {
                r.warn(err, text);
            } else {
                out.flush();
                err.println(text);
                err.flush();
            }
        };
        MftClient client = MftClient.connect(ClientSettings.fromDataDirectory(dd.root(), coordination), notices);
        // The command line's request, as IBM's document: the client submits documents as applications do.
        TransferSpec document = TransferSpec.fromXml(new DocumentWriter().write(request));
        if (waitFor == null) {
            Acknowledgement a = client.send(document);
            out.println("BFGCL0035I: Transfer request issued. The request ID is: " + a.transferId());
            if (request.schedule() != null && !a.messages().isEmpty()) {
                out.println(String.join("; ", a.messages()));
            }
            out.flush();
            return ExitCodes.OK;
        }
        ProgressRenderer renderer = null;
        Thread estimator = null;
        try {
            ProgressListener listener = null;
            if (style != ProgressRenderer.Style.OFF) {
                ProgressRenderer r = new ProgressRenderer(style, out, Clock.systemDefaultZone(), SourceEstimate.UNKNOWN,
                        terminalWidth());
                renderer = r;
                shown.set(r);
                estimator = estimate(request, r);
                listener = new ProgressListener() {
                    @Override
                    public void onProgress(ProgressEvent event) {
                        r.accept(event);
                    }

                    @Override
                    public void onProgressUnavailable(String reason) {
                        r.note("Progress is unavailable (" + reason + "); waiting for the outcome without it.");
                    }
                };
            }
            try (TransferHandle transfer = client.submit(document, listener)) {
                String id = transfer.transferId();
                out.println("BFGCL0035I: Transfer request issued. The request ID is: " + id);
                out.flush();
                long waitStarted = System.nanoTime();
                Optional<TransferOutcome> outcome = transfer.await(waitFor);
                if (renderer != null) {
                    renderer.finish(outcome.isPresent() && outcome.get().succeeded());
                }
                if (outcome.isEmpty()) {
                    throw noOutcome(id, waitStarted, transfer.lostConnection());
                }
                return printOutcome(outcome.get(), out, err);
            }
        } finally {
            if (estimator != null) {
                estimator.interrupt();
            }
            if (renderer != null) {
                renderer.finish();
            }
        }
    }

    /**
     * The wait ran out (IBM's result 2, "Command timed out waiting for the final status reply"):
     * how long it waited, that the transfer may still be running, and, when the connection to the
     * queue manager was down at the end, since when and why.
     *
     * @param waitStarted the {@link System#nanoTime} at which the wait for the outcome began
     * @param lostConnection since when and why the connection was down at the end, if it was
     */
    static CommandFailure noOutcome(String id, long waitStarted, Optional<String> lostConnection) {
        long waited = Math.round((System.nanoTime() - waitStarted) / 1e9);
        return new CommandFailure(ExitCodes.TIMED_OUT, "BFGCL0253W: No outcome for transfer " + id + " after"
                + " waiting " + waited + " seconds, the limit set by -w; the transfer may still be running"
                + lostConnection.map(why -> " (" + why + ")").orElse("") + ".");
    }

    /** Prints each item's result and the supplements; returns the transfer's result code. */
    private static int printOutcome(TransferOutcome r, PrintWriter out, PrintWriter err) {
        for (ItemOutcome item : r.items()) {
            out.println("  [" + item.resultCode() + "] " + item.source() + " -> "
                    + (item.destination() == null ? "-" : item.destination())
                    + (item.message() == null ? "" : "  " + item.message()));
        }
        String text = String.join("; ", r.messages());
        if (text.isEmpty()) {
            text = "Transfer " + r.transferId() + " ended with result code " + r.resultCode() + ".";
        }
        if (r.resultCode() == 0) {
            out.println(text);
        } else {
            out.flush();
            err.println(text);
        }
        out.flush();
        err.flush();
        return r.resultCode();
    }

    /**
     * Works out the transfer's size on a thread of its own: a large tree under {@code -r} must
     * hold up neither the request nor the outcome. A daemon, so an unfinished walk never keeps
     * the command alive; the estimate counts for nothing once the outcome is in.
     */
    private static Thread estimate(TransferRequest request, ProgressRenderer renderer) {
        List<TransferItem> items = request.transferSet().items();
        Thread t = AgentThreads.forProcess("command").newDaemonThread("source-estimate",
                () -> renderer.estimate(SourceEstimate.of(items)));
        t.start();
        return t;
    }

    /** The request the command line describes, checked; no reply element. */
    TransferRequest request(Originator originator) throws CommandFailure {
        String sa = agentName("-sa", sourceAgent, "the source agent");
        String da = agentName("-da", destinationAgent, "the destination agent");
        AgentRef source = value("-sm", () -> new AgentRef(sa, sourceQmgr));
        AgentRef destination = value("-dm", () -> new AgentRef(da, destinationQmgr));
        List<TransferItem> items = definitionFile != null ? definitionItems() : items();
        int pr = priority == null ? 0 : number("-pr", priority, 0, TransferSet.MAX_PRIORITY);
        Long rt = recoveryTimeout == null ? null : (long) number("-rt", recoveryTimeout, -1, Integer.MAX_VALUE);
        Map<String, String> md = metadata();
        ProgramCalls calls = new ProgramCalls(call("-presrc", preSourceCall), call("-postsrc", postSourceCall),
                call("-predst", preDestinationCall), call("-postdst", postDestinationCall));
        TransferSet set = value("-md", () -> new TransferSet(pr, rt, md, calls, items));
        TransferSchedule schedule = ScheduleTriggerFlags.schedule(scheduleStart, timeBase, repeatUnit, repeatFrequency,
                repeatCount, scheduleEnd, java.time.ZoneId.systemDefault(), Clock.systemUTC());
        TransferTrigger when = ScheduleTriggerFlags.trigger(trigger, triggerLog);
        return value("-jn", () -> new TransferRequest(DocumentWriter.VERSION, originator, source, destination, null,
                set, jobName, schedule, when));
    }

    private List<TransferItem> items() throws CommandFailure {
        if (queueSource.any()) {
            return queueSourceItems();
        }
        if (queueDestination.any()) {
            return queueItems();
        }
        if (destinationFile != null && destinationDirectory != null) {
            throw usage("-df and -dd cannot be used together: give one destination");
        }
        if (destinationFile == null && destinationDirectory == null) {
            throw usage("a destination is required: -df FILE or -dd DIR");
        }
        if (sources.isEmpty()) {
            throw usage("no source file given: sources come last, after the options");
        }
        ExistAction de = choice("-de", exist, ExistAction::fromXml, ExistAction.ERROR);
        Disposition sd = choice("-sd", disposition, Disposition::fromXml, Disposition.LEAVE);
        Mode t = choice("-t", mode, Mode::fromXml, Mode.BINARY);
        ChecksumMethod cs = choice("-cs", checksum, ChecksumMethod::fromXml, ChecksumMethod.MD5);
        LineEnding dle = choice("-dle", lineEnding, LineEnding::fromXml, null);
        if (t != Mode.TEXT) {
            for (String[] textOnly : new String[][] {{"-sce", sourceEncoding}, {"-dce", destinationEncoding},
                    {"-dle", lineEnding}}) {
                if (textOnly[1] != null) {
                    throw usage(textOnly[0] + " applies to text transfers only: add -t text");
                }
            }
        }
        // The records check encodings; checked here first so that the message names the flag.
        String sce = value("-sce", () -> new ItemSource(false, Disposition.LEAVE, "x", sourceEncoding).encoding());
        String dce = value("-dce", () -> new ItemDestination(DestinationType.FILE, ExistAction.ERROR, "x",
                destinationEncoding, null).encoding());
        DestinationType type = destinationFile != null ? DestinationType.FILE : DestinationType.DIRECTORY;
        String flag = destinationFile != null ? "-df" : "-dd";
        String target = destinationFile != null ? destinationFile : destinationDirectory;
        if (type == DestinationType.FILE && sources.size() > 1) {
            throw usage("-df names one destination file, but " + sources.size() + " sources were given: use -dd DIR");
        }
        ItemDestination destination = value(flag, () -> new ItemDestination(type, de, target, dce, dle));
        List<TransferItem> items = new ArrayList<>();
        for (String s : sources) {
            ItemSource src = value("source " + quote(s), () -> new ItemSource(recursive, sd, s, sce));
            if (type == DestinationType.FILE && (src.hasWildcard() || recursive)) {
                throw usage("-df names one destination file, but source " + quote(s)
                        + (recursive ? " is recursive (-r)" : " has a wildcard") + ": use -dd DIR");
            }
            items.add(value("source " + quote(s), () -> new TransferItem(t, cs, src, destination)));
        }
        return items;
    }

    /** Files to a queue (-dq): each source file becomes messages. */
    private List<TransferItem> queueItems() throws CommandFailure {
        for (String[] fileOnly : new String[][] {{"-df", destinationFile}, {"-dd", destinationDirectory},
                {"-de", exist}, {"-dle", lineEnding}}) {
            if (fileOnly[1] != null) {
                throw usage(fileOnly[0] + " cannot be used with -dq: the destination is a queue");
            }
        }
        if (sources.isEmpty()) {
            throw usage("no source file given: sources come last, after the options");
        }
        Disposition sd = choice("-sd", disposition, Disposition::fromXml, Disposition.LEAVE);
        Mode t = choice("-t", mode, Mode::fromXml, Mode.BINARY);
        ChecksumMethod cs = choice("-cs", checksum, ChecksumMethod::fromXml, ChecksumMethod.MD5);
        if (t != Mode.TEXT && (sourceEncoding != null || destinationEncoding != null)) {
            throw usage((sourceEncoding != null ? "-sce" : "-dce") + " applies to text transfers only: add -t text");
        }
        String sce = value("-sce", () -> new ItemSource(false, Disposition.LEAVE, "x", sourceEncoding).encoding());
        ItemDestination destination = value("-dq", () -> new ItemDestination(queueDestination.destination(),
                destinationEncoding));
        List<TransferItem> items = new ArrayList<>();
        for (String s : sources) {
            ItemSource src = value("source " + quote(s), () -> new ItemSource(recursive, sd, s, sce));
            items.add(value("source " + quote(s), () -> new TransferItem(t, cs, src, destination)));
        }
        return items;
    }

    /**
     * A queue to a file (-sq): the queue's messages make one file. Also a template's item
     * ({@link TemplateFlags}), with the same checks.
     */
    List<TransferItem> queueSourceItems() throws CommandFailure {
        if (!queueSource.queue) {
            throw usage("-sqgi, -sqwt, -sqdt, -sqdb and -sqdp apply to a queue source: add -sq");
        }
        if (queueDestination.any()) {
            throw usage("-sq cannot be used with -dq: a transfer from a queue to a queue is not allowed (IBM's"
                    + " result 64)");
        }
        if (destinationDirectory != null) {
            throw usage("-dd cannot be used with -sq: the messages of a queue make one file: use -df FILE");
        }
        if (recursive) {
            throw usage("-r cannot be used with -sq: the source is a queue");
        }
        if (destinationFile == null) {
            throw usage("a destination file is required with -sq: -df FILE");
        }
        if (sources.size() != 1) {
            throw usage(sources.isEmpty() ? "no source queue given: with -sq the source, last, is QUEUE[@QMGR]"
                    : "-sq reads one queue, but " + sources.size() + " sources were given");
        }
        ExistAction de = choice("-de", exist, ExistAction::fromXml, ExistAction.ERROR);
        Disposition sd = choice("-sd", disposition, Disposition::fromXml, Disposition.LEAVE);
        Mode t = choice("-t", mode, Mode::fromXml, Mode.BINARY);
        ChecksumMethod cs = choice("-cs", checksum, ChecksumMethod::fromXml, ChecksumMethod.MD5);
        LineEnding dle = choice("-dle", lineEnding, LineEnding::fromXml, null);
        if (t != Mode.TEXT && (sourceEncoding != null || destinationEncoding != null || lineEnding != null)) {
            throw usage((sourceEncoding != null ? "-sce" : destinationEncoding != null ? "-dce" : "-dle")
                    + " applies to text transfers only: add -t text");
        }
        String sce = value("-sce", () -> new ItemSource(false, Disposition.LEAVE, "x", sourceEncoding).encoding());
        ItemDestination destination = value("-df", () -> new ItemDestination(DestinationType.FILE, de,
                destinationFile, destinationEncoding, dle));
        String spec = sources.get(0);
        ItemSource src = value("-sq", () -> new ItemSource(queueSource.source(spec), sd, sce));
        return List.of(value("-sq", () -> new TransferItem(t, cs, src, destination)));
    }

    List<TransferItem> definitionItems() throws CommandFailure {
        String[][] excluded = {{"-df", destinationFile}, {"-dd", destinationDirectory}, {"-de", exist},
                {"-sd", disposition}, {"-t", mode}, {"-cs", checksum}, {"-sce", sourceEncoding},
                {"-dce", destinationEncoding}, {"-dle", lineEnding}, {"-r", recursive ? "" : null}};
        for (String[] flag : excluded) {
            if (flag[1] != null) {
                throw usage(flag[0] + " cannot be used with -td: the transfer definition file describes each item");
            }
        }
        if (!sources.isEmpty()) {
            throw usage("sources cannot be given with -td (" + quote(sources.get(0))
                    + "): the transfer definition file names them");
        }
        return TransferDefinitionFile.read(definitionFile);
    }

    /** -md key=value[,key=value...]: keys unique and not empty, each pair with an '='. */
    Map<String, String> metadata() throws CommandFailure {
        Map<String, String> md = new LinkedHashMap<>();
        if (metadata == null) {
            return md;
        }
        for (String pair : metadata.split(",", -1)) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw usage("-md " + quote(metadata) + " is not valid: " + (eq == 0 ? "a key is empty in "
                        : "no '=' in ") + quote(pair) + "; expected KEY=VALUE[,KEY=VALUE...]");
            }
            String key = pair.substring(0, eq).strip();
            if (md.containsKey(key)) {
                throw usage("-md " + quote(metadata) + " is not valid: key " + quote(key) + " appears twice");
            }
            md.put(key, pair.substring(eq + 1));
        }
        return md;
    }

    private void refuseUnsupported() throws CommandFailure {
        for (OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            String what = UNSUPPORTED.get(o.longestName());
            if (what != null) {
                throw usage(o.longestName() + " (" + what + ") is not supported yet; nothing was sent");
            }
        }
    }

    /**
     * -w: nothing (for ever) or whole seconds. A value that is not a number is the first source
     * ({@code -w /in/a.txt}), as picocli gives it to -w.
     */
    private void readWait() throws CommandFailure {
        if (waitValue == null) {
            return;
        }
        if (waitValue.equals("forever")) {
            waitFor = FOREVER;
        } else if (waitValue.matches("-?[0-9]+")) {
            long seconds;
            try {
                seconds = Long.parseLong(waitValue);
            } catch (NumberFormatException e) {
                seconds = -1;
            }
            if (seconds < 1 || seconds > FOREVER.toSeconds()) {
                throw usage("-w " + waitValue + " is not valid: give a number of seconds from 1, or no value to"
                        + " wait for ever");
            }
            waitFor = Duration.ofSeconds(seconds);
        } else {
            sources.add(0, waitValue);
            waitFor = FOREVER;
        }
    }

    private ProgressRenderer.Style progressStyle() throws CommandFailure {
        String env = System.getenv(PROGRESS_ENV);
        if (noProgress) {
            return ProgressRenderer.Style.OFF;
        }
        if (env != null && !env.isBlank() && !env.strip().equalsIgnoreCase("auto")) {
            try {
                return ProgressRenderer.Style.valueOf(env.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw usage("environment variable " + PROGRESS_ENV + "=" + quote(env)
                        + " is not valid; expected bar, lines, off or auto");
            }
        }
        return System.console() != null ? ProgressRenderer.Style.BAR : ProgressRenderer.Style.LINES;
    }

    /** The terminal's width from $COLUMNS, or {@link ProgressRenderer#DEFAULT_WIDTH}. */
    private static int terminalWidth() {
        String columns = System.getenv("COLUMNS");
        if (columns != null && columns.strip().matches("[0-9]{2,4}")) {
            return Integer.parseInt(columns.strip());
        }
        return ProgressRenderer.DEFAULT_WIDTH;
    }

    /** Writes the request to {@code file}, whole or not at all. */
    private static void write(TransferRequest request, Path file) throws CommandFailure {
        Path absolute = file.toAbsolutePath();
        Path dir = absolute.getParent();
        try {
            Path tmp = Files.createTempFile(dir, "." + absolute.getFileName(), ".tmp");
            try {
                Files.writeString(tmp, new DocumentWriter().write(request), StandardCharsets.UTF_8);
                Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: -gt " + file + ": the request cannot be written: "
                    + e);
        }
    }

    static String agentName(String flag, String value, String what) throws CommandFailure {
        if (value == null) {
            throw usage(flag + " (" + what + ") is required");
        }
        try {
            return QueueNames.validateAgentName(value.strip());
        } catch (IllegalArgumentException e) {
            throw usage(flag + ": " + e.getMessage());
        }
    }

    static int number(String flag, String value, int min, int max) throws CommandFailure {
        String range = min + (max == Integer.MAX_VALUE ? " or more" : "-" + max);
        long n;
        try {
            n = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw usage(flag + " " + quote(value) + " is not a number; expected " + range);
        }
        if (n < min || n > max) {
            throw usage(flag + " " + value.strip() + " is out of range; expected " + range);
        }
        return (int) n;
    }

    static <T> T choice(String flag, String value, Function<String, T> fromXml, T dflt)
            throws CommandFailure {
        if (value == null) {
            return dflt;
        }
        try {
            return fromXml.apply(value.strip());
        } catch (IllegalArgumentException e) {
            throw usage(flag + ": " + e.getMessage());
        }
    }

    /** A program call flag's value, checked; null when the flag is absent. */
    private static ProgramCall call(String flag, String spec) throws CommandFailure {
        if (spec == null) {
            return null;
        }
        ProgramCall call = value(flag, () -> CallSpecs.parse(flag, spec));
        if (call.type() != CallType.EXECUTABLE) {
            throw usage(flag + ": " + (call.type() == CallType.JCL ? "JCL" : "Ant script") + " calls are not"
                    + " supported (OpenMFT runs executables only)");
        }
        return call;
    }

    /** Builds a value whose constructor checks it, naming {@code what} when it refuses. */
    static <T> T value(String what, java.util.function.Supplier<T> build) throws CommandFailure {
        try {
            return build.get();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw usage(what + ": " + e.getMessage());
        }
    }

    static String quote(String s) {
        return "'" + s + "'";
    }

    /** A wrong command line: one line, exit code 1, nothing sent. */
    static CommandFailure usage(String message) {
        return new CommandFailure(ExitCodes.FAILED, "BFGCL0001E: " + message);
    }
}
