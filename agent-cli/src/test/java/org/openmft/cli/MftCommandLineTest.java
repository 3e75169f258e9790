package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/**
 * Command parsing and help through picocli with captured output: IBM's flag spellings, one-line
 * errors with exit code 1, and nothing written when the command line is wrong.
 */
class MftCommandLineTest {
    @TempDir
    Path data;

    record Run(int exitCode, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cl = Mft.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void helpShowsIbmFlags() {
        Run r = run("agent", "create", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("-agentName", "-agentQMgr", "-agentQMgrHost", "-agentQMgrPort",
                "-agentQMgrChannel", "-agentDesc", "-f");
        assertThat(run("agent", "stop", "--help").out()).contains("-i");
        assertThat(run("agent", "ping", "--help").out()).contains("-w", "-m");
        assertThat(run("--help").out()).contains("qmgr", "agent", "setup", "Exit codes");
    }

    @Test
    void aMissingRequiredFlagIsOneLineAndExitCode1WithNothingWritten() {
        Run r = run("agent", "create", "--data-dir", data.toString(), "-agentName", "A1");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).startsWith("BFGCL0001E").contains("-agentQMgr").doesNotContain("Exception", "\tat ");
        assertThat(data).isEmptyDirectory();
    }

    @Test
    void anUnknownFlagIsNamed() {
        Run r = run("agent", "ping", "--data-dir", data.toString(), "AGENT1", "-bogus");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).contains("-bogus");
    }

    @Test
    void commandsWithoutConfigurationExplainWhatToRunFirst() {
        Run r = run("agent", "create", "--data-dir", data.toString(), "-agentName", "A1", "-agentQMgr", "QM1");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(r.err()).contains("mft setup coordination");
        assertThat(data.resolve("config/QM1/agents")).doesNotExist();
    }

    @Test
    void badValuesAreRefusedBeforeAnythingIsWritten() {
        assertThat(run("setup", "coordination", "--data-dir", data.toString(), "-coordinationQMgr", "QM1")
                .exitCode()).isZero();
        Run r = run("agent", "create", "--data-dir", data.toString(), "-agentName", "A1", "-agentQMgr", "QM1",
                "-agentQMgrPort", "99999");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(r.err()).contains("agentQMgrPort", "99999");
        assertThat(data.resolve("config/QM1/agents/A1")).doesNotExist();

        Run badName = run("agent", "create", "--data-dir", data.toString(), "-agentName", "NAME-WITH-DASH",
                "-agentQMgr", "QM1");
        assertThat(badName.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(badName.err()).contains("NAME-WITH-DASH");
    }

    @Test
    void setupWritesIbmPropertiesFilesAndTheDefault() throws Exception {
        assertThat(run("setup", "coordination", "--data-dir", data.toString(), "-coordinationQMgr", "COORD",
                "-coordinationQMgrHost", "hub.example.org", "-coordinationQMgrPort", "1415").exitCode()).isZero();
        assertThat(data.resolve("config/COORD/coordination.properties")).content()
                .contains("coordinationQMgr=COORD", "coordinationQMgrHost=hub.example.org",
                        "coordinationQMgrPort=1415");
        assertThat(data.resolve("config/installation.properties")).content().contains("defaultProperties=COORD");
        Run again = run("setup", "coordination", "--data-dir", data.toString(), "-coordinationQMgr", "COORD");
        assertThat(again.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(run("setup", "coordination", "--data-dir", data.toString(), "-coordinationQMgr", "COORD", "-f")
                .exitCode()).isZero();
        assertThat(run("setup", "commands", "--data-dir", data.toString(), "-connectionQMgr", "QM1").exitCode())
                .isZero();
        assertThat(data.resolve("config/COORD/command.properties")).content().contains("connectionQMgr=QM1");
    }

    @Test
    void queueManagerCommandsValidateNamesAndPorts() {
        assertThat(run("qmgr", "create", "--data-dir", data.toString(), "BAD NAME").exitCode())
                .isEqualTo(ExitCodes.FAILED);
        assertThat(run("qmgr", "create", "--data-dir", data.toString(), "QM1", "--port", "0").exitCode())
                .isEqualTo(ExitCodes.FAILED);
        assertThat(run("qmgr", "create", "--data-dir", data.toString(), "QM1", "--port", "15000").exitCode())
                .isZero();
        Run dup = run("qmgr", "create", "--data-dir", data.toString(), "QM2", "--port", "15000");
        assertThat(dup.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(dup.err()).contains("15000", "QM1");
        Run notThere = run("qmgr", "start", "--data-dir", data.toString(), "NOPE");
        assertThat(notThere.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(notThere.err()).contains("NOPE does not exist");
    }

    @Test
    void aQueueManagerWhoseMetricsWouldLeaveLoopbackWithoutTlsDoesNotStart() throws Exception {
        assertThat(run("qmgr", "create", "--data-dir", data.toString(), "QM3", "--port", "15003").exitCode())
                .isZero();
        java.nio.file.Path file = org.openmft.agent.config.DataDirectory.of(data).qmgrDir("QM3")
                .resolve("qmgr.properties");
        java.nio.file.Files.writeString(file, "metrics.port=9465\nmetrics.bindAddress=0.0.0.0\n",
                java.nio.file.StandardOpenOption.APPEND);
        Run refused = run("qmgr", "start", "--data-dir", data.toString(), "QM3");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(refused.err()).contains("metrics.keyStore", "0.0.0.0", "not a loopback address");
    }
}
