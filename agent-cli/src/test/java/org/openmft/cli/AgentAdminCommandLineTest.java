package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.cli.MftCommandLineTest.run;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.qmgr.DirectoryLock;
import org.openmft.cli.MftCommandLineTest.Run;

import picocli.CommandLine;

/**
 * fteCancelTransfer, fteCleanAgent, fteDeleteAgent, fteSetupCoordination's MQSC, {@code mft
 * completion} and {@code --version} through picocli with captured output, without a queue manager:
 * parsing, help, and the refusals that must come before anything is sent or removed.
 */
class AgentAdminCommandLineTest {
    static final String ID = "414d5120514d312020202020202020204f5c8d6520002a04";

    @TempDir
    Path data;

    /** Runs with this test's data directory, capturing System.out (where commands report) too. */
    private Run mft(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = data.toString();
        PrintStream original = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            Run r = run(all);
            return new Run(r.exitCode(), r.out() + printed.toString(StandardCharsets.UTF_8), r.err());
        } finally {
            System.setOut(original);
        }
    }

    /** A coordination set COORD and a bindings agent AGENT1 on an embedded queue manager not defined here. */
    private void agent1() {
        assertThat(mft("setup", "coordination", "-coordinationQMgr", "COORD").exitCode()).isZero();
        Run created = mft("agent", "create", "-agentName", "AGENT1", "-agentQMgr", "QM1");
        assertThat(created.exitCode()).as(created.err()).isZero();
    }

    private DataDirectory dd() {
        return DataDirectory.of(data);
    }

    @Test
    void helpShowsIbmsFlagsAndExamples() {
        assertThat(run("transfer", "cancel", "--help").out()).contains("fteCancelTransfer", "-a=AGENT", "-m=QMGR",
                "-w=[SECONDS]", "-p=", "TRANSFER_ID", "Examples:", "41");
        assertThat(run("agent", "clean", "--help").out()).contains("fteCleanAgent", "-trs", "-ims", "-ms", "-ss",
                "-all", "-f", "Examples:");
        assertThat(run("agent", "delete", "--help").out()).contains("fteDeleteAgent", "-f", "-p=", "Examples:");
        assertThat(run("completion", "--help").out()).contains("bash", "zsh", "Examples:");
        assertThat(run("agent", "--help").out()).contains("fteCleanAgent", "fteDeleteAgent");
        assertThat(run("transfer", "--help").out()).contains("fteCancelTransfer");
        assertThat(run("--help").out()).contains("completion");
    }

    @Test
    void everyCommandAnswersVersion() {
        for (String[] command : new String[][] {{}, {"agent", "clean"}, {"agent", "fteDeleteAgent"},
                {"transfer", "fteCancelTransfer"}, {"agent", "ping"}, {"setup", "fteSetupCoordination"},
                {"completion"}}) {
            String[] args = java.util.Arrays.copyOf(command, command.length + 1);
            args[command.length] = "--version";
            Run r = run(args);
            assertThat(r.exitCode()).isZero();
            assertThat(r.out()).as(String.join(" ", args)).startsWith("OpenMFT ");
        }
    }

    @Test
    void cancelNeedsAnAgentAndAValidIdBeforeAnythingIsSent() {
        Run noAgent = mft("transfer", "cancel", ID);
        assertThat(noAgent.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(noAgent.err()).startsWith("BFGCL0001E").contains("-a");
        Run badId = mft("transfer", "cancel", "-a", "AGENT1", "1234");
        assertThat(badId.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(badId.err()).contains("BFGCL0400E", "1234", "48 hexadecimal", "nothing was sent")
                .doesNotContain("\tat ");
        Run badAgent = mft("transfer", "fteCancelTransfer", "-a", "NO-SUCH", ID);
        assertThat(badAgent.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(badAgent.err()).contains("NO-SUCH");
        assertThat(mft("transfer", "cancel", "-a", "AGENT1", "-w", "0", ID).exitCode()).isEqualTo(ExitCodes.FAILED);
        // Everything valid, but no command.properties: the configuration problem is named.
        assertThat(mft("setup", "coordination", "-coordinationQMgr", "COORD").exitCode()).isZero();
        Run noCommands = mft("transfer", "cancel", "-a", "AGENT1", ID);
        assertThat(noCommands.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(noCommands.err()).contains("mft setup commands");
    }

    @Test
    void cancelWaitTakesANumberOnlyWhenOneFollows() {
        CancelTransferCommand bare = parse("-a", "A1", "-w", ID);
        assertThat(bare.waitSeconds).isEqualTo(CancelTransferCommand.OptionalSeconds.DEFAULT);
        assertThat(bare.transferId).isEqualTo(ID);
        CancelTransferCommand timed = parse("-w", "5", "-a", "A1", ID);
        assertThat(timed.waitSeconds).isEqualTo(5);
        CancelTransferCommand last = parse("-a", "A1", ID, "-w");
        assertThat(last.waitSeconds).isEqualTo(CancelTransferCommand.OptionalSeconds.DEFAULT);
        assertThat(parse("-a", "A1", ID).waitSeconds).isNull();
    }

    private static CancelTransferCommand parse(String... args) {
        CancelTransferCommand command = new CancelTransferCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void cleanRefusesToGuessWhatToClean() {
        agent1();
        Run r = mft("agent", "clean", "AGENT1");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).contains("BFGCL0410E", "-trs", "-ims", "-ms", "-ss", "-all");
    }

    @Test
    void cleanOfAnAgentNotConfiguredHereIsAConfigurationProblem() {
        assertThat(mft("setup", "coordination", "-coordinationQMgr", "COORD").exitCode()).isZero();
        Run r = mft("agent", "fteCleanAgent", "-trs", "-f", "GHOST");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(r.err()).contains("GHOST", "is not configured");
    }

    @Test
    void cleanWithoutATerminalDoesNotAskAsInIbmScripts() throws Exception {
        agent1();
        Path state = Files.createDirectories(dd().agentLogDir("COORD", "AGENT1").resolveSibling("state"));
        Files.writeString(state.resolve("x.request.xml"), "<request/>");
        Run r = mft("agent", "clean", "-trs", "AGENT1");
        // It went ahead without -f: what stops it is the queue manager that is not running.
        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.QMGR_UNAVAILABLE);
        assertThat(r.err()).doesNotContain("BFGCL0413E").doesNotContain("\tat ");
        assertThat(state.resolve("x.request.xml")).as("nothing removed while the queues could not be").exists();
    }

    @Test
    void unitPrintsTheAgentsRestartPropertiesAndSandboxesAsASystemdDropIn() throws Exception {
        agent1();
        Path props = dd().agentProperties("COORD", "AGENT1");
        Files.writeString(props, Files.readString(props) + "maxRestartCount=2\nmaxRestartInterval=300\n");
        Run r = mft("agent", "unit", "AGENT1");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("StartLimitIntervalSec=300\n", "StartLimitBurst=3\n", "Restart=on-failure\n",
                "ReadWritePaths=-" + dd().root().resolve("transfers/COORD/AGENT1"))
                .doesNotContain("openmft-qmgr@");
        Files.writeString(props, Files.readString(props) + "maxRestartCount=1001\n");
        Run bad = mft("agent", "unit", "AGENT1");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(bad.err()).contains("maxRestartCount");
    }

    @Test
    void cleanAndDeleteRefuseARunningAgent() throws Exception {
        agent1();
        Path lockDir = dd().agentLogDir("COORD", "AGENT1").getParent();
        Optional<DirectoryLock> running = DirectoryLock.tryAcquire(lockDir, AgentCommands.LOCK);
        assertThat(running).isPresent();
        try (DirectoryLock held = running.get()) {
            Run clean = mft("agent", "clean", "-all", "-f", "AGENT1");
            assertThat(clean.exitCode()).isEqualTo(ExitCodes.FAILED);
            assertThat(clean.err()).contains("BFGCL0411E", "running", "fteStopAgent AGENT1");
            Run delete = mft("agent", "delete", "-f", "AGENT1");
            assertThat(delete.exitCode()).isEqualTo(ExitCodes.FAILED);
            assertThat(delete.err()).contains("BFGCL0420E", "running");
            assertThat(dd().agentProperties("COORD", "AGENT1")).exists();
            assertThat(held).isNotNull();
        }
    }

    @Test
    void cleanWithTheQueueManagerUnavailableRemovesNothing() throws Exception {
        agent1();
        Path state = Files.createDirectories(dd().agentLogDir("COORD", "AGENT1").resolveSibling("state"));
        Files.writeString(state.resolve("x.request.xml"), "<request/>");
        Run r = mft("agent", "clean", "-trs", "-f", "AGENT1");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.QMGR_UNAVAILABLE);
        assertThat(r.err()).contains("QM1", "was not cleaned");
        assertThat(state.resolve("x.request.xml")).exists();
    }

    @Test
    void deleteOfAnUnknownAgentNeedsForceAndThenOnlyDeregisters() {
        assertThat(mft("setup", "coordination", "-coordinationQMgr", "COORD").exitCode()).isZero();
        Run r = mft("agent", "delete", "GHOST");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(r.err()).contains("GHOST", "-f");
        // The coordination queue manager is not there: a warning, not a failure.
        Run forced = mft("agent", "delete", "-f", "GHOST");
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(forced.out()).contains("only its registration", "BFGCL0424W", "BFGCL0421I");
    }

    @Test
    void deleteKeepsTheAgentWhenItsQueuesCannotBeDeletedUnlessForced() {
        agent1();
        Path props = dd().agentProperties("COORD", "AGENT1");
        Run r = mft("agent", "delete", "AGENT1");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.QMGR_UNAVAILABLE);
        assertThat(r.err()).contains("QM1", "was not deleted", "-f");
        assertThat(props).exists();
        Run forced = mft("agent", "fteDeleteAgent", "-f", "AGENT1");
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(forced.out()).contains("BFGCL0423W", "BFGCL0421I");
        assertThat(dd().agentDir("COORD", "AGENT1")).doesNotExist();
        assertThat(dd().agentLogDir("COORD", "AGENT1").getParent()).doesNotExist();
    }

    @Test
    void anAgentCreatedByOpenMftMayUseOnlyItsTransferDirectoryAndTheDirectoriesNamed() throws Exception {
        agent1();
        Path transfers = dd().agentTransferDir("COORD", "AGENT1");
        assertThat(transfers).isEqualTo(data.resolve("transfers/COORD/AGENT1")).isDirectory();
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(transfers)))
                .isEqualTo("rwx------");
        org.openmft.agent.config.AgentConfig config = org.openmft.agent.config.AgentConfig.load(
                dd().agentProperties("COORD", "AGENT1"), java.util.Map.of());
        assertThat(config.sandboxRoot()).contains(transfers.toString());
        assertThat(config.transferRoot()).isEqualTo(transfers);
        assertThat(config.userSandboxes()).isFalse();

        Path extra = data.resolve("outbound");
        Run named = mft("agent", "create", "-agentName", "AGENT2", "-agentQMgr", "QM1", "--sandbox-dir",
                extra.toString(), "--sandbox-dir", "relative/in");
        assertThat(named.exitCode()).as(named.err()).isZero();
        String expected = String.join(java.io.File.pathSeparator, dd().agentTransferDir("COORD", "AGENT2").toString(),
                extra.toString(), Path.of("relative/in").toAbsolutePath().toString());
        assertThat(named.out()).contains("Agent AGENT2 may read and write only in " + expected.replace(
                java.io.File.pathSeparator, ", ") + " (sandboxRoot)");
        assertThat(org.openmft.agent.config.AgentConfig.load(dd().agentProperties("COORD", "AGENT2"), java.util.Map.of())
                .sandboxRoot()).contains(expected);

        Run refused = mft("agent", "create", "-agentName", "AGENT3", "-agentQMgr", "QM1", "--sandbox-dir",
                "/srv/a" + java.io.File.pathSeparator + "/srv/b");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(refused.err()).contains("may not contain '" + java.io.File.pathSeparator + "'");
        assertThat(dd().agentDir("COORD", "AGENT3")).doesNotExist();
    }

    @Test
    void deleteOfAnIbmMqAgentPrintsTheMqscToRun() {
        assertThat(mft("setup", "coordination", "-coordinationQMgr", "COORD").exitCode()).isZero();
        assertThat(mft("agent", "create", "-agentName", "IBMAGENT", "-agentQMgr", "QMIBM", "-agentQMgrHost",
                "127.0.0.1", "-agentQMgrPort", "1", "-agentQMgrProvider", "ibmmq").exitCode()).isZero();
        Run r = mft("agent", "delete", "IBMAGENT");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("BFGCM0238I", "runmqsc QMIBM", "DELETE QLOCAL(SYSTEM.FTE.STATE.IBMAGENT)",
                "BFGCL0421I");
        assertThat(dd().agentDir("COORD", "IBMAGENT")).doesNotExist();
    }

    @Test
    void setupCoordinationWritesIbmsCoordinationMqsc() throws Exception {
        Run r = mft("setup", "fteSetupCoordination", "-coordinationQMgr", "COORD");
        assertThat(r.exitCode()).isZero();
        Path mqsc = data.resolve("config/COORD/COORD.mqsc");
        assertThat(r.out()).contains(mqsc.toString());
        assertThat(Files.readString(mqsc)).contains("DEFINE TOPIC('SYSTEM.FTE') TOPICSTR('SYSTEM.FTE')",
                "DEFINE QLOCAL(SYSTEM.FTE) LIKE(SYSTEM.BROKER.DEFAULT.STREAM)",
                "ALTER NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) NAMES(SYSTEM.BROKER.DEFAULT.STREAM,"
                        + "SYSTEM.BROKER.ADMIN.STREAM,SYSTEM.FTE)",
                "ALTER QMGR PSMODE(ENABLED)");
        Run ibm = mft("setup", "coordination", "-coordinationQMgr", "HUB", "-coordinationQMgrHost", "hub",
                "-coordinationQMgrProvider", "ibmmq");
        assertThat(ibm.exitCode()).isZero();
        assertThat(ibm.out()).contains("BFGCM0238I", "runmqsc HUB");
        assertThat(data.resolve("config/HUB/HUB.mqsc")).exists();
        // fteSetupCommands writes no MQSC, as IBM's does not.
        assertThat(mft("setup", "commands", "-connectionQMgr", "QM1").exitCode()).isZero();
        try (var files = Files.list(data.resolve("config/COORD"))) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".mqsc")))
                    .containsExactly("COORD.mqsc");
        }
    }

    @Test
    void completionPrintsAScriptForMftAndTheLaunchers() {
        Run bash = run("completion");
        assertThat(bash.exitCode()).isZero();
        assertThat(bash.out()).startsWith("#!/usr/bin/env bash").contains("_picocli_mft_agent_clean",
                "_picocli_mft_transfer_cancel", "complete -F _complete_mft",
                "complete -F _picocli_mft_agent_fteCleanAgent -o default fteCleanAgent",
                "complete -F _picocli_mft_transfer_fteCancelTransfer -o default fteCancelTransfer",
                "'-trs'", "ZSH_VERSION");
        assertThat(run("completion", "zsh").out()).isEqualTo(bash.out());
        Run fish = run("completion", "fish");
        assertThat(fish.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(fish.err()).contains("fish");
    }
}
