package org.openmft.bench.peers;

import org.openmft.bench.measure.CpuClock;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private {@code sshd} (Debian's openssh-server) on 127.0.0.1 and a free port, for the current
 * user only, with host and user keys made by {@code ssh-keygen} in its own directory and a
 * configuration of its own (no PAM, public keys only), running in the foreground until
 * {@link #close()}. The ssh peers (rsync over ssh, sftp) log in through it, so that their figures
 * include the encryption and the server side a real transfer pays for.
 *
 * <p>CPU of the server side: the sshd master forks a process per connection, which runs the
 * user's command ({@code rsync --server}, the sftp subsystem) and waits for it; the master reaps
 * the connection's process when the session ends, and from then on that whole session's CPU is in
 * the master's cutime and cstime. {@link #run} therefore waits until the master has no child left
 * before it reads {@link CpuClock#processTreeCpuNanos}.
 */
final class SshLoopback implements AutoCloseable {
    private static final long START_DEADLINE_MILLIS = 15_000;
    private static final long SESSION_END_DEADLINE_MILLIS = 10_000;

    private final Path dir;
    private final String unavailable;
    private final Path ssh;
    private final Path sftp;
    private final Path userKey;
    private final String version;
    private final int port;
    private Process sshd;

    private SshLoopback(Path dir, String unavailable, Path ssh, Path sftp, Path userKey, String version, int port,
            Process sshd) {
        this.dir = dir;
        this.unavailable = unavailable;
        this.ssh = ssh;
        this.sftp = sftp;
        this.userKey = userKey;
        this.version = version;
        this.port = port;
        this.sshd = sshd;
    }

    /**
     * Generates the keys and configuration in {@code dir}, starts sshd and waits (up to 15 s) until
     * it accepts a login. Never throws for a missing program or an sshd that does not come up: the
     * result is then {@link #unavailable()}, saying why.
     */
    static SshLoopback start(Path dir) throws IOException, InterruptedException {
        Path sshd = Executables.find("sshd");
        Path ssh = Executables.find("ssh");
        Path sftp = Executables.find("sftp");
        Path keygen = Executables.find("ssh-keygen");
        if (sshd == null) {
            return unavailable(dir, "sshd is not installed: apt-get install openssh-server");
        }
        if (ssh == null || sftp == null || keygen == null) {
            return unavailable(dir, (ssh == null ? "ssh" : sftp == null ? "sftp" : "ssh-keygen")
                    + " is not installed: apt-get install openssh-client");
        }
        Files.createDirectories(dir);
        Path hostKey = dir.resolve("ssh_host_ed25519_key");
        Path userKey = dir.resolve("id_ed25519");
        for (Path key : List.of(hostKey, userKey)) {
            String failed = runQuietly(List.of(keygen.toString(), "-q", "-t", "ed25519", "-N", "", "-C",
                    "openmft-bench", "-f", key.toString()));
            if (failed != null) {
                return unavailable(dir, "ssh-keygen failed: " + failed);
            }
        }
        Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
        // sshd refuses to start as root without its privilege separation directory, which Debian's
        // service unit creates at boot; a container that never ran the service lacks it.
        if ("root".equals(System.getProperty("user.name")) && !Files.isDirectory(Path.of("/run/sshd"))) {
            Files.createDirectories(Path.of("/run/sshd"));
        }
        int port = freePort();
        Path config = dir.resolve("sshd_config");
        Files.writeString(config, String.join("\n",
                "Port " + port,
                "ListenAddress 127.0.0.1",
                "HostKey " + hostKey,
                "PidFile " + dir.resolve("sshd.pid"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                "AllowUsers " + System.getProperty("user.name"),
                "PubkeyAuthentication yes",
                "PasswordAuthentication no",
                "KbdInteractiveAuthentication no",
                "PermitRootLogin prohibit-password",
                "UsePAM no",
                // The keys live in a temporary directory whose modes sshd would otherwise judge.
                "StrictModes no",
                "PrintMotd no",
                "Subsystem sftp internal-sftp",
                ""));
        Process p = new ProcessBuilder(sshd.toString(), "-D", "-e", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.log").toFile()).start();
        String version = Executables.sshVersion(ssh);
        SshLoopback s = new SshLoopback(dir, null, ssh, sftp, userKey, version, port, p);
        String failed = s.awaitLogin();
        if (failed != null) {
            s.close();
            return unavailable(dir, "sshd (openssh-server) did not come up on 127.0.0.1:" + port + ": " + failed);
        }
        return s;
    }

    private static SshLoopback unavailable(Path dir, String why) {
        return new SshLoopback(dir, why, null, null, null, null, -1, null);
    }

    /** Null when the server runs; else why not, naming the Debian package where one is missing. */
    String unavailable() {
        return unavailable;
    }

    /** "OpenSSH_9.2p1" */
    String version() {
        return version;
    }

    int port() {
        return port;
    }

    Path userKey() {
        return userKey;
    }

    Path sftp() {
        return sftp;
    }

    /**
     * The client options every peer uses: this server's port and key, no host key check (the host
     * key is new each run), never a prompt. The cipher is OpenSSH's default.
     */
    List<String> clientOptions() {
        return List.of("-i", userKey.toString(), "-o", "StrictHostKeyChecking=no", "-o",
                "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR");
    }

    /** {@code ssh} with {@link #clientOptions()} and the port, as one string for {@code rsync -e}. */
    String sshCommand() {
        StringBuilder sb = new StringBuilder(ssh.toString()).append(" -p ").append(port);
        for (String o : clientOptions()) {
            sb.append(' ').append(o);
        }
        return sb.toString();
    }

    /**
     * Runs the client {@code command} to its end with {@link CopyPeer#runProcess}, waits until
     * every session it opened has ended on the server side, and adds the server's CPU over the run
     * to the client's.
     */
    Peer.Run run(List<String> command, long timeoutMillis) throws Exception {
        long server0 = serverCpuNanos();
        Peer.Run client = CopyPeer.runProcess(command, timeoutMillis);
        String ended = awaitSessionsEnded();
        long server1 = serverCpuNanos();
        if (!client.ok()) {
            return client;
        }
        if (ended != null) {
            return new Peer.Run(client.wallNanos(), -1, ended);
        }
        long cpu = client.cpuNanos() < 0 || server0 < 0 || server1 < 0 ? -1
                : client.cpuNanos() + server1 - server0;
        return new Peer.Run(client.wallNanos(), cpu, null);
    }

    /** CPU of the sshd master and of every session it has reaped, or -1. */
    long serverCpuNanos() {
        return sshd == null ? -1 : CpuClock.processTreeCpuNanos(sshd.pid());
    }

    /**
     * Polls until the sshd master has no child process, live or zombie (a session's CPU reaches the
     * master's cutime only once it has been reaped); null when so, else what is still there.
     */
    String awaitSessionsEnded() throws InterruptedException {
        long deadline = System.nanoTime() + SESSION_END_DEADLINE_MILLIS * 1_000_000L;
        while (true) {
            List<Long> children = childrenOf(sshd.pid());
            if (children.isEmpty()) {
                return null;
            }
            if (System.nanoTime() > deadline) {
                return "sshd sessions " + children + " had not ended " + SESSION_END_DEADLINE_MILLIS / 1000
                        + " s after the client did";
            }
            Thread.sleep(5);
        }
    }

    /** The processes whose parent is {@code pid}, from /proc. */
    static List<Long> childrenOf(long pid) {
        List<Long> out = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String stat = Files.readString(p.resolve("stat"));
                    // Field 4 (ppid) is the second after the parenthesised command name.
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    if (Long.parseLong(f[1]) == pid) {
                        out.add(Long.parseLong(name));
                    }
                } catch (IOException | RuntimeException e) {
                    // The process ended while we looked.
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    /** Polls until a login runs {@code true}; null when it did, else why not. */
    private String awaitLogin() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_DEADLINE_MILLIS * 1_000_000L;
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!sshd.isAlive()) {
                return "sshd exited with " + sshd.exitValue() + ": " + log();
            }
            if (accepts()) {
                List<String> command = new ArrayList<>(List.of(ssh.toString(), "-p", String.valueOf(port)));
                command.addAll(clientOptions());
                command.addAll(List.of("127.0.0.1", "true"));
                last = runQuietly(command);
                if (last == null) {
                    return awaitSessionsEnded();
                }
            }
            Thread.sleep(20);
        }
        return last + "; sshd says: " + log();
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private String log() throws IOException {
        Path log = dir.resolve("sshd.log");
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8).strip() : "";
    }

    /** Runs {@code command}; null when it exited 0 within 30 s, else its status and output. */
    private static String runQuietly(List<String> command) throws IOException, InterruptedException {
        return CopyPeer.runProcess(command, 30_000).failure();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Stops sshd (TERM, then KILL after 5 s); callable more than once. */
    @Override
    public synchronized void close() {
        if (sshd == null) {
            return;
        }
        Process p = sshd;
        sshd = null;
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
