package org.openmft.cli.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Runs the built distribution's launchers ({@code agent-cli/target/openmft/bin}) as a user would,
 * each against its own data directory, and cleans up every daemon it started.
 */
final class Distribution implements AutoCloseable {
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);

    private final Path bin;
    private final Path dataDir;
    private String jvmOptions = "-Xmx512m";
    /** Makes a launcher's process: as is, or inside a host of {@link NetworkHosts}. */
    private Function<List<String>, ProcessBuilder> processes = ProcessBuilder::new;
    /** Set in (or, null, removed from) the commands' environment: no systemd socket of the test's own. */
    private final java.util.Map<String, String> environment = new java.util.HashMap<>(
            java.util.Collections.singletonMap("NOTIFY_SOCKET", null));

    Distribution(Path dataDir) {
        String dist = System.getProperty("openmft.dist", "target/openmft");
        this.bin = Path.of(dist, "bin").toAbsolutePath();
        assertTrue(Files.isExecutable(bin.resolve("mft")), "no launcher at " + bin + ": run 'mvn package' first");
        this.dataDir = dataDir;
    }

    Path dataDir() {
        return dataDir;
    }

    /** The JVM options (BFG_JVM_PROPERTIES) of the commands run from now on, and of their daemons. */
    /**
     * JVM options for tests whose processes move little data: the client compiler only and the
     * serial collector start a JVM markedly faster, and most of such a test is starting commands.
     */
    static final String QUICK_START = "-Xmx512m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

    /**
     * Sets {@code name} in the environment of the commands run from now on (and of their daemons);
     * a null value removes it.
     */
    Distribution environment(String name, String value) {
        environment.put(name, value);
        return this;
    }

    Distribution jvmOptions(String options) {
        this.jvmOptions = options;
        return this;
    }

    /**
     * Runs the commands from now on, and so the daemons they start, inside {@code host} of
     * {@code hosts}, as if this distribution were installed on that machine; their environment and
     * working directory are as everywhere else.
     */
    Distribution inHost(NetworkHosts hosts, String host) {
        hosts.host(host);
        this.processes = cmd -> hosts.inHost(host, cmd);
        return this;
    }

    /** The result of one command: its exit code and everything it printed. */
    record Result(int exitCode, String output) {
        Result expect(int code) {
            if (exitCode != code) {
                throw new AssertionError("expected exit code " + code + " but got " + exitCode + "; output:\n"
                        + output);
            }
            return this;
        }
    }

    /** Runs {@code bin/<launcher> args...} from an unrelated working directory. */
    Result run(String launcher, String... args) {
        return run(COMMAND_TIMEOUT, launcher, args);
    }

    /** Runs a launcher that may take longer than {@link #COMMAND_TIMEOUT}. */
    Result run(Duration timeout, String launcher, String... args) {
        try {
            Path out = Files.createTempFile("mft-out", ".txt");
            ProcessBuilder pb = launcher(out, launcher, args);
            long started = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", pb.command()) + " did not end within " + timeout);
            }
            if (Boolean.getBoolean("openmft.it.timings")) {
                System.out.printf("[it-timing] %6.1f s %s %s%n", (System.nanoTime() - started) / 1e9, launcher,
                        String.join(" ", args));
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            Files.delete(out);
            return new Result(p.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A launcher running in the background; its output (stdout and stderr) goes to a file. */
    record Background(Process process, Path output) {
        /** Everything it printed so far. */
        String printed() {
            try {
                return Files.readString(output, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        }

        /** Waits for it to end, at most {@code timeout}, and returns its exit code and output. */
        Result await(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError("the command did not end within " + timeout + "; output:\n" + printed());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            return new Result(process.exitValue(), printed());
        }
    }

    /** Starts {@code bin/<launcher> args...} as {@link #run} does, without waiting for it. */
    Background start(String launcher, String... args) {
        try {
            Path out = Files.createTempFile(dataDir, "background-", ".txt");
            return new Background(launcher(out, launcher, args).start(), out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code bin/<launcher> args...} from an unrelated working directory, with this data directory
     * and JVM options, its output and errors to {@code out}.
     */
    private ProcessBuilder launcher(Path out, String launcher, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(bin.resolve(launcher).toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = processes.apply(cmd).directory(Path.of(System.getProperty("java.io.tmpdir")).toFile())
                .redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put("OPENMFT_DATA", dataDir.toString());
        pb.environment().put("BFG_JVM_PROPERTIES", jvmOptions);
        environment.forEach((name, value) -> {
            if (value == null) {
                pb.environment().remove(name);
            } else {
                pb.environment().put(name, value);
            }
        });
        return pb;
    }

    Result mft(String... args) {
        return run("mft", args);
    }

    /**
     * Creates embedded queue manager {@code qmgr} on a free port and makes it the coordination and
     * command queue manager (fteSetupCoordination, fteSetupCommands), as most tests begin.
     *
     * @return the queue manager's TCP port
     */
    int createQueueManager(String qmgr) {
        int port = freePort();
        mft("qmgr", "create", qmgr, "--port", String.valueOf(port)).expect(0);
        run("fteSetupCoordination", "-coordinationQMgr", qmgr).expect(0);
        run("fteSetupCommands", "-connectionQMgr", qmgr).expect(0);
        return port;
    }

    /**
     * Writes, into the data directory, a one-item binary MD5 request from AGENT1 to AGENT2 on QM1.
     *
     * @param type     {@code file} or {@code directory}
     * @param exist    {@code error} or {@code overwrite}
     * @param detailed whether to ask for a detailed final reply
     * @return the request file
     */
    Path request(String name, String source, String destination, String type, String exist, boolean detailed)
            throws IOException {
        Path f = dataDir.resolve(name);
        Files.writeString(f, """
                <?xml version="1.0" encoding="UTF-8"?>
                <request version="6.00">
                  <managedTransfer>
                    <originator><hostName>it</hostName><userID>tester</userID></originator>
                    <sourceAgent agent="AGENT1" QMgr="QM1"/>
                    <destinationAgent agent="AGENT2" QMgr="QM1"/>
                    %s
                    <transferSet>
                      <item mode="binary" checksumMethod="MD5">
                        <source><file>%s</file></source>
                        <destination type="%s" exist="%s"><file>%s</file></destination>
                      </item>
                    </transferSet>
                  </managedTransfer>
                </request>
                """.formatted(detailed ? "<reply QMGR=\"QM1\" detailed=\"true\">ANY</reply>" : "", source, type,
                exist, destination));
        return f;
    }

    /**
     * The administrator's credentials of queue manager {@code qmgr} of this data directory, as its
     * owner's commands read them, for a test that talks to the queue manager directly.
     */
    org.openmft.agent.credentials.Credentials administrator(String qmgr) {
        try {
            return org.openmft.agent.qmgr.security.QueueManagerUsers.of(qmgr, dataDir.resolve("qmgrs").resolve(qmgr))
                    .administrator().orElseThrow();
        } catch (org.openmft.agent.credentials.CredentialsException e) {
            throw new AssertionError(e);
        }
    }

    /** A TCP port nobody listens on right now. */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Polls a condition until it holds or the deadline passes. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        if (Boolean.getBoolean("openmft.it.timings")) {
            try {
                awaitQuietly(what, timeout, deadline, condition);
            } finally {
                System.out.printf("[it-timing] %6.1f s await %s%n", (System.nanoTime() - started) / 1e9, what);
            }
            return;
        }
        awaitQuietly(what, timeout, deadline, condition);
    }

    private static void awaitQuietly(String what, Duration timeout, long deadline, BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** The pid a daemon recorded in {@code <name>.pid} under the data directory, or -1. */
    long pid(Path relativeDir, String name) {
        Path f = dataDir.resolve(relativeDir).resolve(name + ".pid");
        try {
            return Long.parseLong(Files.readString(f, StandardCharsets.US_ASCII).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    static boolean alive(long pid) {
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static boolean isOurs(long pid) {
        return commandLine(pid).contains("org.openmft.cli.Mft");
    }

    /** The arguments of a running process (its java command line), or none when it is gone. */
    static List<String> commandLine(long pid) {
        try {
            String raw = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8);
            return raw.isEmpty() ? List.of() : List.of(raw.split("\0"));
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * Kills every daemon that recorded a pid under the data directory. The walk tolerates files
     * that vanish meanwhile (daemons delete theirs as they stop), so no daemon is left running
     * to hold files open or burn CPU after a failed test.
     */
    @Override
    public void close() throws IOException {
        List<Path> pidFiles = new ArrayList<>();
        Files.walkFileTree(dataDir, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult visitFile(Path file,
                    java.nio.file.attribute.BasicFileAttributes attrs) {
                if (file.getFileName().toString().endsWith(".pid")) {
                    pidFiles.add(file);
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        List<ProcessHandle> killed = new ArrayList<>();
        for (Path f : pidFiles) {
            try {
                long pid = Long.parseLong(Files.readString(f, StandardCharsets.US_ASCII).trim());
                // Only our own daemons: a stale pid file may name a reused pid. The command line is
                // read whole from /proc (ProcessHandle's is cut at 4096 characters).
                ProcessHandle.of(pid).filter(h -> isOurs(pid)).ifPresent(h -> {
                            h.destroyForcibly();
                            killed.add(h);
                        });
            } catch (NumberFormatException | IOException e) {
                // Gone meanwhile, or not a pid file of ours.
            }
        }
        for (ProcessHandle h : killed) {
            try {
                h.onExit().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("daemon " + h.pid() + " did not end after kill -9", e);
            }
        }
    }

    /** A file of {@code size} pseudo-random bytes (the same for the same size), for transfers to move. */
    static Path randomFile(Path file, long size) throws IOException {
        Files.createDirectories(file.getParent());
        java.util.SplittableRandom r = new java.util.SplittableRandom(size);
        byte[] block = new byte[1 << 20];
        try (var o = Files.newOutputStream(file)) {
            for (long left = size; left > 0; left -= block.length) {
                for (int i = 0; i < block.length; i += 8) {
                    long v = r.nextLong();
                    for (int j = 0; j < 8; j++) {
                        block[i + j] = (byte) (v >>> (8 * j));
                    }
                }
                o.write(block, 0, (int) Math.min(left, block.length));
            }
        }
        return file;
    }

    /** The hex MD5 of a file. */
    static String md5(Path file) throws Exception {
        java.security.MessageDigest d = java.security.MessageDigest.getInstance("MD5");
        byte[] b = new byte[1 << 20];
        try (java.io.InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(b)) > 0) {
                d.update(b, 0, n);
            }
        }
        return java.util.HexFormat.of().formatHex(d.digest());
    }
}
