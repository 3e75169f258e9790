package org.openmft.cli.it;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A test class's {@code main} running in its own JVM inside a host of {@link NetworkHosts}, talked
 * to in lines: a command written to its standard input, an answer read from its standard output.
 * The mains ({@link EchoServer}, {@link NetProbe}, {@link DelayRelayProcess}, {@link PublicationTap})
 * end when their standard input closes, so they end with the test JVM even if it is killed; their
 * errors go to a file that failures quote.
 */
final class HostProcess implements AutoCloseable {
    /** A JVM that starts fast and stays small: these mains move test traffic, nothing more. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final String what;
    private final Process process;
    private final PrintWriter in;
    private final Path errors;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private String firstLine;

    private HostProcess(String what, Process process, Path errors) {
        this.what = what;
        this.process = process;
        this.errors = errors;
        this.in = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
        Thread reader = new Thread(this::readLines, what + " output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code main} with {@code args} inside {@code host} on the test classes and agent-core's
     * (where {@link org.openmft.agent.net.DelayRelay} lives; the mains need nothing else) and returns once it printed its first line, which {@link #firstLine} keeps.
     */
    static HostProcess start(NetworkHosts hosts, String host, Class<?> main, String... args) {
        return start(hosts, host, "", main, args);
    }

    /**
     * As {@link #start}, with the built distribution's libraries on the class path as well (the
     * messaging client and everything agent-core needs), for a main that talks to a queue manager
     * ({@link PublicationTap}).
     */
    static HostProcess startWithDistribution(NetworkHosts hosts, String host, Class<?> main, String... args) {
        Path lib = Path.of(System.getProperty("openmft.dist", "target/openmft"), "lib").toAbsolutePath();
        return start(hosts, host, File.pathSeparator + lib + File.separator + "*", main, args);
    }

    private static HostProcess start(NetworkHosts hosts, String host, String moreClassPath, Class<?> main,
            String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_OPTIONS);
        cmd.add("-cp");
        cmd.add(location(HostProcess.class) + File.pathSeparator + location(org.openmft.agent.net.DelayRelay.class)
                + moreClassPath);
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        String what = main.getSimpleName() + " in " + host;
        try {
            Path errors = Files.createTempFile("host-process-", ".err");
            Process p = hosts.inHost(host, cmd).redirectError(errors.toFile()).start();
            HostProcess hp = new HostProcess(what, p, errors);
            hp.firstLine = hp.readLine(START_TIMEOUT);
            return hp;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What it printed first (a server: {@code listening <port>}). */
    String firstLine() {
        return firstLine;
    }

    private static Path location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // It ended; readLine reports that.
        }
    }

    /**
     * For the mains: answers each line of standard input with {@code handler}'s line, or with
     * {@code fail <exception>} if it throws, until standard input closes.
     */
    static void answer(CommandHandler handler) throws IOException {
        BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            String answer;
            try {
                answer = handler.answer(line.trim().split("\\s+"));
            } catch (Exception e) {
                answer = "fail " + e;
            }
            System.out.println(answer);
            System.out.flush();
        }
    }

    /** What a main does with one command (its words). */
    @FunctionalInterface
    interface CommandHandler {
        String answer(String[] words) throws Exception;
    }

    /** Writes {@code command} and returns the answer, waiting at most {@code timeout}. */
    String request(String command, Duration timeout) {
        in.println(command);
        return readLine(timeout);
    }

    private String readLine(Duration timeout) {
        try {
            String line = lines.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (line == null) {
                throw new AssertionError(what + (process.isAlive() ? " did not answer within " + timeout
                        : " ended with " + process.exitValue()) + "; its errors:\n" + errors());
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private String errors() {
        try {
            return Files.readString(errors, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** Closes its input, so it ends; kills it if it has not within 10 s. */
    @Override
    public void close() {
        in.close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            Files.deleteIfExists(errors);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // A temporary file left behind.
        }
    }
}
