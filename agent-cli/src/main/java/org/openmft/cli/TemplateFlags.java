package org.openmft.cli;

import static org.openmft.cli.CreateTransferCommand.agentName;
import static org.openmft.cli.CreateTransferCommand.choice;
import static org.openmft.cli.CreateTransferCommand.number;
import static org.openmft.cli.CreateTransferCommand.quote;
import static org.openmft.cli.CreateTransferCommand.usage;
import static org.openmft.cli.CreateTransferCommand.value;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.openmft.agent.config.DataDirectory;
import org.openmft.coordination.template.TemplateStore;
import org.openmft.xml.AgentRef;
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
import org.openmft.xml.QueueDestination;
import org.openmft.xml.QueueSource;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;
import org.openmft.xml.TransferTemplate;

import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * fteCreateTransfer's flags laid over a transfer template: how {@code fteCreateTemplate} makes a
 * template from them (laid over an empty one) and how {@code fteCreateTransfer --template NAME}
 * makes a request (laid over the stored one). The flags are {@link CreateTransferCommand}'s own
 * fields, parsed and checked by its option definitions and helpers, so both commands take the same
 * flags with the same rules and messages.
 *
 * <p>A flag given replaces the template's value; one not given leaves it: agents and queue
 * managers (a queue manager is kept only with the agent it belongs to), {@code -pr}, {@code -rt},
 * {@code -jn}; {@code -md} keys are added to the template's, replacing those of the same key.
 * Item flags ({@code -de -sd -t -cs -r -sce -dce -dle}, and {@code -dd} or {@code -df}) apply to
 * every item of the template. Sources given replace the template's items: one item per source,
 * with the settings of the template's first item where no flag says otherwise; {@code -td}
 * replaces them with the definition file's items, and the message-to-file flags ({@code -sq -sqgi
 * -sqwt -sqdt -sqdb -sqdp}, {@link QueueSourceOptions}) with the one item they describe, checked as
 * fteCreateTransfer checks them. A template's source queue stays a queue while no source replaces it.
 * The file-to-message flags ({@code -dq -dqp -qmp -qs -dqdt -dqdb -dqdp -qi},
 * {@link QueueDestinationOptions}) make every item's destination that queue, in place of
 * {@code -df}/{@code -dd}, as IBM's fteCreateTemplate takes them; a template's destination queue
 * stays a queue while no {@code -df}, {@code -dd} or {@code -dq} replaces it.
 *
 * <p>Flags this class does not know (those added to fteCreateTransfer later, and those not
 * supported yet) are refused rather than dropped: a template must not silently lose a schedule
 * or a trigger the user asked for.
 */
final class TemplateFlags {
    /** The flags a template holds (with -p, --data-dir and -v, which only say where and how). */
    static final Set<String> TEMPLATE_FLAGS = Stream.concat(Stream.of("-sa", "-sm", "-da", "-dm",
            "-df", "-dd", "-de", "-sd", "-r", "-t", "-cs", "-pr", "-jn", "-md", "-rt", "-sce", "-dce", "-dle", "-td",
            "-p", "--data-dir", "-v", "--verbose", "-h", "--help", "-V", "--version"),
            Stream.concat(QueueSourceOptions.FLAGS.stream(), QueueDestinationOptions.FLAGS.stream()))
            .collect(Collectors.toUnmodifiableSet());
    /** What fteCreateTransfer adds when sending from a template. */
    static final Set<String> SUBMIT_FLAGS = Set.of("-w", "-gt", "--no-progress", "--template");

    private final CreateTransferCommand flags;

    private TemplateFlags(CreateTransferCommand flags) {
        this.flags = flags;
    }

    /**
     * {@code fteCreateTransfer --template NAME}: the stored template with the flags laid over it,
     * as a complete request (agents and at least one item).
     *
     * @throws CommandFailure exit code 1 for a wrong flag or an unknown template, 75 or 78 when the
     *     coordination queue manager cannot be read
     */
    static TransferRequest submission(CreateTransferCommand flags, Originator originator) throws Exception {
        refuseOthers(flags.spec.commandLine().getParseResult(), SUBMIT_FLAGS, "with --template");
        DataDirectory dd = flags.global.dataDirectory();
        String coordination = flags.global.configurationOptions(flags.configurationOptions);
        TemplateStore store = TemplateCommands.store(dd, coordination);
        TransferTemplate stored = store.find(flags.template.strip()).orElseThrow(() -> new CommandFailure(
                ExitCodes.FAILED, "BFGCL0001E: --template: there is no template " + quote(flags.template.strip())
                        + " on " + store.description() + "; 'fteListTemplates' lists them; nothing was sent"));
        return request(flags, stored, originator);
    }

    /** The stored template with the flags laid over it, as a complete request. */
    static TransferRequest request(CreateTransferCommand flags, TransferTemplate stored, Originator originator)
            throws CommandFailure {
        TransferTemplate t = new TemplateFlags(flags).over(stored);
        String sa = agentName("-sa", t.sourceAgent(), "the source agent, which template " + quote(t.name())
                + " does not name");
        String da = agentName("-da", t.destinationAgent(), "the destination agent, which template "
                + quote(t.name()) + " does not name");
        if (t.items().isEmpty()) {
            throw usage("template " + quote(t.name()) + " names no files: give sources and -dd DIR or -df FILE");
        }
        AgentRef source = value("-sm", () -> new AgentRef(sa, t.sourceQMgr()));
        AgentRef destination = value("-dm", () -> new AgentRef(da, t.destinationQMgr()));
        TransferSet set = value("-md", () -> new TransferSet(t.priority(), t.recoveryTimeoutSeconds(), t.metadata(),
                t.items()));
        return value("-jn", () -> new TransferRequest(DocumentWriter.VERSION, originator, source, destination, null,
                set, t.jobName()));
    }

    /**
     * {@code fteCreateTemplate}: a new template of the flags alone. Only the name is required, as
     * IBM's; sources and a destination go together.
     *
     * @param parsed the template command's parse result, to refuse flags templates do not hold
     */
    static TransferTemplate creation(CreateTransferCommand flags, ParseResult parsed, String name)
            throws CommandFailure {
        refuseOthers(parsed, Set.of("-tn", "-f"), "in a template");
        TransferTemplate empty = value("-tn", () -> new TransferTemplate(TransferTemplate.newId(), name.strip(), null,
                null, null, null, List.of(), 0, null, Map.of(), null));
        if (flags.sources.isEmpty() && flags.definitionFile == null && (flags.destinationFile != null
                || flags.destinationDirectory != null || flags.queueDestination.any())) {
            throw usage("a destination (" + (flags.destinationFile != null ? "-df" : flags.destinationDirectory != null
                    ? "-dd" : "-dq") + ") needs sources: give the source files last, or leave both out");
        }
        return new TemplateFlags(flags).over(empty);
    }

    /** Refuses any matched option outside {@link #TEMPLATE_FLAGS} and {@code extra}, naming it. */
    private static void refuseOthers(ParseResult parsed, Set<String> extra, String where) throws CommandFailure {
        for (OptionSpec o : parsed.matchedOptions()) {
            String name = o.longestName();
            if (TEMPLATE_FLAGS.contains(name) || extra.contains(name)
                    || java.util.Arrays.stream(o.names()).anyMatch(TEMPLATE_FLAGS::contains)) {
                continue;
            }
            String unsupported = CreateTransferCommand.UNSUPPORTED.get(name);
            throw usage(name + (unsupported != null ? " (" + unsupported + ") is not supported yet"
                    : " cannot be used " + where + " yet") + "; nothing was sent or saved");
        }
    }

    /** The template with the flags laid over it. */
    private TransferTemplate over(TransferTemplate t) throws CommandFailure {
        String sa = flags.sourceAgent != null ? agentName("-sa", flags.sourceAgent, "the source agent")
                : t.sourceAgent();
        String sm = flags.sourceQmgr != null ? flags.sourceQmgr.strip() : flags.sourceAgent != null ? null
                : t.sourceQMgr();
        String da = flags.destinationAgent != null
                ? agentName("-da", flags.destinationAgent, "the destination agent") : t.destinationAgent();
        String dm = flags.destinationQmgr != null ? flags.destinationQmgr.strip() : flags.destinationAgent != null
                ? null : t.destinationQMgr();
        int pr = flags.priority == null ? t.priority() : number("-pr", flags.priority, 0, TransferSet.MAX_PRIORITY);
        Long rt = flags.recoveryTimeout == null ? t.recoveryTimeoutSeconds()
                : (Long) (long) number("-rt", flags.recoveryTimeout, -1, Integer.MAX_VALUE);
        Map<String, String> md = new LinkedHashMap<>(t.metadata());
        md.putAll(flags.metadata());
        String jn = flags.jobName != null ? flags.jobName : t.jobName();
        List<TransferItem> items = items(t);
        return value("-tn", () -> new TransferTemplate(t.id(), t.name(), sa, sm, da, dm, items, pr, rt, md, jn));
    }

    private List<TransferItem> items(TransferTemplate t) throws CommandFailure {
        if (flags.definitionFile != null) {
            return flags.definitionItems();
        }
        if (flags.queueSource.any()) {
            // The -sq flags describe the whole item (the queue last, -df), checked as fteCreateTransfer checks them.
            return flags.queueSourceItems();
        }
        if (flags.destinationFile != null && flags.destinationDirectory != null) {
            throw usage("-df and -dd cannot be used together: give one destination");
        }
        if (flags.queueDestination.any()) {
            for (String[] fileOnly : new String[][] {{"-df", flags.destinationFile}, {"-dd",
                    flags.destinationDirectory}, {"-de", flags.exist}, {"-dle", flags.lineEnding}}) {
                if (fileOnly[1] != null) {
                    throw usage(fileOnly[0] + " cannot be used with -dq: the destination is a queue");
                }
            }
        }
        List<TransferItem> items = new ArrayList<>();
        if (flags.sources.isEmpty()) {
            if (flags.destinationFile != null && t.items().size() > 1) {
                throw usage("-df names one destination file, but template " + quote(t.name()) + " has "
                        + t.items().size() + " items: use -dd DIR");
            }
            for (TransferItem base : t.items()) {
                items.add(item(base, base.source().path()));
            }
        } else {
            if (flags.destinationFile != null && flags.sources.size() > 1) {
                throw usage("-df names one destination file, but " + flags.sources.size()
                        + " sources were given: use -dd DIR");
            }
            TransferItem base = t.items().isEmpty() ? null : t.items().get(0);
            for (String s : flags.sources) {
                items.add(item(base, s));
            }
        }
        return items;
    }

    /** One item: {@code base}'s settings (IBM's defaults without one) with the flags laid over. */
    private TransferItem item(TransferItem base, String path) throws CommandFailure {
        Mode t = choice("-t", flags.mode, Mode::fromXml, base == null ? Mode.BINARY : base.mode());
        ChecksumMethod cs = choice("-cs", flags.checksum, ChecksumMethod::fromXml,
                base == null ? ChecksumMethod.MD5 : base.checksumMethod());
        ExistAction de = choice("-de", flags.exist, ExistAction::fromXml,
                base == null ? ExistAction.ERROR : base.destination().exist());
        Disposition sd = choice("-sd", flags.disposition, Disposition::fromXml,
                base == null ? Disposition.LEAVE : base.source().disposition());
        boolean recursive = flags.recursive || base != null && base.source().recursive();
        String sce = flags.sourceEncoding;
        String dce = flags.destinationEncoding;
        LineEnding dle = choice("-dle", flags.lineEnding, LineEnding::fromXml, null);
        if (t != Mode.TEXT) {
            for (String[] textOnly : new String[][] {{"-sce", sce}, {"-dce", dce}, {"-dle", flags.lineEnding}}) {
                if (textOnly[1] != null) {
                    throw usage(textOnly[0] + " applies to text transfers only: add -t text");
                }
            }
        } else if (base != null && base.mode() == Mode.TEXT) {
            sce = sce != null ? sce : base.source().encoding();
            dce = dce != null ? dce : base.destination().encoding();
            dle = dle != null ? dle : base.destination().eol();
        }
        // -dq, or the template's queue while no -df/-dd replaces it: each file becomes messages.
        QueueDestination toQueue = flags.queueDestination.any() ? value("-dq", flags.queueDestination::destination)
                : flags.destinationFile == null && flags.destinationDirectory == null && base != null
                        ? base.destination().queue() : null;
        if (toQueue != null) {
            if (base != null && flags.sources.isEmpty() && base.source().queue() != null) {
                throw usage("-dq cannot be used with the template's source queue " + quote(path) + ": a transfer"
                        + " from a queue to a queue is not allowed (IBM's result 64)");
            }
            String qsce = sce;
            String qdce = dce != null || base == null ? dce : base.destination().encoding();
            ItemSource src = value("source " + quote(path), () -> new ItemSource(recursive, sd, path, qsce));
            ItemDestination dst = value("-dq", () -> new ItemDestination(toQueue, qdce));
            return value("source " + quote(path), () -> new TransferItem(t, cs, src, dst));
        }
        DestinationType type;
        String flag;
        String target;
        if (flags.destinationFile != null || flags.destinationDirectory != null) {
            type = flags.destinationFile != null ? DestinationType.FILE : DestinationType.DIRECTORY;
            flag = flags.destinationFile != null ? "-df" : "-dd";
            target = flags.destinationFile != null ? flags.destinationFile : flags.destinationDirectory;
        } else if (base != null) {
            type = base.destination().type();
            flag = "the template's destination";
            target = base.destination().path();
        } else {
            throw usage("a destination is required with sources: -df FILE or -dd DIR");
        }
        String finalSce = sce;
        String finalDce = dce;
        LineEnding finalDle = dle;
        // The template's queue stays a queue while no source replaces it; its messages make one file.
        QueueSource queue = base != null && flags.sources.isEmpty() ? base.source().queue() : null;
        if (queue != null && flags.recursive) {
            throw usage("-r cannot be used with the template's source queue " + quote(path) + ": the source is a"
                    + " queue");
        }
        ItemSource src = value("source " + quote(path), () -> queue != null ? new ItemSource(queue, sd, finalSce)
                : new ItemSource(recursive, sd, path, finalSce));
        ItemDestination dst = value(flag, () -> new ItemDestination(type, de, target, finalDce, finalDle));
        return value("source " + quote(path), () -> new TransferItem(t, cs, src, dst));
    }
}
