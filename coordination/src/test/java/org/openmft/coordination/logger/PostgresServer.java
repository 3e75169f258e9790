package org.openmft.coordination.logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A throw-away PostgreSQL server for tests: {@code initdb} into a temporary directory, {@code postgres}
 * on a free port of 127.0.0.1 with its unix socket in the same directory, trust authentication for
 * user {@value #USER}, fsync off. Run as an unprivileged user when the tests run as root, because
 * PostgreSQL refuses to run as root. {@link #close()} stops the server and deletes the directory.
 */
final class PostgresServer implements AutoCloseable {

    /** The superuser initdb creates. */
    static final String USER = "openmft";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private final Path bin;
    private final Path directory;
    private final List<String> runAs;
    private final int port;
    private Process process;

    private PostgresServer(Path bin, Path directory, List<String> runAs, int port) {
        this.bin = bin;
        this.directory = directory;
        this.runAs = runAs;
        this.port = port;
    }

    /**
     * Where {@code initdb}, {@code postgres} and {@code pg_ctl} are: the directory named by
     * {@code OPENMFT_POSTGRES_BIN}, else the PATH, else Debian's {@code /usr/lib/postgresql/<version>/bin}
     * with the highest version.
     *
     * @return the directory, or empty when there is no PostgreSQL here
     */
    static Optional<Path> findBinaries() {
        List<Path> candidates = new ArrayList<>();
        String explicit = System.getenv("OPENMFT_POSTGRES_BIN");
        if (explicit != null && !explicit.isBlank()) {
            candidates.add(Path.of(explicit));
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir));
            }
        }
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                versions.sorted(Comparator.comparing(PostgresServer::version).reversed())
                        .forEach(v -> candidates.add(v.resolve("bin")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return candidates.stream()
                .filter(dir -> Stream.of("initdb", "postgres", "pg_ctl")
                        .allMatch(program -> Files.isExecutable(dir.resolve(program))))
                .findFirst();
    }

    private static int version(Path dir) {
        try {
            return Integer.parseInt(dir.getFileName().toString().split("\\.")[0]);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Creates a cluster and starts the server.
     *
     * @param bin the directory of the PostgreSQL programs
     * @return the running server
     * @throws IOException when a program cannot be run or fails
     * @throws InterruptedException when interrupted while waiting
     */
    static PostgresServer start(Path bin) throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("openmft-pg");
        List<String> runAs = List.of();
        if ("root".equals(System.getProperty("user.name"))) {
            String user = unprivilegedUser();
            UserPrincipal owner = directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
            Files.setOwner(directory, owner);
            runAs = List.of("setpriv", "--reuid=" + user, "--regid=" + primaryGroup(user), "--init-groups", "--");
        }
        PostgresServer server = new PostgresServer(bin, directory, runAs, freePort());
        try {
            server.run(Duration.ofMinutes(2), bin.resolve("initdb").toString(), "-D", server.dataDirectory().toString(),
                    "-U", USER, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync");
            server.startServer();
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** PostgreSQL will not run as root: take its own account, else nobody. */
    private static String unprivilegedUser() throws IOException {
        for (String user : List.of("postgres", "nobody")) {
            try {
                Path.of("/").getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
                return user;
            } catch (UserPrincipalNotFoundException e) {
                // try the next
            }
        }
        throw new IOException("running as root, and neither user 'postgres' nor 'nobody' exists to run PostgreSQL");
    }

    private static String primaryGroup(String user) throws IOException, InterruptedException {
        Process id = new ProcessBuilder("id", "-gn", user).redirectErrorStream(true).start();
        String group = new String(id.getInputStream().readAllBytes()).strip();
        if (id.waitFor() != 0 || group.isEmpty()) {
            throw new IOException("cannot find the group of " + user + ": " + group);
        }
        return group;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * A JDBC URL for a database of this server.
     *
     * @param database the database name
     * @return {@code jdbc:postgresql://127.0.0.1:<port>/<database>}
     */
    String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /**
     * Creates an empty database.
     *
     * @return its JDBC URL
     * @throws SQLException when the server refuses
     */
    String createDatabase() throws SQLException {
        String name = "logger_" + DATABASES.incrementAndGet();
        try (Connection c = DriverManager.getConnection(url("postgres"), USER, "");
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        return url(name);
    }

    /**
     * Stops the server (fast shutdown: sessions are ended) and keeps its data.
     *
     * @throws IOException when pg_ctl fails
     * @throws InterruptedException when interrupted while waiting
     */
    void stop() throws IOException, InterruptedException {
        if (process == null) {
            return;
        }
        if (process.isAlive()) {
            run(STOP_TIMEOUT.plusSeconds(10), bin.resolve("pg_ctl").toString(), "stop", "-D",
                    dataDirectory().toString(), "-m", "fast", "-w", "-t", Long.toString(STOP_TIMEOUT.toSeconds()));
        }
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        process = null;
    }

    /**
     * Starts the server again on the same data and port after {@link #stop()}.
     *
     * @throws IOException when it does not come up
     * @throws InterruptedException when interrupted while waiting
     */
    void startServer() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(runAs);
        command.addAll(List.of(bin.resolve("postgres").toString(), "-D", dataDirectory().toString(), "-p",
                Integer.toString(port), "-h", "127.0.0.1", "-k", directory.toString(), "-F", "-c",
                "max_connections=40"));
        process = new ProcessBuilder(command).directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("postgres.log").toFile()))
                .start();
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (true) {
            try (Connection c = DriverManager.getConnection(url("postgres"), USER, "")) {
                if (c.isValid(5)) {
                    return;
                }
            } catch (SQLException notYet) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IOException("postgres did not accept connections within " + START_TIMEOUT + ": " + log());
                }
                // Before the next attempt, wait up to 100 ms for postgres to exit: a failed start is
                // reported at once.
                if (process.waitFor(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    throw new IOException("postgres exited with " + process.exitValue() + ": " + log());
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (process != null) {
                process.destroyForcibly();
            }
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "PostgreSQL on 127.0.0.1:" + port + " in " + directory;
    }

    private Path dataDirectory() {
        return directory.resolve("data");
    }

    private String log() throws IOException {
        Path log = directory.resolve("postgres.log");
        return Files.exists(log) ? Files.readString(log) : "(no log)";
    }

    private void run(Duration timeout, String... command) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(runAs);
        full.addAll(Arrays.asList(command));
        Process p = new ProcessBuilder(full).directory(directory.toFile()).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", full) + " did not finish within " + timeout);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", full) + " failed with " + p.exitValue() + ": " + new String(output));
        }
    }
}
