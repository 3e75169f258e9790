package org.openmft.coordination.logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.openmft.coordination.logger.Logs.T0;
import static org.openmft.coordination.logger.Logs.id;
import static org.openmft.coordination.logger.Logs.record;
import static org.openmft.coordination.logger.Logs.started;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.PrivateFiles;

/**
 * The default embedded H2 database, on real files: created with a generated password kept
 * owner-only beside it in an owner-only directory; one created without a password by an older
 * version is given the password on its first open and keeps its data.
 */
class EmbeddedDatabaseTest {

    @TempDir
    Path tmp;

    @BeforeEach
    void posixAndOpen() throws Exception {
        assumeTrue(PrivateFiles.isPosix(tmp), "a file system with POSIX permissions");
        // Open to everyone, so that the modes asserted below are OpenMFT's doing.
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    private static void assertEmptyPasswordRefused(Path dir) {
        SQLException e = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(JdbcLogStore.h2Url(dir), "", "").close());
        assertThat(e.getSQLState()).as(e.toString()).isEqualTo("28000");
    }

    @Test
    void aNewDatabaseHasAGeneratedPasswordInAnOwnerOnlyFile() throws Exception {
        Path dir = tmp.resolve("logs/QM1/loggers/LOG1");
        try (JdbcLogStore store = JdbcLogStore.openH2(dir)) {
            store.storeAll(List.of(record(started(id(1), "A", "B", T0))));
        }
        Path file = EmbeddedDatabase.passwordFile(dir);
        assertThat(mode(dir)).isEqualTo("rwx------");
        assertThat(mode(file)).isEqualTo("rw-------");
        String password = Files.readString(file).strip();
        assertThat(password).matches("[A-Za-z0-9_-]{43}");
        assertEmptyPasswordRefused(dir);
        try (Connection c = EmbeddedDatabase.connect(dir); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select count(*) from FTELOG.TRANSFER")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
        try (JdbcLogStore again = JdbcLogStore.openH2(dir)) {
            assertThat(again.transfer(id(1))).isPresent();
        }
        assertThat(Files.readString(file).strip()).as("the password is made once").isEqualTo(password);

        Path other = tmp.resolve("other");
        JdbcLogStore.openH2(other).close();
        assertThat(Files.readString(EmbeddedDatabase.passwordFile(other)).strip()).isNotEqualTo(password);
    }

    @Test
    void aDatabaseOfAnOlderVersionWithoutPasswordIsMigratedOnFirstOpenAndKeepsItsData() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("old"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        // What the previous version did: no user, no password, through the store's own schema.
        try (JdbcLogStore old = JdbcLogStore.open(JdbcLogStore.h2Url(dir), null, null, JdbcLogStore.DEFAULT_SCHEMA)) {
            old.storeAll(List.of(record(started(id(7), "A", "B", T0))));
        }
        assertThat(EmbeddedDatabase.passwordFile(dir)).doesNotExist();

        try (JdbcLogStore store = JdbcLogStore.openH2(dir)) {
            assertThat(store.transfer(id(7))).as("the old data").isPresent();
        }
        assertThat(mode(dir)).as("tightened").isEqualTo("rwx------");
        assertThat(mode(EmbeddedDatabase.passwordFile(dir))).isEqualTo("rw-------");
        assertEmptyPasswordRefused(dir);
        try (Connection c = EmbeddedDatabase.connect(dir)) {
            assertThat(c.isValid(5)).isTrue();
        }
        try (JdbcLogStore again = JdbcLogStore.openH2(dir)) {
            assertThat(again.transfer(id(7))).isPresent();
        }
    }

    @Test
    void aDatabaseRefusingThePasswordFileIsReportedWithTheWayOut() throws Exception {
        Path dir = tmp.resolve("replaced");
        JdbcLogStore.openH2(dir).close();
        Path file = EmbeddedDatabase.passwordFile(dir);
        Files.delete(file);
        LogStoreException e = assertThrows(LogStoreException.class, () -> JdbcLogStore.openH2(dir));
        assertThat(e.getMessage()).contains("refuses the password in " + file, "put back the one");
        assertThat(e.getMessage()).doesNotContain(Files.readString(file).strip());
    }
}
