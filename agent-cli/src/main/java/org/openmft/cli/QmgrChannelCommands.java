package org.openmft.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.agent.qmgr.channel.ChannelDefinition;
import org.openmft.agent.qmgr.channel.Channels;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code mft qmgr channel}: an embedded queue manager's channels to others (IBM MQ's sender
 * channels with their transmission queues; the receiving side is a user with the role
 * {@code channel}). Definitions are files in the queue manager's directory, so these commands work
 * whether or not it runs; a running queue manager applies a change within seconds.
 */
@Command(name = "channel", mixinStandardHelpOptions = true,
        description = {"Create, delete and list the channels of an embedded queue manager to others, over which"
                + " agents and commands reach agents on those queue managers (QUEUE@QMGR).",
                "On the receiving queue manager, first make the channel's login:",
                "  mft qmgr user add QM2 channel.QM1 --role channel --credentials-file qm1-to-qm2.xml",
                "and give that file (owner-only) to the sending queue manager's administrator."},
        subcommands = {QmgrChannelCommands.Create.class, QmgrChannelCommands.Delete.class,
                QmgrChannelCommands.ListChannels.class, QmgrChannelCommands.Mqsc.class,
                QmgrChannelAliasCommands.class})
final class QmgrChannelCommands {
    private QmgrChannelCommands() {
    }

    private static String remote(String qmgr) throws CommandFailure {
        try {
            return Routing.validateQMgr(qmgr);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            footer = {"", "Examples:",
                    "  mft qmgr channel create QM1 --to QM2 --host mft2.example.com --port 1414 \\",
                    "      --credentials /etc/mft/qm1-to-qm2.xml --trust-store /etc/mft/qm2-trust.p12 \\",
                    "      --trust-store-credentials /etc/mft/qm2-trust.p12.pw",
                    "  mft qmgr channel create QM1 --to QM2 --host mft2.example.com --channels 3 --replace \\",
                    "      --credentials /etc/mft/qm1-to-qm2.xml --trust-store /etc/mft/qm2-trust.p12 \\",
                    "      --trust-store-credentials /etc/mft/qm2-trust.p12.pw --heartbeat 5"},
            description = {"Create (or replace, with --replace) the channel from QMGR to another queue manager: a"
                    + " transmission queue SYSTEM.CHANNEL.XMIT.<REMOTE> and a bridge that forwards it, each message"
                    + " once, retrying for ever while the link is down.",
                    "A channel to another host needs TLS (--trust-store) unless --allow-plaintext-network.",
                    "With --channels N, N parallel channels, each its own connection and transmission queue: channel n"
                    + " is what IBM's queue manager alias SYSTEM.FTE.<REMOTE>_n resolves to, and source agents with"
                    + " agentMultipleChannelsEnabled=true spread their data over them.",
                    "With --heartbeat S (IBM's HBINT), the channel checks the link every S seconds and gives a silent"
                    + " link up after " + ChannelDefinition.HEARTBEATS_TO_LIVE + " heartbeats (default "
                    + ChannelDefinition.DEFAULT_HEARTBEAT_SECONDS + " s: a cut link is noticed within about 30 s)."})
    static final class Create implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR", description = "The sending (local) queue manager.") String qmgr;
        @Option(names = "--to", required = true, paramLabel = "REMOTE", description = "The queue manager it leads to.")
        String to;
        @Option(names = "--host", required = true, description = "The remote queue manager's listener host.")
        String host;
        @Option(names = "--port", defaultValue = "1414", description = "Its port (default 1414).") int port;
        @Option(names = "--credentials", required = true, paramLabel = "FILE", description = "MQMFTCredentials.xml"
                + " with the channel's login on REMOTE (from 'mft qmgr user add REMOTE channel.QMGR --role channel').")
        Path credentials;
        @Option(names = "--trust-store", paramLabel = "FILE", description = "PKCS12 trust store with the remote"
                + " listener's CA certificate (its trust.p12): TLS.") Path trustStore;
        @Option(names = "--trust-store-credentials", paramLabel = "FILE", description = "File whose first line is the"
                + " trust store's password.") Path trustStoreCredentials;
        @Option(names = "--allow-plaintext-network", description = "Allow a channel without TLS to another host.")
        boolean allowPlaintext;
        @Option(names = "--replace", description = "Replace an existing definition.") boolean replace;
        @Option(names = "--channels", defaultValue = "1", paramLabel = "N", description = "Parallel channels to REMOTE,"
                + " 1 to " + ChannelDefinition.MAX_CHANNELS + " (default 1).") int channels;
        @Option(names = "--heartbeat", paramLabel = "SECONDS", description = "IBM's HBINT: how often an idle channel"
                + " checks that REMOTE still answers, 1 to " + ChannelDefinition.MAX_HEARTBEAT_SECONDS + " (default "
                + ChannelDefinition.DEFAULT_HEARTBEAT_SECONDS + "). A link silent for "
                + ChannelDefinition.HEARTBEATS_TO_LIVE + " heartbeats is given up and retried.")
        Integer heartbeat;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.privateDataDirectory(), qmgr);
            String remote = remote(to);
            if (remote.equals(settings.name())) {
                throw new CommandFailure(ExitCodes.FAILED, "a channel leads to another queue manager, not to "
                        + remote + " itself");
            }
            Path file = ChannelDefinition.file(settings.directory(), remote);
            if (Files.exists(org.openmft.agent.qmgr.channel.ChannelAlias.file(settings.directory(), remote))) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + qmgr + " reaches " + remote
                        + " through an alias: 'mft qmgr channel alias delete " + qmgr + " --to " + remote + "' first");
            }
            if (Files.exists(file) && !replace) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + qmgr + " has a channel to " + remote
                        + " already: --replace to change it, or 'mft qmgr channel delete'");
            }
            ChannelDefinition d;
            try {
                d = new ChannelDefinition(remote, host, port, credentials.toAbsolutePath(),
                        trustStore == null ? null : trustStore.toAbsolutePath(),
                        trustStoreCredentials == null ? null : trustStoreCredentials.toAbsolutePath(), allowPlaintext,
                        channels, heartbeat == null ? ChannelDefinition.DEFAULT_HEARTBEAT_SECONDS : heartbeat);
                d.login();
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
            } catch (IOException e) {
                throw new CommandFailure(ExitCodes.CONFIGURATION, "the channel's credentials cannot be used: "
                        + e.getMessage());
            }
            d.store(settings.directory());
            System.out.println("Channel " + d.name(settings.name()) + " to " + host + ":" + port
                    + (channels > 1 ? " (" + channels + " parallel channels)" : "") + " defined"
                    + (QmgrCommands.running(settings) ? "; queue manager " + qmgr + " starts it within "
                            + Channels.PERIOD_MILLIS / 1000 + " s ('mft qmgr channel list " + qmgr + "')"
                            : "; it starts with queue manager " + qmgr) + ".");
            return ExitCodes.OK;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr channel delete QM1 --to QM2"},
            description = {"Delete the channel from QMGR to REMOTE. Its transmission queue and what it holds stay"
                    + " (nothing is lost): a channel created again sends it on."})
    static final class Delete implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR", description = "The sending (local) queue manager.") String qmgr;
        @Option(names = "--to", required = true, paramLabel = "REMOTE", description = "The queue manager it leads to.")
        String to;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.privateDataDirectory(), qmgr);
            Path file = ChannelDefinition.file(settings.directory(), remote(to));
            java.util.List<String> through = org.openmft.agent.qmgr.channel.ChannelAlias.loadAll(settings.directory())
                    .values().stream().filter(a -> a.via().equals(to)).map(a -> a.remoteQMgr()).toList();
            if (!through.isEmpty()) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + qmgr + " reaches " + through + " through"
                        + " its channel to " + to + ": delete those aliases first ('mft qmgr channel alias delete')");
            }
            if (!Files.deleteIfExists(file)) {
                throw new CommandFailure(ExitCodes.FAILED, "queue manager " + qmgr + " has no channel to " + to);
            }
            System.out.println("Channel " + qmgr + ".TO." + to + " deleted.");
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr channel list QM1"},
            description = {"List QMGR's channels: where each leads, its state (RUNNING, RETRYING while the link is"
                    + " down, STOPPED when the queue manager does not run or could not start it), the messages"
                    + " waiting on its transmission queue, those sent since the queue manager started, and its"
                    + " heartbeat interval in seconds (HBINT). Parallel channels (--channels) are listed one a line,"
                    + " <QMGR>.TO.<REMOTE>_n."})
    static final class ListChannels implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Parameters(index = "0", paramLabel = "QMGR", description = "The queue manager.") String qmgr;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            QueueManagerSettings settings = QmgrCommands.load(global.privateDataDirectory(), qmgr);
            Map<String, ChannelDefinition> all = ChannelDefinition.loadAll(settings.directory());
            boolean running = QmgrCommands.running(settings);
            Properties status = new Properties();
            Path file = settings.directory().resolve(ChannelDefinition.DIRECTORY).resolve(Channels.STATUS_FILE);
            if (running && Files.exists(file)) {
                try (InputStream in = Files.newInputStream(file)) {
                    status.load(in);
                }
            }
            System.out.printf("%-30s %-28s %-9s %8s %10s %6s  %s%n", "CHANNEL", "CONNECTION", "STATE", "WAITING",
                    "SENT", "HBINT", "TLS");
            for (ChannelDefinition d : all.values()) {
                for (int n = 1; n <= d.channels(); n++) {
                    String key = d.route(n);
                    String state = running ? status.getProperty(key + ".state", "STARTING") : "STOPPED";
                    String waiting = running ? status.getProperty(key + ".waiting", "-") : "-";
                    String sent = running ? status.getProperty(key + ".sent", "-") : "-";
                    System.out.printf("%-30s %-28s %-9s %8s %10s %6d  %s%n", d.name(settings.name(), n), d.host()
                            + "(" + d.port() + ")", state, waiting, sent, d.heartbeatSeconds(),
                            d.trustStore() == null ? "no" : "yes");
                    String detail = status.getProperty(key + ".detail");
                    if (detail != null) {
                        System.out.println("    " + detail);
                    }
                }
            }
            if (all.isEmpty()) {
                System.out.println("(queue manager " + qmgr + " has no channels)");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "mqsc", mixinStandardHelpOptions = true,
            footer = {"", "Examples:", "  mft qmgr channel mqsc --from QMA --to QMB --host mftb.example.com --mcauser mftchl",
                    "  mft qmgr channel mqsc --from QMA --to QMB --host mftb.example.com --channels 2 --heartbeat 10",
                    "  mft qmgr channel mqsc --from QMA --to QMB --via QMC"},
            description = {"Write the MQSC of an IBM MQ channel from one queue manager to another (the transmission"
                    + " queue named after the remote queue manager, a TLS sender/receiver pair, the CHLAUTH rule):"
                    + " <FROM>.TO.<TO>.sender.mqsc and .receiver.mqsc, for an IBM MQ administrator to review and run"
                    + " with runmqsc. IBM MQ then routes the agents' QUEUE@QMGR itself.",
                    "With --channels N, also what IBM documents for agentMultipleChannelsEnabled: a queue manager"
                    + " alias SYSTEM.FTE.<TO>_n (QREMOTE, RQMNAME <TO>) per channel, channel n > 1 with its own"
                    + " transmission queue <TO>_n and sender <FROM>.TO.<TO>_n, and a receiver for each on <TO>."})
    static final class Mqsc implements Callable<Integer> {
        @Mixin GlobalOptions global;
        @Option(names = "--from", required = true, paramLabel = "QMGR", description = "The sending queue manager.")
        String from;
        @Option(names = "--to", required = true, paramLabel = "QMGR", description = "The receiving queue manager.")
        String to;
        @Option(names = "--host", description = "The receiving queue manager's listener host (required unless"
                + " --via).") String host;
        @Option(names = "--via", paramLabel = "QMGR", description = "Write instead the queue manager alias on FROM"
                + " that reaches TO through its channel to this queue manager (IBM's QREMOTE with a blank RNAME):"
                + " <FROM>.TO.<TO>.alias.mqsc.") String via;
        @Option(names = "--port", defaultValue = "1414", description = "Its port (default 1414).") int port;
        @Option(names = "--cipher", defaultValue = "ANY_TLS12_OR_HIGHER", description = "The CipherSpec of both ends"
                + " (default ANY_TLS12_OR_HIGHER).") String cipher;
        @Option(names = "--mcauser", defaultValue = "mftchl", description = "The user the channel's puts run as on"
                + " the receiving side (default mftchl).") String mcaUser;
        @Option(names = "--out", paramLabel = "DIR", description = "Where the scripts go (default: the current"
                + " directory).") Path out;
        @Option(names = "--channels", defaultValue = "1", paramLabel = "N", description = "Parallel channels, 1 to 16"
                + " (default 1).") int channels;
        @Option(names = "--heartbeat", defaultValue = "0", paramLabel = "SECONDS", description = "HBINT of every"
                + " sender and receiver, 1 to 999999 (default: none written, IBM's 300 s).") int heartbeat;

        @Override
        public Integer call() throws Exception {
            Mft.prepare(global);
            if (via != null) {
                return alias();
            }
            if (host == null) {
                throw new CommandFailure(ExitCodes.FAILED, "--host names the receiving queue manager's listener"
                        + " host (or --via, for a queue manager alias)");
            }
            org.openmft.agent.config.MqscScripts.ChannelScripts scripts;
            try {
                scripts = org.openmft.agent.config.MqscScripts.channelScripts(from, to, host, port, cipher, mcaUser,
                        channels, heartbeat);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
            }
            Path dir = out == null ? Path.of("") : out;
            Path sender = dir.resolve(from + ".TO." + to + ".sender.mqsc");
            Path receiver = dir.resolve(from + ".TO." + to + ".receiver.mqsc");
            Files.writeString(sender, scripts.sender());
            Files.writeString(receiver, scripts.receiver());
            System.out.println("Wrote " + sender.toAbsolutePath() + " (run on " + from + ") and "
                    + receiver.toAbsolutePath() + " (run on " + to + ").");
            return ExitCodes.OK;
        }

        private int alias() throws Exception {
            if (host != null) {
                throw new CommandFailure(ExitCodes.FAILED, "--via writes a queue manager alias, which has no host:"
                        + " write the channel to " + via + " without --via");
            }
            String script;
            try {
                script = org.openmft.agent.config.MqscScripts.aliasScript(from, to, via);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCodes.FAILED, e.getMessage());
            }
            Path file = (out == null ? Path.of("") : out).resolve(from + ".TO." + to + ".alias.mqsc");
            Files.writeString(file, script);
            System.out.println("Wrote " + file.toAbsolutePath() + " (run on " + from + ").");
            return ExitCodes.OK;
        }
    }
}
