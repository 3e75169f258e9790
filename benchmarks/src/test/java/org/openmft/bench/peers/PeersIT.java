package org.openmft.bench.peers;

import org.openmft.bench.harness.TestFiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * Every peer of {@link Peers#create} on this machine: three awkward files arrive intact, a copy
 * into a file or of a missing file comes back as a failure naming its cause, and the private sshd's
 * CPU accounting sees the work done in its sessions. A peer whose program is missing is skipped,
 * naming the Debian package to install, unless {@value #REQUIRE_ENV} is 1 (as {@code .ci/run},
 * which installs them, sets it): then it fails, so that CI cannot pass by skipping it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PeersIT {
    /** Set to 1 to make a missing rsync, sshd or sftp a failure instead of a skip. */
    static final String REQUIRE_ENV = "OPENMFT_REQUIRE_PEERS";
    private static final long TIMEOUT_MILLIS = 30_000;

    private Path work;

    private EmbeddedQueueManager qm;
    private List<Peer> peers = List.of();
    private Path sources;
    private final List<Path> files = new ArrayList<>();
    private final List<String> md5s = new ArrayList<>();

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        work = dir;
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        qm = EmbeddedQueueManager.start(new QueueManagerSettings("QMPEERS", work.resolve("qm"), "127.0.0.1", port));
        QueueManagerConnector connector = QueueManagerConnector.forAgent(new QueueManagerEndpoint(
                MessagingProvider.ARTEMIS, "QMPEERS", null, port, "SYSTEM.DEF.SVRCONN"), null);
        peers = Peers.create(work.resolve("peers"), connector);

        sources = Files.createDirectories(work.resolve("source"));
        long seed = 3;
        for (String[] f : new String[][] {{"empty.bin", "0"}, {"some KiB.bin", "300000"},
                {"it's \"odd\" (1).bin", "4097"}}) {
            Path p = sources.resolve(f[0]);
            md5s.add(TestFiles.write(p, Long.parseLong(f[1]), seed++));
            files.add(p);
        }
    }

    @AfterAll
    void stop() {
        peers.forEach(Peer::close);
        if (qm != null) {
            qm.close();
        }
    }

    private Peer peer(String id) {
        Peer p = peers.stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
        assumeRunnable(id, p.unavailable());
        return p;
    }

    /** Skips (or, with {@value #REQUIRE_ENV}=1, fails) when {@code unavailable} says why something cannot run. */
    private static void assumeRunnable(String what, String unavailable) {
        if (unavailable == null) {
            return;
        }
        String reason = what + " cannot run here: " + unavailable;
        if ("1".equals(System.getenv(REQUIRE_ENV))) {
            throw new AssertionError(REQUIRE_ENV + "=1 and " + reason);
        }
        Assumptions.abort(reason);
    }

    @Test
    void thePeersComeInTheirOrder() {
        assertThat(peers).extracting(Peer::id).containsExactly("cp", "cp-sync", "rsync", "rsync-fsync",
                "rsync-I-fsync", "rsync-I-fsync-md5", "rsync-ssh", "sftp", "camel-jms");
        assertThat(peers).allSatisfy(p -> assertThat(p.label()).isNotBlank());
    }

    @ParameterizedTest
    @ValueSource(strings = {"cp", "cp-sync", "rsync", "rsync-fsync", "rsync-I-fsync", "rsync-I-fsync-md5",
            "rsync-ssh", "sftp", "camel-jms"})
    void copiesThreeAwkwardFilesIntact(String id) throws Exception {
        Path dest = Files.createDirectories(work.resolve("dest-" + id));
        Peer.Run run = peer(id).copy(files, dest, TIMEOUT_MILLIS);

        assertThat(run.failure()).as(id).isNull();
        assertThat(run.wallNanos()).as(id).isPositive();
        assertThat(run.cpuNanos()).as(id).isNotNegative();
        for (int i = 0; i < files.size(); i++) {
            Path arrived = dest.resolve(files.get(i).getFileName());
            assertThat(arrived).as(id).isRegularFile();
            assertThat(TestFiles.md5(arrived)).as("%s: %s", id, arrived).isEqualTo(md5s.get(i));
        }
        try (var listing = Files.list(dest)) {
            assertThat(listing.count()).as("%s: files at the destination", id).isEqualTo(files.size());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cp", "cp-sync", "rsync", "rsync-fsync", "rsync-I-fsync", "rsync-I-fsync-md5",
            "rsync-ssh", "sftp", "camel-jms"})
    void aDestinationThatIsAFileIsAFailure(String id) throws Exception {
        Path notADirectory = Files.writeString(work.resolve("file-" + id), "not a directory");
        Peer.Run run = peer(id).copy(files, notADirectory, TIMEOUT_MILLIS);

        assertThat(run.ok()).as(id).isFalse();
        assertThat(run.failure()).as(id).isNotBlank();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cp", "cp-sync", "rsync", "rsync-fsync", "rsync-I-fsync", "rsync-I-fsync-md5",
            "rsync-ssh", "sftp", "camel-jms"})
    void aMissingSourceIsAFailureNamingIt(String id) throws Exception {
        Path dest = Files.createDirectories(work.resolve("missing-" + id));
        Peer.Run run = peer(id).copy(List.of(sources.resolve("no such file.bin")), dest, TIMEOUT_MILLIS);

        assertThat(run.ok()).as(id).isFalse();
        assertThat(run.failure()).as(id).contains("no such file");
    }

    /**
     * The sshd master's tree CPU, read after the session ended, holds the CPU of what the session
     * ran. Checked against the session's own account rather than against a ratio of two timings
     * (which depends on the load of the machine): the session's shell reports, with {@code times},
     * the CPU of the children it reaped, and those are among the processes whose CPU reaches the
     * master when the session ends, so the master's tree grew by at least that much, tick for tick.
     */
    @Test
    void theSshdSideCpuIncludesTheSessionsWork() throws Exception {
        Path times = work.resolve("session-times.txt");
        String burst = "head -c 100000000 /dev/zero | sha256sum > /dev/null; times > " + times;

        try (SshLoopback ssh = SshLoopback.start(work.resolve("ssh-check"))) {
            assumeRunnable("the private sshd", ssh.unavailable());
            List<String> command = new ArrayList<>(List.of(Executables.find("ssh").toString(), "-p",
                    String.valueOf(ssh.port())));
            command.addAll(ssh.clientOptions());
            command.addAll(List.of("127.0.0.1", burst));
            long server0 = ssh.serverCpuNanos();
            Peer.Run client = CopyPeer.runProcess(command, TIMEOUT_MILLIS);
            assertThat(client.failure()).isNull();
            assertThat(ssh.awaitSessionsEnded()).isNull();
            long server = ssh.serverCpuNanos() - server0;
            long session = sessionChildrenCpuNanos(Files.readString(times));
            System.out.printf("PeersIT: the session's children used %.3f CPU s by its own account; the sshd side"
                    + " grew by %.3f CPU s%n", session / 1e9, server / 1e9);
            assertThat(session).as("the session's burst used CPU (times: %s)", Files.readString(times)).isPositive();
            assertThat(server).as("sshd's tree CPU holds the session's children (times: %s)", Files.readString(times))
                    .isGreaterThanOrEqualTo(session);
        }
    }

    /** The second line of the shell's {@code times}: its children's user and system time, e.g. "0m0.120000s 0m0.030000s". */
    static long sessionChildrenCpuNanos(String times) {
        String[] lines = times.strip().split("\\R");
        assertThat(lines).as("times prints two lines: %s", times).hasSize(2);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)m(\\d+(?:\\.\\d+)?)s").matcher(lines[1]);
        long nanos = 0;
        int fields = 0;
        while (m.find()) {
            nanos += Long.parseLong(m.group(1)) * 60_000_000_000L
                    + new java.math.BigDecimal(m.group(2)).movePointRight(9).longValueExact();
            fields++;
        }
        assertThat(fields).as("user and system time in %s", lines[1]).isEqualTo(2);
        return nanos;
    }
}
