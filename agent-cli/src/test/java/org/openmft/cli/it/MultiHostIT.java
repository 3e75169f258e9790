package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real hosts (network namespaces), each with its own queue manager and agent in bindings mode,
 * the queue managers joined by TLS channels made with {@code mft qmgr channel create}, everything set
 * up with the launchers as an administrator would: a transfer from host A's agent to host B's goes
 * through the channels and arrives whole; with B's link cut in the middle of a transfer the channel
 * retries, and once the link is back the transfer completes with the source's MD5; with B's queue
 * manager (and its bindings agent) killed with SIGKILL in the middle and started again, the transfer
 * resumes and completes likewise.
 */
class MultiHostIT {
    @RegisterExtension
    static final NetworkHostsExtension net = NetworkHostsExtension.of("A", "B");
    @TempDir
    static Path data;
    static Distribution a;
    static Distribution b;

    /** Set up once for the class: each launcher is a JVM, and the set-up takes some thirty of them. */
    @BeforeAll
    static void twoHosts() throws Exception {
        NetworkHosts hosts = net.hosts();
        String addrA = hosts.address("A").getHostAddress();
        String addrB = hosts.address("B").getHostAddress();
        a = new Distribution(data.resolve("a")).jvmOptions(Distribution.QUICK_START).inHost(hosts, "A");
        b = new Distribution(data.resolve("b")).jvmOptions(Distribution.QUICK_START).inHost(hosts, "B");
        Files.createDirectories(data.resolve("in"));
        Files.createDirectories(data.resolve("out"));
        host(a, "QMA", addrA, "AGENT1");
        host(b, "QMB", addrB, "AGENT2");
        // A source that hears nothing asks again after 5 s instead of IBM's 60, so that a transfer
        // whose chunks a killed queue manager lost resumes within the test's time.
        Files.writeString(a.dataDir().resolve("config/QMA/agents/AGENT1/agent.properties"),
                "\ntransferAckTimeout=5000\n", java.nio.file.StandardOpenOption.APPEND);
        channel(a, "QMA", b, "QMB", addrB);
        channel(b, "QMB", a, "QMA", addrA);
        a.mft("qmgr", "start", "QMA").expect(0);
        b.mft("qmgr", "start", "QMB").expect(0);
        a.run("fteStartAgent", "AGENT1").expect(0);
        b.run("fteStartAgent", "AGENT2").expect(0);
        awaitChannel(a, "QMA.TO.QMB", "RUNNING");
        awaitChannel(b, "QMB.TO.QMA", "RUNNING");
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    /** A queue manager listening on the host's address with a generated TLS certificate, and one agent. */
    private static void host(Distribution mft, String qmgr, String address, String agent) {
        mft.mft("qmgr", "create", qmgr, "--bind", "0.0.0.0", "--port", "1414", "--tls-generate", "--tls-names",
                address).expect(0);
        mft.run("fteSetupCoordination", "-coordinationQMgr", qmgr).expect(0);
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
                "--trust-store-credentials", tls.resolve("trust.p12.pw").toString()).expect(0);
    }

    private static void awaitChannel(Distribution mft, String channel, String state) {
        String qmgr = channel.substring(0, channel.indexOf(".TO."));
        Distribution.await("channel " + channel + " " + state, Duration.ofSeconds(90), () -> mft.mft("qmgr",
                "channel", "list", qmgr).output().lines().anyMatch(l -> l.startsWith(channel) && l.contains(state)));
    }

    private static Distribution.Background transfer(Path src, Path out) {
        return a.start("fteCreateTransfer", "-sa", "AGENT1", "-sm", "QMA", "-da", "AGENT2", "-dm", "QMB", "-w",
                "300", "-df", out.toString(), src.toString());
    }

    /** Starts a transfer and returns once 8 MiB of it are at the destination: it is in the middle of the file. */
    private static Distribution.Background transferUnderWay(Path src, Path out) {
        Distribution.Background running = transfer(src, out);
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
        assertThat(a.mft("qmgr", "channel", "list", "QMA").expect(0).output()).contains("QMA.TO.QMB", "RUNNING",
                "yes");
    }

    @Test
    void aTransferSurvivesTheLinkCutInTheMiddle() throws Exception {
        Path src = Distribution.randomFile(data.resolve("in/big.bin"), 48L << 20);
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
}
