package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.openmft.cli.NotifySocketReceiver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The foundation end to end, through the real launchers: create a queue manager, two agents,
 * start them, ping them, stop them; in bindings mode (agents inside the queue manager's process)
 * and in client mode (agents in processes of their own, over TCP).
 */
class AgentLifecycleIT {
    @TempDir
    Path data;
    Distribution mft;
    int port;

    @BeforeEach
    void setUp() {
        mft = new Distribution(data).jvmOptions(Distribution.QUICK_START);
        port = mft.createQueueManager("QM1");
    }

    @AfterEach
    void tearDown() throws Exception {
        mft.close();
    }

    @Test
    void bindingsAgentsRunInsideTheQueueManagerProcess() {
        mft.run("fteCreateAgent", "-agentName", "AGENT1", "-agentQMgr", "QM1", "-agentDesc", "first").expect(0);
        mft.run("fteCreateAgent", "-agentName", "agent2", "-agentQMgr", "QM1").expect(0);
        assertThat(data.resolve("config/QM1/agents/AGENT2/agent.properties")).exists();
        assertThat(data.resolve("config/QM1/agents/AGENT2/AGENT2_create.mqsc")).content()
                .contains("DEFINE QLOCAL(SYSTEM.FTE.COMMAND.AGENT2)");

        mft.mft("qmgr", "start", "QM1").expect(0);
        long qmPid = mft.pid(Path.of("qmgrs/QM1"), "qmgr");
        assertThat(Distribution.alive(qmPid)).isTrue();

        mft.run("fteStartAgent", "AGENT1").expect(0);
        mft.mft("agent", "start", "AGENT2").expect(0);
        assertThat(mft.pid(Path.of("logs/QM1/agents/AGENT1"), "agent")).isEqualTo(qmPid);

        assertThat(mft.run("ftePingAgent", "AGENT1").expect(0).output()).contains("BFGCL0793I", "AGENT1");
        assertThat(mft.mft("agent", "ping", "AGENT2").expect(0).output()).contains("BFGCL0793I", "AGENT2");

        // An agent nobody created is named, not waited for.
        assertThat(mft.run("ftePingAgent", "NOBODY").expect(1).output()).contains("SYSTEM.FTE.COMMAND.NOBODY");
        // The same agent cannot run twice.
        assertThat(mft.run("fteStartAgent", "AGENT1").expect(1).output()).contains("already running");

        mft.run("fteStopAgent", "AGENT1").expect(0);
        mft.mft("agent", "stop", "AGENT2").expect(0);
        assertThat(mft.run("ftePingAgent", "AGENT1", "-w", "1").expect(2).output()).contains("didn't respond");
        assertThat(Distribution.alive(qmPid)).as("the queue manager outlives its agents").isTrue();
        assertThat(data.resolve("logs/QM1/agents/AGENT1/logs/output0.log")).content()
                .contains("AGENT1").doesNotContain("AGENT2 has been successfully started");

        mft.mft("qmgr", "stop", "QM1").expect(0);
        Distribution.await("queue manager process exit", Duration.ofSeconds(30), () -> !Distribution.alive(qmPid));
        assertThat(mft.mft("qmgr", "list").expect(0).output()).contains("QM1", "STOPPED");
    }

    @Test
    void clientAgentsRunInTheirOwnProcesses() throws Exception {
        String p = String.valueOf(port);
        mft.run("fteCreateAgent", "-agentName", "SRC", "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                "-agentQMgrPort", p).expect(0);
        mft.run("fteCreateAgent", "-agentName", "DST", "-agentQMgr", "QM1", "-agentQMgrHost", "localhost",
                "-agentQMgrPort", p, "-agentQMgrChannel", "SYSTEM.DEF.SVRCONN").expect(0);
        mft.mft("qmgr", "start", "QM1").expect(0);
        long qmPid = mft.pid(Path.of("qmgrs/QM1"), "qmgr");

        mft.run("fteStartAgent", "SRC").expect(0);
        // JSON logs: the spawned daemon inherits the switch from the command's BFG_JVM_PROPERTIES.
        mft.jvmOptions(Distribution.QUICK_START + " -Dopenmft.log.format=json");
        mft.run("fteStartAgent", "DST").expect(0);
        mft.jvmOptions(Distribution.QUICK_START + " -Dopenmft.log.format=xml");
        assertThat(mft.run("ftePingAgent", "DST").expect(78).output()).contains("openmft.log.format=xml", "json");
        mft.jvmOptions(Distribution.QUICK_START);
        long srcPid = mft.pid(Path.of("logs/QM1/agents/SRC"), "agent");
        long dstPid = mft.pid(Path.of("logs/QM1/agents/DST"), "agent");
        assertThat(srcPid).isPositive().isNotEqualTo(qmPid).isNotEqualTo(dstPid);
        assertThat(Distribution.alive(srcPid)).isTrue();

        assertThat(mft.run("ftePingAgent", "SRC").expect(0).output()).contains("BFGCL0793I");
        assertThat(mft.run("ftePingAgent", "DST").expect(0).output()).contains("BFGCL0793I");

        mft.run("fteStopAgent", "SRC").expect(0);
        mft.run("fteStopAgent", "-i", "DST").expect(0);
        Distribution.await("agent processes exit", Duration.ofSeconds(30),
                () -> !Distribution.alive(srcPid) && !Distribution.alive(dstPid));
        assertThat(mft.run("fteStopAgent", "SRC").expect(1).output()).contains("not running");
        mft.mft("qmgr", "stop", "QM1").expect(0);
        List<String> dstLog = Files.readAllLines(data.resolve("logs/QM1/agents/DST/logs/output0.log"));
        assertThat(dstLog).isNotEmpty();
        ObjectMapper json = new ObjectMapper();
        for (String line : dstLog) {
            JsonNode event = json.readTree(line);
            assertThat(event.path("level").asText()).as(line).isNotEmpty();
            assertThat(event.path("loggerName").asText()).as(line).isNotEmpty();
        }
        assertThat(dstLog).anySatisfy(line -> assertThat(line).contains("DST"));
        assertThat(Files.readString(data.resolve("logs/QM1/agents/SRC/logs/output0.log"))).doesNotStartWith("{");
    }

    @Test
    void aClientAgentWithoutItsQueueManagerEndsWithExitCode75() {
        mft.run("fteCreateAgent", "-agentName", "LONELY", "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                "-agentQMgrPort", String.valueOf(port)).expect(0);
        Distribution.Result r = mft.run("fteStartAgent", "LONELY", "-F").expect(75);
        assertThat(r.output()).contains("QM1");
        assertThat(mft.run("fteStartAgent", "LONELY").expect(75).output()).contains("did not start");
    }

    @Test
    void aBindingsAgentNeedsItsQueueManagerRunning() {
        mft.run("fteCreateAgent", "-agentName", "AGENT1", "-agentQMgr", "QM1").expect(0);
        assertThat(mft.run("fteStartAgent", "AGENT1").expect(75).output())
                .contains("QM1 is not running", "mft qmgr start QM1");
    }

    @Test
    void badConfigurationStopsStartUpWithExitCode78NamingTheKey() throws Exception {
        mft.run("fteCreateAgent", "-agentName", "AGENT1", "-agentQMgr", "QM1").expect(0);
        Path props = data.resolve("config/QM1/agents/AGENT1/agent.properties");
        Files.writeString(props, Files.readString(props) + "agentChunkSize=0\n");
        assertThat(mft.run("fteStartAgent", "AGENT1").expect(78).output())
                .contains("agentChunkSize", "0");
        assertThat(mft.run("fteStartAgent", "NOSUCH").expect(78).output()).contains("NOSUCH");
    }

    @Test
    void wrongFlagsAreRefusedWithOneLineAndExitCode1() {
        Distribution.Result r = mft.run("fteCreateAgent", "-agentName", "A1").expect(1);
        assertThat(r.output()).contains("-agentQMgr").doesNotContain("Exception");
        assertThat(mft.run("fteCreateAgent", "-agentName", "BAD NAME!", "-agentQMgr", "QM1").expect(1).output())
                .contains("BAD NAME!");
        assertThat(mft.mft("--version").expect(0).output()).contains("OpenMFT");
    }

    @Test
    void aQueueManagerInTheForegroundTellsSystemdWhenItServesAndWhenItStopsAndCannotRunTwice() throws Exception {
        NotifySocketReceiver.unavailable().ifPresent(why -> Assumptions.assumeTrue(false, why));
        try (NotifySocketReceiver systemd = NotifySocketReceiver.at(data.resolve("notify"))) {
            Distribution.Background qmgr = mft.environment("NOTIFY_SOCKET", systemd.address())
                    .start("mft", "qmgr", "start", "QM1", "-F");
            List<String> messages = systemd.await("READY=1", Duration.ofSeconds(90));
            assertThat(String.join("\n", messages)).contains("STATUS=Queue manager QM1 is running");
            // Ready means serving: commands reach it at once.
            assertThat(mft.mft("qmgr", "list").expect(0).output()).contains("QM1", "RUNNING");
            assertThat(mft.mft("qmgr", "start", "QM1").expect(1).output()).contains("already running");
            assertThat(mft.mft("qmgr", "start", "QM1", "-F").expect(1).output()).contains("already running");
            assertThat(mft.mft("qmgr", "delete", "QM1").expect(1).output()).contains("running");
            assertThat(systemd.received()).as("only the unit's own process speaks to systemd")
                    .hasSize(messages.size()).noneMatch(m -> m.contains("STOPPING=1"));
            qmgr.process().destroy(); // SIGTERM, as systemctl stop sends
            assertThat(systemd.await("STOPPING=1", Duration.ofSeconds(60))).last().asString()
                    .contains("STATUS=Queue manager QM1 is stopping");
            qmgr.await(Duration.ofSeconds(60));
        }
        mft.mft("qmgr", "delete", "QM1").expect(0);
        assertThat(data.resolve("qmgrs/QM1")).doesNotExist();
    }
}
