package org.openmft.coordination.logger;

import java.io.IOException;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.h2.api.ErrorCode;
import org.h2.engine.SysProperties;
import org.h2.tools.Server;
import org.openmft.agent.config.PrivateFiles;
import org.openmft.agent.qmgr.DirectoryLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The logger's hold on its embedded H2 database: the one process that opens the file for writing,
 * and the way everyone else reaches it while that process runs.
 *
 * <p>Why it exists. H2 lets one process open a file database; with {@code AUTO_SERVER} whichever
 * opens it first serves the others. A reader ({@code mft transfer list}, a tool, a test) that
 * opened the file while the logger was down or restarting became that owner: the logger then wrote
 * through the reader's process, and every open and close by a reader wrote to the file too (H2
 * commits and compacts when it closes). The logger is a daemon that must keep what it committed;
 * the readers are short-lived. So the logger, and only the logger, opens the file for writing:
 * <ol>
 * <li>It takes an exclusive lock on {@value #SERVER_FILE_NAME} ({@code rw-------}, in the logger's
 *     {@code rwx------} directory) before anything else and holds it while it runs. The OS drops
 *     the lock when the process dies, even by {@code kill -9}.
 * <li>It opens the file in embedded mode and keeps one connection open for as long as it serves
 *     (so a store that drops and remakes its connection never closes the database under the
 *     readers). A reader that has the file open (read-only, see below) makes it wait, at most
 *     {@link #READERS_WAIT}, with a warning in its log, and then fail with a message that says
 *     what holds the file; it never becomes anybody's client.
 * <li>It runs an H2 TCP server for this one database: bound to the loopback address, reachable
 *     only with a random key that names the database (H2's {@code -key}: any other database name,
 *     such as a file of an attacker's, is refused) and the database's generated password. The port
 *     and the key go into {@value #SERVER_FILE_NAME}, which other users cannot read.
 * </ol>
 * A reader ({@link EmbeddedDatabase#connect}) looks at {@value #SERVER_FILE_NAME}: when a logger
 * holds its lock, the reader connects through that server, waiting while the logger is still
 * opening the file; only when no logger holds it does the reader open the file itself, and then
 * read-only ({@code ACCESS_MODE_DATA=r}), which writes nothing to the file, not even when it closes.
 * A logger that starts meanwhile waits for it, as in 2.
 *
 * <p>Within one JVM (tests, the benchmark, a logger embedded in an application) the lock cannot
 * tell the owner from a reader, and on Linux closing any file descriptor of a file drops the locks
 * the process holds on it (POSIX record locks, which the JVM uses). So owners are also registered in
 * this class, readers of the same JVM use the registered owner's address without opening the file,
 * and owner and reader probes are serialised on that registry. Nothing else in the owner's process
 * may open {@value #SERVER_FILE_NAME}.
 *
 * <p>{@link #serve} is called once, by the thread that claimed; {@link #address} and {@link #close}
 * are thread-safe. Closing stops the server, closes the database and releases the lock.
 */
final class EmbeddedDatabaseOwner implements AutoCloseable {

    /** The file whose lock marks the owning logger, holding its server's port and key. */
    static final String SERVER_FILE_NAME = JdbcLogStore.H2_DATABASE_NAME + ".server";

    /** How long a logger waits for readers that have the file open. */
    static final Duration READERS_WAIT = Duration.ofSeconds(30);

    /** The address the server listens on. */
    static final String LOOPBACK = "127.0.0.1";

    /** H2's system property for the address its servers bind to, read once when H2 is loaded. */
    private static final String BIND_ADDRESS_PROPERTY = "h2.bindAddress";

    /** Between two attempts to take the lock or open the file. */
    static final Duration RETRY = Duration.ofMillis(50);

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabaseOwner.class);
    private static final int KEY_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The databases this JVM owns, by normalised directory; also the monitor of every probe and claim. */
    private static final Map<Path, EmbeddedDatabaseOwner> OWNED = new HashMap<>();

    static {
        // Before H2's SysProperties is loaded, or it is too late: then start() says so (see serve()).
        if (System.getProperty(BIND_ADDRESS_PROPERTY) == null) {
            System.setProperty(BIND_ADDRESS_PROPERTY, LOOPBACK);
        }
    }

    /**
     * Where a running logger's server is.
     *
     * @param port the loopback TCP port
     * @param key the database name the server answers to, a secret like the password
     */
    record ServerAddress(int port, String key) {
        /** The JDBC URL of the database through the server. */
        String url() {
            return "jdbc:h2:tcp://" + LOOPBACK + ":" + port + "/" + key;
        }

        String format() {
            return "# The H2 server of the logger that has this directory's database open: written by it,\n"
                    + "# readable by its owner only. Readers connect to jdbc:h2:tcp://" + LOOPBACK + ":<port>/<key>.\n"
                    + "port=" + port + "\nkey=" + key + "\n";
        }

        /** The address in a server file, or {@code null} when it has none (yet). */
        static ServerAddress parse(String text) {
            Properties p = new Properties();
            try {
                p.load(new StringReader(text));
                String key = p.getProperty("key");
                return key == null || key.isBlank() ? null
                        : new ServerAddress(Integer.parseInt(p.getProperty("port", "").trim()), key.trim());
            } catch (IOException | NumberFormatException e) {
                return null;
            }
        }
    }

    /**
     * What a reader finds.
     *
     * @param owned whether a logger owns the database (it may still be opening it)
     * @param address its server, once it serves; {@code null} otherwise
     */
    record Presence(boolean owned, ServerAddress address) {
    }

    private final Path directory;
    private final FileChannel serverFile;
    private final FileLock lock;
    /** Set by {@link #serve}, which runs once, before the owner is shared; closed by {@link #close}. */
    private volatile Connection keeper;
    private volatile Server server;
    private volatile ServerAddress address;
    /** Guarded by {@link #OWNED}. */
    private boolean closed;

    private EmbeddedDatabaseOwner(Path directory, FileChannel serverFile, FileLock lock) {
        this.directory = directory;
        this.serverFile = serverFile;
        this.lock = lock;
    }

    /**
     * The server file of the database in a directory.
     *
     * @param directory the database's directory
     * @return {@code <directory>/logger.server}
     */
    static Path serverFile(Path directory) {
        return directory.resolve(SERVER_FILE_NAME);
    }

    /**
     * Takes the database of a directory as its owner and serves it: {@link #claim}, then
     * {@link #serve}.
     *
     * @param directory the database's directory, private already ({@link EmbeddedDatabase#prepare})
     * @param password the database's password
     * @return the owner, which the caller closes
     * @throws LogStoreException when another logger owns it, or readers hold the file longer than
     *     {@link #READERS_WAIT}, or the database cannot be opened or served
     */
    static EmbeddedDatabaseOwner open(Path directory, String password) throws LogStoreException {
        EmbeddedDatabaseOwner owner = claim(directory, READERS_WAIT);
        try {
            owner.serve(password, READERS_WAIT, () -> LOG.warn("The logger database {} is open in another process"
                    + " (a reader such as 'mft transfer list' or a tool; H2 lets the file be open in one process at a"
                    + " time); waiting up to {} s for it to close", databaseFile(directory), READERS_WAIT.toSeconds()));
            return owner;
        } catch (LogStoreException | RuntimeException e) {
            owner.closeQuietly(e);
            throw e;
        }
    }

    /**
     * Takes the lock that tells readers a logger owns the database, without opening it yet: from
     * now on no reader opens the file.
     *
     * @param directory the database's directory
     * @param wait how long to try, for another owner to let go
     * @return the owner, not serving yet
     * @throws LogStoreException when another owner holds the lock for longer than {@code wait}
     */
    static EmbeddedDatabaseOwner claim(Path directory, Duration wait) throws LogStoreException {
        Path dir = normalise(directory);
        Path file = serverFile(dir);
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            synchronized (OWNED) {
                if (!OWNED.containsKey(dir)) {
                    EmbeddedDatabaseOwner owner = tryClaim(dir, file);
                    if (owner != null) {
                        OWNED.put(dir, owner);
                        return owner;
                    }
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new LogStoreException("the logger database " + databaseFile(dir) + " is owned by another logger"
                        + " (it holds " + file + " locked), for more than " + wait.toSeconds() + " s; a second"
                        + " logger on the same directory is not allowed");
            }
            pause();
        }
    }

    /** Opens the server file and tries its lock once; {@code null} when another process holds it. */
    private static EmbeddedDatabaseOwner tryClaim(Path dir, Path file) throws LogStoreException {
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE), PrivateFiles.ownerOnlyFile(file));
            PrivateFiles.ensurePrivateFile(file, "logger database server file");
            FileLock lock = DirectoryLock.tryLockOrClose(channel);
            if (lock == null) {
                return null;
            }
            // What a killed owner left is no address: its server died with it.
            channel.truncate(0);
            return new EmbeddedDatabaseOwner(dir, channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new LogStoreException("cannot lock " + file + ": " + e, e);
        }
    }

    /**
     * What a reader finds in a directory right now: an owner or none, and its address.
     *
     * @param directory the database's directory
     * @return the presence
     * @throws IOException when the server file exists but cannot be read
     */
    static Presence presence(Path directory) throws IOException {
        Path dir = normalise(directory);
        synchronized (OWNED) {
            EmbeddedDatabaseOwner local = OWNED.get(dir);
            if (local != null) {
                return new Presence(true, local.address);
            }
            try (FileChannel channel = FileChannel.open(serverFile(dir), StandardOpenOption.READ)) {
                FileLock probe;
                try {
                    probe = channel.tryLock(0, Long.MAX_VALUE, true);
                } catch (OverlappingFileLockException closingOwnerOfThisJvm) {
                    return new Presence(true, null);
                }
                if (probe != null) {
                    // Nobody holds it: a logger killed before left at most a stale address.
                    probe.release();
                    return new Presence(false, null);
                }
                ByteBuffer content = ByteBuffer.allocate((int) Math.min(channel.size(), 4096));
                while (content.hasRemaining() && channel.read(content, content.position()) > 0) {
                    // Reading the small file whole; the owner writes it in one piece.
                }
                return new Presence(true, ServerAddress.parse(new String(content.array(), 0, content.position(),
                        StandardCharsets.UTF_8)));
            } catch (NoSuchFileException none) {
                return new Presence(false, null);
            }
        }
    }

    /**
     * Opens the database, waiting while a reader has the file open, and starts serving it.
     *
     * @param password the database's password (a database of an older version without one is given it)
     * @param wait how long to wait for readers
     * @param waiting called once, when the file turns out to be held by another process
     * @throws LogStoreException when the file stays held longer than {@code wait}, or the database
     *     refuses the password, or the server cannot start
     */
    void serve(String password, Duration wait, Runnable waiting) throws LogStoreException {
        keeper = openFile(password, wait, waiting);
        Path staleLock = directory.resolve(JdbcLogStore.H2_DATABASE_NAME + ".lock.db");
        try {
            // Left by an OpenMFT that opened the file with AUTO_SERVER; it would stop read-only readers.
            Files.deleteIfExists(staleLock);
            String path;
            try (Statement st = keeper.createStatement(); ResultSet rs = st.executeQuery("CALL DATABASE_PATH()")) {
                rs.next();
                path = rs.getString(1);
            }
            byte[] bytes = new byte[KEY_BYTES];
            RANDOM.nextBytes(bytes);
            String key = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            server = Server.createTcpServer("-tcpPort", "0", "-tcpDaemon", "-ifExists", "-key", key, path).start();
            if (!isLoopback(SysProperties.BIND_ADDRESS)) {
                LOG.warn("The logger database server listens on all addresses, not only {} (H2 was loaded with {}={}"
                        + " before OpenMFT could set it); H2 still refuses connections from other hosts", LOOPBACK,
                        BIND_ADDRESS_PROPERTY, SysProperties.BIND_ADDRESS);
            }
            ServerAddress served = new ServerAddress(server.getPort(), key);
            serverFile.truncate(0);
            ByteBuffer content = ByteBuffer.wrap(served.format().getBytes(StandardCharsets.UTF_8));
            while (content.hasRemaining()) {
                serverFile.write(content, content.position());
            }
            serverFile.force(false);
            address = served;
            LOG.info("Logger database {} open, served to readers on {}:{}", databaseFile(directory), LOOPBACK,
                    served.port());
        } catch (IOException | SQLException e) {
            throw new LogStoreException("cannot serve the logger database " + databaseFile(directory) + ": " + e, e);
        }
    }

    /**
     * Opens the file in embedded mode: waits while another process has it open, and gives a
     * database of an older version, which has no password, this one.
     */
    private Connection openFile(String password, Duration wait, Runnable waiting) throws LogStoreException {
        String url = JdbcLogStore.h2Url(directory);
        long deadline = System.nanoTime() + wait.toNanos();
        boolean warned = false;
        while (true) {
            Connection c = null;
            try {
                c = connectOrMigratePassword(url, password);
                if (!c.isReadOnly()) {
                    return c;
                }
                // A reader of this JVM has the file open read-only: H2 joined us to its read-only database.
                c.close();
            } catch (SQLException e) {
                closeQuietly(c);
                if (e.getErrorCode() != ErrorCode.DATABASE_ALREADY_OPEN_1) {
                    throw new LogStoreException("cannot open the logger database " + url + ": " + e.getMessage(), e);
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new LogStoreException("the logger database " + databaseFile(directory) + " stayed open in another"
                        + " process for " + wait.toSeconds() + " s (a reader such as 'mft transfer list' or a tool;"
                        + " 'fuser " + databaseFile(directory) + "' names it): close it and start the logger again");
            }
            if (!warned) {
                warned = true;
                waiting.run();
            }
            pause();
        }
    }

    private Connection connectOrMigratePassword(String url, String password) throws SQLException,
            LogStoreException {
        try {
            return DriverManager.getConnection(url, EmbeddedDatabase.USER, password);
        } catch (SQLException e) {
            if (!EmbeddedDatabase.WRONG_USER_OR_PASSWORD.equals(e.getSQLState())) {
                throw e;
            }
        }
        // Refused: a database of an older version, whose administrator has no password yet.
        Connection c = null;
        try {
            c = DriverManager.getConnection(url, EmbeddedDatabase.USER, "");
            try (Statement st = c.createStatement()) {
                st.execute("SET PASSWORD '" + password.replace("'", "''") + "'");
            }
            LOG.warn("The logger database {} had no password (it was created by an older OpenMFT, when any local "
                    + "user could connect to it); it now has the generated one in {}", url,
                    EmbeddedDatabase.passwordFile(directory));
            return c;
        } catch (SQLException e) {
            closeQuietly(c);
            if (e.getErrorCode() == ErrorCode.DATABASE_ALREADY_OPEN_1) {
                throw e;
            }
            throw new LogStoreException("the logger database " + url + " refuses the password in "
                    + EmbeddedDatabase.passwordFile(directory) + " (" + e.getMessage() + "); if that file was replaced"
                    + " or deleted, put back the one the database was created with, or move the database files away"
                    + " to start a new one", e);
        }
    }

    /**
     * Where readers reach the database now.
     *
     * @return the address, or {@code null} before {@link #serve} and after {@link #close}
     */
    ServerAddress address() {
        return address;
    }

    /** Stops serving, closes the database (unless a store's connection is still open) and lets go. */
    @Override
    public void close() throws LogStoreException {
        // Under the registry's monitor: no reader of this JVM opens the server file until the lock is gone.
        synchronized (OWNED) {
            if (closed) {
                return;
            }
            closed = true;
            OWNED.remove(directory, this);
            address = null;
            LogStoreException failure = null;
            try {
                serverFile.truncate(0);
            } catch (IOException e) {
                failure = new LogStoreException("cannot clear " + serverFile(directory) + ": " + e, e);
            }
            if (server != null) {
                server.stop();
            }
            if (keeper != null) {
                try {
                    keeper.close();
                } catch (SQLException e) {
                    failure = new LogStoreException("cannot close the logger database " + databaseFile(directory)
                            + ": " + e.getMessage(), e);
                }
            }
            try {
                lock.release();
                serverFile.close();
            } catch (IOException e) {
                failure = new LogStoreException("cannot unlock " + serverFile(directory) + ": " + e, e);
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    private void closeQuietly(Exception cause) {
        try {
            close();
        } catch (LogStoreException e) {
            cause.addSuppressed(e);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // Already failing; the first failure is the one reported.
        }
    }

    static Path databaseFile(Path directory) {
        return directory.resolve(JdbcLogStore.H2_DATABASE_NAME + ".mv.db");
    }

    private static Path normalise(Path directory) {
        return directory.toAbsolutePath().normalize();
    }

    private static boolean isLoopback(String host) {
        if (host == null || host.isBlank()) {
            return false;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Waits {@link #RETRY} between attempts of a loop that has a deadline. */
    static void pause() throws LogStoreException {
        try {
            TimeUnit.MILLISECONDS.sleep(RETRY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LogStoreException("interrupted while waiting for the logger database", e);
        }
    }

    @Override
    public String toString() {
        return "EmbeddedDatabaseOwner[" + databaseFile(directory) + ", " + (address == null ? "not serving"
                : LOOPBACK + ":" + address.port()) + "]";
    }
}
