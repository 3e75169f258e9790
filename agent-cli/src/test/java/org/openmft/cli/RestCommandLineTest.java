package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.cli.MftCommandLineTest.run;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.DataDirectory;

/**
 * {@code mft rest start} refusing what it cannot serve safely or at all, before it listens: one-line
 * errors with the message id and exit code 78; {@code mft rest stop} of a server that is not running.
 */
class RestCommandLineTest {
    @TempDir
    Path data;

    private MftCommandLineTest.Run mft(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = data.toString();
        return run(all);
    }

    @Test
    void aNonLoopbackAddressWithoutAKeyStoreStopsStartUp() throws Exception {
        assertThat(mft("setup", "coordination", "-coordinationQMgr=COORD").exitCode()).isZero();
        Files.writeString(DataDirectory.of(data).configDir("COORD").resolve("rest.properties"), "httpHost=0.0.0.0\n");
        MftCommandLineTest.Run r = mft("rest", "start", "-F", "-p", "COORD");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(r.err()).contains("BFGRE0002E", "httpHost=0.0.0.0", "openmft.rest.keyStore");
    }

    @Test
    void withoutADatabaseLoggerThereIsNoHistoryToServe() throws Exception {
        assertThat(mft("setup", "coordination", "-coordinationQMgr=COORD").exitCode()).isZero();
        MftCommandLineTest.Run r = mft("rest", "start", "-F", "-p", "COORD");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.CONFIGURATION);
        assertThat(r.err()).contains("BFGRE0005E", "mft logger create");
    }

    @Test
    void stoppingAServerThatDoesNotRunSaysSo() throws Exception {
        assertThat(mft("setup", "coordination", "-coordinationQMgr=COORD").exitCode()).isZero();
        MftCommandLineTest.Run r = mft("rest", "stop", "-p", "COORD");
        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).contains("BFGRE0009E", "COORD is not running");
    }
}
