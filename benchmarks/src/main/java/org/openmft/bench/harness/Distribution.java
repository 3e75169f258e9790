package org.openmft.bench.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The built distribution's launchers ({@code agent-cli/target/openmft/bin}: {@code mft} and the
 * {@code fte*} scripts) run as a user runs them, against one data directory ({@code OPENMFT_DATA}).
 * Queue managers and client agents started through them are daemons of their own; this class finds
 * them by the pid files they write, kills them with {@code kill -9} on request, and kills every one
 * still running when it is closed, also after a failure.
 *
 * <p>The launchers are found through the system property {@code openmft.dist} (the distribution's
 * directory), else beside this module's build output ({@code <repo>/agent-cli/target/openmft}, as
 * {@code mvn package} from the repository root leaves it), else from the working directory.
 * Thread-safe.
 */
public final class Distribution implements AutoCloseable {
    /** The system property naming the distribution directory (the one holding {@code bin/mft}). */
    static final String DIST_PROPERTY = "openmft.dist";

    private final Path bin;
    private final Path dataDir;
    private final Path commandLogs;
    /** What every command line starts with before the launcher: {@code ip netns exec NS}, or nothing. */
    private final List<String> commandPrefix;
    private final AtomicInteger commands = new AtomicInteger();
    /** Every daemon pid seen, so that close() can end it even when its pid file is gone. */
    private final Set<Long> daemons = new LinkedHashSet<>();

    /**
     * @param dist    the distribution directory (see {@link #locate()})
     * @param dataDir the data directory of every command run through this instance
     */
    public Distribution(Path dist, Path dataDir) throws IOException {
        this(dist, dataDir, List.of());
    }

    /**
     * As {@link #Distribution(Path, Path)}, every command run as {@code commandPrefix launcher args...}
     * (such as {@code ip netns exec NS}, which execs the launcher inside a network namespace, where
     * the daemons it starts stay).
     */
    public Distribution(Path dist, Path dataDir, List<String> commandPrefix) throws IOException {
        this.commandPrefix = List.copyOf(commandPrefix);
        this.bin = dist.resolve("bin").toAbsolutePath();
        if (!Files.isExecutable(bin.resolve("mft"))) {
            throw new IOException("no launcher " + bin.resolve("mft") + ": build the distribution first"
                    + " (mvn package from the repository root)");
        }
        this.dataDir = Files.createDirectories(dataDir).toAbsolutePath();
        this.commandLogs = Files.createDirectories(dataDir.resolveSibling(dataDir.getFileName() + "-commands"));
    }

    /** Where the built distribution is, or an exception that says where it looked. */
    public static Path locate() throws IOException {
        List<Path> tried = new ArrayList<>();
        String property = System.getProperty(DIST_PROPERTY);
        if (property != null && !property.isBlank()) {
            tried.add(Path.of(property));
        } else {
            codeLocation().ifPresent(target -> {
                // benchmarks/target/classes or benchmarks/target/benchmarks-*.jar: the repository is
                // two or three levels up.
                for (Path p = target; p != null; p = p.getParent()) {
                    if (Files.isDirectory(p.resolve("agent-cli"))) {
                        tried.add(p.resolve("agent-cli/target/openmft"));
                        break;
                    }
                }
            });
            tried.add(Path.of("agent-cli/target/openmft"));
            tried.add(Path.of("../agent-cli/target/openmft"));
        }
        for (Path p : tried) {
            if (Files.isExecutable(p.resolve("bin/mft"))) {
                return p.toAbsolutePath().normalize();
            }
        }
        throw new IOException("the built distribution (bin/mft) is not in " + tried + "; run 'mvn package' from"
                + " the repository root, or name its directory with -D" + DIST_PROPERTY + "=DIR");
    }

    private static Optional<Path> codeLocation() {
        try {
            var source = Distribution.class.getProtectionDomain().getCodeSource();
            return source == null ? Optional.empty() : Optional.of(Path.of(source.getLocation().toURI()));
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public Path dataDir() {
        return dataDir;
    }

    Path bin() {
        return bin;
    }

    /** The result of one command: its exit code and everything it printed. */
    public record Result(String command, int exitCode, String output, double seconds) {
        public boolean ok() {
            return exitCode == 0;
        }

        /** The command line, its exit code and the last lines it printed, for a failure message. */
        public String describe() {
            String[] lines = output.strip().split("\n");
            int from = Math.max(0, lines.length - 6);
            return command + " exited with " + exitCode + ": "
                    + String.join(" | ", java.util.Arrays.copyOfRange(lines, from, lines.length));
        }
    }

    /**
     * Runs {@code bin/<launcher> args...} with {@code OPENMFT_DATA} set and the JVM options
     * {@code BFG_JVM_PROPERTIES} (which the daemons it starts inherit), and waits for it. A command
     * that does not end within {@code timeout} is killed and reported with exit code -1.
     */
    public Result run(Duration timeout, String jvmOptions, String launcher, String... args) {
        List<String> cmd = new ArrayList<>(commandPrefix);
        cmd.add(bin.resolve(launcher).toString());
        cmd.addAll(List.of(args));
        String line = launcher + " " + String.join(" ", args);
        Path out = commandLogs.resolve(String.format("%04d-%s.txt", commands.incrementAndGet(), launcher));
        long t0 = System.nanoTime();
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dataDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File(
                            "/dev/null")));
            pb.environment().put("OPENMFT_DATA", dataDir.toString());
            pb.environment().put("BFG_JVM_PROPERTIES", jvmOptions);
            Process p = pb.start();
            int code;
            if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                code = p.exitValue();
            } else {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                code = -1;
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            if (code == -1) {
                output += "\n(killed: did not end within " + timeout.toSeconds() + " s)";
            }
            return new Result(line, code, output, (System.nanoTime() - t0) / 1e9);
        } catch (IOException e) {
            return new Result(line, -1, e.toString(), (System.nanoTime() - t0) / 1e9);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(line, -1, "interrupted", (System.nanoTime() - t0) / 1e9);
        }
    }

    /** The pid a daemon recorded in {@code <dir>/<name>.pid} under the data directory, or -1. */
    public long pid(Path relativeDir, String name) {
        Path f = dataDir.resolve(relativeDir).resolve(name + ".pid");
        try {
            long pid = Long.parseLong(Files.readString(f, StandardCharsets.US_ASCII).trim());
            if (isOurs(pid)) {
                synchronized (daemons) {
                    daemons.add(pid);
                }
                return pid;
            }
        } catch (IOException | NumberFormatException e) {
            // No daemon recorded, or one that is writing its file right now.
        }
        return -1;
    }

    /**
     * Kills a daemon with SIGKILL, as a crash would end it, and waits for it to be gone.
     *
     * @return whether it was running and is gone now
     */
    public boolean kill9(long pid, Duration wait) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(x -> isOurs(pid));
        if (h.isEmpty()) {
            return false;
        }
        // ProcessHandle.destroyForcibly is SIGKILL on Unix: no shutdown hook, no flush, no goodbye.
        h.get().destroyForcibly();
        try {
            h.get().onExit().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false;
        }
    }

    static boolean alive(long pid) {
        return pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * Whether a pid is an {@code mft} JVM. The command line is read whole from {@code /proc}
     * (ProcessHandle's is cut at 4096 characters); a stale pid file may name a reused pid.
     */
    private static boolean isOurs(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline")),
                    StandardCharsets.UTF_8).contains("org.openmft.cli.Mft");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Kills every daemon that recorded a pid under the data directory or was seen by
     * {@link #pid}, and waits for each to end.
     *
     * @return how many were still running
     */
    public int killAll() {
        Set<Long> pids = new LinkedHashSet<>();
        synchronized (daemons) {
            pids.addAll(daemons);
        }
        try {
            Files.walkFileTree(dataDir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (file.getFileName().toString().endsWith(".pid")) {
                        try {
                            pids.add(Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).trim()));
                        } catch (IOException | NumberFormatException e) {
                            // Gone meanwhile, or being written.
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // The pids seen so far are still killed.
        }
        int killed = 0;
        for (long pid : pids) {
            if (alive(pid) && kill9(pid, Duration.ofSeconds(30))) {
                killed++;
            }
        }
        return killed;
    }

    @Override
    public void close() {
        killAll();
    }
}
