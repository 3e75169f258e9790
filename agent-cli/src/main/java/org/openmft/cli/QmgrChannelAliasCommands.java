package org.openmft.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.qmgr.channel.ChannelAlias;
import org.openmft.agent.qmgr.channel.ChannelDefinition;
import org.openmft.agent.qmgr.channel.Channels;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft qmgr channel alias}: queue manager aliases for multi-hop routes (IBM MQ's
 * {@code DEFINE QREMOTE(<REMOTE>) RNAME(' ') RQMNAME(<REMOTE>) XMITQ(<VIA>)}), kept as files in the
 * queue manager's directory like its channels, applied by a running queue manager within seconds.
 */
@Command(name = "alias", mixinStandardHelpOptions = true,
        description = {"Queue manager aliases: reach a queue manager with no channel of its own through the channel"
                + " to another (IBM MQ's QREMOTE with a blank RNAME). Define one on each end, so that answers find"
                + " their way back."},
        subcommands = {QmgrChannelAliasCommands.Create.class, QmgrChannelAliasCommands.Delete.class,
                QmgrChannelAliasCommands.ListAliases.class})
final class QmgrChannelAliasCommands {
    private QmgrChannelAliasCommands() {
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr channel alias create QMA --to QMB --via QMC",
                    "  mft qmgr channel alias create QMB --to QMA --via QMC"},
            description = {"Make messages of QMGR for queue manager REMOTE go over QMGR's channel to VIA, whose queue"
                    + " manager sends them on (it needs a channel, or an alias, to REMOTE). Agents and commands then"
                    + " address REMOTE as if a channel led there (-sm/-dm/-m)."})
    static final class Create implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR", description = "The local queue manager.") String qmgr;
        @Option(names = "--to", required = true, paramLabel = "REMOTE", description = "The queue manager reached.")
        String to;
        @Option(names = "--via", required = true, paramLabel = "VIA", description = "The queue manager in between:"
                + " QMGR's channel to it carries the messages.") String via;
        @Option(names = "--replace", description = "Replace an existing alias to REMOTE.") boolean replace;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.privateDataDirectory(), qmgr);
            ChannelAlias alias;
            try {
                alias = new ChannelAlias(to, via);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
            }
            if (alias.remoteQMgr().equals(settings.name())) {
                throw new CommandFailure(ExitCodes.FAILED, "an alias leads to another queue manager, not to " + to
                        + " itself");
            }
            Map<String, ChannelDefinition> channels = ChannelDefinition.loadAll(settings.directory());
            if (channels.containsKey(to)) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + qmgr + " has a channel to " + to
                        + ": messages for it go there; delete the channel first to route them through " + via);
            }
            if (!channels.containsKey(via)) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + qmgr + " has no channel to " + via
                        + ": create it first ('mft qmgr channel create " + qmgr + " --to " + via + " ...')");
            }
            if (Files.exists(ChannelAlias.file(settings.directory(), to)) && !replace) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + qmgr + " has an alias to " + to
                        + " already: --replace to change it, or 'mft qmgr channel alias delete'");
            }
            alias.store(settings.directory());
            System.out.println("Queue manager alias " + to + " via " + via + " defined on " + qmgr
                    + (QmgrCommands.running(settings) ? "; applied within " + Channels.PERIOD_MILLIS / 1000 + " s"
                            : "; applied when queue manager " + qmgr + " starts") + ".");
            return ExitCodes.OK;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr channel alias delete QMA --to QMB"},
            description = {"Delete QMGR's alias to REMOTE: messages for REMOTE are refused again (no route), and"
                    + " what is under way on the channel to VIA still arrives."})
    static final class Delete implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR", description = "The local queue manager.") String qmgr;
        @Option(names = "--to", required = true, paramLabel = "REMOTE", description = "The queue manager reached.")
        String to;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.privateDataDirectory(), qmgr);
            Path file;
            try {
                file = ChannelAlias.file(settings.directory(), Routing.validateQMgr(to));
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
            }
            if (!Files.deleteIfExists(file)) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + qmgr + " has no alias to " + to);
            }
            System.out.println("Queue manager alias " + to + " deleted from " + qmgr + ".");
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr channel alias list QMA"},
            description = {"List QMGR's queue manager aliases: each queue manager reached and the one it is reached"
                    + " through."})
    static final class ListAliases implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR", description = "The queue manager.") String qmgr;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.privateDataDirectory(), qmgr);
            Map<String, ChannelAlias> all = ChannelAlias.loadAll(settings.directory());
            Map<String, ChannelDefinition> channels = ChannelDefinition.loadAll(settings.directory());
            System.out.printf("%-48s %-48s%n", "QMGR", "VIA");
            for (ChannelAlias a : all.values()) {
                System.out.printf("%-48s %-48s%n", a.remoteQMgr(), a.via());
                java.util.Optional<String> refused = a.refusal(all);
                if (refused.isPresent()) {
                    System.out.println("    not applied: " + refused.get());
                } else if (!channels.containsKey(a.via())) {
                    System.out.println("    no channel to " + a.via() + ": messages for " + a.remoteQMgr()
                            + " wait in its transmission queue");
                }
            }
            if (all.isEmpty()) {
                System.out.println("(queue manager " + qmgr + " has no aliases)");
            }
            return ExitCodes.OK;
        }
    }
}
