package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.cli.MftCommandLineTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.DataDirectory;
import org.openmft.coordination.logger.JdbcLogStore;
import org.openmft.coordination.logger.LogRecord;
import org.openmft.coordination.query.ConfiguredLoggers;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;
import org.openmft.xml.log.LogAction;
import org.openmft.xml.log.LogItem;
import org.openmft.xml.log.TransferLog;

import org.openmft.cli.MftCommandLineTest.Run;

/**
 * {@code mft agent list|show} and {@code mft transfer list|show} without queue managers: parsing,
 * help, one-line errors with their exit codes, and the transfer history read from a database
 * logger's embedded H2 store filled here.
 */
class QueryCommandLineTest {
    @TempDir
    Path data;

    static final String ID1 = "414d5120514d31202020202020202020000000000000000a";
    static final String ID2 = "414d5120514d31202020202020202020000000000000000b";
    static final Instant T0 = Instant.parse("2026-11-20T10:15:30.123Z");

    private Run mft(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = data.toString();
        return run(all);
    }

    private void coordination(String... extra) {
        String[] args = new String[extra.length + 3];
        args[0] = "setup";
        args[1] = "coordination";
        args[2] = "-coordinationQMgr=COORD";
        System.arraycopy(extra, 0, args, 3, extra.length);
        assertThat(mft(args).exitCode()).isZero();
    }

    private void logger(String name, String type) throws Exception {
        Path file = DataDirectory.of(data).loggerProperties("COORD", name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "wmqfte.logger.type=" + type + "\nwmqfte.queue.manager=COORD\n");
    }

    @Test
    void helpShowsTheCommandsTheirIbmAliasesAndOptions() {
        assertThat(run("agent", "--help").out()).contains("list", "fteListAgents", "show", "fteShowAgentDetails");
        assertThat(run("agent", "list", "--help").out()).contains("PATTERN", "-v", "-p", "--json",
                "agentStatusJitterTolerance");
        assertThat(run("agent", "fteListAgents", "--help").exitCode()).isZero();
        assertThat(run("agent", "show", "--help").out()).contains("AGENT", "-p", "--json");
        assertThat(run("transfer", "--help").out()).contains("submit", "list", "show");
        assertThat(run("transfer", "list", "--help").out()).contains("--agent", "--state", "--limit", "--logger",
                "--json", "SUCCESSFUL", "IN_PROGRESS");
        assertThat(run("transfer", "show", "--help").out()).contains("ID", "--logger", "--json");
    }

    @Test
    void withoutCoordinationConfigurationTheCommandSaysWhatToRun() {
        Run r = mft("agent", "list");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(r.err()).contains("mft setup coordination").doesNotContain("Exception", "\tat ");
        Run p = mft("agent", "show", "A1", "-p", "ELSEWHERE");
        assertThat(p.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(p.err()).contains("ELSEWHERE");
    }

    @Test
    void aCoordinationQueueManagerThatIsNotRunningIsExitCode75InOneLine() {
        assertThat(mft("qmgr", "create", "COORD", "--port", "15001").exitCode()).isZero();
        coordination();
        Run r = mft("agent", "list");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.QMGR_UNAVAILABLE);
        assertThat(r.err().strip()).contains("COORD is not running", "mft qmgr start COORD").doesNotContain("\n");
        assertThat(mft("agent", "show", "AGENT1").exitCode()).isEqualTo(ExitCodes.QMGR_UNAVAILABLE);
        // Without a logger, transfer list reads the agents' statuses: the same failure.
        assertThat(mft("transfer", "list").exitCode()).isEqualTo(ExitCodes.QMGR_UNAVAILABLE);
    }

    @Test
    void anUnreachableClientCoordinationQueueManagerIsExitCode75WithoutAStackTrace() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        coordination("-coordinationQMgrHost", "127.0.0.1", "-coordinationQMgrPort", String.valueOf(port));
        Run r = mft("agent", "list");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.QMGR_UNAVAILABLE);
        assertThat(r.err()).contains("COORD").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void badArgumentsAreRefusedWithExitCode1() {
        coordination();
        assertThat(mft("agent", "show", "BAD NAME!").err()).contains("BAD NAME!");
        assertThat(mft("agent", "show", "BAD NAME!").exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(mft("agent", "show").exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(mft("agent", "list", "A*", "B*").exitCode()).isEqualTo(ExitCodes.FAILED);
        Run limit = mft("transfer", "list", "--limit", "0");
        assertThat(limit.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(limit.err()).contains("--limit");
        Run state = mft("transfer", "list", "--state", "SLEEPING");
        assertThat(state.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(state.err()).startsWith("BFGCL0001E").contains("SLEEPING");
        assertThat(mft("transfer", "show").exitCode()).isEqualTo(ExitCodes.FAILED);
    }

    @Test
    void withoutADatabaseLoggerTransferShowExplainsWhatIsNeeded() throws Exception {
        coordination();
        logger("FILES", "FILE");
        Run r = mft("transfer", "show", ID1);
        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).contains(ID1, "database logger", "mft logger create");
        Run file = mft("transfer", "list", "--logger", "files");
        assertThat(file.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(file.err()).contains("FILES", "FILE logger");
        Run missing = mft("transfer", "list", "--logger", "NOPE");
        assertThat(missing.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(missing.err()).contains("NOPE");
    }

    @Test
    void severalDatabaseLoggersNeedAChoice() throws Exception {
        coordination();
        logger("DB1", "DATABASE");
        logger("DB2", "DATABASE");
        Run r = mft("transfer", "list");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).contains("DB1, DB2", "--logger");
        assertThat(mft("transfer", "list", "--logger", "db2").exitCode()).isZero();
    }

    @Test
    void aLoggerWhosePropertiesCannotBeReadIsNamedAndSkipped() throws Exception {
        coordination();
        logger("BAD", "SOMETIMES");
        logger("DB1", "DATABASE");
        Run r = mft("transfer", "list");
        assertThat(r.exitCode()).isZero();
        assertThat(r.err()).contains("Logger BAD skipped", "SOMETIMES");
        assertThat(r.out()).contains("logger DB1");
        Run named = mft("transfer", "list", "--logger", "BAD");
        assertThat(named.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(named.err()).contains("SOMETIMES");
    }

    @Test
    void agesAreHoursMinutesAndSeconds() {
        assertThat(Listing.age(Duration.ofSeconds(3723))).isEqualTo("1:02:03");
        assertThat(Listing.age(Duration.ofHours(112).plusSeconds(61))).isEqualTo("112:01:01");
        assertThat(Listing.age(Duration.ofMillis(999))).isEqualTo("0:00:00");
        assertThat(Listing.age(Duration.ofSeconds(-20))).isEqualTo("-0:00:20");
        assertThat(Listing.age(null)).isEqualTo("-");
    }

    @Test
    void aDatabaseLoggerThatStoredNothingYetListsNothingAndCreatesNoDatabase() throws Exception {
        coordination();
        logger("DB1", "DATABASE");
        Run r = mft("transfer", "list");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("No transfers in the database of logger DB1");
        Path logDir = DataDirectory.of(data).loggerLogDir("COORD", "DB1");
        assertThat(ConfiguredLoggers.embeddedDatabaseFile(logDir)).doesNotExist();
        assertThat(mft("transfer", "show", ID1).err()).contains(ID1, "not in the database of logger DB1");
    }

    private static TransferLog log(String id, LogAction action, Instant time, String source, String destination,
            List<LogItem> items, Integer resultCode, List<String> supplements) {
        return new TransferLog("6.00", id, TransferLog.SOURCE_AGENT, action, time, new AgentRef(source, "QMS"),
                new AgentRef(destination, "QMD"), new Originator("host1", "alice", "alice"),
                action == LogAction.STARTED ? "nightly" : null, action == LogAction.COMPLETED ? null : time,
                action == LogAction.COMPLETED ? -1 : 2, action == LogAction.STARTED ? -1 : 1010,
                action == LogAction.PROGRESS ? 0 : -1, items, resultCode, supplements, null, Map.of());
    }

    private static LogRecord record(TransferLog log, int serial) {
        String xml = "<transaction ID=\"" + log.transferId() + "\"><!-- " + serial + " --></transaction>";
        return new LogRecord(LogRecord.keyOf(xml), "SYSTEM.FTE/Log/" + log.sourceAgent().agent() + "/"
                + log.transferId(), xml, log, log.time());
    }

    /** A SHA-256 (of "test"), for an item checked with OpenMFT's own method. */
    private static final String SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private void history() throws Exception {
        coordination();
        logger("DB1", "DATABASE");
        Path logDir = DataDirectory.of(data).loggerLogDir("COORD", "DB1");
        try (JdbcLogStore store = JdbcLogStore.openH2(logDir)) {
            store.storeAll(List.of(
                    record(log(ID1, LogAction.STARTED, T0, "SRC", "DST", List.of(), null, List.of()), 1),
                    record(log(ID1, LogAction.PROGRESS, T0.plusSeconds(1), "SRC", "DST", List.of(
                            new LogItem("binary", "/in/a.bin", "leave", 1000, "/out/a.bin", "error", 1000, "MD5",
                                    "9e107d9d372bb6826bd81d3542a419d6", 0, null),
                            new LogItem("binary", "/in/b.bin", "leave", 10, "/out/b.bin", "error", -1, null, null, 1,
                                    "BFGIO0006E: exists"),
                            new LogItem("binary", "/in/c.bin", "leave", 4, "/out/c.bin", "error", 4, "SHA-256",
                                    SHA256, 0, null)), null, List.of()), 2),
                    record(log(ID1, LogAction.COMPLETED, T0.plus(Duration.ofSeconds(2)), "SRC", "DST", List.of(), 20,
                            List.of("BFGRP0034I: partially successful")), 3),
                    record(log(ID2, LogAction.STARTED, T0.plusSeconds(60), "OTHER", "DST", List.of(), null,
                            List.of()), 4)));
        }
    }

    @Test
    void transferListReadsTheDatabaseLoggerNewestFirstWithFilters() throws Exception {
        history();
        Run all = mft("transfer", "list");
        assertThat(all.exitCode()).as(all.err()).isZero();
        List<String> lines = all.out().lines().toList();
        assertThat(lines.get(0)).startsWith("Transfer ID:").contains("State:", "Result:", "Source Agent:",
                "Destination Agent:", "Started:", "Ended:", "Job:");
        assertThat(lines.get(1)).startsWith(ID2).contains("STARTED", "OTHER", "2026-11-20T10:16:30Z");
        assertThat(lines.get(2)).startsWith(ID1).contains("PARTIAL", "20", "SRC", "DST", "nightly");
        assertThat(lines).hasSize(3);

        assertThat(mft("transfer", "list", "--agent", "src").out().lines().skip(1)).singleElement()
                .asString().startsWith(ID1);
        assertThat(mft("transfer", "list", "--state", "partial").out()).contains(ID1).doesNotContain(ID2);
        assertThat(mft("transfer", "list", "--limit", "1").out()).contains(ID2).doesNotContain(ID1);
        assertThat(mft("transfer", "list", "--state", "CANCELLED").out()).contains("No transfers");

        Run json = mft("transfer", "list", "--json", "--limit", "1");
        assertThat(json.out()).contains("\"source\" : \"logger\"", "\"logger\" : \"DB1\"", "\"id\" : \"" + ID2 + "\"",
                "\"state\" : \"STARTED\"", "\"endTime\" : null");
    }

    @Test
    void transferShowPrintsTheTransferAndEveryItem() throws Exception {
        history();
        Run r = mft("transfer", "show", ID1);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Transfer " + ID1, "PARTIAL", "BFGRP0034I: partially successful",
                "SRC (QMS)", "DST (QMD)", "alice on host1", "nightly", "2026-11-20T10:15:30Z", "2026-11-20T10:15:32Z",
                "Item 0:", "/in/a.bin (1000 bytes)", "/out/a.bin (1000 bytes)", "0 (success)",
                "MD5 9e107d9d372bb6826bd81d3542a419d6", "Item 1:", "1 (failure)", "BFGIO0006E: exists",
                "Item 2:", "SHA-256 " + SHA256);
        Run json = mft("transfer", "show", ID1.toUpperCase(java.util.Locale.ROOT), "--json");
        assertThat(json.exitCode()).isZero();
        assertThat(json.out()).contains("\"resultCode\" : 20", "\"items\" : [", "\"checksum\" : \"9e107d9d372bb6826bd81d3542a419d6\"",
                "\"destinationSize\" : null", "\"checksumMethod\" : \"SHA-256\"",
                "\"checksum\" : \"" + SHA256 + "\"");
        Run unknown = mft("transfer", "show", "414d");
        assertThat(unknown.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(unknown.err().strip()).isEqualTo("transfer 414d is not in the database of logger DB1");
    }
}
