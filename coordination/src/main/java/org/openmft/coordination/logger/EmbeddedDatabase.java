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
import java.sql.Statement;
import java.util.Base64;

import org.openmft.agent.config.PrivateFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The credentials and files of a logger's default embedded H2 database, which must not be
 * reachable by other users of the machine.
 *
 * <p>Why a password, and why the server mode stays: the database URL has {@code AUTO_SERVER=TRUE},
 * so that {@code mft transfer list} can read while the logger runs (H2 lets one process open the
 * file; that process serves the others on a TCP port it opens for any address). Readers cannot do
 * without it, so the server stays, and what protects it is a password: a random one, generated
 * when the database is created, kept in {@value #PASSWORD_FILE_NAME} (mode {@code rw-------}) in
 * the logger's directory (mode {@code rwx------}) beside the database files. Whoever can read that
 * file is the logger's owner; anyone else who finds the port is refused, and cannot read the
 * files either. Before this, the administrator had an empty password and anyone on the machine who
 * reached the port could run SQL, which in H2 can run code as the logger's user.
 *
 * <p>Databases created before have no password; the first open by their owner (the logger, or
 * {@code mft transfer list}) sets the generated one and says so in the log, so nothing needs doing
 * by hand. The user stays H2's default, the empty name, which owns those databases.
 *
 * <p>Stateless and thread-safe; concurrent first opens agree on one password file.
 */
public final class EmbeddedDatabase {

    /** The password file's name, in the database's directory. */
    public static final String PASSWORD_FILE_NAME = JdbcLogStore.H2_DATABASE_NAME + ".password";

    /** H2's default user, the administrator of every logger database OpenMFT has created. */
    static final String USER = "";

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);
    /** H2's SQL state for a wrong user name or password. */
    private static final String WRONG_USER_OR_PASSWORD = "28000";
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
     * Makes the directory private ({@code rwx------}, tightened with a warning if it was not), reads
     * the password, creating it when there is none, and gives a database created without a password
     * this one.
     *
     * @param directory the database's directory; created when missing
     * @return the password to connect with
     * @throws LogStoreException when the directory or password file cannot be made or read, or the
     *     database refuses both the password and the empty password of older versions
     */
    static String prepare(Path directory) throws LogStoreException {
        String password;
        try {
            PrivateFiles.ensurePrivateDirectory(directory, "logger database directory");
            password = readOrCreatePassword(directory);
        } catch (IOException e) {
            throw new LogStoreException("cannot keep the logger database in " + directory + " private: " + e, e);
        }
        String url = JdbcLogStore.h2Url(directory);
        try {
            DriverManager.getConnection(url, USER, password).close();
            return password;
        } catch (SQLException e) {
            if (!WRONG_USER_OR_PASSWORD.equals(e.getSQLState())) {
                throw new LogStoreException("cannot open the logger database " + url + ": " + e.getMessage(), e);
            }
        }
        // Refused: a database of an older version, whose administrator has no password yet.
        try (Connection c = DriverManager.getConnection(url, USER, "");
                Statement st = c.createStatement()) {
            st.execute("SET PASSWORD '" + password.replace("'", "''") + "'");
            LOG.warn("The logger database {} had no password (it was created by an older OpenMFT, when any local "
                    + "user could connect to it); it now has the generated one in {}", url, passwordFile(directory));
            return password;
        } catch (SQLException e) {
            throw new LogStoreException("the logger database " + url + " refuses the password in "
                    + passwordFile(directory) + " (" + e.getMessage() + "); if that file was replaced or deleted, "
                    + "put back the one the database was created with, or move the database files away to start "
                    + "a new one", e);
        }
    }

    /**
     * Opens a connection to an existing embedded database as its owner, with the password from its
     * directory: for tools and tests that query it directly. The logger and the {@code mft transfer}
     * commands go through {@link JdbcLogStore} instead.
     *
     * @param directory the database's directory
     * @return a connection, which the caller closes
     * @throws IOException when the password file cannot be read (other users cannot)
     * @throws SQLException when the database refuses the connection
     */
    public static Connection connect(Path directory) throws IOException, SQLException {
        return DriverManager.getConnection(JdbcLogStore.h2Url(directory), USER, readPassword(directory));
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
                // Another process (the logger and a reader opening at once) wrote it first: use theirs.
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
