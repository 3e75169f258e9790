package org.openmft.agent.config;

import java.util.ArrayList;
import java.util.List;

/**
 * MQSC scripts that create and delete an agent's queues on an IBM MQ queue manager, in the style
 * of IBM MFT's {@code <agent>_create.mqsc} and {@code <agent>_delete.mqsc}, so that an IBM MQ
 * administrator can review and run them with {@code runmqsc} as they would for an IBM agent; and
 * the coordination queue manager's script of IBM's {@code fteSetupCoordination}. The output
 * depends only on the name given (no time stamps), so scripts can be compared and diffed.
 */
public final class MqscScripts {

    // IBM's attributes for the working queues (reference §3.1): persistent-message friendly,
    // priority order, no triggering, large enough for 4 MiB messages.
    private static final List<String> WORK_QUEUE_ATTRIBUTES = List.of("DEFPRTY(0)", "DEFSOPT(SHARED)", "GET(ENABLED)",
            "MAXDEPTH(5000)", "MAXMSGL(4194304)", "MSGDLVSQ(PRIORITY)", "PUT(ENABLED)", "RETINTVL(999999999)", "SHARE",
            "NOTRIGGER", "USAGE(NORMAL)", "REPLACE");

    // Authority queues only carry MQ authorities; depth and message length 0 guarantee they never hold data.
    private static final List<String> AUTH_QUEUE_ATTRIBUTES = List.of("DEFPRTY(0)", "DEFSOPT(SHARED)", "GET(ENABLED)",
            "MAXDEPTH(0)", "MAXMSGL(0)", "MSGDLVSQ(PRIORITY)", "PUT(ENABLED)", "RETINTVL(999999999)", "SHARE",
            "NOTRIGGER", "USAGE(NORMAL)", "REPLACE");

    private MqscScripts() {
    }

    /**
     * The script defining every queue of the agent: the six working queues of
     * {@link QueueNames#agentQueues}, the HA lock queue and the six authority queues.
     *
     * @param agent the agent name, any case
     * @return the MQSC script, lines separated by {@code \n}
     * @throws IllegalArgumentException when the agent name is not valid
     */
    public static String createScript(String agent) {
        String name = QueueNames.validateAgentName(agent);
        StringBuilder out = new StringBuilder();
        out.append("* Queues of OpenMFT agent ").append(name).append(", for an IBM MQ agent queue manager.\n")
                .append("* Run by an IBM MQ administrator before the agent first starts, for example:\n")
                .append("*   runmqsc <agentQMgr> < ").append(name).append("_create.mqsc\n")
                .append("* COMMAND takes requests, DATA file chunks, REPLY acknowledgements from other agents,\n")
                .append("* STATE the in-flight transfers, EVENT resource monitor history, CMD.RJCT command\n")
                .append("* messages the agent could not parse, HA the lock of highly available instances.\n")
                .append("* The AUTH queues never hold messages: authorities granted on them control who may\n")
                .append("* do what when authorityChecking=true.\n");
        List<String> authQueues = QueueNames.authQueues(name);
        for (String queue : allQueues(name)) {
            define(out, queue, authQueues.contains(queue) ? AUTH_QUEUE_ATTRIBUTES : WORK_QUEUE_ATTRIBUTES);
        }
        return out.toString();
    }

    /**
     * The script deleting every queue {@link #createScript} defines.
     *
     * @param agent the agent name, any case
     * @return the MQSC script, lines separated by {@code \n}
     * @throws IllegalArgumentException when the agent name is not valid
     */
    public static String deleteScript(String agent) {
        String name = QueueNames.validateAgentName(agent);
        StringBuilder out = new StringBuilder();
        out.append("* Deletes the queues of OpenMFT agent ").append(name).append(" from an IBM MQ agent queue manager.\n")
                .append("* Run by an IBM MQ administrator after the agent has been stopped and deleted, for example:\n")
                .append("*   runmqsc <agentQMgr> < ").append(name).append("_delete.mqsc\n")
                // Without PURGE, MQ refuses to delete a queue that still holds messages: in-flight transfers
                // on STATE are not thrown away by a script run too early.
                .append("* A queue that still holds messages is not deleted; clean the agent first.\n");
        for (String queue : allQueues(name)) {
            out.append("\nDELETE QLOCAL(").append(queue).append(")\n");
        }
        return out.toString();
    }

    /**
     * The script defining what IBM MFT needs on a coordination queue manager (reference §3.2), as
     * IBM's {@code fteSetupCoordination} writes it to {@code <coordQM>.mqsc}: the {@code SYSTEM.FTE}
     * topic, the {@code SYSTEM.FTE} stream queue that agents put their queued publish commands on,
     * that queue in the namelist the queued publish/subscribe engine reads, and publish/subscribe
     * enabled. An embedded (Artemis) queue manager needs none of it: it creates its publication
     * address itself.
     *
     * @param coordinationQMgr the coordination queue manager name
     * @return the MQSC script, lines separated by {@code \n}
     * @throws IllegalArgumentException when the name is not a queue manager name
     */
    public static String coordinationScript(String coordinationQMgr) {
        if (coordinationQMgr == null || !coordinationQMgr.matches(CommonKeys.MQ_CHARS + "{1,48}")) {
            throw new IllegalArgumentException("queue manager name '" + coordinationQMgr + "' is not valid");
        }
        return "* Publish/subscribe objects of coordination queue manager " + coordinationQMgr + " for OpenMFT,\n"
                + "* as IBM MFT's fteSetupCoordination defines them. Run by an IBM MQ administrator, for example:\n"
                + "*   runmqsc " + coordinationQMgr + " < " + coordinationQMgr + ".mqsc\n"
                + "* Agents put queued publish commands on the SYSTEM.FTE queue; the queued publish/subscribe\n"
                + "* engine reads the queues named in SYSTEM.QPUBSUB.QUEUE.NAMELIST and publishes them on the\n"
                + "* SYSTEM.FTE topic. NAMES() replaces the whole namelist: if the DISPLAY shows more names than\n"
                + "* the two defaults, add them to the ALTER before running it.\n"
                + "\nDEFINE TOPIC('SYSTEM.FTE') TOPICSTR('SYSTEM.FTE') NPMSGDLV(ALLAVAIL) PMSGDLV(ALLAVAIL) REPLACE\n"
                + "\nDEFINE QLOCAL(SYSTEM.FTE) LIKE(SYSTEM.BROKER.DEFAULT.STREAM) REPLACE\n"
                + "\nDISPLAY NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST)\n"
                + "ALTER NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) NAMES(SYSTEM.BROKER.DEFAULT.STREAM,"
                + "SYSTEM.BROKER.ADMIN.STREAM,SYSTEM.FTE)\n"
                + "\nDISPLAY QMGR PSMODE\n"
                + "ALTER QMGR PSMODE(ENABLED)\n";
    }

    /**
     * The two scripts of an IBM MQ channel from {@code from} to {@code to}, IBM's sender/receiver
     * pair with its transmission queue named after the remote queue manager (so that
     * {@code QUEUE@TO} resolves to it), triggered to start when a message arrives, TLS with
     * {@code cipher}, and a CHLAUTH rule that maps the sending queue manager to {@code mcaUser} on the
     * receiving side (the user whose authorities the channel's puts get there).
     *
     * @param from    the sending queue manager
     * @param to      the receiving queue manager
     * @param host    the receiving queue manager's listener host
     * @param port    its port
     * @param cipher  the CipherSpec both ends use, such as ANY_TLS12_OR_HIGHER
     * @param mcaUser the user the channel runs as on the receiving queue manager
     * @return the sending side's script and the receiving side's
     * @throws IllegalArgumentException for a name, host, cipher or user MQSC cannot take as given
     */
    public static ChannelScripts channelScripts(String from, String to, String host, int port, String cipher,
            String mcaUser) {
        return channelScripts(from, to, host, port, cipher, mcaUser, 1);
    }

    /**
     * As {@link #channelScripts(String, String, String, int, String, String)}, with {@code channels}
     * parallel channels for {@code agentMultipleChannelsEnabled}, as IBM documents them for
     * non-clustered queue managers: on the sending side a queue manager alias
     * {@code SYSTEM.FTE.<TO>_n} per channel (a QREMOTE with a blank RNAME, RQMNAME the receiving
     * queue manager and XMITQ the channel's transmission queue); channel 1 is the main channel
     * (XMITQ {@code <TO>}), channel n &gt; 1 has a transmission queue {@code <TO>_n} and a sender
     * {@code <FROM>.TO.<TO>_n} of its own; on the receiving side a receiver and CHLAUTH rule per
     * channel. With one channel, no alias: the agent sends as without the option.
     *
     * @param channels parallel channels, 1 to 16
     */
    public static ChannelScripts channelScripts(String from, String to, String host, int port, String cipher,
            String mcaUser, int channels) {
        return channelScripts(from, to, host, port, cipher, mcaUser, channels, 0);
    }

    /**
     * As {@link #channelScripts(String, String, String, int, String, String, int)}, with IBM's
     * heartbeat interval HBINT on every sender and receiver (IBM MQ uses the larger of the two ends').
     *
     * @param heartbeatSeconds HBINT, 1 to 999999, or 0 to leave IBM's default (300 s)
     */
    public static ChannelScripts channelScripts(String from, String to, String host, int port, String cipher,
            String mcaUser, int channels, int heartbeatSeconds) {
        if (heartbeatSeconds < 0 || heartbeatSeconds > 999_999) {
            throw new IllegalArgumentException("heartbeat " + heartbeatSeconds + " s: IBM's HBINT is 0 to 999999");
        }
        String hbint = heartbeatSeconds == 0 ? "" : " HBINT(" + heartbeatSeconds + ")";
        if (channels < 1 || channels > 16) {
            throw new IllegalArgumentException(channels + " channels: from 1 to 16");
        }
        for (String q : List.of(from, to)) {
            if (q == null || !q.matches(CommonKeys.MQ_CHARS + "{1,48}")) {
                throw new IllegalArgumentException("queue manager name '" + q + "' is not valid");
            }
        }
        String channel = from + ".TO." + to;
        String lastChannel = channels == 1 ? channel : channel + "_" + channels;
        if (lastChannel.length() > 20) {
            throw new IllegalArgumentException("channel name " + lastChannel + " is longer than IBM MQ's 20 characters:"
                    + " use shorter queue manager names, or define the channel under a name of your own");
        }
        if (host == null || !host.matches("[A-Za-z0-9.:_\\-]+") || port < 1 || port > 65535) {
            throw new IllegalArgumentException("'" + host + "(" + port + ")' is not a host and port");
        }
        if (cipher == null || !cipher.matches("[A-Z0-9_]+") || mcaUser == null || !mcaUser.matches("[A-Za-z0-9._@-]{1,12}")) {
            throw new IllegalArgumentException("the CipherSpec must be an IBM MQ CipherSpec name and the channel"
                    + " user 1 to 12 characters");
        }
        StringBuilder sender = new StringBuilder("* Sending side of channel ").append(channel)
                .append(", on queue manager ").append(from).append(":\n*   runmqsc ").append(from).append(" < ")
                .append(channel).append(".sender.mqsc\n")
                .append("* The transmission queue is named after the remote queue manager, so that an agent's\n")
                .append("* QUEUE@").append(to).append(" (queue://").append(to)
                .append("/QUEUE) resolves to it; a message arriving starts the channel.\n");
        StringBuilder receiver = new StringBuilder("* Receiving side of channel ").append(channel)
                .append(", on queue manager ").append(to).append(":\n*   runmqsc ").append(to).append(" < ")
                .append(channel).append(".receiver.mqsc\n")
                .append("* The sending queue manager's certificate must be trusted by this queue manager's key\n")
                .append("* repository (SSLCAUTH(REQUIRED)); its puts run with the authorities of ").append(mcaUser)
                .append(",\n* which needs put on the agents' COMMAND, DATA and REPLY queues and on SYSTEM.FTE.\n");
        senderChannel(sender, channel, to, host, port, cipher, hbint);
        receiverChannel(receiver, channel, from, cipher, mcaUser, hbint);
        if (channels == 1) {
            return new ChannelScripts(sender.toString(), receiver.toString());
        }
        String lastAlias = "SYSTEM.FTE." + to + "_" + channels;
        if (lastAlias.length() > 48) {
            throw new IllegalArgumentException("queue manager alias " + lastAlias + " is longer than IBM MQ's 48"
                    + " characters: several channels need a shorter queue manager name");
        }
        sender.append("\n* ").append(channels).append(" parallel channels for agents with")
                .append(" agentMultipleChannelsEnabled=true: the source\n* agent looks for the queue manager aliases")
                .append(" SYSTEM.FTE.").append(to).append("_1, _2, ... (consecutive from 1)\n* and spreads its data")
                .append(" over them. This queue manager must have no default transmission\n* queue (DEFXMITQ")
                .append(" blank): with one, every alias name would resolve and the count be misread.\n");
        for (int n = 1; n <= channels; n++) {
            String xmitq = n == 1 ? to : to + "_" + n;
            if (n > 1) {
                senderChannel(sender, channel + "_" + n, xmitq, host, port, cipher, hbint);
                receiverChannel(receiver, channel + "_" + n, from, cipher, mcaUser, hbint);
            }
            sender.append("\nDEFINE QREMOTE('SYSTEM.FTE.").append(to).append('_').append(n)
                    .append("') RNAME(' ') RQMNAME('").append(to).append("') XMITQ('").append(xmitq)
                    .append("') REPLACE\n");
        }
        return new ChannelScripts(sender.toString(), receiver.toString());
    }

    /**
     * The script of an IBM MQ queue manager alias for a multi-hop route, on {@code from}: messages for
     * {@code to} go to the transmission queue {@code via} (named after the queue manager it leads to,
     * as {@link #channelScripts} names it), whose channel carries them to {@code via}, which sends them
     * on to {@code to} through its own transmission queue {@code to}.
     *
     * @return {@code DEFINE QREMOTE('<TO>') RNAME(' ') RQMNAME('<TO>') XMITQ('<VIA>') REPLACE} with comments
     * @throws IllegalArgumentException for a name MQSC cannot take as given, or {@code to} equal to {@code via}
     */
    public static String aliasScript(String from, String to, String via) {
        for (String q : List.of(from, to, via)) {
            if (q == null || !q.matches(CommonKeys.MQ_CHARS + "{1,48}")) {
                throw new IllegalArgumentException("queue manager name '" + q + "' is not valid");
            }
        }
        if (to.equals(via) || to.equals(from) || via.equals(from)) {
            throw new IllegalArgumentException("an alias on " + from + " to " + to + " via " + via
                    + " names three different queue managers");
        }
        return "* Queue manager alias on " + from + ": messages for " + to + " go through " + via + ".\n"
                + "*   runmqsc " + from + " < " + from + ".TO." + to + ".alias.mqsc\n"
                + "* " + from + " needs its channel to " + via + " (transmission queue " + via + "), " + via
                + " a channel\n* to " + to + " (transmission queue " + to + "), and " + to + " the same alias back"
                + " to " + from + " via " + via + ",\n* so that answers find their way.\n"
                + "\nDEFINE QREMOTE('" + to + "') RNAME(' ') RQMNAME('" + to + "') XMITQ('" + via + "') REPLACE\n";
    }

    /** A transmission queue, triggered, and the sender channel that serves it. */
    private static void senderChannel(StringBuilder out, String channel, String xmitq, String host, int port,
            String cipher, String hbint) {
        out.append("\nDEFINE QLOCAL('").append(xmitq).append("') USAGE(XMITQ) MAXMSGL(104857600) TRIGGER")
                .append(" TRIGTYPE(FIRST) +\n  INITQ('SYSTEM.CHANNEL.INITQ') TRIGDATA('").append(channel)
                .append("') REPLACE\n\nDEFINE CHANNEL('").append(channel).append("') CHLTYPE(SDR) TRPTYPE(TCP)")
                .append(" CONNAME('").append(host).append("(").append(port).append(")') +\n  XMITQ('").append(xmitq)
                .append("') SSLCIPH(").append(cipher).append(") MAXMSGL(104857600)").append(hbint)
                .append(" REPLACE\n\nSTART CHANNEL('")
                .append(channel).append("')\n");
    }

    /** A receiver channel and the CHLAUTH rule that gives its puts {@code mcaUser}'s authorities. */
    private static void receiverChannel(StringBuilder out, String channel, String from, String cipher,
            String mcaUser, String hbint) {
        out.append("\nDEFINE CHANNEL('").append(channel).append("') CHLTYPE(RCVR) TRPTYPE(TCP) SSLCIPH(")
                .append(cipher).append(") +\n  SSLCAUTH(REQUIRED) MAXMSGL(104857600)").append(hbint).append(" REPLACE\n")
                .append("\nSET CHLAUTH('").append(channel).append("') TYPE(QMGRMAP) QMNAME('").append(from)
                .append("') USERSRC(MAP) MCAUSER('").append(mcaUser).append("') ACTION(REPLACE)\n");
    }

    /**
     * The scripts of one IBM MQ channel.
     *
     * @param sender   for the sending queue manager
     * @param receiver for the receiving queue manager
     */
    public record ChannelScripts(String sender, String receiver) {
    }

    private static List<String> allQueues(String name) {
        List<String> all = new ArrayList<>(QueueNames.agentQueues(name));
        all.add(QueueNames.ha(name));
        all.addAll(QueueNames.authQueues(name));
        return all;
    }

    private static void define(StringBuilder out, String queue, List<String> attributes) {
        // One attribute per line with '+' continuation, as IBM's generated scripts do.
        out.append("\nDEFINE QLOCAL(").append(queue).append(") +\n");
        for (int i = 0; i < attributes.size(); i++) {
            out.append("  ").append(attributes.get(i)).append(i < attributes.size() - 1 ? " +\n" : "\n");
        }
    }
}
