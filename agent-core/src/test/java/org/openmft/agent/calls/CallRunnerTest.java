package org.openmft.agent.calls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.xml.ProgramCall;

/** The commandPath boundary and the runner's bounds, with real scripts. */
class CallRunnerTest {
    @TempDir
    Path dir;

    private Path script(Path file, String body) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    @Test
    void theCommandPathFindsTheFirstMatchAndRefusesEverythingOutside() throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        script(b.resolve("x.sh"), "exit 0");
        script(a.resolve("sub/y.sh"), "exit 0");
        Path first = script(a.resolve("x.sh"), "exit 0");
        Files.writeString(Files.createDirectories(a).resolve("plain.txt"), "not executable");
        script(dir.resolve("elsewhere/z.sh"), "exit 0");
        Files.createSymbolicLink(a.resolve("z.sh"), dir.resolve("elsewhere/z.sh"));
        CommandPath path = CommandPath.of(Optional.of(a + ":" + b));
        assertThat(path.resolve("x.sh")).isEqualTo(first.toRealPath());
        assertThat(path.resolve("sub/y.sh")).isEqualTo(a.resolve("sub/y.sh").toRealPath());
        assertThat(path.resolve(b.resolve("x.sh").toString())).isEqualTo(b.resolve("x.sh").toRealPath());
        for (String name : List.of("z.sh", dir.resolve("elsewhere/z.sh").toString(), "../elsewhere/z.sh",
                "sub/../x.sh", "plain.txt", "missing.sh", "sub", "/bin/sh")) {
            assertThatThrownBy(() -> path.resolve(name)).as(name).isInstanceOf(CallRefusedException.class)
                    .hasMessageStartingWith("BFGCR0003E: A request has been made for the agent to call the command '"
                            + name + "'. The agent's command path '" + a + ":" + b + "'");
        }
        assertThatThrownBy(() -> CommandPath.of(Optional.empty()).resolve("x.sh"))
                .isInstanceOf(CallRefusedException.class).hasMessageContaining("command path ''");
    }

    @Test
    void outputBeyondTheCapEndsTheProgram() throws Exception {
        script(dir.resolve("cmds/loud.sh"), "while true; do echo 0123456789; done");
        CallRunner runner = new CallRunner(CommandPath.of(Optional.of(dir.resolve("cmds").toString())), 100,
                Duration.ofSeconds(60));
        CallResult r = runner.run(ProgramCall.executable("loud.sh", List.of()), () -> false);
        assertThat(r.outcome()).isEqualTo(CallResult.Outcome.ERROR);
        assertThat(r.error()).startsWith("BFGCR0004E").contains("100 bytes");
        assertThat(String.join("\n", r.stdout()).length()).isLessThanOrEqualTo(100);
    }

    @Test
    void aHungProgramIsEndedAtTheTimeoutAndACancelEndsItToo() throws Exception {
        Path marker = dir.resolve("late");
        script(dir.resolve("cmds/hang.sh"), "sleep 30; touch " + marker);
        CallRunner runner = new CallRunner(CommandPath.of(Optional.of(dir.resolve("cmds").toString())), 10240,
                Duration.ofSeconds(1));
        CallResult r = runner.run(ProgramCall.executable("hang.sh", List.of()), () -> false);
        assertThat(r.outcome()).isEqualTo(CallResult.Outcome.ERROR);
        assertThat(r.error()).contains("did not end within 1 seconds");
        CallResult cancelled = runner.run(ProgramCall.executable("hang.sh", List.of()), () -> true);
        assertThat(cancelled.error()).startsWith("BFGCR0002I");
        assertThat(marker).doesNotExist();
    }

    @Test
    void retriesStopAtTheCountAndReportTheLastReturnCode() throws Exception {
        Path count = dir.resolve("count");
        script(dir.resolve("cmds/no.sh"), "echo x >> " + count + "; exit 7");
        CallRunner runner = new CallRunner(CommandPath.of(Optional.of(dir.resolve("cmds").toString())), 10240,
                Duration.ofSeconds(60));
        CallResult r = runner.run(new ProgramCall(org.openmft.xml.CallType.EXECUTABLE, "no.sh", List.of(), 2, 0,
                org.openmft.xml.SuccessCodes.of("0")), () -> false);
        assertThat(r.outcome()).isEqualTo(CallResult.Outcome.FAILURE);
        assertThat(r.retries()).isEqualTo(2);
        assertThat(r.returnCode()).isEqualTo(7);
        assertThat(Files.readAllLines(count)).hasSize(3);
        assertThat(runner.run(new ProgramCall(org.openmft.xml.CallType.EXECUTABLE, "no.sh", List.of(), 2, 0,
                org.openmft.xml.SuccessCodes.of("!0")), () -> false).succeeded()).isTrue();
    }
}
