package org.openmft.coordination.logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.openmft.coordination.logger.Logs.T0;
import static org.openmft.coordination.logger.Logs.id;
import static org.openmft.coordination.logger.Logs.record;
import static org.openmft.coordination.logger.Logs.started;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.PrivateFiles;

/**
 * Who opens the logger's embedded database file: the logger (the store of
 * {@link JdbcLogStore#openH2}) alone, while readers ({@link EmbeddedDatabase#connect}) go through
 * its loopback server, wait while it starts, and open the file themselves only when no logger runs,
 * read-only. Other processes are real JVMs ({@link DatabaseProcess}), since file locks work between
 * processes.
 */
class EmbeddedDatabaseOwnershipTest {
    private static final Duration LINE_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    private final List<Child> children = new ArrayList<>();

    @AfterEach
    void stopChildren() throws Exception {
        for (Child c : children) {
            c.process.destroyForcibly();
            c.process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** A {@link DatabaseProcess}, its output lines queued as they come. */
    private record Child(Process process, LinkedBlockingQueue<String> lines) {
        /** The value of the next line starting with {@code key=} (or equal to {@code key}). */
        String next(String key) throws InterruptedException {
            long deadline = System.nanoTime() + LINE_TIMEOUT.toNanos();
            List<String> seen = new ArrayList<>();
            while (System.nanoTime() < deadline) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line == null) {
                    if (!process.isAlive() && lines.isEmpty()) {
                        break;
                    }
                    continue;
                }
                seen.add(line);
                if (line.equals(key)) {
                    return "";
                }
                if (line.startsWith(key + "=")) {
                    return line.substring(key.length() + 1);
                }
            }
            throw new AssertionError("no line '" + key + "' from the child; it printed " + seen);
        }

        void tell() throws IOException {
            OutputStream in = process.getOutputStream();
            in.write('\n');
            in.flush();
        }
    }

    private Child start(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()), "-ea", "-cp",
                System.getProperty("java.class.path"), DatabaseProcess.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("pump failed: " + e);
            }
        }, "child-output");
        pump.setDaemon(true);
        pump.start();
        Child c = new Child(p, lines);
        children.add(c);
        return c;
    }

    /** A logger's database with one transfer in it, closed. */
    private Path database() throws Exception {
        Path dir = tmp.resolve("LOG1");
        try (JdbcLogStore store = JdbcLogStore.openH2(dir)) {
            store.storeAll(List.of(record(started(id(1), "A", "B", T0))));
        }
        return dir;
    }

    private static String password(Path dir) throws IOException {
        return Files.readString(EmbeddedDatabase.passwordFile(dir)).strip();
    }

    private static int transfers(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("select count(*) from FTELOG.TRANSFER")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    @Test
    void whileTheLoggerRunsAReaderGoesThroughItsServerWhichOnlyTheOwnerCanUse() throws Exception {
        Path dir = database();
        try (JdbcLogStore logger = JdbcLogStore.openH2(dir)) {
            logger.storeAll(List.of(record(started(id(2), "A", "B", T0))));

            Path serverFile = EmbeddedDatabase.serverFile(dir);
            if (PrivateFiles.isPosix(dir)) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(serverFile)))
                        .isEqualTo("rw-------");
            }
            // Not read here: on Linux, closing any file descriptor of the file drops this JVM's lock on it.
            // The other process below finds the address in it.
            EmbeddedDatabaseOwner.ServerAddress address = EmbeddedDatabaseOwner.presence(dir).address();
            assertThat(address).isNotNull();

            try (Connection c = EmbeddedDatabase.connect(dir)) {
                assertThat(c.getMetaData().getURL()).isEqualTo(address.url()).startsWith("jdbc:h2:tcp://127.0.0.1:");
                assertThat(transfers(c)).as("what the logger committed").isEqualTo(2);
            }
            try (JdbcLogStore reader = JdbcLogStore.readH2(dir, JdbcLogStore.DEFAULT_SCHEMA)) {
                assertThat(reader.transfer(id(2))).isPresent();
            }
            Child other = start("read", dir.toString(), "5000");
            assertThat(other.next("url")).as("a reader in another process, from %s", serverFile)
                    .isEqualTo(address.url());
            assertThat(other.next("count")).isEqualTo("2");

            String password = password(dir);
            for (String[] attempt : new String[][] {{address.url(), ""}, {address.url(), "wrong"},
                    {"jdbc:h2:tcp://127.0.0.1:" + address.port() + "/" + tmp.resolve("other/db"), password},
                    {"jdbc:h2:tcp://127.0.0.1:" + address.port() + "/" + dir.resolve("logger"), password}}) {
                SQLException e = assertThrows(SQLException.class,
                        () -> DriverManager.getConnection(attempt[0], "", attempt[1]).close(), attempt[0]);
                assertThat(e.getSQLState()).as("%s with '%s': %s", attempt[0], attempt[1], e).isEqualTo("28000");
            }
        }
        assertThat(EmbeddedDatabaseOwner.presence(dir).owned()).as("after the logger stopped").isFalse();
    }

    @Test
    void withNoLoggerAReaderOpensTheFileReadOnlyAndWritesNothingToIt() throws Exception {
        Path dir = database();
        Path file = EmbeddedDatabaseOwner.databaseFile(dir);
        String before = sha256(file);
        for (int i = 0; i < 3; i++) {
            try (Connection c = EmbeddedDatabase.connect(dir)) {
                assertThat(c.isReadOnly()).isTrue();
                assertThat(transfers(c)).isEqualTo(1);
            }
        }
        Child other = start("read", dir.toString(), "5000");
        assertThat(other.next("readOnly")).isEqualTo("true");
        assertThat(other.next("count")).isEqualTo("1");
        assertThat(other.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(sha256(file)).as("the file after readers opened and closed it").isEqualTo(before);
    }

    @Test
    void aReaderNeverOpensTheFileWhileALoggerIsStarting() throws Exception {
        Path dir = database();
        try (EmbeddedDatabaseOwner starting = EmbeddedDatabaseOwner.claim(dir, Duration.ofSeconds(5))) {
            // The logger holds the database but has not opened the file yet: readers wait for it.
            SQLException here = assertThrows(SQLException.class,
                    () -> EmbeddedDatabase.connect(dir, Duration.ofMillis(300)).close());
            assertThat(here.getMessage()).contains("the logger that owns it has not opened it");
            Child other = start("read", dir.toString(), "1000");
            assertThat(other.next("failed")).contains("the logger that owns it has not opened it");

            // Nobody has the file: the logger opens it at once, without waiting for anyone.
            starting.serve(password(dir), Duration.ofSeconds(5), () -> {
                throw new AssertionError("the logger had to wait: a reader had the file open");
            });
            try (Connection c = EmbeddedDatabase.connect(dir)) {
                assertThat(c.getMetaData().getURL()).startsWith("jdbc:h2:tcp://127.0.0.1:");
            }
        }
    }

    @Test
    void aReaderWaitsForAStartingLoggerAndThenGoesThroughIt() throws Exception {
        Path dir = database();
        try (EmbeddedDatabaseOwner starting = EmbeddedDatabaseOwner.claim(dir, Duration.ofSeconds(5))) {
            Child reader = start("read", dir.toString(), "60000");
            reader.next("connecting");
            // The reader is looking for the logger's server, which is not there yet; now the logger serves.
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try {
                    starting.serve(password(dir), Duration.ofSeconds(30), () -> { });
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            served.get(60, TimeUnit.SECONDS);
            assertThat(reader.next("url")).startsWith("jdbc:h2:tcp://127.0.0.1:");
            assertThat(reader.next("count")).isEqualTo("1");
        }
    }

    @Test
    void aLoggerWaitsForAReaderThatHasTheFileOpenAndThenOwnsIt() throws Exception {
        Path dir = database();
        Child reader = start("hold", dir.toString());
        assertThat(reader.next("url")).as("no logger runs: the file itself").startsWith("jdbc:h2:file:");
        reader.next("holding");

        CountDownLatch waiting = new CountDownLatch(1);
        EmbeddedDatabaseOwner owner = EmbeddedDatabaseOwner.claim(dir, Duration.ofSeconds(5));
        try {
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try {
                    owner.serve(password(dir), Duration.ofSeconds(60), waiting::countDown);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(waiting.await(60, TimeUnit.SECONDS)).as("the logger says it waits").isTrue();
            assertThat(served).isNotDone();
            reader.tell();
            reader.next("released");
            served.get(60, TimeUnit.SECONDS);
            assertThat(owner.address()).isNotNull();
            try (Connection c = EmbeddedDatabase.connect(dir)) {
                assertThat(c.getMetaData().getURL()).isEqualTo(owner.address().url());
                assertThat(transfers(c)).isEqualTo(1);
            }
        } finally {
            owner.close();
        }
    }

    @Test
    void aLoggerGivesUpOnAReaderThatKeepsTheFileOpenAndSaysWhy() throws Exception {
        Path dir = database();
        Child reader = start("hold", dir.toString());
        reader.next("holding");
        try (EmbeddedDatabaseOwner owner = EmbeddedDatabaseOwner.claim(dir, Duration.ofSeconds(5))) {
            LogStoreException e = assertThrows(LogStoreException.class,
                    () -> owner.serve(password(dir), Duration.ofMillis(500), () -> { }));
            assertThat(e.getMessage()).contains("stayed open in another process", "mft transfer list", "fuser");
        }
        reader.tell();
        reader.next("released");
    }

    @Test
    void aSecondLoggerOnTheSameDatabaseIsRefused() throws Exception {
        Path dir = database();
        Child first = start("own", dir.toString());
        first.next("port");
        LogStoreException e = assertThrows(LogStoreException.class,
                () -> EmbeddedDatabaseOwner.claim(dir, Duration.ofMillis(300)).close());
        assertThat(e.getMessage()).contains("owned by another logger");
        first.tell();
        first.next("released");
        JdbcLogStore.openH2(dir).close();
    }

    @Test
    void theServerListensOnTheLoopbackAddressOnly() throws Exception {
        List<InetAddress> others = new ArrayList<>();
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                if (!a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                    others.add(a);
                }
            }
        }
        assumeTrue(!others.isEmpty(), "this machine has an address other than loopback");
        Path dir = database();
        // A logger process of its own: this JVM may have loaded H2 before the bind address was set.
        Child logger = start("own", dir.toString());
        int port = Integer.parseInt(logger.next("port"));
        for (InetAddress a : others) {
            try (Socket s = new Socket()) {
                assertThrows(IOException.class, () -> s.connect(new InetSocketAddress(a, port), 5000),
                        "the logger database server reached on " + a);
            }
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 5000);
        }
        logger.tell();
        logger.next("released");
    }
}
