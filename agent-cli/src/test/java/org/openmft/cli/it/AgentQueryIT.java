package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fteListAgents and fteShowAgentDetails through the real launchers: agents started with
 * {@code mft agent start} publish their status to the coordination queue manager that
 * {@code fteSetupCoordination} configured, and the commands read it back; a stopped agent shows
 * STOPPED; without a database logger {@code mft transfer list} falls back to the status
 * publications; a coordination queue manager that is down is exit code 75.
 */
class AgentQueryIT {
    @TempDir
    Path data;
    Distribution mft;
    int port;

    @BeforeEach
    void setUp() {
        mft = new Distribution(data).jvmOptions(Distribution.QUICK_START);
        port = mft.createQueueManager("QM1");
        mft.run("fteCreateAgent", "-agentName", "AGENT1", "-agentQMgr", "QM1", "-agentDesc", "bindings agent")
                .expect(0);
        mft.run("fteCreateAgent", "-agentName", "AGENT2", "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                "-agentQMgrPort", String.valueOf(port)).expect(0);
    }

    @AfterEach
    void tearDown() throws Exception {
        mft.close();
    }

    @Test
    void startedAgentsAreListedReadyAndAStoppedOneStopped() {
        assertThat(mft.run("fteListAgents").expect(75).output()).contains("QM1 is not running");
        mft.mft("qmgr", "start", "QM1").expect(0);
        assertThat(mft.run("fteListAgents").expect(0).output())
                .contains("BFGCL0014W: No agents exist that match the current selection criteria.");

        mft.mft("agent", "start", "AGENT1").expect(0);
        mft.run("fteStartAgent", "AGENT2").expect(0);
        Distribution.await("both agents listed READY", Duration.ofSeconds(60), () -> {
            String out = mft.mft("agent", "list").output();
            return out.matches("(?s).*AGENT1\\s+QM1\\s+READY\\s+\\d+:\\d\\d:\\d\\d.*")
                    && out.matches("(?s).*AGENT2\\s+QM1\\s+READY\\s+\\d+:\\d\\d:\\d\\d.*");
        });
        String list = mft.run("fteListAgents", "-v", "agent?").expect(0).output();
        assertThat(list).contains("Agent Name:", "Queue Manager Name:", "Status:", "Status Age:", "Description:",
                "bindings agent", "0/25");
        assertThat(mft.run("fteListAgents", "*2").expect(0).output()).contains("AGENT2").doesNotContain("AGENT1");

        String agent2 = mft.run("fteShowAgentDetails", "agent2").expect(0).output();
        assertThat(agent2).contains("Name:", "AGENT2", "READY", "Status Age:",
                "client 127.0.0.1(" + port + ") channel SYSTEM.DEF.SVRCONN", "Maximum Source Transfers:",
                "No current transfers");
        assertThat(mft.run("fteShowAgentDetails", "AGENT1").expect(0).output()).contains("bindings agent",
                "bindings");
        assertThat(mft.mft("agent", "show", "AGENT1", "--json").expect(0).output())
                .contains("\"name\" : \"AGENT1\"", "\"status\" : \"READY\"", "\"mode\" : \"bindings\"");
        assertThat(mft.run("fteShowAgentDetails", "NOBODY").expect(1).output()).contains("NOBODY");

        // No database logger: the transfers in the status publications (none now), and a note why.
        assertThat(mft.mft("transfer", "list").expect(0).output()).contains("database logger",
                "No transfers are running or queued");
        assertThat(mft.mft("transfer", "show", "414d5120514d31202020202020202020000000000000000a").expect(1)
                .output()).contains("database logger");

        mft.run("fteStopAgent", "AGENT1").expect(0);
        assertThat(mft.run("fteListAgents").expect(0).output())
                .containsPattern("AGENT1\\s+QM1\\s+STOPPED")
                .containsPattern("AGENT2\\s+QM1\\s+READY");

        mft.run("fteStopAgent", "AGENT2").expect(0);
        mft.mft("qmgr", "stop", "QM1").expect(0);
        assertThat(mft.run("fteListAgents").expect(75).output()).contains("QM1");
    }
}
