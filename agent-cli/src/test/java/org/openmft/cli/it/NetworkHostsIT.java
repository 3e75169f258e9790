package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-host fixture itself: three hosts A, B, C in network namespaces, an echo server in B,
 * probes in A, B and C; cutting a link, a one-way partition, the delaying relay, the launchers
 * run inside a host, and nothing left behind. Only lower bounds of time are asserted, from delays
 * the test inserted: the machine is shared and slow.
 */
class NetworkHostsIT {
    private static final Duration ANSWER = Duration.ofSeconds(60);
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final long MIB = 1 << 20;

    @RegisterExtension
    static final NetworkHostsExtension NET = NetworkHostsExtension.of("A", "B", "C");

    static HostProcess echoB;
    static int echoPortB;
    static int echoPortA;
    static HostProcess probeA;
    static HostProcess probeB;
    static HostProcess probeC;

    @BeforeAll
    static void startServersAndProbes() {
        echoB = HostProcess.start(hosts(), "B", EchoServer.class, address("B"));
        echoPortB = Integer.parseInt(echoB.firstLine().split(" ")[1]);
        probeA = HostProcess.start(hosts(), "A", NetProbe.class);
        probeB = HostProcess.start(hosts(), "B", NetProbe.class);
        probeC = HostProcess.start(hosts(), "C", NetProbe.class);
        echoPortA = Integer.parseInt(ask(probeA, "echo-server " + address("A")).split(" ")[1]);
    }

    @AfterAll
    static void stopServersAndProbes() {
        for (HostProcess p : new HostProcess[] {echoB, probeA, probeB, probeC}) {
            if (p != null) {
                p.close();
            }
        }
    }

    static NetworkHosts hosts() {
        return NET.hosts();
    }

    static String address(String host) {
        return hosts().address(host).getHostAddress();
    }

    static String ask(HostProcess probe, String command) {
        return probe.request(command, ANSWER);
    }

    /** What a 2 s connection attempt from {@code probe} to {@code address}:{@code port} answers. */
    static String connect(HostProcess probe, String address, int port) {
        return ask(probe, "connect " + address + " " + port + " 2000");
    }

    /** The shortest of five round trips of one byte, in nanoseconds. */
    static long roundTrip(HostProcess probe, InetSocketAddress echo) {
        String answer = ask(probe, "rtt " + echo.getAddress().getHostAddress() + " " + echo.getPort() + " 5");
        assertThat(answer).startsWith("ok ");
        return Long.parseLong(answer.split(" ")[1]);
    }

    @Test
    void anEchoServerInBIsReachableFromAAtBsAddressAndNotOnAsLoopback() {
        assertThat(hosts().addresses()).containsOnlyKeys("A", "B", "C");
        assertThat(hosts().subnet().toString()).endsWith("/24");
        assertThat(connect(probeA, address("B"), echoPortB)).isEqualTo("ok");
        assertThat(roundTrip(probeA, new InetSocketAddress(hosts().address("B"), echoPortB))).isPositive();
        assertThat(connect(probeA, "127.0.0.1", echoPortB)).startsWith("fail").contains("Connection refused");
        assertThat(connect(probeB, "127.0.0.1", echoPortB)).as("B's server listens on B's address only")
                .startsWith("fail");
    }

    @Test
    void aCutLinkIsUnreachableUntilRestored() {
        hosts().cut("B");
        try {
            Distribution.await("a connection from A to B to fail", DEADLINE,
                    () -> connect(probeA, address("B"), echoPortB).startsWith("fail"));
            assertThat(connect(probeC, address("A"), echoPortA)).as("the other hosts still reach each other")
                    .isEqualTo("ok");
        } finally {
            hosts().restore("B");
        }
        Distribution.await("A to reach B again", DEADLINE, () -> connect(probeA, address("B"), echoPortB).equals("ok"));
    }

    @Test
    void aPartitionRefusesOneDirectionOnly() {
        int udpPortA = Integer.parseInt(ask(probeA, "udp-listen " + address("A")).split(" ")[1]);
        hosts().partition("A", "B");
        try {
            assertThat(connect(probeA, address("B"), echoPortB)).as("A's own route refuses B at once")
                    .startsWith("fail").contains("Permission denied");
            assertThat(ask(probeB, "udp-send " + address("A") + " " + udpPortA + " from-B")).isEqualTo("ok");
            assertThat(ask(probeA, "udp-receive 10000")).as("B's datagrams still reach A").isEqualTo("ok from-B");
            assertThat(connect(probeB, address("A"), echoPortA)).as("B's SYN reaches A, A's SYN-ACK cannot leave")
                    .startsWith("fail").contains("timed out");
            assertThat(connect(probeC, address("B"), echoPortB)).isEqualTo("ok");
            assertThat(connect(probeC, address("A"), echoPortA)).isEqualTo("ok");
        } finally {
            hosts().heal("A", "B");
        }
        assertThat(connect(probeA, address("B"), echoPortB)).isEqualTo("ok");
        assertThat(connect(probeB, address("A"), echoPortA)).isEqualTo("ok");
    }

    @Test
    void theRelayDelaysEachWay() {
        InetSocketAddress echo = new InetSocketAddress(hosts().address("B"), echoPortB);
        try (DelayRelayProcess relay = DelayRelayProcess.start(hosts(), "C", 0, echo, Duration.ofMillis(25), 0)) {
            long direct = roundTrip(probeA, echo);
            long relayed = roundTrip(probeA, relay.address());
            assertThat(relayed).as("round trip through a 25 ms relay").isGreaterThanOrEqualTo(
                    Duration.ofMillis(50).toNanos());
            relay.setDelay(Duration.ofMillis(60));
            long slower = roundTrip(probeA, relay.address());
            assertThat(slower).as("round trip after setDelay(60 ms)").isGreaterThanOrEqualTo(
                    Duration.ofMillis(120).toNanos());
            System.out.printf("round trip A-B direct %.2f ms, through a 25 ms relay %.2f ms, 60 ms %.2f ms%n",
                    direct / 1e6, relayed / 1e6, slower / 1e6);
        }
    }

    @Test
    void bulkDataCrossesTheRelayIntact() {
        long size = 16 * MIB;
        InetSocketAddress echo = new InetSocketAddress(hosts().address("B"), echoPortB);
        try (DelayRelayProcess relay = DelayRelayProcess.start(hosts(), "C", 0, echo, Duration.ofMillis(25), 0)) {
            String[] bulk = bulk(probeA, relay.address(), size);
            assertThat(bulk[2]).as("CRC-32C of what came back").isEqualTo(bulk[1]);
            assertThat(Long.parseLong(bulk[3])).isEqualTo(size);
            Distribution.await("the relay to count every byte both ways", DEADLINE,
                    () -> relay.bytesToTarget() == size && relay.bytesFromTarget() == size);
            long nanos = Long.parseLong(bulk[4]);
            assertThat(nanos).isGreaterThanOrEqualTo(Duration.ofMillis(50).toNanos());
            System.out.printf("16 MiB echoed through a 25 ms relay in %.0f ms%n", nanos / 1e6);
        }
    }

    @Test
    void theRelayCapsTheRate() {
        long size = 2 * MIB;
        InetSocketAddress echo = new InetSocketAddress(hosts().address("B"), echoPortB);
        try (DelayRelayProcess relay = DelayRelayProcess.start(hosts(), "C", 0, echo, Duration.ofMillis(5),
                2 * MIB)) {
            String[] bulk = bulk(probeA, relay.address(), size);
            assertThat(bulk[2]).isEqualTo(bulk[1]);
            assertThat(Long.parseLong(bulk[4])).as("2 MiB at 2 MiB/s").isGreaterThanOrEqualTo(
                    Duration.ofSeconds(1).toNanos());
        }
    }

    static String[] bulk(HostProcess probe, InetSocketAddress echo, long size) {
        String answer = ask(probe, "bulk " + echo.getAddress().getHostAddress() + " " + echo.getPort() + " " + size);
        assertThat(answer).startsWith("ok ");
        return answer.split(" ");
    }

    @Test
    void theLaunchersAndTheirDaemonsRunInsideAHost(@TempDir Path data) throws Exception {
        try (Distribution mft = new Distribution(data).jvmOptions(Distribution.QUICK_START).inHost(hosts(), "B")) {
            int port = Distribution.freePort();
            mft.mft("qmgr", "create", "QM1", "--port", String.valueOf(port)).expect(0);
            mft.mft("qmgr", "start", "QM1").expect(0);
            assertThat(connect(probeB, "127.0.0.1", port)).as("the queue manager listens on B's loopback")
                    .isEqualTo("ok");
            assertThat(connect(probeA, "127.0.0.1", port)).startsWith("fail");
        }
    }

    /** The names {@code ip netns list} lists. */
    static List<String> namespaces() {
        return NetworkHosts.ip("netns", "list").lines().map(line -> line.split(" ")[0]).toList();
    }

    @Test
    void closeRemovesEveryNamespaceInterfaceAndProcessOfTheRun() {
        NetworkHosts run = NetworkHosts.create("X", "Y");
        HostProcess left = HostProcess.start(run, "X", EchoServer.class, run.address("X").getHostAddress());
        try {
            assertThat(namespaces()).containsAll(run.namespaces());
        } finally {
            run.close();
            left.close();
        }
        assertThat(namespaces()).doesNotContainAnyElementsOf(run.namespaces());
        assertThat(NetworkHosts.ip("-o", "link", "show")).doesNotContain(run.interfacePrefix());
        assertThat(run.namespaces()).hasSize(3);
    }

    @Test
    void namespacesOfARunWhoseJvmIsGoneAreRemoved() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        String staleSwitch = "omft-" + gone.pid() + "-1";
        String staleHost = staleSwitch + "-A";
        // Run 0 of this JVM: never used by NetworkHosts, whose runs count from 1.
        String live = "omft-" + ProcessHandle.current().pid() + "-0";
        try {
            NetworkHosts.ip("netns", "add", staleSwitch);
            NetworkHosts.ip("netns", "add", staleHost);
            NetworkHosts.ip("-n", staleHost, "link", "add", "stale0", "type", "veth", "peer", "name", "stale1",
                    "netns", staleSwitch);
            NetworkHosts.ip("netns", "add", live);
            NetworkHosts.create("Z").close();
            assertThat(namespaces()).doesNotContain(staleSwitch, staleHost).contains(live);
        } finally {
            for (String ns : new String[] {staleHost, staleSwitch, live}) {
                try {
                    NetworkHosts.ip("netns", "del", ns);
                } catch (IllegalStateException e) {
                    // Removed, as it should have been.
                }
            }
        }
    }
}
