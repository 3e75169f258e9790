package org.openmft.agent.transfer.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.config.ConfigurationException;
import org.openmft.agent.lifecycle.CapturedLog;
import org.openmft.agent.transfer.files.Access;
import org.openmft.agent.transfer.files.SandboxViolationException;
import org.openmft.agent.transfer.source.FakeClock;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * UserSandboxes.xml while the agent runs: changes are taken every xmlConfigReloadInterval without a
 * restart; an invalid change keeps the rules in force and says why; a missing file refuses every
 * file access; an invalid file at start stops the agent.
 */
class UserSandboxesFileTest {
    private static final Duration INTERVAL = Duration.ofSeconds(30);

    @TempDir
    Path tmp;
    Path file;
    Path a;
    Path b;
    final FakeClock clock = new FakeClock();

    @BeforeEach
    void files() throws Exception {
        tmp = tmp.toRealPath();
        file = tmp.resolve(UserSandboxesFile.FILE_NAME);
        a = Files.createDirectories(tmp.resolve("a"));
        b = Files.createDirectories(tmp.resolve("b"));
    }

    private void write(String readDir) throws Exception {
        Files.writeString(file, "<tns:userSandboxes xmlns:tns=\"http://wmqfte.ibm.com/UserSandboxes\"><tns:agent>"
                + "<tns:sandbox user=\"alice\"><tns:read><tns:include name=\"" + readDir + "/**\"/></tns:read>"
                + "</tns:sandbox></tns:agent></tns:userSandboxes>");
    }

    private boolean aliceReads(UserSandboxesFile f, Path dir) {
        try {
            f.forRequester("alice").check(dir.resolve("x.txt"), Access.READ);
            return true;
        } catch (SandboxViolationException e) {
            return false;
        }
    }

    private static List<String> errors(CapturedLog log) {
        return log.events().stream().filter(e -> e.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    @Test
    void aChangeIsTakenAtTheNextIntervalWithoutARestart() throws Exception {
        write(a.toString());
        UserSandboxesFile f = UserSandboxesFile.open(file, tmp, INTERVAL, clock);
        assertThat(aliceReads(f, a)).isTrue();
        assertThat(aliceReads(f, b)).isFalse();

        write(b.toString());
        clock.advance(INTERVAL.minusSeconds(1));
        assertThat(aliceReads(f, a)).as("not looked at again yet").isTrue();
        clock.advance(Duration.ofSeconds(1));
        assertThat(aliceReads(f, b)).isTrue();
        assertThat(aliceReads(f, a)).isFalse();
    }

    @Test
    void anInvalidChangeKeepsTheRulesInForceAndSaysWhyOnce() throws Exception {
        write(a.toString());
        UserSandboxesFile f = UserSandboxesFile.open(file, tmp, INTERVAL, clock);
        try (CapturedLog log = new CapturedLog(UserSandboxesFile.class)) {
            Files.writeString(file, Files.readString(file).replace("userSandboxes>", "userSandboxes"));
            clock.advance(INTERVAL);
            assertThat(aliceReads(f, a)).as("the last good rules").isTrue();
            clock.advance(INTERVAL);
            f.refreshIfDue();
            assertThat(errors(log)).singleElement().asString().contains(file.toString(),
                    "cannot be used, so the rules in force stay (1 <sandbox> entry)", "not well-formed XML");

            write(b.toString());
            clock.advance(INTERVAL);
            f.refreshIfDue();
            assertThat(aliceReads(f, b)).as("a good version after a bad one").isTrue();
        }
    }

    @Test
    void aMissingFileRefusesEveryFileAccessUntilItExists() throws Exception {
        try (CapturedLog log = new CapturedLog(UserSandboxesFile.class)) {
            UserSandboxesFile f = UserSandboxesFile.open(file, tmp, INTERVAL, clock);
            assertThat(errors(log)).singleElement().asString().contains("userSandboxes=true but " + file
                    + " does not exist: every transfer's file access is refused");
            SandboxViolationException e = assertThrows(SandboxViolationException.class,
                    () -> f.forRequester("alice").check(a.resolve("x.txt"), Access.READ));
            assertThat(e.supplement()).startsWith("BFGIO0056E: ").contains("does not exist");

            write(a.toString());
            clock.advance(INTERVAL);
            assertThat(aliceReads(f, a)).isTrue();

            Files.delete(file);
            clock.advance(INTERVAL);
            assertThat(aliceReads(f, a)).as("deleted: refused again, not the last rules").isFalse();
            assertThat(errors(log)).last().asString().contains("was deleted");
        }
    }

    @Test
    void anInvalidFileAtStartStopsTheAgentNamingTheProblem() throws Exception {
        Files.writeString(file, "<tns:userSandboxes xmlns:tns=\"http://wmqfte.ibm.com/UserSandboxes\"><tns:agent>\n"
                + "<tns:sandbox user=\"(\" userPattern=\"regex\"/></tns:agent></tns:userSandboxes>");
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> UserSandboxesFile.open(file, tmp, INTERVAL, clock));
        assertThat(e.getMessage()).startsWith(file + ": line 2, column ")
                .contains("user=\"(\" is not a valid regular expression", "the agent does not start");
        assertThat(e.key()).isEqualTo("userSandboxes");

        Files.writeString(file, "<tns:userSandboxes xmlns:tns=\"http://wmqfte.ibm.com/UserSandboxes\"><tns:agent>"
                + "<tns:sandbox user=\"u\"><tns:write><tns:include name=\"/srv/../etc/\"/></tns:write></tns:sandbox>"
                + "</tns:agent></tns:userSandboxes>");
        assertThat(assertThrows(ConfigurationException.class, () -> UserSandboxesFile.open(file, tmp, INTERVAL, clock)))
                .hasMessageContaining("element <include>: the pattern \"/srv/../etc/\" has a '..' level");
    }
}
