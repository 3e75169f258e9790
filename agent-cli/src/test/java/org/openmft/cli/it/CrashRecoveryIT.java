package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real processes killed with {@code kill -9} in the middle of a 1 GiB transfer: the source agent,
 * the destination agent, both, and the queue manager (the agents are client agents in processes of
 * their own, so they outlive it and reconnect). Each time the transfer resumes from the last
 * checkpoint, never from byte 0, completes, and the destination file's MD5 is the source's; the
 * chunks put on the destination's DATA queue are counted by the queue manager itself
 * ({@link org.openmft.cli.DataQueueAudit}, a line per chunk that survives its kill -9), and those
 * sent again stay within the README's bound: one checkpoint span plus the in-flight window plus
 * one acknowledgement window. The agents' own counts (log lines) are printed beside, not trusted.
 */
class CrashRecoveryIT {
    /** The defaults: agentChunkSize 256 KiB, agentWindowSize 10, agentFrameSize 5, agentCheckpointInterval 1. */
    static final long CHUNK = 256 * 1024;
    static final long SPAN = CHUNK * 10 * 5 * 1;
    /** What the source may have sent and not had acknowledged: window x frame chunks. */
    static final long IN_FLIGHT = CHUNK * 10 * 5;
    /** The acknowledgement window: an acknowledgement this far past a checkpoint waits until it is durable. */
    static final long ACK_WINDOW = CHUNK * 10;
    /**
     * What the destination may have written past its last durable checkpoint: the source has sent
     * at most the in-flight window past the checkpoint after it, which the DATA thread writes on
     * while that one is made durable.
     */
    static final long WRITTEN = SPAN + IN_FLIGHT;
    /** The most a crash may cost: what is sent again. */
    static final long BOUND = SPAN + IN_FLIGHT + ACK_WINDOW;
    static final long SIZE = 512L << 20;
    static final long CHUNKS = SIZE / CHUNK;
    static final Pattern DEST_RESUMED = Pattern.compile(
            "BFGTR0091I: Transfer (\\w+): resumed as destination at chunk (\\d+), item 0 \\(.*\\) at byte (\\d+); (\\d+)"
                    + " bytes written after the last checkpoint");
    static final Pattern SOURCE_RESUMED = Pattern.compile(
            "BFGTR0093I: Transfer (\\w+): resumed as source; destination agent \\w+ has chunks 0 to (-?\\d+)");
    static final Pattern RECEIVED_TWICE = Pattern.compile(
            "Transfer (\\w+): (\\d+) bytes were received twice \\(duplicates dropped\\) and (\\d+) bytes written");
    static final Pattern SENT_AGAIN = Pattern.compile("Transfer (\\w+): (\\d+) bytes were sent more than once");
    static final Pattern TRANSFER_ID = Pattern.compile("request ID is: (\\w{48})");

    /**
     * One queue manager, two client agents and one 512 MiB source for all the cases (setting them
     * up is not what is tested); each case starts whatever the previous one left dead.
     */
    @TempDir
    static Path data;
    static Distribution mft;
    static Path src;
    static String srcMd5;
    /** Where the queue manager appends a line per chunk put on a DATA queue. */
    static Path audit;
    Path out;

    @BeforeAll
    static void setUpOnce() throws Exception {
        src = Distribution.randomFile(data.resolve("in/big.bin"), SIZE);
        srcMd5 = Distribution.md5(src);
        mft = new Distribution(data);
        int port = mft.createQueueManager("QM1");
        audit = data.resolve("data-queue-audit.txt");
        Path brokerProperties = Files.writeString(data.resolve("audit-broker.properties"),
                "brokerPlugins.\"org.openmft.cli.DataQueueAudit.class\".init=file=" + audit + "\n");
        qmgrOptions = "-Xmx512m -Dbroker.properties=" + brokerProperties;
        startQueueManager();
        assertThat(audit).as("the queue manager installed its chunk audit").exists();
        for (String agent : new String[] {"AGENT1", "AGENT2"}) {
            mft.run("fteCreateAgent", "-agentName", agent, "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                    "-agentQMgrPort", String.valueOf(port), "--sandbox-dir", data.toString()).expect(0);
            // Notice a dead peer in seconds rather than IBM's minute.
            Path props = data.resolve("config/QM1/agents/" + agent + "/agent.properties");
            Files.writeString(props, Files.readString(props) + "transferAckTimeout=2000\ntransferAckTimeoutRetries=1\n");
        }
    }

    static String qmgrOptions;

    /** Starts QM1 with the chunk audit; the agents and commands run without it. */
    static void startQueueManager() {
        mft.jvmOptions(qmgrOptions);
        try {
            mft.mft("qmgr", "start", "QM1").expect(0);
        } finally {
            mft.jvmOptions("-Xmx512m");
        }
    }

    @AfterAll
    static void tearDownOnce() throws Exception {
        mft.close();
    }

    @BeforeEach
    void setUp(TestInfo test) throws IOException {
        for (String agent : new String[] {"AGENT1", "AGENT2"}) {
            if (!Distribution.alive(agentPid(agent))) {
                mft.run("fteStartAgent", agent).expect(0);
            }
        }
        out = Files.createDirectories(data.resolve("out-" + test.getTestMethod().orElseThrow().getName()))
                .resolve("big.bin");
    }

    @AfterEach
    void removeCopy() throws IOException {
        Files.deleteIfExists(out);
    }

    /**
     * The launcher gives short-lived commands the client compiler and the serial collector; the
     * daemons those commands spawn (the queue manager, client agents) must not inherit them.
     */
    @Test
    void daemonsDoNotInheritTheShortLivedCommandsJvmOptions() {
        for (long pid : new long[] {mft.pid(Path.of("qmgrs/QM1"), "qmgr"), agentPid("AGENT1"), agentPid("AGENT2")}) {
            List<String> args = Distribution.commandLine(pid);
            assertThat(args).as("process %d's command line", pid).contains("org.openmft.cli.Mft", "-Xmx512m")
                    .doesNotContain("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
                    .noneMatch(arg -> arg.startsWith("-Dopenmft.cliJvmOptions="));
        }
    }

    @Test
    void aKilledDestinationAgentResumesFromItsLastCheckpoint() throws Exception {
        String id = startTransferAndWaitForProgress();
        long pid = agentPid("AGENT2");
        kill(pid);
        long written = partSize();

        mft.run("fteStartAgent", "AGENT2").expect(0);
        awaitSuccess(id);

        Matcher m = find(DEST_RESUMED, agentLog("AGENT2"), id);
        long resumedAt = Long.parseLong(m.group(3));
        assertThat(resumedAt).as("resumed from a checkpoint, not from byte 0").isPositive();
        assertThat(written - resumedAt).as("bytes written after the last checkpoint, which are sent again")
                .isNotNegative().isLessThanOrEqualTo(WRITTEN);
        assertResentWithinBound(id);
    }

    @Test
    void aKilledSourceAgentResumesWhereTheDestinationIs() throws Exception {
        String id = startTransferAndWaitForProgress();
        kill(agentPid("AGENT1"));
        long received = partSize();

        mft.run("fteStartAgent", "AGENT1").expect(0);
        awaitSuccess(id);

        Matcher m = find(SOURCE_RESUMED, agentLog("AGENT1"), id);
        long destinationHad = (Long.parseLong(m.group(2)) + 1) * CHUNK;
        assertThat(destinationHad).as("resumed where the destination was, not from byte 0")
                .isGreaterThanOrEqualTo(received);
        assertResentWithinBound(id);
    }

    @Test
    void bothAgentsKilledAtOnceResume() throws Exception {
        String id = startTransferAndWaitForProgress();
        long source = agentPid("AGENT1");
        long destination = agentPid("AGENT2");
        ProcessHandle.of(source).orElseThrow().destroyForcibly();
        kill(destination);
        Distribution.await("the source agent to die", Duration.ofSeconds(30), () -> !Distribution.alive(source));
        long written = partSize();

        mft.run("fteStartAgent", "AGENT2").expect(0);
        mft.run("fteStartAgent", "AGENT1").expect(0);
        awaitSuccess(id);

        long resumedAt = Long.parseLong(find(DEST_RESUMED, agentLog("AGENT2"), id).group(3));
        assertThat(resumedAt).isPositive();
        assertThat(written - resumedAt).isNotNegative().isLessThanOrEqualTo(WRITTEN);
        find(SOURCE_RESUMED, agentLog("AGENT1"), id);
        assertResentWithinBound(id);
    }

    @Test
    void aKilledQueueManagerIsReconnectedToAndTheTransferResumes() throws Exception {
        String id = startTransferAndWaitForProgress();
        long qm = mft.pid(Path.of("qmgrs/QM1"), "qmgr");
        kill(qm);
        long written = partSize();

        startQueueManager();
        awaitSuccess(id);

        String destinationLog = agentLog("AGENT2");
        assertThat(destinationLog).contains("lost its connection to queue manager QM1", "connection to queue manager"
                + " QM1 restored");
        assertThat(agentLog("AGENT1")).contains("lost its connection to queue manager QM1");
        long resumedAt = Long.parseLong(find(DEST_RESUMED, destinationLog, id).group(3));
        assertThat(resumedAt).isPositive();
        assertThat(written - resumedAt).isNotNegative().isLessThanOrEqualTo(WRITTEN);
        assertResentWithinBound(id);
    }

    // ------------------------------------------------------------------------------------------

    /** What the queue manager counted of one transfer's chunks on the DATA queue. */
    record ChunkCount(long put, long distinct) {
    }

    /** Reads the queue manager's audit: every line is one chunk put on a DATA queue. */
    static ChunkCount chunksPut(String id) throws IOException {
        java.util.Set<Long> seqs = new java.util.HashSet<>();
        long put = 0;
        for (String line : Files.readAllLines(audit, java.nio.charset.StandardCharsets.US_ASCII)) {
            String[] f = line.split(" ");
            if (f.length == 4 && f[0].equals("SYSTEM.FTE.DATA.AGENT2") && f[1].equals(id)) {
                put++;
                seqs.add(Long.parseLong(f[2]));
            }
        }
        return new ChunkCount(put, seqs.size());
    }

    /**
     * The bound of the README, counted by the queue manager: every chunk of the file reached the
     * DATA queue (so the count saw the whole transfer), and the chunks put more than once are at
     * most one checkpoint span plus the in-flight window plus one acknowledgement window.
     */
    private static void assertResentWithinBound(String id) throws IOException {
        ChunkCount c = chunksPut(id);
        System.out.printf("CrashRecoveryIT: transfer %s: the queue manager counted %d chunks put on"
                + " SYSTEM.FTE.DATA.AGENT2 for a file of %d chunks: %d sent again (bound %d)%n", id, c.put(), CHUNKS,
                c.put() - c.distinct(), BOUND / CHUNK);
        assertThat(c.distinct()).as("distinct chunk numbers the queue manager saw").isEqualTo(CHUNKS);
        assertThat(c.put()).as("chunks put on the DATA queue: the file's %d plus those sent again", CHUNKS)
                .isLessThanOrEqualTo(CHUNKS + BOUND / CHUNK);
    }

    private String startTransferAndWaitForProgress() {
        String output = mft.run("fteCreateTransfer", "-sa", "AGENT1", "-sm", "QM1", "-da", "AGENT2", "-dm", "QM1",
                "-df", out.toString(), "-de", "error", src.toString()).expect(0).output();
        Matcher m = TRANSFER_ID.matcher(output);
        assertThat(m.find()).as("transfer id in %s", output).isTrue();
        Distribution.await("128 MiB at the destination", Duration.ofSeconds(120), () -> partSize() >= 128L << 20);
        return m.group(1);
    }

    private void awaitSuccess(String id) throws Exception {
        Distribution.await("transfer " + id + " to end", Duration.ofSeconds(240),
                () -> agentLog("AGENT1").contains("Transfer " + id + " ended with result"));
        assertThat(agentLog("AGENT1")).contains("Transfer " + id + " ended with result 0");
        assertThat(out).exists();
        assertThat(out.resolveSibling(out.getFileName() + ".part")).doesNotExist();
        assertThat(Distribution.md5(out)).as("the destination file is the source file").isEqualTo(srcMd5);
        System.out.printf("CrashRecoveryIT %s: transfer %s complete, MD5 equal; the destination received %d bytes"
                + " twice or again after a restart, the source sent %d bytes more than once (bound %d)%n",
                out.getParent().getFileName(), id, resentAtDestination(id), sentAgain(id), BOUND);
    }

    /**
     * Bytes the destination received twice or wrote again after a restart, from the count it logs
     * when its side completes (before the source learns the outcome; no line means none).
     */
    private long resentAtDestination(String id) {
        Matcher m = RECEIVED_TWICE.matcher(agentLog("AGENT2"));
        long total = 0;
        while (m.find()) {
            if (m.group(1).equals(id)) {
                total += Long.parseLong(m.group(2)) + Long.parseLong(m.group(3));
            }
        }
        return total;
    }

    /** Bytes the source sent more than once, from the count it logs at the end (no line: none). */
    private long sentAgain(String id) {
        Matcher m = SENT_AGAIN.matcher(agentLog("AGENT1"));
        long total = 0;
        while (m.find()) {
            if (m.group(1).equals(id)) {
                total += Long.parseLong(m.group(2));
            }
        }
        return total;
    }

    private static Matcher find(Pattern p, String log, String id) {
        Matcher m = p.matcher(log);
        while (m.find()) {
            if (m.group(1).equals(id)) {
                return m;
            }
        }
        throw new AssertionError("no line matching " + p + " for transfer " + id + " in:\n" + tail(log));
    }

    private static String tail(String log) {
        return log.length() > 6000 ? log.substring(log.length() - 6000) : log;
    }

    private static long agentPid(String agent) {
        return mft.pid(Path.of("logs/QM1/agents/" + agent), "agent");
    }

    private static void kill(long pid) {
        assertThat(Distribution.alive(pid)).as("process %d runs", pid).isTrue();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        Distribution.await("process " + pid + " to die", Duration.ofSeconds(30), () -> !Distribution.alive(pid));
    }

    private static String agentLog(String agent) {
        try {
            return Files.readString(data.resolve("logs/QM1/agents/" + agent + "/logs/output0.log"));
        } catch (IOException e) {
            return "";
        }
    }

    private long partSize() {
        try {
            Path part = out.resolveSibling(out.getFileName() + ".part");
            return Files.exists(part) ? Files.size(part) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
