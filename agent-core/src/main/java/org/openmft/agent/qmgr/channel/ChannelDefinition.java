package org.openmft.agent.qmgr.channel;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import org.openmft.agent.config.PrivateFiles;
import org.openmft.agent.credentials.CredentialsException;
import org.openmft.agent.credentials.CredentialsFile;
import org.openmft.agent.messaging.Routing;
import org.openmft.agent.qmgr.ListenerPolicy;

/**
 * One channel of an embedded queue manager: IBM MQ's sender channel with its transmission queue,
 * from this queue manager to {@link #remoteQMgr()}. Kept as {@code channels/<REMOTE>.properties}
 * in the queue manager's directory (owner-only), so it is restarted with the queue manager; the
 * running queue manager applies a new, changed or removed file within seconds ({@link Channels}).
 *
 * @param remoteQMgr       the queue manager it leads to (its transmission queue is named after it)
 * @param host             the remote queue manager's listener host
 * @param port             its port
 * @param credentialsFile  IBM's MQMFTCredentials.xml (owner-only) with the user and password the
 *                         channel logs in with on the remote queue manager (a user with the role
 *                         {@code channel} there: {@code mft qmgr user add <REMOTE> channel.<LOCAL> --role channel})
 * @param trustStore       the trust store with the remote listener's CA certificate (TLS), or null
 * @param trustStorePasswordFile its password file, or null
 * @param allowPlaintext   the administrator allowed a channel without TLS to another host
 * @param channels         parallel channels to the remote queue manager, each its own bridge and
 *                         transmission queue (1 to {@value #MAX_CHANNELS}): channel 1 is the channel to
 *                         {@code remoteQMgr}, channel n the one IBM's queue manager alias
 *                         {@code SYSTEM.FTE.<REMOTE>_n} resolves to ({@link Routing#aliasTransmissionQueue}),
 *                         over which sources with {@code agentMultipleChannelsEnabled} spread their data
 * @param heartbeatSeconds IBM's channel attribute HBINT: how often, in seconds, an idle channel checks
 *                         that the other end still answers ({@link #DEFAULT_HEARTBEAT_SECONDS} by default,
 *                         1 to {@value #MAX_HEARTBEAT_SECONDS}); a link that stops answering is given up
 *                         after {@value #HEARTBEATS_TO_LIVE} heartbeats ({@link #connectionTtlMillis}) and
 *                         retried with a backoff capped as long ({@link #maxRetryMillis})
 */
public record ChannelDefinition(String remoteQMgr, String host, int port, Path credentialsFile,
        Path trustStore, Path trustStorePasswordFile, boolean allowPlaintext, int channels, int heartbeatSeconds) {

    /** The directory of a queue manager's channel definitions. */
    public static final String DIRECTORY = "channels";
    /** The most parallel channels one definition makes. */
    public static final int MAX_CHANNELS = 16;
    /**
     * The heartbeat when none is given: 10 s, so that a link cut without a reset (a cable, a
     * firewall) is noticed within about 30 s. IBM's HBINT defaults to 300 s, which IBM MQ can afford
     * because its channels also see TCP errors at once; a broken TCP connection without a reset
     * shows here only through missed heartbeats, and five minutes of messages waiting for a dead
     * link is worse than a small ping every 10 s.
     */
    public static final int DEFAULT_HEARTBEAT_SECONDS = 10;
    /** IBM's largest HBINT. */
    public static final int MAX_HEARTBEAT_SECONDS = 999_999;
    /** The heartbeats a link may miss before it is given up: its connection TTL. */
    public static final int HEARTBEATS_TO_LIVE = 3;
    /** The longest wait between two attempts to reconnect, whatever the heartbeat. */
    public static final long MAX_RETRY_MILLIS = 30_000;

    /** {@code channels} parallel channels with the default heartbeat. */
    public ChannelDefinition(String remoteQMgr, String host, int port, Path credentialsFile, Path trustStore,
            Path trustStorePasswordFile, boolean allowPlaintext, int channels) {
        this(remoteQMgr, host, port, credentialsFile, trustStore, trustStorePasswordFile, allowPlaintext, channels,
                DEFAULT_HEARTBEAT_SECONDS);
    }

    /** One channel. */
    public ChannelDefinition(String remoteQMgr, String host, int port, Path credentialsFile, Path trustStore,
            Path trustStorePasswordFile, boolean allowPlaintext) {
        this(remoteQMgr, host, port, credentialsFile, trustStore, trustStorePasswordFile, allowPlaintext, 1);
    }

    /** Checks the definition: names, port, TLS off loopback. */
    public ChannelDefinition {
        Routing.validateQMgr(remoteQMgr);
        if (host == null || host.isBlank() || !host.matches("[A-Za-z0-9.:_\\-\\[\\]]+")) {
            throw new IllegalArgumentException("host '" + host + "' is not a host name or address");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not a TCP port");
        }
        if (credentialsFile == null) {
            throw new IllegalArgumentException("a channel needs the credentials it logs in with on " + remoteQMgr);
        }
        if ((trustStore == null) != (trustStorePasswordFile == null)) {
            throw new IllegalArgumentException("a trust store and its password file go together");
        }
        if (trustStore == null && !allowPlaintext && !ListenerPolicy.isLoopback(host)) {
            throw new IllegalArgumentException("a channel to " + host + " leaves this host: it needs TLS (a trust "
                    + "store with the remote listener's CA certificate), or the administrator's explicit permission"
                    + " to send in the clear");
        }
        if (channels < 1 || channels > MAX_CHANNELS) {
            throw new IllegalArgumentException(channels + " channels: from 1 to " + MAX_CHANNELS);
        }
        if (heartbeatSeconds < 1 || heartbeatSeconds > MAX_HEARTBEAT_SECONDS) {
            throw new IllegalArgumentException("heartbeat " + heartbeatSeconds + " s: from 1 to "
                    + MAX_HEARTBEAT_SECONDS + " seconds");
        }
    }

    /** How often the channel's connection is checked (Artemis's client failure check period). */
    public long heartbeatMillis() {
        return heartbeatSeconds * 1000L;
    }

    /** How long a silent connection lives: {@value #HEARTBEATS_TO_LIVE} heartbeats. */
    public long connectionTtlMillis() {
        return HEARTBEATS_TO_LIVE * heartbeatMillis();
    }

    /**
     * The longest wait between two attempts to reconnect: as long as a silent link lives, at most
     * {@value #MAX_RETRY_MILLIS} ms. A channel that gives up a lost link within a few heartbeats
     * also notices the link back within as long.
     */
    public long maxRetryMillis() {
        return Math.min(MAX_RETRY_MILLIS, connectionTtlMillis());
    }

    /** The channel's name, as IBM names a sender/receiver pair: {@code <LOCAL>.TO.<REMOTE>}. */
    public String name(String localQMgr) {
        return localQMgr + ".TO." + remoteQMgr;
    }

    /** The name of channel {@code n}: {@link #name} for the first, {@code <LOCAL>.TO.<REMOTE>_n} for the others. */
    public String name(String localQMgr, int n) {
        return n == 1 ? name(localQMgr) : name(localQMgr) + "_" + n;
    }

    /**
     * What channel {@code n}'s transmission queue, bridge and status are named after: the remote
     * queue manager for the first, its alias {@code SYSTEM.FTE.<REMOTE>_n} for the others.
     */
    public String route(int n) {
        return n == 1 ? remoteQMgr : Routing.alias(remoteQMgr, n);
    }

    /** The file it is kept in. */
    public static Path file(Path qmgrDirectory, String remoteQMgr) {
        return qmgrDirectory.resolve(DIRECTORY).resolve(Routing.validateQMgr(remoteQMgr) + ".properties");
    }

    /** Writes it, owner-only; an existing definition is replaced. */
    public void store(Path qmgrDirectory) throws IOException {
        Path dir = qmgrDirectory.resolve(DIRECTORY);
        PrivateFiles.createDirectories(dir);
        StringBuilder b = new StringBuilder("# OpenMFT channel to queue manager ").append(remoteQMgr).append('\n');
        for (Map.Entry<String, String> e : properties().entrySet()) {
            b.append(e.getKey()).append('=').append(e.getValue().replace("\\", "\\\\")).append('\n');
        }
        replacePrivately(file(qmgrDirectory, remoteQMgr), b.toString());
    }

    /** Writes {@code text} to {@code file} owner-only, replacing it whole or not at all. */
    static void replacePrivately(Path file, String text) throws IOException {
        Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.deleteIfExists(temp);
        PrivateFiles.createFile(temp, text.getBytes(StandardCharsets.UTF_8));
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private Map<String, String> properties() {
        Map<String, String> p = new TreeMap<>();
        p.put("remoteQMgr", remoteQMgr);
        p.put("host", host);
        p.put("port", String.valueOf(port));
        p.put("credentialsFile", credentialsFile.toString());
        if (trustStore != null) {
            p.put("trustStore", trustStore.toString());
            p.put("trustStorePasswordFile", trustStorePasswordFile.toString());
        }
        if (allowPlaintext) {
            p.put("allowPlaintextNetwork", "true");
        }
        if (channels > 1) {
            p.put("channels", String.valueOf(channels));
        }
        if (heartbeatSeconds != DEFAULT_HEARTBEAT_SECONDS) {
            p.put("heartbeat", String.valueOf(heartbeatSeconds));
        }
        return p;
    }

    /** Reads one definition. */
    static ChannelDefinition read(Path file) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
        try {
            String trust = p.getProperty("trustStore");
            String trustPw = p.getProperty("trustStorePasswordFile");
            return new ChannelDefinition(p.getProperty("remoteQMgr"), p.getProperty("host"),
                    Integer.parseInt(p.getProperty("port", "1414").trim()),
                    p.getProperty("credentialsFile") == null ? null : Path.of(p.getProperty("credentialsFile")),
                    trust == null ? null : Path.of(trust), trustPw == null ? null : Path.of(trustPw),
                    Boolean.parseBoolean(p.getProperty("allowPlaintextNetwork", "false")),
                    Integer.parseInt(p.getProperty("channels", "1").trim()),
                    Integer.parseInt(p.getProperty("heartbeat", String.valueOf(DEFAULT_HEARTBEAT_SECONDS)).trim()));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every definition of a queue manager, by remote queue manager.
     *
     * @throws IOException naming the file that cannot be read or is wrong
     */
    public static Map<String, ChannelDefinition> loadAll(Path qmgrDirectory) throws IOException {
        Map<String, ChannelDefinition> out = new TreeMap<>();
        Path dir = qmgrDirectory.resolve(DIRECTORY);
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.properties")) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.startsWith(".") || name.equals(Channels.STATUS_FILE)) {
                    continue;
                }
                ChannelDefinition d = read(f);
                out.put(d.remoteQMgr(), d);
            }
        }
        return out;
    }

    /**
     * The login on the remote queue manager, from {@link #credentialsFile()}.
     *
     * @throws IOException naming the file when it cannot be read, others may read it, or it has no
     *                     entry for the remote queue manager
     */
    public org.openmft.agent.credentials.Credentials login() throws IOException {
        try {
            return CredentialsFile.read(credentialsFile).queueManager(remoteQMgr, CredentialsFile.localUser())
                    .orElseThrow(() -> new IOException(credentialsFile + ": no entry for queue manager " + remoteQMgr));
        } catch (CredentialsException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Reads the first line of an owner-only password file.
     *
     * @throws IOException naming the file when it cannot be read, is empty, or others may read it
     */
    static String password(Path file) throws IOException {
        try {
            CredentialsFile.checkPrivate(file);
        } catch (CredentialsException e) {
            throw new IOException(e.getMessage(), e);
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String first = text.lines().findFirst().orElse("").strip();
        if (first.isEmpty()) {
            throw new IOException(file + ": the password file is empty");
        }
        return first;
    }
}
