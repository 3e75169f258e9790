package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.cli.MftCommandLineTest.run;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.DataDirectory;
import org.openmft.cli.MftCommandLineTest.Run;

/**
 * {@code mft logger create|start|stop} without a running queue manager: what create writes,
 * refusals with one-line errors and their exit codes.
 */
class LoggerCommandLineTest {
    @TempDir
    Path data;

    private Run mft(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = data.toString();
        return run(all);
    }

    private Path properties(String logger) {
        return DataDirectory.of(data).loggerProperties("COORD", logger);
    }

    @Test
    void helpNamesIbmsCommandsAndFlags() {
        assertThat(run("logger", "--help").out()).contains("create", "fteCreateLogger", "start", "fteStartLogger",
                "stop", "fteStopLogger");
        assertThat(run("logger", "create", "--help").out()).contains("-loggerType", "-fileLoggerMode",
                "-databaseUrl");
    }

    @Test
    void theDatabasePasswordIsPromptedForNeverTakenFromTheCommandLine() throws Exception {
        assertThat(mft("setup", "coordination", "-coordinationQMgr=COORD").exitCode()).isZero();
        Run refused = mft("logger", "create", "LOG2", "-databaseType", "postgresql", "-databaseUrl",
                "jdbc:postgresql://db/mft", "-databaseUser", "mft", "-databasePassword", "s3cr3t-on-the-line");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(refused.err()).contains("BFGCL0602E", "never taken from the command line")
                .doesNotContain("s3cr3t-on-the-line");
        assertThat(properties("LOG2")).doesNotExist();

        java.io.InputStream stdin = System.in;
        try {
            // No terminal here: the password is the first line of standard input.
            System.setIn(new java.io.ByteArrayInputStream("typed-password\n".getBytes(
                    java.nio.charset.StandardCharsets.UTF_8)));
            Run prompted = mft("logger", "create", "LOG2", "-databaseType", "postgresql", "-databaseUrl",
                    "jdbc:postgresql://db/mft", "-databaseUser", "mft", "-databasePassword");
            assertThat(prompted.exitCode()).as(prompted.err()).isEqualTo(ExitCodes.OK);
        } finally {
            System.setIn(stdin);
        }
        assertThat(Files.readString(properties("LOG2"))).contains("openmft.database.password=typed-password");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(
                properties("LOG2")))).isEqualTo("rw-------");
    }

    @Test
    void createWritesLoggerPropertiesForTheCoordinationQueueManagerAndItsMqsc() throws Exception {
        assertThat(mft("setup", "coordination", "-coordinationQMgr=COORD", "-coordinationQMgrHost=hub.example.org",
                "-coordinationQMgrPort=1515").exitCode()).isZero();
        Run r = mft("logger", "create", "log1", "-databaseType", "postgresql", "-databaseUrl",
                "jdbc:postgresql://db/mft");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.OK);
        String text = Files.readString(properties("LOG1"));
        assertThat(text).contains("wmqfte.logger.type=DATABASE", "wmqfte.queue.manager=COORD",
                "wmqfte.queue.manager.host=hub.example.org", "wmqfte.queue.manager.port=1515",
                "wmqfte.database.type=postgresql", "openmft.database.url=jdbc\\:postgresql\\://db/mft");
        assertThat(Files.readString(properties("LOG1").resolveSibling("LOG1_create.mqsc")))
                .contains("DEFINE QLOCAL(SYSTEM.FTE.LOG.CMD.LOG1)", "DEFINE QLOCAL(SYSTEM.FTE.LOG.RJCT.LOG1)");
        Run again = mft("logger", "create", "LOG1");
        assertThat(again.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(again.err()).contains("already exists", "-f").doesNotContain("\tat ");

        Run unit = mft("logger", "unit", "LOG1");
        assertThat(unit.exitCode()).as(unit.err()).isZero();
        assertThat(unit.out()).startsWith("# Written by 'mft logger unit LOG1'").contains("[Unit]\n")
                .as("a remote queue manager and database: nothing to order after")
                .doesNotContain("openmft-qmgr@", "postgresql.service");
        Files.writeString(properties("LOG1"), Files.readString(properties("LOG1"))
                .replace("//db/mft", "//localhost\\:5432/mft"));
        assertThat(mft("logger", "unit", "LOG1").out()).contains("After=postgresql.service\n");
    }

    @Test
    void badValuesAndMissingConfigurationAreRefusedWithoutWritingAnything() {
        assertThat(mft("logger", "create", "LOG1").exitCode()).as("no coordination.properties")
                .isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(mft("setup", "coordination", "-coordinationQMgr=COORD").exitCode()).isZero();
        Run bad = mft("logger", "create", "LOG1", "-loggerType", "TAPE");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(bad.err()).contains("wmqfte.logger.type", "TAPE");
        Run noUrl = mft("logger", "create", "LOG1", "-databaseType", "postgresql");
        assertThat(noUrl.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(noUrl.err()).contains("openmft.database.url");
        assertThat(mft("logger", "create", "bad/name").exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(Files.exists(properties("LOG1"))).isFalse();
        Run start = mft("logger", "start", "NOPE");
        assertThat(start.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(start.err()).contains("NOPE", "mft logger create");
        assertThat(mft("logger", "create", "LOG1", "-loggerType", "FILE").exitCode()).isZero();
        Run stop = mft("logger", "stop", "LOG1");
        assertThat(stop.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(stop.err()).contains("not running");
    }
}
