package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;

/**
 * fteCancelTransfer, fteCleanAgent and fteDeleteAgent through the real launchers, with bindings
 * agents in one embedded queue manager's process, shared by the tests (each uses agents of its
 * own). The source agent AGENT1 runs one transfer at a time, in 1 KiB chunks acknowledged one by
 * one, so a 256 MiB transfer to AGENT2 runs for minutes and a second one waits behind it: both
 * states a cancel must handle, without timing luck. AGENT3 is cleaned and deleted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentAdminIT {
    private static final String JVM_OPTIONS = "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    private static final Pattern REQUEST_ID = Pattern.compile("request ID is: ([0-9a-f]{48})");

    Path data;
    Distribution mft;
    int port;
    Process background;

    @BeforeAll
    void setUp(@TempDir Path dir) throws IOException {
        data = dir;
        // Short-lived commands start faster with the client compiler alone and one GC thread.
        mft = new Distribution(data).jvmOptions(JVM_OPTIONS);
        port = mft.createQueueManager("QM1");
        for (String agent : List.of("AGENT1", "AGENT2", "AGENT3")) {
            // The test's files are under data/, outside the agents' own transfer directories.
            mft.run("fteCreateAgent", "-agentName", agent, "-agentQMgr", "QM1", "--sandbox-dir", data.toString())
                    .expect(0);
        }
        Path props = data.resolve("config/QM1/agents/AGENT1/agent.properties");
        Files.writeString(props, Files.readString(props)
                + "maxSourceTransfers=1\nagentChunkSize=1024\nagentWindowSize=1\n");
        mft.mft("qmgr", "start", "QM1").expect(0);
        for (String agent : List.of("AGENT1", "AGENT2", "AGENT3")) {
            mft.run("fteStartAgent", agent).expect(0);
        }
    }

    @AfterAll
    void tearDown() throws Exception {
        if (background != null && background.isAlive()) {
            background.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        mft.close();
    }

    @Test
    void cancelAQueuedAndARunningTransfer() throws Exception {
        Path in = Files.createDirectories(data.resolve("in"));
        Path out = Files.createDirectories(data.resolve("out"));
        try (RandomAccessFile f = new RandomAccessFile(in.resolve("big.bin").toFile(), "rw")) {
            f.setLength(256L << 20);
        }
        Files.writeString(in.resolve("small.txt"), "small\n");

        // The big one runs (and keeps running), with its submitter waiting for the outcome.
        Path submitted = data.resolve("submit-big.txt");
        background = startMft(submitted, "transfer", "submit", request("big.xml", in.resolve("big.bin"),
                out.resolve("big.bin")).toString(), "-w", "300");
        String running = awaitRequestId(submitted);
        // The small one waits behind it: the source runs one transfer at a time.
        String queued = requestId(mft.mft("transfer", "submit", request("small.xml", in.resolve("small.txt"),
                out.resolve("small.txt")).toString()).expect(0).output());

        assertThat(mft.run("fteCancelTransfer", "-a", "AGENT1", queued).expect(0).output())
                .contains("BFGCL0037I", queued);
        assertThat(mft.run("fteCancelTransfer", "-a", "AGENT1", queued).expect(1).output())
                .as("a transfer that has ended is not known any more (result 26)").contains("BFGCL0039E");

        // Sent to the destination agent, which passes it on to the source; -w waits for the end.
        assertThat(mft.run("fteCancelTransfer", "-a", "AGENT2", "-w", "60", running).expect(0).output())
                .contains("BFGCL0038I", "BFGCL0401I");
        assertThat(background.waitFor(60, TimeUnit.SECONDS)).as("the submitter ends").isTrue();
        assertThat(background.exitValue()).as(Files.readString(submitted)).isEqualTo(41);
        assertThat(out).as("nothing arrived, and the partly written file is gone").isEmptyDirectory();
        assertThat(data.resolve("logs/QM1/agents/AGENT1/logs/output0.log")).content()
                .contains("Transfer " + queued + " ended with result 41", "Transfer " + running
                        + " ended with result 41");
    }

    @Test
    void usersAreAddedListedUsedAndRemovedAndAgentsHaveTheirOwn() throws Exception {
        Path admin = data.resolve("qmgrs/QM1/security/MQMFTCredentials.xml");
        Path agentCredentials = data.resolve("config/QM1/agents/AGENT2/MQMFTCredentials.xml");
        for (Path f : List.of(admin, agentCredentials)) {
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f)))
                    .as("%s", f).isEqualTo("rw-------");
        }
        assertThat(data.resolve("config/QM1/agents/AGENT2/agent.properties")).content()
                .contains("agentQMgrAuthenticationCredentialsFile=" + agentCredentials);

        Path appCredentials = data.resolve("app.xml");
        assertThat(mft.mft("qmgr", "user", "add", "QM1", "app", "--role", "requester", "--credentials-file",
                appCredentials.toString()).expect(0).output()).contains("User app added", appCredentials.toString());
        mft.mft("qmgr", "user", "add", "QM1", "nobody").expect(0);
        assertThat(mft.mft("qmgr", "user", "list", "QM1").expect(0).output())
                .containsPattern("mftadmin +admin").containsPattern("AGENT2 +agent,agent.AGENT2")
                .containsPattern("app +requester").containsPattern("nobody +-");

        // Commands log in as the user command.properties names.
        Path commandProperties = data.resolve("config/QM1/command.properties");
        String original = Files.readString(commandProperties);
        try {
            Files.writeString(commandProperties, original + "connectionQMgrAuthenticationCredentialsFile="
                    + appCredentials + "\n");
            assertThat(mft.run("ftePingAgent", "AGENT2").expect(0).output()).contains("BFGCL0793I");
            mft.mft("qmgr", "user", "remove", "QM1", "app").expect(0);
            assertThat(mft.run("ftePingAgent", "AGENT2").expect(78).output())
                    .contains("refused the login of user 'app'");

            Path nobody = data.resolve("qmgrs/QM1/security/credentials/nobody.xml");
            Files.writeString(commandProperties, original + "connectionQMgrAuthenticationCredentialsFile="
                    + nobody + "\n");
            Distribution.Result refused = mft.run("ftePingAgent", "AGENT2");
            assertThat(refused.exitCode()).as(refused.output()).isNotZero();
            assertThat(refused.output()).contains("User: nobody does not have permission");
        } finally {
            Files.writeString(commandProperties, original);
        }
        mft.mft("qmgr", "user", "remove", "QM1", "nobody").expect(0);
        assertThat(mft.mft("qmgr", "user", "remove", "QM1", "mftadmin").expect(1).output())
                .contains("last administrator");
    }

    @Test
    void cleanAndDeleteAStoppedAgent() throws Exception {
        assertThat(mft.run("fteCleanAgent", "-trs", "-f", "AGENT3").expect(1).output())
                .contains("BFGCL0411E", "running");
        mft.run("fteStopAgent", "AGENT3").expect(0);
        Distribution.await("AGENT3 listed", Duration.ofSeconds(30),
                () -> mft.run("fteListAgents", "AGENT3").output().contains("STOPPED"));

        // What a broken transfer and bad requests leave behind.
        String state = QueueNames.state("AGENT3");
        String rejected = QueueNames.rejected("AGENT3");
        ActiveMQConnectionFactory cf = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + port);
        try (Connection c = cf.createConnection(mft.administrator("QM1").user(), mft.administrator("QM1").password())) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer p = s.createProducer(null);
            for (int i = 0; i < 3; i++) {
                p.send(s.createQueue(state), s.createTextMessage("stale record " + i));
            }
            p.send(s.createQueue(rejected), s.createTextMessage("<not a request"));
            p.send(s.createQueue(rejected), s.createBytesMessage());
        }
        Path stateDir = Files.createDirectories(data.resolve("logs/QM1/agents/AGENT3/state"));
        Files.writeString(stateDir.resolve("0123.request.xml"), "<request/>");
        ArtemisQueueAdmin admin = new ArtemisQueueAdmin(QueueManagerConnector.forCommand(new QueueManagerEndpoint(
                MessagingProvider.ARTEMIS, "QM1", "127.0.0.1", port, "SYSTEM.DEF.SVRCONN"), null,
                mft.administrator("QM1")));
        assertThat(admin.depths(List.of(state, rejected))).containsEntry(state, 3L).containsEntry(rejected, 2L);

        String cleaned = mft.run("fteCleanAgent", "-trs", "-ims", "-f", "AGENT3").expect(0).output();
        assertThat(cleaned).contains(state + ": removed 3 message(s)", rejected + ": removed 2 message(s)",
                QueueNames.data("AGENT3") + ": nothing to clean", "removed 1 file(s) of transfer state",
                "BFGCL0412I");
        assertThat(admin.depths(List.of(state, rejected))).containsEntry(state, 0L).containsEntry(rejected, 0L);
        try (var left = Files.list(stateDir)) {
            assertThat(left.map(f -> f.getFileName().toString())).as("only the agent's state key stays")
                    .containsExactly(org.openmft.agent.transfer.state.StateTag.KEY_FILE);
        }

        String deleted = mft.run("fteDeleteAgent", "AGENT3").expect(0).output();
        assertThat(deleted).contains("Deleted 7 queue(s) of agent AGENT3", "Removed the registration",
                "BFGCL0421I");
        assertThat(data.resolve("config/QM1/agents/AGENT3")).doesNotExist();
        assertThat(data.resolve("logs/QM1/agents/AGENT3")).doesNotExist();
        Map<String, Long> depths = admin.depths(QueueNames.agentQueues("AGENT3"));
        assertThat(depths.values()).as("every queue of AGENT3 is gone").containsOnly(-1L);
        assertThat(mft.run("fteListAgents", "AGENT*").expect(0).output()).contains("AGENT1", "AGENT2")
                .doesNotContain("AGENT3");
    }

    private Path request(String name, Path source, Path destination) throws IOException {
        return mft.request(name, source.toString(), destination.toString(), "file", "error", false);
    }

    /** Starts {@code bin/mft args} without waiting, its output going to {@code output}. */
    private Process startMft(Path output, String... args) throws IOException {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("openmft.dist", "target/openmft"), "bin", "mft").toAbsolutePath()
                .toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().put("OPENMFT_DATA", data.toString());
        pb.environment().put("BFG_JVM_PROPERTIES", JVM_OPTIONS);
        return pb.start();
    }

    private String awaitRequestId(Path output) {
        String[] id = new String[1];
        Distribution.await("the request ID", Duration.ofSeconds(60), () -> {
            try {
                Matcher m = REQUEST_ID.matcher(Files.readString(output, StandardCharsets.UTF_8));
                if (m.find()) {
                    id[0] = m.group(1);
                }
            } catch (IOException e) {
                // Not written yet.
            }
            return id[0] != null || !background.isAlive();
        });
        assertThat(id[0]).as("the submitter printed a request ID").isNotNull();
        return id[0];
    }

    private static String requestId(String output) {
        Matcher m = REQUEST_ID.matcher(output);
        assertThat(m.find()).as(output).isTrue();
        return m.group(1);
    }
}
