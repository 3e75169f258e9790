package org.openmft.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Owner-only directories and files on a real file system. The temporary directory is opened to
 * everyone first, so that what is asserted is what the code did, not what JUnit's own owner-only
 * temporary directory gives for free.
 */
class PrivateFilesTest {

    @TempDir
    Path dir;

    @BeforeEach
    void posixAndOpen() throws Exception {
        assumeTrue(PrivateFiles.isPosix(dir), "a file system with POSIX permissions");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void createsEveryMissingDirectoryOwnerOnlyAndLeavesExistingOnesAlone() throws Exception {
        Path deep = dir.resolve("a/b/c");
        assertThat(PrivateFiles.createDirectories(deep)).isEqualTo(deep);
        assertThat(mode(dir.resolve("a"))).isEqualTo("rwx------");
        assertThat(mode(dir.resolve("a/b"))).isEqualTo("rwx------");
        assertThat(mode(deep)).isEqualTo("rwx------");
        assertThat(mode(dir)).as("an existing parent is not changed").isEqualTo("rwxrwxrwx");
        PrivateFiles.createDirectories(deep);
        assertThat(mode(deep)).isEqualTo("rwx------");
    }

    @Test
    void aDirectoryOpenToOthersIsTightenedAndReportedOnce() throws Exception {
        Path old = Files.createDirectory(dir.resolve("old"));
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(PrivateFiles.ensurePrivateDirectory(old, "data directory").map(PosixFilePermissions::toString))
                .contains("rwxr-xr-x");
        assertThat(mode(old)).isEqualTo("rwx------");
        assertThat(PrivateFiles.ensurePrivateDirectory(old, "data directory")).isEmpty();
        assertThat(PrivateFiles.ensurePrivateDirectory(dir.resolve("new"), "data directory"))
                .as("a directory created now needs no tightening").isEmpty();
        assertThat(mode(dir.resolve("new"))).isEqualTo("rwx------");
    }

    @Test
    void aNewFileIsOwnerOnlyAndNeverReplacesAnother() throws Exception {
        Path file = dir.resolve("secret");
        PrivateFiles.createFile(file, "one".getBytes(StandardCharsets.US_ASCII));
        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(file).hasContent("one");
        assertThrows(FileAlreadyExistsException.class,
                () -> PrivateFiles.createFile(file, "two".getBytes(StandardCharsets.US_ASCII)));
        assertThat(file).hasContent("one");
        try (var listing = Files.list(dir)) {
            assertThat(listing.map(p -> p.getFileName().toString())).containsExactly("secret");
        }
    }

    @Test
    void aSecretFileReadableByOthersIsTightened() throws Exception {
        Path file = Files.writeString(dir.resolve("old.password"), "x");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(PrivateFiles.ensurePrivateFile(file, "password file")).isPresent();
        assertThat(mode(file)).isEqualTo("rw-------");
    }

    @Test
    void aPropertiesFileWithASecretIsWrittenOwnerOnlyAndOthersAsBefore() throws Exception {
        PropertiesWriter writer = new PropertiesWriter("test", Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
        Path withPassword = dir.resolve("l1/logger.properties");
        writer.write(withPassword, LoggerProperties.REGISTRY, Map.of("wmqfte.logger.type", "DATABASE",
                "wmqfte.queue.manager", "QM1", "openmft.database.password", "s3cret"), false);
        assertThat(mode(withPassword)).isEqualTo("rw-------");

        Path plain = dir.resolve("l2/logger.properties");
        writer.write(plain, LoggerProperties.REGISTRY, Map.of("wmqfte.logger.type", "DATABASE",
                "wmqfte.queue.manager", "QM1"), false);
        assertThat(Files.getPosixFilePermissions(plain))
                .as("no secret: readable as the umask allows, for administrators who edit it")
                .contains(java.nio.file.attribute.PosixFilePermission.OWNER_READ);
        assertThat(PropertiesWriter.holdsSecret(LoggerProperties.REGISTRY, Map.of("openmft.database.user", "u")))
                .isFalse();
    }
}
