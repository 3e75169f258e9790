package org.openmft.bench.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A second host on this machine: a network namespace joined to this one (the root namespace) by a
 * veth pair, each end with an address of a /30 of {@code 10.254.0.0/16} that no route of this
 * machine uses. A process started in it ({@link #commandPrefix}) reaches this side's end, and is
 * reached at its own end, over the veth only; its loopback is its own.
 *
 * <p>The namespace is {@code omb-<pid>-<n>} and the root end of the veth {@code omb<pid base 36>x<n>}:
 * building one first removes what runs whose JVM is gone left behind; {@link #close} (and a
 * shutdown hook) kills what still runs inside it and deletes it, which deletes the veth pair with it.
 * Building it needs root, Linux and iproute2's {@code ip} ({@link #unavailableReason}).
 */
public final class NetworkNamespace implements AutoCloseable {
    private static final Pattern NAMESPACE = Pattern.compile("omb-(\\d{1,10})-\\d{1,10}");
    private static final Pattern HOST_END = Pattern.compile("omb([0-9a-z]{1,10})x\\d{1,3}");
    private static final java.util.concurrent.atomic.AtomicInteger RUNS = new java.util.concurrent.atomic.AtomicInteger();

    private final String name;
    private final String hostEnd;
    private final String hostAddress;
    private final String namespaceAddress;
    private final Thread shutdownHook;
    private boolean closed;

    private NetworkNamespace(String name, String hostEnd, String hostAddress, String namespaceAddress) {
        this.name = name;
        this.hostEnd = hostEnd;
        this.hostAddress = hostAddress;
        this.namespaceAddress = namespaceAddress;
        this.shutdownHook = new Thread(this::remove, "remove " + name);
    }

    /** Why a namespace cannot be built here (not Linux, not root, no {@code ip}), or empty. */
    public static Optional<String> unavailableReason() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return Optional.of("not Linux");
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Uid:") && !"0".equals(line.split("\\s+")[2])) {
                    return Optional.of("not root (uid " + line.split("\\s+")[2] + ")");
                }
            }
            ip("-V");
        } catch (IOException | RuntimeException e) {
            return Optional.of("no iproute2 'ip': " + e.getMessage());
        }
        return Optional.empty();
    }

    /** Builds the namespace and its veth pair, both ends up; throws, having removed what it made, when it cannot. */
    public static NetworkNamespace create() throws IOException {
        removeStale();
        long pid = ProcessHandle.current().pid();
        int run = RUNS.incrementAndGet();
        String routes = ip("-4", "addr", "show") + ip("-4", "route", "show", "table", "all");
        int third = -1;
        for (int i = 0; i < 256 && third < 0; i++) {
            int candidate = (int) ((pid + run + i) % 256);
            if (!routes.contains("10.254." + candidate + ".")) {
                third = candidate;
            }
        }
        if (third < 0) {
            throw new IOException("no free /30 in 10.254.0.0/16 for the veth pair");
        }
        String prefix = "10.254." + third + ".";
        String hostEnd = "omb" + Long.toString(pid, 36) + "x" + run;
        String nsEnd = hostEnd.replace("omb", "omn");
        NetworkNamespace ns = new NetworkNamespace("omb-" + pid + "-" + run, hostEnd, prefix + "1", prefix + "2");
        Runtime.getRuntime().addShutdownHook(ns.shutdownHook);
        try {
            ip("netns", "add", ns.name);
            ip("-n", ns.name, "link", "set", "lo", "up");
            ip("link", "add", hostEnd, "type", "veth", "peer", "name", nsEnd, "netns", ns.name);
            ip("addr", "add", ns.hostAddress + "/30", "dev", hostEnd);
            ip("link", "set", hostEnd, "up");
            ip("-n", ns.name, "addr", "add", ns.namespaceAddress + "/30", "dev", nsEnd);
            ip("-n", ns.name, "link", "set", nsEnd, "up");
            return ns;
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
    }

    /** This side's address on the veth. */
    public String hostAddress() {
        return hostAddress;
    }

    /** The namespace's address on the veth. */
    public String namespaceAddress() {
        return namespaceAddress;
    }

    /** What a command line starts with to run inside the namespace: {@code ip netns exec <name>}. */
    public List<String> commandPrefix() {
        return List.of("ip", "netns", "exec", name);
    }

    public String name() {
        return name;
    }

    /** Kills what still runs inside the namespace and deletes it, the veth pair with it. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        remove();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: the hook runs anyway and finds nothing left.
        }
    }

    /**
     * Kills what runs inside, deletes the namespace and the veth pair: the kernel removes a deleted
     * namespace's interfaces only once the last of its sockets is gone, so the pair is deleted here
     * rather than left to that.
     */
    private void remove() {
        remove(name);
        deleteLink(hostEnd);
    }

    /** Removes the namespaces and veth pairs of runs whose JVM is gone. */
    private static void removeStale() throws IOException {
        for (String line : ip("netns", "list").split("\n")) {
            String ns = line.split(" ")[0];
            Matcher m = NAMESPACE.matcher(ns);
            if (m.matches() && gone(Long.parseLong(m.group(1)))) {
                remove(ns);
            }
        }
        for (String line : ip("-o", "link", "show").split("\n")) {
            String[] fields = line.split(":\\s*");
            String link = fields.length > 1 ? fields[1].split("@")[0] : "";
            Matcher m = HOST_END.matcher(link);
            if (m.matches() && gone(Long.parseLong(m.group(1), 36))) {
                deleteLink(link);
            }
        }
    }

    private static boolean gone(long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty();
    }

    private static void deleteLink(String link) {
        try {
            ip("link", "del", link);
        } catch (IOException | RuntimeException e) {
            // Gone already, with its namespace.
        }
    }

    private static void remove(String namespace) {
        List<ProcessHandle> killed = new ArrayList<>();
        try {
            for (String pid : ip("netns", "pids", namespace).split("\\s+")) {
                if (!pid.isEmpty()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(h -> {
                        h.destroyForcibly();
                        killed.add(h);
                    });
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not there: nothing runs in it.
        }
        for (ProcessHandle h : killed) {
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // Deleting the name below still detaches it; the namespace goes when the process does.
            }
        }
        try {
            ip("netns", "del", namespace);
        } catch (IOException | RuntimeException e) {
            // Gone already.
        }
    }

    /** Runs {@code ip args...}; its output, or an exception with it when it fails. */
    static String ip(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not end within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " exited with " + p.exitValue() + ": " + out.strip());
        }
        return out;
    }
}
