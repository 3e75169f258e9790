package org.openmft.agent.qmgr.channel;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

import org.openmft.agent.config.PrivateFiles;
import org.openmft.agent.messaging.Routing;

/**
 * A queue manager alias for a multi-hop route, IBM MQ's
 * {@code DEFINE QREMOTE(<REMOTE>) RNAME(' ') RQMNAME(<REMOTE>) XMITQ(<VIA>)}: messages for
 * {@link #remoteQMgr()}, which this queue manager has no channel to, go over the channel to
 * {@link #via()}, whose queue manager sends them on (it has a channel, or an alias, to
 * {@code remoteQMgr}). Kept as {@code channels/aliases/<REMOTE>.properties} in the queue manager's
 * directory (owner-only), so it is applied again with the queue manager; a running queue manager
 * applies a new, changed or removed file within seconds ({@link AliasRoutes}).
 *
 * @param remoteQMgr the queue manager reached through the alias
 * @param via        the queue manager whose channel carries its messages
 */
public record ChannelAlias(String remoteQMgr, String via) {

    /** The directory of a queue manager's aliases, inside {@link ChannelDefinition#DIRECTORY}. */
    public static final String DIRECTORY = ChannelDefinition.DIRECTORY + "/aliases";

    /** Checks the names: valid, and the alias leads somewhere else than where it goes through. */
    public ChannelAlias {
        Routing.validateQMgr(remoteQMgr);
        Routing.validateQMgr(via);
        if (remoteQMgr.equals(via)) {
            throw new IllegalArgumentException("queue manager " + remoteQMgr + " cannot be reached through itself:"
                    + " --via names the queue manager in between");
        }
    }

    /**
     * Why this alias is not applied among {@code all}, the aliases of the same queue manager: it goes
     * through another alias, not a channel. On IBM MQ an alias's XMITQ is a transmission queue of its
     * own queue manager; a longer route is an alias on each queue manager on the way, each resolving
     * the next hop where it is (and two aliases through each other would send a message round for ever).
     *
     * @return the reason, or empty when it may be applied
     */
    public Optional<String> refusal(Map<String, ChannelAlias> all) {
        ChannelAlias through = all.get(via);
        if (through == null) {
            return Optional.empty();
        }
        return Optional.of("alias " + remoteQMgr + " goes through " + via + ", itself an alias (via " + through.via()
                + "): an alias goes through a channel; for a longer route, define an alias on each queue manager"
                + " on the way");
    }

    /** The file an alias to {@code remoteQMgr} is kept in. */
    public static Path file(Path qmgrDirectory, String remoteQMgr) {
        return qmgrDirectory.resolve(DIRECTORY).resolve(Routing.validateQMgr(remoteQMgr) + ".properties");
    }

    /** Writes it, owner-only; an existing alias to the same queue manager is replaced. */
    public void store(Path qmgrDirectory) throws IOException {
        PrivateFiles.createDirectories(qmgrDirectory.resolve(DIRECTORY));
        ChannelDefinition.replacePrivately(file(qmgrDirectory, remoteQMgr), "# OpenMFT queue manager alias: messages"
                + " for " + remoteQMgr + " go through " + via + "\nremoteQMgr=" + remoteQMgr + "\nvia=" + via + "\n");
    }

    /**
     * Every alias of a queue manager, by the queue manager it leads to.
     *
     * @throws IOException naming the file that cannot be read or is wrong
     */
    public static Map<String, ChannelAlias> loadAll(Path qmgrDirectory) throws IOException {
        Map<String, ChannelAlias> out = new TreeMap<>();
        Path dir = qmgrDirectory.resolve(DIRECTORY);
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.properties")) {
            for (Path f : files) {
                if (f.getFileName().toString().startsWith(".")) {
                    continue;
                }
                Properties p = new Properties();
                p.load(new StringReader(Files.readString(f, StandardCharsets.UTF_8)));
                try {
                    ChannelAlias a = new ChannelAlias(p.getProperty("remoteQMgr"), p.getProperty("via"));
                    out.put(a.remoteQMgr(), a);
                } catch (IllegalArgumentException e) {
                    throw new IOException(f + ": " + e.getMessage(), e);
                }
            }
        }
        return out;
    }
}
