package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three real hosts (network namespaces), each with its own queue manager, set up with the launchers
 * as an administrator would: agent hosts A and B (QMA, QMB, agents AGENT1 and AGENT2 in bindings
 * mode) and a coordination host C (QMC, the coordination queue manager of both agents and the
 * command queue manager of its own commands), every pair of queue managers joined by TLS channels
 * made with {@code mft qmgr channel create}. The agents reach QMC through their channels only: their
 * coordination.properties names QMC without a host, as on an IBM MFT agent machine.
 *
 * <p>What is tested: a transfer from A's agent to B's goes through the channels and arrives whole;
 * with B's link cut in the middle of a transfer the channel retries, and once the link is back the
 * transfer completes with the source's MD5; with B's queue manager (and its bindings agent) killed
 * with SIGKILL in the middle and started again, the transfer resumes and completes likewise. From C:
 * {@code fteListAgents} shows both agents from their publications, and ping, transfer (waited
 * for), cancel and stop reach the agents on the other queue managers ({@code -sm/-dm/-m}). With C
 * unreachable while transfers run and complete, the agents' transfer log publications wait in
 * their queue managers' transmission queues to QMC, and once C is back arrive there in order and
 * none twice. A transfer that meets an asymmetric partition (B cannot send to A, A still reaches B)
 * waits while B's channel to A retries, and completes after the partition heals, with the source's
 * MD5 and one file.
 *
 * <p>The channels' heartbeat (IBM's HBINT, {@code --heartbeat}) is 2 s ({@link #HEARTBEAT_SECONDS}), not
 * the default 10: a cut link, a killed queue manager or a partition is noticed within a few seconds
 * instead of some 10 to 40, and a link back is found as soon (the longest retry wait is the
 * connection's time to live), which is most of what these tests wait for.
 *
 * <p>How long C is away: until QMA's channel to it, which holds AGENT1's publications, has noticed
 * (RETRYING) and at least {@value #OUTAGE_PROPERTY} seconds, 20 by default to keep CI short; the
 * issue's full run is a minute: {@code -D}{@value #OUTAGE_PROPERTY}{@code =60}.
 */
class MultiHostIT {
    /** The system property with the least time, in seconds, for which C is unreachable. */
    static final String OUTAGE_PROPERTY = "openmft.it.coordinationOutageSeconds";
    /**
     * The system property with the size, in MiB, of the transfer whose link is cut in the middle: 48
     * by default to keep CI short; the full run is a GiB: {@code -D}{@value #LINK_CUT_PROPERTY}{@code =1024}.
     */
    static final String LINK_CUT_PROPERTY = "openmft.it.linkCutMiB";
    /**
     * The channels' heartbeat: short, for tests that wait for channels to notice a lost link (2 s;
     * {@code -Dopenmft.it.channelHeartbeatSeconds=10}, the default of the command, to compare).
     */
    static final int HEARTBEAT_SECONDS = Integer.getInteger("openmft.it.channelHeartbeatSeconds", 2);
    private static final Pattern REQUEST_ID = Pattern.compile("The request ID is: ([0-9a-f]{48})");

    @RegisterExtension
    static final NetworkHostsExtension net = NetworkHostsExtension.of("A", "B", "C");
    @TempDir
    static Path data;
    static Distribution a;
    static Distribution b;
    static Distribution c;

    /** Set up once for the class: each launcher is a JVM, and the set-up takes some fifty of them. */
    @BeforeAll
    static void threeHosts() throws Exception {
        NetworkHosts hosts = net.hosts();
        String addrA = hosts.address("A").getHostAddress();
        String addrB = hosts.address("B").getHostAddress();
        String addrC = hosts.address("C").getHostAddress();
        a = new Distribution(data.resolve("a")).jvmOptions(Distribution.QUICK_START).inHost(hosts, "A");
        b = new Distribution(data.resolve("b")).jvmOptions(Distribution.QUICK_START).inHost(hosts, "B");
        c = new Distribution(data.resolve("c")).jvmOptions(Distribution.QUICK_START).inHost(hosts, "C");
        Files.createDirectories(data.resolve("in"));
        Files.createDirectories(data.resolve("out"));
        queueManager(c, "QMC", addrC);
        c.run("fteSetupCommands", "-connectionQMgr", "QMC").expect(0);
        host(a, "QMA", addrA, "AGENT1");
        host(b, "QMB", addrB, "AGENT2");
        // A source that hears nothing asks again after 5 s instead of IBM's 60, so that a transfer
        // whose chunks a killed queue manager lost resumes within the test's time.
        Files.writeString(a.dataDir().resolve("config/QMC/agents/AGENT1/agent.properties"),
                "\ntransferAckTimeout=5000\n", java.nio.file.StandardOpenOption.APPEND);
        channel(a, "QMA", b, "QMB", addrB);
        channel(b, "QMB", a, "QMA", addrA);
        channel(a, "QMA", c, "QMC", addrC);
        channel(c, "QMC", a, "QMA", addrA);
        channel(b, "QMB", c, "QMC", addrC);
        channel(c, "QMC", b, "QMB", addrB);
        c.mft("qmgr", "start", "QMC").expect(0);
        a.mft("qmgr", "start", "QMA").expect(0);
        b.mft("qmgr", "start", "QMB").expect(0);
        a.run("fteStartAgent", "AGENT1").expect(0);
        b.run("fteStartAgent", "AGENT2").expect(0);
        awaitChannels();
    }

    @AfterAll
    static void tearDown() throws Exception {
        for (Distribution d : new Distribution[] {a, b, c}) {
            if (d != null) {
                d.close();
            }
        }
    }

    /** A queue manager listening on the host's address with a generated TLS certificate. */
    private static void queueManager(Distribution mft, String qmgr, String address) {
        mft.mft("qmgr", "create", qmgr, "--bind", "0.0.0.0", "--port", "1414", "--tls-generate", "--tls-names",
                address).expect(0);
        mft.run("fteSetupCoordination", "-coordinationQMgr", "QMC").expect(0);
    }

    /**
     * An agent host: its queue manager, the command queue manager of its own commands, and one agent
     * coordinated by QMC, which it reaches through its channel.
     */
    private static void host(Distribution mft, String qmgr, String address, String agent) {
        queueManager(mft, qmgr, address);
        mft.run("fteSetupCommands", "-connectionQMgr", qmgr).expect(0);
        mft.run("fteCreateAgent", "-agentName", agent, "-agentQMgr", qmgr, "--sandbox-dir", data.toString()).expect(0);
    }

    /** The channel from {@code qmgr} to {@code remote}: a login made on the remote side, a definition here. */
    private static void channel(Distribution here, String qmgr, Distribution there, String remote, String remoteAddress) {
        Path login = data.resolve(qmgr.toLowerCase() + "-to-" + remote.toLowerCase() + ".xml");
        there.mft("qmgr", "user", "add", remote, "channel." + qmgr, "--role", "channel", "--credentials-file",
                login.toString()).expect(0);
        Path tls = there.dataDir().resolve("qmgrs").resolve(remote).resolve("tls");
        here.mft("qmgr", "channel", "create", qmgr, "--to", remote, "--host", remoteAddress, "--port", "1414",
                "--credentials", login.toString(), "--trust-store", tls.resolve("trust.p12").toString(),
                "--trust-store-credentials", tls.resolve("trust.p12.pw").toString(), "--heartbeat",
                String.valueOf(HEARTBEAT_SECONDS)).expect(0);
    }

    /** Every channel running: each test starts from there, whatever the one before it did. */
    private static void awaitChannels() {
        awaitChannel(a, "QMA.TO.QMB", "RUNNING");
        awaitChannel(b, "QMB.TO.QMA", "RUNNING");
        awaitChannel(a, "QMA.TO.QMC", "RUNNING");
        awaitChannel(b, "QMB.TO.QMC", "RUNNING");
        awaitChannel(c, "QMC.TO.QMA", "RUNNING");
        awaitChannel(c, "QMC.TO.QMB", "RUNNING");
    }

    /**
     * Waits for a channel's state as its queue manager writes it every 2 s for {@code mft qmgr channel
     * list} (read from the file: a launcher per poll would cost seconds each; the command itself runs
     * in the first transfer's test).
     */
    private static void awaitChannel(Distribution mft, String channel, String state) {
        Distribution.await("channel " + channel + " " + state, Duration.ofSeconds(90),
                () -> state.equals(channelStatus(mft, channel).getProperty(remote(channel) + ".state")));
    }

    /** The messages waiting on a channel's transmission queue, as {@code mft qmgr channel list} shows them. */
    private static long waiting(Distribution mft, String channel) {
        return Long.parseLong(channelStatus(mft, channel).getProperty(remote(channel) + ".waiting", "0"));
    }

    private static java.util.Properties channelStatus(Distribution mft, String channel) {
        Path file = mft.dataDir().resolve("qmgrs").resolve(channel.substring(0, channel.indexOf(".TO.")))
                .resolve("channels/status.properties");
        java.util.Properties p = new java.util.Properties();
        try (var in = Files.newInputStream(file)) {
            p.load(in);
        } catch (java.io.IOException e) {
            // Not written yet (the queue manager is starting), or replaced just now: no state.
        }
        return p;
    }

    private static String remote(String channel) {
        return channel.substring(channel.indexOf(".TO.") + 4);
    }

    /** The transfer id a command printed. */
    private static String requestId(String output) {
        Matcher m = REQUEST_ID.matcher(output);
        assertThat(m.find()).as("a request id in %s", output).isTrue();
        return m.group(1);
    }

    /** A transfer from AGENT1 to AGENT2 asked for on A's command queue manager, waited for. */
    private static Distribution.Background transfer(Path src, Path out) {
        return transfer(a, src, out);
    }

    /** A transfer from AGENT1 to AGENT2 asked for with {@code mft}'s commands, waited for. */
    private static Distribution.Background transfer(Distribution mft, Path src, Path out) {
        return mft.start("fteCreateTransfer", "-sa", "AGENT1", "-sm", "QMA", "-da", "AGENT2", "-dm", "QMB", "-w",
                "300", "-df", out.toString(), src.toString());
    }

    /** Starts a transfer and returns once 8 MiB of it are at the destination: it is in the middle of the file. */
    private static Distribution.Background transferUnderWay(Path src, Path out) {
        return transferUnderWay(a, src, out);
    }

    private static Distribution.Background transferUnderWay(Distribution mft, Path src, Path out) {
        Distribution.Background running = transfer(mft, src, out);
        Path part = out.resolveSibling(out.getFileName() + ".part");
        Distribution.await("8 MiB at the destination", Duration.ofSeconds(180), () -> {
            try {
                return Files.exists(part) && Files.size(part) >= 8L << 20;
            } catch (java.io.IOException e) {
                return false;
            }
        });
        return running;
    }

    @Test
    void aTransferBetweenAgentsOnTwoHostsGoesThroughTheChannels() throws Exception {
        Path src = Distribution.randomFile(data.resolve("in/one.bin"), 8L << 20);
        Path out = data.resolve("out/one.bin");
        transfer(src, out).await(Duration.ofSeconds(300)).expect(0);
        assertThat(Distribution.md5(out)).isEqualTo(Distribution.md5(src));
        assertThat(a.mft("qmgr", "channel", "list", "QMA").expect(0).output()).containsPattern(
                "QMA\\.TO\\.QMB +\\S+ +RUNNING +\\d+ +\\d+ +" + HEARTBEAT_SECONDS + "  yes");
    }

    @Test
    void aTransferSurvivesTheLinkCutInTheMiddle() throws Exception {
        Path src = Distribution.randomFile(data.resolve("in/big.bin"), Long.getLong(LINK_CUT_PROPERTY, 48) << 20);
        Path out = data.resolve("out/big.bin");
        Distribution.Background running = transferUnderWay(src, out);
        net.hosts().cut("B");
        try {
            awaitChannel(a, "QMA.TO.QMB", "RETRYING");
        } finally {
            net.hosts().restore("B");
        }
        awaitChannel(a, "QMA.TO.QMB", "RUNNING");
        running.await(Duration.ofSeconds(300)).expect(0);
        assertThat(Distribution.md5(out)).isEqualTo(Distribution.md5(src));
    }

    @Test
    void aTransferSurvivesTheDestinationQueueManagerKilledInTheMiddle() throws Exception {
        Path src = Distribution.randomFile(data.resolve("in/killed.bin"), 48L << 20);
        Path out = data.resolve("out/killed.bin");
        Distribution.Background running = transferUnderWay(src, out);
        long pid = b.pid(Path.of("qmgrs/QMB"), "qmgr");
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        Distribution.await("QMB gone", Duration.ofSeconds(30), () -> !Distribution.alive(pid));
        awaitChannel(a, "QMA.TO.QMB", "RETRYING");
        b.mft("qmgr", "start", "QMB").expect(0);
        b.run("fteStartAgent", "AGENT2").expect(0);
        running.await(Duration.ofSeconds(300)).expect(0);
        assertThat(Distribution.md5(out)).isEqualTo(Distribution.md5(src));
        awaitChannel(b, "QMB.TO.QMA", "RUNNING");
    }

    @Test
    void commandsFromTheCoordinationHostReachAgentsOnTheOtherQueueManagers() throws Exception {
        awaitChannels();
        // Both agents' status publications reached QMC through their channels.
        awaitListed("AGENT1", "QMA", "READY");
        awaitListed("AGENT2", "QMB", "READY");
        assertThat(c.run("ftePingAgent", "-m", "QMA", "AGENT1").expect(0).output()).contains("AGENT1");

        Path src = Distribution.randomFile(data.resolve("in/fromc.bin"), 2L << 20);
        Path out = data.resolve("out/fromc.bin");
        transfer(c, src, out).await(Duration.ofSeconds(300)).expect(0);
        assertThat(Distribution.md5(out)).isEqualTo(Distribution.md5(src));

        assertThat(c.run("fteStopAgent", "-m", "QMB", "AGENT2").expect(0).output()).contains("BFGCL0034I");
        awaitListed("AGENT2", "QMB", "STOPPED");
        // With its destination stopped, a transfer waits for it: there to be cancelled, whatever the speed.
        Path cancelled = data.resolve("out/cancelled.bin");
        try {
            Distribution.Background waiting = transfer(c, Distribution.randomFile(data.resolve("in/cancelled.bin"),
                    1L << 20), cancelled);
            Distribution.await("the transfer acknowledged", Duration.ofSeconds(60),
                    () -> REQUEST_ID.matcher(waiting.printed()).find());
            c.run("fteCancelTransfer", "-m", "QMA", "-a", "AGENT1", requestId(waiting.printed())).expect(0);
            assertThat(waiting.await(Duration.ofSeconds(120)).exitCode()).as("the waiting command: cancelled (41)")
                    .isEqualTo(41);
        } finally {
            // Also when the above failed: the other tests need the agent.
            b.run("fteStartAgent", "AGENT2");
        }
        awaitListed("AGENT2", "QMB", "READY");
        assertThat(cancelled).doesNotExist();
    }

    /** Waits until {@code fteListAgents} on C shows {@code agent} of {@code qmgr} with {@code status}. */
    private static void awaitListed(String agent, String qmgr, String status) {
        java.util.concurrent.atomic.AtomicReference<String> last = new java.util.concurrent.atomic.AtomicReference<>();
        Pattern line = Pattern.compile("\\b" + agent + "\\s+" + qmgr + "\\s+" + status + "\\b");
        try {
            Distribution.await(agent + " listed " + status + " on C", Duration.ofSeconds(90), () -> {
                last.set(c.run("fteListAgents", agent).output());
                return line.matcher(last.get()).find();
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; fteListAgents printed:\n" + last.get(), e);
        }
    }

    @Test
    void publicationsWaitInTheChannelsWhileTheCoordinationHostIsAwayAndArriveInOrderOnce() throws Exception {
        awaitChannels();
        Path tapped = data.resolve("tapped.txt");
        List<String> ids = new ArrayList<>();
        List<Path[]> moved = new ArrayList<>();
        try (HostProcess tap = HostProcess.startWithDistribution(net.hosts(), "C", PublicationTap.class,
                c.dataDir().toString(), "QMC", tapped.toString())) {
            assertThat(tap.firstLine()).isEqualTo("subscribed");
            Path[] first = {Distribution.randomFile(data.resolve("in/away0.bin"), 16L << 20),
                    data.resolve("out/away0.bin")};
            Distribution.Background running = transferUnderWay(first[0], first[1]);
            long cutAt = System.nanoTime();
            net.hosts().cut("C");
            try {
                // Transfers run and complete while C is away: A and B need nothing of it.
                ids.add(requestId(running.await(Duration.ofSeconds(300)).expect(0).output()));
                moved.add(first);
                Path[] second = {Distribution.randomFile(data.resolve("in/away1.bin"), (1L << 20) + 1),
                        data.resolve("out/away1.bin")};
                ids.add(requestId(transfer(second[0], second[1]).await(Duration.ofSeconds(300)).expect(0).output()));
                moved.add(second);
                Distribution.await("publications held in QMA's transmission queue to QMC", Duration.ofSeconds(30),
                        () -> waiting(a, "QMA.TO.QMC") > 0);
                // Long enough for the channel that holds them to notice, as it would a machine that is gone.
                awaitChannel(a, "QMA.TO.QMC", "RETRYING");
                long outageNanos = Duration.ofSeconds(Long.getLong(OUTAGE_PROPERTY, 20)).toNanos();
                long left = outageNanos - (System.nanoTime() - cutAt);
                if (left > 0) {
                    // The outage's length is what is tested here, not a condition to wait for.
                    java.util.concurrent.TimeUnit.NANOSECONDS.sleep(left);
                }
                assertThat(waiting(a, "QMA.TO.QMC")).as("publications still held").isPositive();
            } finally {
                net.hosts().restore("C");
            }
            awaitChannel(a, "QMA.TO.QMC", "RUNNING");
            // One more transfer, after: its records travel behind everything held, so once its last
            // record is in, a second copy of any earlier one would be in too.
            Path[] after = {Distribution.randomFile(data.resolve("in/after.bin"), (1L << 20) + 9),
                    data.resolve("out/after.bin")};
            ids.add(requestId(transfer(after[0], after[1]).await(Duration.ofSeconds(300)).expect(0).output()));
            moved.add(after);
            String last = ids.get(ids.size() - 1) + " completed";
            Distribution.await("the last transfer's completed record on C", Duration.ofSeconds(120),
                    () -> tapped(tapped).stream().anyMatch(l -> l.startsWith(last)));
        }
        List<String> expected = new ArrayList<>();
        for (String id : ids) {
            expected.addAll(List.of(id + " started", id + " progress", id + " completed"));
        }
        List<String> records = tapped(tapped).stream().filter(l -> ids.contains(l.split(" ")[0])).toList();
        assertThat(records.stream().map(l -> l.substring(0, l.lastIndexOf(' '))).toList())
                .as("every transfer's log records at C: in order, none lost, none twice").isEqualTo(expected);
        assertThat(new HashSet<>(records.stream().map(l -> l.substring(l.lastIndexOf(' ') + 1)).toList()))
                .as("publication ids, each once").hasSize(records.size());
        for (Path[] f : moved) {
            assertThat(Distribution.md5(f[1])).as("%s", f[1]).isEqualTo(Distribution.md5(f[0]));
        }
    }

    /** The lines {@link PublicationTap} wrote so far. */
    private static List<String> tapped(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The partition is made before the request: made once data flows, it came too late here, as a
     * transfer moves a file of any size the test can afford in the time an {@code ip} command takes on
     * a busy machine. The transfer meets it all the same: accepted by AGENT1, it cannot get on with
     * AGENT2 (A's channel to B soon stalls too, its flow-control credits and confirmations being
     * B's to send), retries its start and goes into recovery, and B's channel to A retries.
     */
    @Test
    void aTransferThatMeetsAnAsymmetricPartitionWaitsAndCompletesOnceItHeals() throws Exception {
        awaitChannels();
        Path src = Distribution.randomFile(data.resolve("in/partition.bin"), 8L << 20);
        Path dir = Files.createDirectories(data.resolve("out/partition"));
        Path out = dir.resolve("partition.bin");
        // B can no longer send to A; A still reaches B.
        net.hosts().partition("B", "A");
        Distribution.Background running;
        try {
            running = transfer(src, out);
            awaitChannel(b, "QMB.TO.QMA", "RETRYING");
            assertThat(out).as("the transfer waits").doesNotExist();
            assertThat(running.process().isAlive()).as("the command waits for it").isTrue();
        } finally {
            net.hosts().heal("B", "A");
        }
        running.await(Duration.ofSeconds(300)).expect(0);
        assertThat(Distribution.md5(out)).isEqualTo(Distribution.md5(src));
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()).toList()).as("one file, nothing left over")
                    .containsExactly("partition.bin");
        }
    }
}
