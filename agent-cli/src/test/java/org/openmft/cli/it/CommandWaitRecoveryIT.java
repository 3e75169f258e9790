package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.activemq.artemis.api.core.client.ActiveMQClient;
import org.apache.activemq.artemis.api.core.client.ClientMessage;
import org.apache.activemq.artemis.api.core.client.ClientRequestor;
import org.apache.activemq.artemis.api.core.client.ClientSession;
import org.apache.activemq.artemis.api.core.client.ClientSessionFactory;
import org.apache.activemq.artemis.api.core.client.ServerLocator;
import org.apache.activemq.artemis.api.core.management.ManagementHelper;
import org.apache.activemq.artemis.api.core.management.ResourceNames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands that wait for a transfer ({@code fteCreateTransfer -w}, {@code mft transfer submit
 * -w}) keep waiting through a queue manager that is killed with {@code kill -9} or stopped, and
 * restarted, in the middle of a transfer: they say once that the connection was lost, reconnect,
 * and report the transfer's real outcome with its result code. A wait that really runs out says
 * how long it waited. No reply queue is left on the queue manager.
 *
 * <p>The agents are client agents in processes of their own, so that they outlive the queue
 * manager and reconnect (as in {@link CrashRecoveryIT}); one 256 MiB source serves every case.
 */
class CommandWaitRecoveryIT {
    static final long SIZE = 256L << 20;
    static final Pattern TRANSFER_ID = Pattern.compile("request ID is: (\\w{48})");
    static final Pattern REPLY_QUEUE = Pattern.compile("Replies wait on queue (WMQFTE\\.[0-9A-F]{32})");

    @TempDir
    static Path data;
    static Distribution mft;
    static int port;
    static Path src;
    static String srcMd5;
    Path out;
    Distribution.Background command;

    @BeforeAll
    static void setUpOnce() throws Exception {
        src = Distribution.randomFile(data.resolve("in/big.bin"), SIZE);
        srcMd5 = Distribution.md5(src);
        mft = new Distribution(data.resolve("mft")).jvmOptions(Distribution.QUICK_START.replace("-Xmx512m", "-Xmx256m"));
        port = mft.createQueueManager("QM1");
        mft.mft("qmgr", "start", "QM1").expect(0);
        for (String agent : new String[] {"AGENT1", "AGENT2"}) {
            mft.run("fteCreateAgent", "-agentName", agent, "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                    "-agentQMgrPort", String.valueOf(port), "--sandbox-dir", data.toString()).expect(0);
            // Notice a dead peer in seconds rather than IBM's minute.
            Path props = mft.dataDir().resolve("config/QM1/agents/" + agent + "/agent.properties");
            Files.writeString(props, Files.readString(props) + "transferAckTimeout=2000\ntransferAckTimeoutRetries=1\n");
        }
    }

    @AfterAll
    static void tearDownOnce() throws Exception {
        mft.close();
    }

    @BeforeEach
    void setUp(TestInfo test) throws IOException {
        if (!Distribution.alive(mft.pid(Path.of("qmgrs/QM1"), "qmgr"))) {
            mft.mft("qmgr", "start", "QM1").expect(0);
        }
        for (String agent : new String[] {"AGENT1", "AGENT2"}) {
            if (!Distribution.alive(agentPid(agent))) {
                mft.run("fteStartAgent", agent).expect(0);
            }
        }
        out = Files.createDirectories(data.resolve("out-" + test.getTestMethod().orElseThrow().getName()))
                .resolve("big.bin");
    }

    @AfterEach
    void tearDown() throws IOException {
        if (command != null && command.process().isAlive()) {
            command.process().destroyForcibly();
        }
        Files.deleteIfExists(out);
    }

    @Test
    void createTransferWaitsThroughAKilledQueueManagerAndExitsWithTheRealOutcome() throws Exception {
        command = mft.start("fteCreateTransfer", "-sa", "AGENT1", "-sm", "QM1", "-da", "AGENT2", "-dm", "QM1",
                "-df", out.toString(), src.toString(), "-w", "600");
        String id = awaitInFlight();

        long qm = mft.pid(Path.of("qmgrs/QM1"), "qmgr");
        ProcessHandle.of(qm).orElseThrow().destroyForcibly();
        Distribution.await("the killed queue manager to go", Duration.ofSeconds(30), () -> !Distribution.alive(qm));
        Distribution.await("the command to notice", Duration.ofSeconds(60),
                () -> command.printed().contains("BFGCL0255W") || !command.process().isAlive());
        mft.mft("qmgr", "start", "QM1").expect(0);

        Distribution.Result r = command.await(Duration.ofSeconds(300));
        assertRealOutcome(r, id);
    }

    @Test
    void submitWaitsThroughAQueueManagerStopAndStart() throws Exception {
        Path request = mft.request("submit.xml", src.toString(), out.toString(), "file", "error", true);
        command = mft.start("mft", "transfer", "submit", request.toString(), "-w", "600");
        String id = awaitInFlight();

        mft.mft("qmgr", "stop", "QM1").expect(0);
        Distribution.await("the command to notice", Duration.ofSeconds(60),
                () -> command.printed().contains("BFGCL0255W") || !command.process().isAlive());
        mft.mft("qmgr", "start", "QM1").expect(0);

        Distribution.Result r = command.await(Duration.ofSeconds(300));
        assertRealOutcome(r, id);
    }

    @Test
    void aWaitThatRunsOutSaysHowLongItWaitedAndLeavesNoQueueBehind() throws Exception {
        Distribution.Result r = mft.run("fteCreateTransfer", "-sa", "AGENT1", "-da", "AGENT2", "-df", out.toString(),
                src.toString(), "-w", "1").expect(2);
        Matcher m = TRANSFER_ID.matcher(r.output());
        assertThat(m.find()).as("transfer id in %s", r.output()).isTrue();
        String id = m.group(1);
        assertThat(r.output()).containsPattern("BFGCL0253W: No outcome for transfer " + id + " after waiting [0-9]+"
                + " seconds, the limit set by -w; the transfer may still be running\\.")
                .doesNotContain("BFGCL0255W", "Lost the connection");

        // It was still running indeed: it ends, and its final reply, which nobody waits for any more,
        // leaves no queue behind (the queue manager removes the queue the reply made).
        Distribution.await("transfer " + id + " to end", Duration.ofSeconds(300),
                () -> agentLog("AGENT1").contains("Transfer " + id + " ended with result"));
        assertThat(agentLog("AGENT1")).contains("Transfer " + id + " ended with result 0");
        assertThat(Distribution.md5(out)).isEqualTo(srcMd5);
        Distribution.await("no WMQFTE.* queue or address on QM1", Duration.ofSeconds(120),
                () -> replyQueuesAndAddresses().isEmpty());
    }

    /**
     * fteCancelTransfer -w waits through a queue manager stop and start. The window: AGENT3 waits up
     * to 30 seconds for the killed destination AGENT4 to confirm the cancel (its default
     * transferAckTimeout), and the queue manager is stopped within it. The agent's restart suspends
     * the transfer, cancel and all; the command's next cancel after the reconnect cancels it again.
     */
    @Test
    void cancelTransferWaitsThroughAQueueManagerStopAndStart() throws Exception {
        for (String agent : new String[] {"AGENT3", "AGENT4"}) {
            if (!Files.exists(mft.dataDir().resolve("config/QM1/agents/" + agent))) {
                mft.run("fteCreateAgent", "-agentName", agent, "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                        "-agentQMgrPort", String.valueOf(port), "--sandbox-dir", data.toString()).expect(0);
            }
            if (!Distribution.alive(agentPid(agent))) {
                mft.run("fteStartAgent", agent).expect(0);
            }
        }
        String started = mft.run("fteCreateTransfer", "-sa", "AGENT3", "-da", "AGENT4", "-df", out.toString(),
                src.toString()).expect(0).output();
        Matcher m = TRANSFER_ID.matcher(started);
        assertThat(m.find()).as("transfer id in %s", started).isTrue();
        String id = m.group(1);
        Distribution.await("16 MiB at the destination", Duration.ofSeconds(120), () -> partSize() >= 16L << 20);
        long destination = agentPid("AGENT4");
        ProcessHandle.of(destination).orElseThrow().destroyForcibly();
        Distribution.await("AGENT4 to die", Duration.ofSeconds(30), () -> !Distribution.alive(destination));

        command = mft.start("fteCancelTransfer", "-a", "AGENT3", "-w", "300", id);
        Distribution.await("the cancel to be accepted", Duration.ofSeconds(60),
                () -> command.printed().contains("BFGCL0038I") || !command.process().isAlive());
        mft.mft("qmgr", "stop", "QM1").expect(0);
        Distribution.await("the command to notice", Duration.ofSeconds(60),
                () -> command.printed().contains("BFGCL0255W") || !command.process().isAlive());
        mft.mft("qmgr", "start", "QM1").expect(0);

        Distribution.Result r = command.await(Duration.ofSeconds(300));
        String output = r.output();
        System.out.printf("CommandWaitRecoveryIT: cancel of %s, exit code %d, the command printed:%n%s%n", id,
                r.exitCode(), output);
        assertThat(r.exitCode()).as("exit code; output:%n%s", output).isEqualTo(0);
        assertThat(output.split("BFGCL0255W", -1)).as("the lost connection is reported once").hasSize(2);
        assertThat(output).contains("BFGCL0256I: Reconnected to queue manager QM1",
                "BFGCL0401I: Transfer " + id + " has ended.").doesNotContain("BFGCL0402W", "BFGCL0257E");
        Distribution.await("AGENT3 to log the end", Duration.ofSeconds(60),
                () -> agentLog("AGENT3").contains("Transfer " + id + " ended with result"));
        assertThat(agentLog("AGENT3")).contains("Transfer " + id + " ended with result 41");
        Matcher queue = REPLY_QUEUE.matcher(output);
        assertThat(queue.find()).isTrue();
        assertThat(replyQueuesAndAddresses()).doesNotContain("queueNames:" + queue.group(1),
                "addressNames:" + queue.group(1));
    }

    // ------------------------------------------------------------------------------------------

    /** Waits for the acknowledgement and for the first bytes at the destination; returns the id. */
    private String awaitInFlight() {
        Distribution.await("the request to be acknowledged", Duration.ofSeconds(60),
                () -> TRANSFER_ID.matcher(command.printed()).find() || !command.process().isAlive());
        Matcher m = TRANSFER_ID.matcher(command.printed());
        assertThat(m.find()).as("transfer id in %s", command.printed()).isTrue();
        Distribution.await("16 MiB at the destination", Duration.ofSeconds(120), () -> partSize() >= 16L << 20);
        assertThat(out).as("the transfer is in flight, not done").doesNotExist();
        return m.group(1);
    }

    /**
     * Exit code 0, the notice once, the outcome the agent reached (its supplement, as it logged it,
     * and the item line), no time-out message, the file intact and the reply queue gone.
     */
    private void assertRealOutcome(Distribution.Result r, String id) throws Exception {
        String output = r.output();
        System.out.printf("CommandWaitRecoveryIT: transfer %s, exit code %d, the command printed:%n%s%n", id,
                r.exitCode(), output.lines().filter(l -> !l.startsWith("Transfer ") || l.contains("BFG"))
                        .reduce((a, b) -> a + "\n" + b).orElse(""));
        assertThat(r.exitCode()).as("exit code; output:%n%s", output).isEqualTo(0);
        assertThat(output.split("BFGCL0255W", -1)).as("the lost connection is reported once:%n%s", output)
                .hasSize(2);
        assertThat(output).contains("BFGCL0255W: Lost the connection to queue manager QM1 (",
                "BFGCL0256I: Reconnected to queue manager QM1").doesNotContain("BFGCL0253W", "BFGCL0257E");
        Matcher ended = Pattern.compile("Transfer " + id + " ended with result 0: (.*)").matcher(agentLog("AGENT1"));
        assertThat(ended.find()).as("the source agent logged the outcome").isTrue();
        assertThat(output).contains("[0] " + src + " -> " + out, ended.group(1).strip());
        assertThat(out).exists();
        assertThat(Distribution.md5(out)).as("the destination file is the source file").isEqualTo(srcMd5);
        Matcher queue = REPLY_QUEUE.matcher(output);
        assertThat(queue.find()).isTrue();
        assertThat(replyQueuesAndAddresses()).as("the command's reply queue and its address are gone from QM1")
                .doesNotContain("queueNames:" + queue.group(1), "addressNames:" + queue.group(1));
    }

    /** The names of the queues and addresses on QM1 that begin WMQFTE., through Artemis management. */
    private static List<String> replyQueuesAndAddresses() {
        List<String> names = new ArrayList<>();
        try (ServerLocator locator = ActiveMQClient.createServerLocator("tcp://127.0.0.1:" + port);
                ClientSessionFactory factory = locator.createSessionFactory();
                ClientSession session = factory.createSession(mft.administrator("QM1").user(),
                        mft.administrator("QM1").password(), false, true, true, false, locator.getAckBatchSize())) {
            ClientRequestor requestor = new ClientRequestor(session, "activemq.management");
            session.start();
            for (String attribute : new String[] {"queueNames", "addressNames"}) {
                ClientMessage m = session.createMessage(false);
                ManagementHelper.putAttribute(m, ResourceNames.BROKER, attribute);
                ClientMessage reply = requestor.request(m, 10_000);
                assertThat(reply).as("management reply").isNotNull();
                for (Object name : (Object[]) ManagementHelper.getResult(reply)) {
                    if (String.valueOf(name).startsWith("WMQFTE.")) {
                        names.add(attribute + ":" + name);
                    }
                }
            }
        } catch (Exception e) {
            throw new AssertionError("cannot list the queues of QM1", e);
        }
        return names;
    }

    private static long agentPid(String agent) {
        return mft.pid(Path.of("logs/QM1/agents/" + agent), "agent");
    }

    private static String agentLog(String agent) {
        try {
            return Files.readString(mft.dataDir().resolve("logs/QM1/agents/" + agent + "/logs/output0.log"));
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
