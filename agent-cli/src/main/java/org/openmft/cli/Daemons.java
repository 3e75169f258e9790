package org.openmft.cli;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Starting {@code mft} daemons (queue managers, client agents) as background processes of their
 * own, and the ready markers by which the starting command learns they are up.
 *
 * <p>A daemon writes its pid into {@code <name>.ready} in its directory once it serves; the
 * marker counts only while the daemon also holds its directory lock, so a marker left behind by a
 * killed process is never mistaken for a running daemon.
 */
final class Daemons {
    private static final Duration POLL = Duration.ofMillis(100);
    /** The system property in which the launcher names the JVM options it gave short-lived commands only. */
    static final String CLI_JVM_OPTIONS = "openmft.cliJvmOptions";

    private Daemons() {
    }

    /**
     * Starts {@code mft <args>} in a new JVM like this one, detached from our input, with its
     * console output appended to {@code consoleLog}.
     */
    static Process spawn(List<String> args, Path consoleLog) throws IOException {
        Files.createDirectories(consoleLog.getParent());
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String jvmArg : daemonJvmArguments(ManagementFactory.getRuntimeMXBean().getInputArguments(),
                System.getProperty(CLI_JVM_OPTIONS, ""))) {
            // Debug agents would clash on their port; everything else (heap, -D) is inherited.
            if (!jvmArg.startsWith("-agentlib:jdwp") && !jvmArg.startsWith("-javaagent")) {
                cmd.add(jvmArg);
            }
        }
        cmd.add("-cp");
        // The launcher's own form (home/lib/*) when there is one: the JVM expands it again, and the
        // daemon's command line stays short enough for ps and for tools that read it.
        String home = System.getProperty("openmft.home");
        cmd.add(home != null && Files.isDirectory(Path.of(home, "lib"))
                ? Path.of(home, "lib").toString() + java.io.File.separator + "*"
                : System.getProperty("java.class.path"));
        cmd.add(Mft.class.getName());
        cmd.addAll(args);
        ProcessBuilder daemon = new ProcessBuilder(cmd)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(consoleLog.toFile()));
        // A background daemon is not the process a systemd unit waits for: it must not say READY=1.
        daemon.environment().remove(SystemdNotify.SOCKET_ENV);
        return daemon.start();
    }

    /**
     * The JVM options of this command's JVM that a daemon it spawns inherits: all of them but the
     * ones the launcher put first for short-lived commands only ({@code cliJvmOptions}, the
     * {@value #CLI_JVM_OPTIONS} property: the client compiler alone, the serial collector), which
     * would slow a long-running daemon down, and that property itself. The same option given
     * again later (in BFG_JVM_PROPERTIES, on purpose) stays.
     */
    static List<String> daemonJvmArguments(List<String> inputArguments, String cliJvmOptions) {
        List<String> inherited = new ArrayList<>(inputArguments);
        List<String> cliOnly = cliJvmOptions.isBlank() ? List.of() : List.of(cliJvmOptions.trim().split("\\s+"));
        if (inherited.size() >= cliOnly.size() && inherited.subList(0, cliOnly.size()).equals(cliOnly)) {
            inherited.subList(0, cliOnly.size()).clear();
        }
        inherited.removeIf(arg -> arg.startsWith("-D" + CLI_JVM_OPTIONS + "="));
        return inherited;
    }

    /** Marks this process as ready in {@code directory}. */
    static void markReady(Path directory, String name) throws IOException {
        Path tmp = directory.resolve(name + ".ready.tmp");
        Files.writeString(tmp, Long.toString(ProcessHandle.current().pid()), StandardCharsets.US_ASCII);
        Files.move(tmp, directory.resolve(name + ".ready"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Removes this process's ready marker. */
    static void clearReady(Path directory, String name) {
        try {
            Files.deleteIfExists(directory.resolve(name + ".ready"));
        } catch (IOException e) {
            // Harmless: a stale marker is ignored without the lock.
        }
    }

    private static OptionalLong readyPid(Path directory, String name) {
        try {
            return OptionalLong.of(Long.parseLong(
                    Files.readString(directory.resolve(name + ".ready"), StandardCharsets.US_ASCII).trim()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Waits until the spawned daemon has marked itself ready, has ended, or the time is up.
     *
     * @return empty when ready; otherwise why not, with the tail of its console output
     */
    static Optional<String> awaitReady(Process process, Path directory, String name, Path consoleLog,
            Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            OptionalLong pid = readyPid(directory, name);
            if (pid.isPresent() && pid.getAsLong() == process.pid()) {
                return Optional.empty();
            }
            if (!process.isAlive()) {
                return Optional.of("it ended with exit code " + process.exitValue() + tail(consoleLog));
            }
            Thread.sleep(POLL.toMillis());
        }
        return Optional.of("it did not report ready within " + timeout.toSeconds() + " s (process "
                + process.pid() + " is still running; see " + consoleLog + ")");
    }

    /**
     * Spawns {@code mft args} as a daemon and waits until it marked itself ready in
     * {@code lockDirectory}.
     *
     * @param what  the daemon in messages, e.g. "agent SRC"
     * @return the running daemon
     * @throws CommandFailure with the daemon's own exit code (or 1) and why, when it did not start
     */
    static Process startDetached(List<String> args, Path consoleLog, Path lockDirectory, String lockName,
            String what) throws IOException, InterruptedException, CommandFailure {
        Process p = spawn(args, consoleLog);
        Optional<String> failure = awaitReady(p, lockDirectory, lockName, consoleLog, QmgrCommands.START_TIMEOUT);
        if (failure.isPresent()) {
            int code = p.isAlive() ? ExitCodes.FAILED : p.exitValue();
            throw new CommandFailure(code == 0 ? ExitCodes.FAILED : code, what + " did not start: " + failure.get());
        }
        return p;
    }

    /**
     * Asks a process to end (SIGTERM: it stops cleanly through its shutdown hook) and waits.
     *
     * @return whether it ended within the timeout
     */
    static boolean terminate(long pid, Duration timeout) throws InterruptedException {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty()) {
            return true;
        }
        handle.get().destroy();
        return awaitExit(pid, timeout);
    }

    /** Waits for a process to end. @return whether it ended within the timeout */
    static boolean awaitExit(long pid, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> handle = ProcessHandle.of(pid);
            if (handle.isEmpty() || !handle.get().isAlive()) {
                return true;
            }
            Thread.sleep(POLL.toMillis());
        }
        return false;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> last = lines.subList(Math.max(0, lines.size() - 15), lines.size());
            return last.isEmpty() ? "" : "; its last output (" + log + "):\n  " + String.join("\n  ", last);
        } catch (IOException e) {
            return "";
        }
    }
}
