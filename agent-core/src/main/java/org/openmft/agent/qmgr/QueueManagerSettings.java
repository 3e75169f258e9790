package org.openmft.agent.qmgr;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * What defines one embedded queue manager: its name, where its journal lives, and where its TCP
 * acceptor listens. Stored as {@code qmgr.properties} in the queue manager's directory.
 *
 * @param name        the queue manager name (MQ rules: 1-48 characters of A-Z a-z 0-9 . _ / %)
 * @param directory   the queue manager's directory; journal, bindings, paging and large-message
 *                    directories live below it
 * @param bindAddress the address the TCP acceptor binds to; {@code 127.0.0.1} by default so that
 *                    a queue manager is not reachable from the network unless asked for
 * @param port        the TCP acceptor's port, 1414 by default as for IBM MQ listeners
 * @param tls         TLS on the TCP acceptor, or null for none
 * @param allowPlaintextNetwork whether the administrator accepted a listener without TLS on an
 *                    address other than loopback (refused otherwise, see {@link ListenerPolicy})
 * @param limits      message sizes and disk use per address ({@code limits.*}); null for the defaults
 */
public record QueueManagerSettings(String name, Path directory, String bindAddress, int port, ListenerTls tls,
        boolean allowPlaintextNetwork, QueueManagerLimits limits) {

    /** IBM MQ's default listener port, which agent.properties' agentQMgrPort also defaults to. */
    public static final int DEFAULT_PORT = 1414;
    /** Loopback only unless the administrator says otherwise. */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    /** The file name of the stored settings inside the queue manager's directory. */
    public static final String FILE_NAME = "qmgr.properties";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._/%]{1,48}");

    /** A queue manager without TLS whose listener is refused off loopback, as before TLS existed. */
    public QueueManagerSettings(String name, Path directory, String bindAddress, int port) {
        this(name, directory, bindAddress, port, null, false);
    }

    /** A queue manager with the default {@link QueueManagerLimits}. */
    public QueueManagerSettings(String name, Path directory, String bindAddress, int port, ListenerTls tls,
            boolean allowPlaintextNetwork) {
        this(name, directory, bindAddress, port, tls, allowPlaintextNetwork, QueueManagerLimits.DEFAULTS);
    }

    /** These settings with other limits. */
    public QueueManagerSettings withLimits(QueueManagerLimits newLimits) {
        return new QueueManagerSettings(name, directory, bindAddress, port, tls, allowPlaintextNetwork, newLimits);
    }

    public QueueManagerSettings {
        name = validateName(name);
        if (directory == null) {
            throw new IllegalArgumentException("queue manager " + name + ": directory is required");
        }
        if (bindAddress == null || bindAddress.isBlank()) {
            throw new IllegalArgumentException("queue manager " + name + ": bind address is required");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("queue manager " + name + ": port " + port
                    + " is not allowed: a port from 1 to 65535 is required");
        }
        if (limits == null) {
            limits = QueueManagerLimits.DEFAULTS;
        }
    }

    /**
     * Checks a queue manager name against IBM MQ's object-name rules.
     *
     * @return the name, unchanged (queue manager names are case-sensitive in MQ)
     * @throws IllegalArgumentException naming the rule when the name breaks it
     */
    public static String validateName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("queue manager name '" + name
                    + "' is not valid: 1 to 48 characters of A-Z a-z 0-9 . _ / % are allowed");
        }
        return name;
    }

    /** Reads {@code qmgr.properties} from a queue manager directory. */
    public static QueueManagerSettings load(Path directory) throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(directory.resolve(FILE_NAME))) {
            p.load(in);
        }
        String port = p.getProperty("port", String.valueOf(DEFAULT_PORT));
        try {
            return new QueueManagerSettings(p.getProperty("name"), directory,
                    p.getProperty("bindAddress", DEFAULT_BIND_ADDRESS), Integer.parseInt(port.trim()),
                    ListenerTls.load(p), Boolean.parseBoolean(p.getProperty("allowPlaintextNetwork", "false")),
                    QueueManagerLimits.load(p));
        } catch (NumberFormatException e) {
            throw new IOException(directory.resolve(FILE_NAME) + ": port=" + port + " is not a number", e);
        } catch (IllegalArgumentException e) {
            throw new IOException(directory.resolve(FILE_NAME) + ": " + e.getMessage(), e);
        }
    }

    /** Writes {@code qmgr.properties} atomically. */
    public void store() throws IOException {
        Files.createDirectories(directory);
        Properties p = new Properties();
        p.setProperty("name", name);
        p.setProperty("bindAddress", bindAddress);
        p.setProperty("port", String.valueOf(port));
        if (tls != null) {
            tls.store(p);
        }
        if (allowPlaintextNetwork) {
            p.setProperty("allowPlaintextNetwork", "true");
        }
        limits.store(p);
        Path tmp = directory.resolve(FILE_NAME + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            p.store(out, "OpenMFT queue manager " + name);
        }
        Files.move(tmp, directory.resolve(FILE_NAME), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    /** Whether the listener uses TLS. */
    public boolean tlsEnabled() {
        return tls != null;
    }

    /** The client URL other processes on this host use to reach the queue manager (without TLS parameters). */
    public String loopbackUrl() {
        String host = "0.0.0.0".equals(bindAddress) || "::".equals(bindAddress) ? "127.0.0.1" : bindAddress;
        return "tcp://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
