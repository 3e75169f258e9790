package org.openmft.cli.it;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;

/**
 * Hosts of our own making on this one machine, for tests of agents and queue managers on
 * different hosts: each host a network namespace with {@code lo} up and one veth into a shared
 * Ethernet segment, with an address of a private /24 that overlaps none of the machine's networks.
 * Links can be cut ({@link #cut}) and one direction of routing refused ({@link #partition}).
 *
 * <p>The segment is a Linux bridge in a namespace of its own (the "switch"), not in the root
 * namespace: then nothing of a run is in the root namespace at all, so the machine's own routes,
 * firewall and interfaces never see the hosts' traffic, two test JVMs running side by side cannot
 * clash on interface names there, and deleting the namespaces removes every interface with them.
 * The test JVM itself has no route to the hosts: it talks to them through processes it starts
 * inside them ({@link #inHost}, {@link HostProcess}).
 *
 * <p>Names carry the pid of the JVM and a counter: namespaces are {@code omft-<pid>-<run>} (the
 * switch) and {@code omft-<pid>-<run>-<host>}, interfaces {@code om<pid base 36>-<run base 36>}
 * followed by {@code br} (the bridge), {@code h<i>} (host i's end) or {@code p<i>} (its port on the
 * bridge), at most 15 characters as Linux requires. Creating hosts first removes what runs whose
 * JVM is gone left behind, so a test run that crashed does not break the next; this run's are
 * removed by {@link #close}, by a shutdown hook, and by {@link NetworkHostsExtension} after a
 * failed test.
 *
 * <p>Building hosts needs root, Linux and iproute2's {@code ip}; without them {@link #create}
 * aborts the test (a JUnit assumption) saying which is missing, so it is reported skipped, not
 * passed.
 */
final class NetworkHosts implements AutoCloseable {
    private static final Pattern NAMESPACE = Pattern.compile("omft-(\\d{1,10})-(\\d{1,10})(?:-.+)?");
    private static final Pattern INTERFACE = Pattern.compile("om([0-9a-z]{1,10})-([0-9a-z]{1,10})(?:br|h\\d+|p\\d+)");
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_]{1,32}");
    private static final AtomicInteger RUNS = new AtomicInteger();

    /** One host: its namespace, its end of the veth, that veth's port on the bridge, its address. */
    record Host(String name, String namespace, String device, String switchPort, InetAddress address) {
    }

    private final String tag;
    private final String switchNamespace;
    private final Ipv4Prefix subnet;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    /** Every namespace this run asked for, in order, so a half-built run is removed too. */
    private final List<String> namespaces = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::removeAll, "remove network hosts");
    private boolean closed;

    /**
     * Builds hosts {@code names} (letters, digits, {@code _}), each with address {@code .1},
     * {@code .2}, ... of the chosen /24 in the order given; aborts the test, saying why, where hosts
     * cannot be built.
     */
    static NetworkHosts create(String... names) {
        unavailableReason().ifPresent(reason -> Assumptions.assumeTrue(false, reason));
        removeStale();
        return new NetworkHosts(List.of(names));
    }

    private NetworkHosts(List<String> names) {
        long pid = ProcessHandle.current().pid();
        int run = RUNS.incrementAndGet();
        this.tag = "om" + Long.toString(pid, 36) + "-" + Integer.toString(run, 36);
        this.switchNamespace = "omft-" + pid + "-" + run;
        this.subnet = Ipv4Prefix.freeSlash24(Ipv4Prefix.findAll(ip("-o", "-4", "addr", "show") + "\n"
                + ip("-4", "route", "show", "table", "all")));
        if ((tag + "h" + names.size()).length() > 15) {
            throw new IllegalStateException("interface names of run " + tag + " would exceed 15 characters");
        }
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        boolean built = false;
        try {
            buildSwitch();
            for (String name : names) {
                addHost(name);
            }
            built = true;
        } finally {
            if (!built) {
                close();
            }
        }
    }

    /**
     * Why hosts cannot be built here (not Linux, not root, no {@code ip}), or empty. Whether the
     * kernel lets us make namespaces is found out by making the first one.
     */
    static Optional<String> unavailableReason() {
        String os = System.getProperty("os.name");
        if (!os.startsWith("Linux")) {
            return Optional.of("network hosts are Linux network namespaces; this is " + os);
        }
        String uid = effectiveUid();
        if (!"0".equals(uid)) {
            return Optional.of("building network hosts (namespaces, veth pairs, a bridge) needs root; this JVM runs as"
                    + " uid " + uid + " (" + System.getProperty("user.name") + ")");
        }
        try {
            Distribution.Result version = LocalUsers.exec("ip", "-V");
            if (version.exitCode() != 0) {
                return Optional.of("'ip -V' (iproute2) failed: " + version.output());
            }
        } catch (Exception e) {
            return Optional.of("no 'ip' command (iproute2) to build network hosts with: " + e.getMessage());
        }
        return Optional.empty();
    }

    private static String effectiveUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2];
                }
            }
        } catch (IOException e) {
            // Not found below.
        }
        return "unknown";
    }

    private void buildSwitch() {
        namespaces.add(switchNamespace);
        try {
            ip("netns", "add", switchNamespace);
        } catch (IllegalStateException e) {
            Assumptions.assumeTrue(false, "this machine does not let us create a network namespace: " + e.getMessage());
        }
        try {
            ip("-n", switchNamespace, "link", "add", bridge(), "type", "bridge");
        } catch (IllegalStateException e) {
            Assumptions.assumeTrue(false, "this kernel does not let us create a bridge: " + e.getMessage());
        }
        ip("-n", switchNamespace, "link", "set", bridge(), "up");
    }

    private void addHost(String name) {
        if (!HOST_NAME.matcher(name).matches() || hosts.containsKey(name)) {
            throw new IllegalArgumentException("host name '" + name + "': letters, digits and _, each name once");
        }
        int index = hosts.size() + 1;
        Host host = new Host(name, switchNamespace + "-" + name, tag + "h" + index, tag + "p" + index,
                subnet.host(index));
        namespaces.add(host.namespace());
        ip("netns", "add", host.namespace());
        hosts.put(name, host);
        ip("-n", host.namespace(), "link", "set", "lo", "up");
        ip("-n", host.namespace(), "link", "add", host.device(), "type", "veth", "peer", "name", host.switchPort(),
                "netns", switchNamespace);
        ip("-n", switchNamespace, "link", "set", host.switchPort(), "master", bridge(), "up");
        ip("-n", host.namespace(), "addr", "add", host.address().getHostAddress() + "/24", "dev", host.device());
        ip("-n", host.namespace(), "link", "set", host.device(), "up");
    }

    private String bridge() {
        return tag + "br";
    }

    /** The host named {@code name}. */
    Host host(String name) {
        Host h = hosts.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no host " + name + " among " + hosts.keySet());
        }
        return h;
    }

    /** The address of host {@code name}. */
    InetAddress address(String name) {
        return host(name).address();
    }

    /** Every host's name and address, in the order they were made. */
    Map<String, InetAddress> addresses() {
        Map<String, InetAddress> m = new LinkedHashMap<>();
        hosts.values().forEach(h -> m.put(h.name(), h.address()));
        return Collections.unmodifiableMap(m);
    }

    /** The /24 the hosts' addresses are in. */
    Ipv4Prefix subnet() {
        return subnet;
    }

    /** The names of every namespace of this run (the switch's first), for checks and diagnostics. */
    List<String> namespaces() {
        return List.copyOf(namespaces);
    }

    /** What every interface name of this run begins with. */
    String interfacePrefix() {
        return tag;
    }

    /**
     * {@code command} run inside host {@code name} ({@code ip netns exec <namespace> command...}),
     * not yet started: its environment (the test JVM's, to change as needed) and working directory
     * are the caller's to set, and {@code ip} execs the command, so the process started is the
     * command itself, as are the pids of the daemons it starts.
     */
    ProcessBuilder inHost(String name, List<String> command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", host(name).namespace()));
        full.addAll(command);
        return new ProcessBuilder(full);
    }

    /**
     * Unplugs host {@code name} at the switch: its port on the bridge goes down. The host keeps its
     * address and routes, as a machine does when a cable or switch fails elsewhere, so its sockets
     * get no error: established connections stall and retransmit until their own timeouts or
     * heartbeats notice; a new connection to it times out, or fails with "No route to host" once
     * ARP gave up on its address.
     */
    void cut(String name) {
        ip("-n", switchNamespace, "link", "set", host(name).switchPort(), "down");
    }

    /**
     * Plugs host {@code name} back in. Connections that stalled carry on if they have not timed out;
     * a peer whose ARP gave up may answer "No route to host" for up to a few seconds more, so poll.
     */
    void restore(String name) {
        ip("-n", switchNamespace, "link", "set", host(name).switchPort(), "up");
    }

    /**
     * Host {@code from} can no longer send to host {@code to} ({@code ip route add prohibit <to>/32}
     * inside {@code from}), while {@code to} still routes to {@code from}. What TCP sees: a connect
     * from {@code from} to {@code to} fails at once with "Permission denied" (EACCES); a connect
     * from {@code to} to {@code from} reaches it, but the SYN-ACK cannot be routed back, so it times
     * out; established connections between them stall both ways (no data, no acknowledgements
     * leave {@code from}). Datagrams from {@code to} still arrive at {@code from}.
     */
    void partition(String from, String to) {
        ip("-n", host(from).namespace(), "route", "add", "prohibit", host(to).address().getHostAddress() + "/32");
    }

    /** Undoes {@link #partition}{@code (from, to)}. */
    void heal(String from, String to) {
        ip("-n", host(from).namespace(), "route", "del", "prohibit", host(to).address().getHostAddress() + "/32");
    }

    /** Kills what still runs inside the hosts and removes every namespace and interface of this run. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down: the hook runs anyway and finds nothing left.
        }
    }

    private void removeAll() {
        List<String> reversed = new ArrayList<>(namespaces);
        Collections.reverse(reversed);
        reversed.forEach(NetworkHosts::remove);
    }

    /** Removes what earlier runs, whose JVMs are gone, left behind. */
    static void removeStale() {
        for (String line : ip("netns", "list").split("\n")) {
            String namespace = line.split(" ")[0];
            Matcher m = NAMESPACE.matcher(namespace);
            if (m.matches() && runOver(Long.parseLong(m.group(1)), createdAt(namespace))) {
                remove(namespace);
            }
        }
        for (String line : ip("-o", "link", "show").split("\n")) {
            String[] fields = line.split(":\\s*");
            String name = fields.length > 1 ? fields[1].split("@")[0] : "";
            Matcher m = INTERFACE.matcher(name);
            if (m.matches() && runOver(Long.parseLong(m.group(1), 36), Optional.empty())) {
                ipQuietly("link", "del", name);
            }
        }
    }

    /**
     * Whether the run of JVM {@code pid} is over: no such process, or one started after the
     * namespace was made (the pid was reused; the start time is known to about a second).
     */
    private static boolean runOver(long pid, Optional<Instant> created) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (p.isEmpty()) {
            return true;
        }
        Optional<Instant> started = p.get().info().startInstant();
        return created.isPresent() && started.isPresent() && started.get().isAfter(created.get().plusSeconds(2));
    }

    private static Optional<Instant> createdAt(String namespace) {
        try {
            return Optional.of(Files.getLastModifiedTime(Path.of("/run/netns", namespace)).toInstant());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Kills the processes inside {@code namespace} (all ours: we made it) and deletes it; its
     * interfaces go with it, and a veth whose other end is elsewhere goes whole.
     */
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
        } catch (IllegalStateException e) {
            // Not there (never made, or removed by another JVM meanwhile): nothing runs in it.
        }
        for (ProcessHandle h : killed) {
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // Deleting the name below still detaches it; the namespace goes when the process does.
            }
        }
        ipQuietly("netns", "del", namespace);
    }

    /** Runs {@code ip args...} and returns what it printed; throws, with that, if it fails. */
    static String ip(String... args) {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "ip";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Distribution.Result r;
        try {
            r = LocalUsers.exec(cmd);
        } catch (Exception e) {
            throw new IllegalStateException(String.join(" ", cmd) + ": " + e.getMessage(), e);
        }
        if (r.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " exited with " + r.exitCode() + ": "
                    + r.output().strip());
        }
        return r.output();
    }

    private static void ipQuietly(String... args) {
        try {
            ip(args);
        } catch (IllegalStateException e) {
            // Best effort: gone already, or removed by another JVM at the same time.
        }
    }
}
