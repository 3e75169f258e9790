package org.openmft.coordination.logger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;

import org.h2.api.ErrorCode;
import org.openmft.agent.config.PrivateFiles;

/**
 * The default embedded H2 database of a logger: its credentials and files, which must not be
 * reachable by other users of the machine, and the one way to read it, {@link #connect}.
 *
 * <p>Who opens the file. The logger that runs on the directory owns the database: it alone opens
 * the file for writing, and serves it to readers through an H2 server of its own on the loopback
 * address ({@link EmbeddedDatabaseOwner} says how and why). A reader ({@code mft transfer list/show},
 * a tool, a test) never takes the file from a running or starting logger: {@link #connect} goes
 * through that server when a logger owns the database, waits while one is still opening it, and
 * opens the file itself only when no logger runs, then read-only, so that it writes nothing to it.
 * Earlier versions used H2's {@code AUTO_SERVER}, where whichever process opened the file first
 * served the others: a reader could become the logger's server, and every reader's close wrote to
 * the file.
 *
 * <p>Why a password. The server is reachable by every local user who finds the port. A random
 * password, generated when the database is created, kept in {@value #PASSWORD_FILE_NAME} (mode
 * {@code rw-------}) in the logger's directory (mode {@code rwx------}) beside the database files,
 * protects it; the server's address and key are in the logger's {@code logger.server}, which is
 * private as well. Whoever can read those files is the logger's owner; anyone else who finds the
 * port is refused, and cannot read the files either. Before, the administrator had an empty
 * password and anyone on the machine who reached the port could run SQL, which in H2 can run code
 * as the logger's user.
 *
 * <p>Databases created before have no password; the first start of their logger sets the generated
 * one and says so in the log, so nothing needs doing by hand. The user stays H2's default, the empty
 * name, which owns those databases.
 *
 * <p>Stateless and thread-safe; concurrent first opens agree on one password file.
 */
public final class EmbeddedDatabase {

    /** The password file's name, in the database's directory. */
    public static final String PASSWORD_FILE_NAME = JdbcLogStore.H2_DATABASE_NAME + ".password";

    /**
     * How long a reader waits for a logger that owns the database but is still opening it (it may
     * itself be waiting, up to as long, for another reader to close the file).
     */
    static final Duration STARTING_LOGGER_WAIT = EmbeddedDatabaseOwner.READERS_WAIT.multipliedBy(2);

    /** H2's default user, the administrator of every logger database OpenMFT has created. */
    static final String USER = "";

    /** H2's SQL state for a wrong user name or password. */
    static final String WRONG_USER_OR_PASSWORD = "28000";

    private static final int PASSWORD_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private EmbeddedDatabase() {
    }

    /**
     * The password file of the embedded database in a directory.
     *
     * @param directory the database's directory, normally the logger's log directory
     * @return {@code <directory>/logger.password}
     */
    public static Path passwordFile(Path directory) {
        return directory.resolve(PASSWORD_FILE_NAME);
    }

    /**
     * The file by which a running logger tells readers where its database server is: port and key,
     * readable by the owner only; locked by the logger while it runs.
     *
     * @param directory the database's directory
     * @return {@code <directory>/logger.server}
     */
    public static Path serverFile(Path directory) {
        return EmbeddedDatabaseOwner.serverFile(directory);
    }

    /**
     * Makes the directory private ({@code rwx------}, tightened with a warning if it was not) and
     * reads the password, creating it when there is none. Only the owner (the logger) prepares; the
     * database itself is given the password when the owner opens it.
     *
     * @param directory the database's directory; created when missing
     * @return the password to connect with
     * @throws LogStoreException when the directory or password file cannot be made or read
     */
    static String prepare(Path directory) throws LogStoreException {
        try {
            PrivateFiles.ensurePrivateDirectory(directory, "logger database directory");
            return readOrCreatePassword(directory);
        } catch (IOException e) {
            throw new LogStoreException("cannot keep the logger database in " + directory + " private: " + e, e);
        }
    }

    /**
     * Opens a connection to an existing embedded database with the password from its directory,
     * for reading: through the server of the logger that owns it, or, when no logger runs, to the
     * file itself in read-only mode. While a logger is starting (it holds the database but does not
     * serve it yet) this waits for it, at most {@link #STARTING_LOGGER_WAIT}; it never opens the
     * file then. For {@code mft transfer list/show} ({@link JdbcLogStore#readH2}), tools and tests.
     *
     * @param directory the database's directory
     * @return a connection, which the caller closes; read-only when it is to the file
     * @throws IOException when the password file cannot be read (other users cannot)
     * @throws SQLException when the database refuses the connection, or a starting logger does not
     *     serve it in time, or another process that is not a logger holds the file
     */
    public static Connection connect(Path directory) throws IOException, SQLException {
        return connect(directory, STARTING_LOGGER_WAIT);
    }

    /**
     * {@link #connect(Path)} with a given wait.
     *
     * @param directory the database's directory
     * @param wait how long to wait for a starting logger, or for another process to let go of the file
     * @return a connection, which the caller closes
     * @throws IOException when the password or server file cannot be read
     * @throws SQLException when no connection could be made within {@code wait}, or the database
     *     refuses the password
     */
    static Connection connect(Path directory, Duration wait) throws IOException, SQLException {
        String password;
        try {
            password = readPassword(directory);
        } catch (NoSuchFileException e) {
            throw new IOException("the logger database in " + directory + " has no password file " + e.getFile()
                    + " yet: its logger creates it when it first opens the database with this version of OpenMFT;"
                    + " start the logger once", e);
        }
        long deadline = System.nanoTime() + wait.toNanos();
        SQLException last = null;
        EmbeddedDatabaseOwner.Presence owner;
        do {
            owner = EmbeddedDatabaseOwner.presence(directory);
            try {
                if (owner.address() != null) {
                    return DriverManager.getConnection(owner.address().url(), USER, password);
                }
                if (!owner.owned()) {
                    return openReadOnly(directory, password);
                }
                // A logger owns the database and is opening it: never open the file under it.
            } catch (SQLException e) {
                if (WRONG_USER_OR_PASSWORD.equals(e.getSQLState()) || !canRetry(e, owner)) {
                    throw e;
                }
                // The logger stopped as we connected, or started as we opened the file: look again.
                last = e;
            }
            pause();
        } while (System.nanoTime() - deadline < 0);
        String why = owner.owned() ? "the logger that owns it has not opened it within " + wait.toSeconds() + " s"
                + " (its log says why; it waits for other processes that have the file open)"
                : "another process that is not a logger has the file open (a tool that opened "
                + EmbeddedDatabaseOwner.databaseFile(directory) + " itself?)";
        throw new SQLException("cannot read the logger database in " + directory + ": " + why, "08001", last);
    }

    /** Whether a failed attempt may succeed when made again: the owner changed under us. */
    private static boolean canRetry(SQLException e, EmbeddedDatabaseOwner.Presence owner) {
        if (owner.address() != null) {
            // The server went away: the logger is stopping (or was killed) and the file will be free.
            return e.getErrorCode() == ErrorCode.CONNECTION_BROKEN_1;
        }
        // The file is held: a logger took it after we looked, or a tool has it open.
        return e.getErrorCode() == ErrorCode.DATABASE_ALREADY_OPEN_1;
    }

    /** Opens the file read-only: nothing is written to it, not even when it closes. */
    private static Connection openReadOnly(Path directory, String password) throws SQLException, IOException {
        Path oldLock = directory.resolve(JdbcLogStore.H2_DATABASE_NAME + ".lock.db");
        if (Files.exists(oldLock)) {
            throw new SQLException("cannot read the logger database in " + directory + " while " + oldLock + " exists:"
                    + " an OpenMFT before this version (or a tool with AUTO_SERVER=TRUE in its URL) has it open, or"
                    + " left that file when it was killed; the logger removes it when it starts, or delete it when no"
                    + " process has the database open", "08001");
        }
        return DriverManager.getConnection(JdbcLogStore.h2ReadOnlyUrl(directory), USER, password);
    }

    private static void pause() throws SQLException {
        try {
            TimeUnit.MILLISECONDS.sleep(EmbeddedDatabaseOwner.RETRY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for the logger database", "08001", e);
        }
    }

    private static String readOrCreatePassword(Path directory) throws IOException {
        Path file = passwordFile(directory);
        try {
            String password = readPassword(directory);
            PrivateFiles.ensurePrivateFile(file, "logger database password file");
            return password;
        } catch (NoSuchFileException absent) {
            byte[] bytes = new byte[PASSWORD_BYTES];
            RANDOM.nextBytes(bytes);
            String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            try {
                PrivateFiles.createFile(file, (password + "\n").getBytes(StandardCharsets.US_ASCII));
                return password;
            } catch (FileAlreadyExistsException raced) {
                // Another process wrote it first: use theirs.
                return readPassword(directory);
            }
        }
    }

    private static String readPassword(Path directory) throws IOException {
        String password = Files.readString(passwordFile(directory), StandardCharsets.US_ASCII).strip();
        if (password.isEmpty()) {
            throw new IOException(passwordFile(directory) + " is empty");
        }
        return password;
    }
}
