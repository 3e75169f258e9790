package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.cli.MftCommandLineTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openmft.cli.MftCommandLineTest.Run;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferTrigger;

/**
 * {@code fteCreateTransfer}'s schedule ({@code -tb -ss -oi -of -oc -es}) and trigger ({@code -tr
 * -tl}) flags: their place in the request XML (written with {@code -gt}), and bad values refused
 * naming the flag with nothing written.
 */
class ScheduleTriggerCommandLineTest {
    @TempDir
    Path dir;

    private Run create(String... args) {
        List<String> all = new ArrayList<>(List.of("transfer", "create", "--data-dir", dir.resolve("data").toString(),
                "-sa", "A1", "-da", "A2", "-dd", "/in"));
        all.addAll(List.of(args));
        return run(all.toArray(String[]::new));
    }

    private TransferRequest generated(String... args) throws Exception {
        Path xml = dir.resolve("r.xml");
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("-gt", xml.toString(), "/out/a.txt"));
        Run r = create(all.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return (TransferRequest) new RequestParser().parse(Files.readAllBytes(xml));
    }

    @Test
    void scheduleFlagsBecomeIbmsScheduleElement() throws Exception {
        TransferRequest r = generated("-tb", "UTC", "-ss", "2099-03-01T09:30", "-oi", "hours", "-of", "6", "-oc", "4");
        assertThat(r.schedule()).isEqualTo(new TransferSchedule("UTC", null, LocalDateTime.of(2099, 3, 1, 9, 30),
                "hours", 6, 4, null));
        TransferRequest admin = generated("-ss", "2099-03-01T09:30", "-oi", "days", "-es", "2099-04-01T00:00");
        assertThat(admin.schedule()).isEqualTo(new TransferSchedule("admin", ZoneId.systemDefault().getId(),
                LocalDateTime.of(2099, 3, 1, 9, 30), "days", 1, 0, LocalDateTime.of(2099, 4, 1, 0, 0)));
        assertThat(generated("-tb", "source", "-ss", "2099-03-01T09:30").schedule())
                .isEqualTo(new TransferSchedule("source", null, LocalDateTime.of(2099, 3, 1, 9, 30), null, 1, 0, null));
        assertThat(generated().schedule()).isNull();
    }

    @Test
    void triggerFlagsBecomeIbmsTriggerElement() throws Exception {
        TransferTrigger t = generated("-tr", "file=exist,/in/a.go,/in/b.go").trigger();
        assertThat(t).isEqualTo(new TransferTrigger(true, List.of(new TransferTrigger.FileExist("=", "exist", "/in/a.go"),
                new TransferTrigger.FileExist("=", "exist", "/in/b.go"))));
        assertThat(generated("-tr", "file!=exist,/in/lock", "-tl", "no").trigger()).isEqualTo(new TransferTrigger(false,
                List.of(new TransferTrigger.FileExist("!=", "exist", "/in/lock"))));
        assertThat(generated("-tr", "filesize>=10MB,/in/big").trigger().conditions())
                .containsExactly(new TransferTrigger.FileSize(10, "MB", "/in/big"));
        assertThat(generated("-tr", "filesize>=7,/in/x").trigger().conditions())
                .containsExactly(new TransferTrigger.FileSize(7, "B", "/in/x"));
    }

    @Test
    void scheduleCommandsHaveIbmsNamesAndCheckTheirArguments() {
        assertThat(run("schedule", "--help").out()).contains("fteListScheduledTransfers", "fteDeleteScheduledTransfer");
        assertThat(run("schedule", "fteDeleteScheduledTransfer", "--help").out()).contains("-agentName", "-m=QMGR",
                "Examples:");
        Run bad = run("schedule", "delete", "--data-dir", dir.resolve("data").toString(), "-agentName", "A1", "five");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(bad.err()).contains("the schedule ID 'five' is not a positive whole number");
        assertThat(run("schedule", "delete", "5").err()).contains("-agentName");
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-ss 2001-01-01T00:00|-ss 2001-01-01T00:00 is in the past",
        "-ss tomorrow|-ss 'tomorrow' is not yyyy-MM-ddThh:mm or hh:mm",
        "-tb mars -ss 2099-01-01T00:00|-tb is admin, source or UTC",
        "-oi days|-oi needs a start time (-ss)",
        "-ss 2099-01-01T00:00 -oc 3|-oc needs a repeat unit (-oi)",
        "-ss 2099-01-01T00:00 -oi fortnights|-oi",
        "-ss 2099-01-01T00:00 -oi days -of 0|-of is a whole number from 1",
        "-ss 2099-01-01T00:00 -oi days -oc 3 -es 2099-02-01T00:00|-oc and -es exclude each other",
        "-ss 2099-01-01T00:00 -oi days -es 2098-02-01T00:00|-es 2098-02-01T00:00 is before the start",
        "-tr file=there,/a|-tr 'file=there,/a': the condition 'file=there' is not valid",
        "-tr file=exist|-tr 'file=exist' names no file",
        "-tr filesize>=2TB,/a|-tr 'filesize>=2TB,/a'",
        "-tl maybe -tr file=exist,/a|-tl 'maybe' is not valid",
        "-tl no|-tl needs a trigger (-tr)",
        "-ss 2099-01-01T00:00 -w 10|-w cannot be used with -ss",
    })
    void badValuesAreRefusedNamingTheFlag(String args, String message) {
        List<String> all = new ArrayList<>(List.of(args.split(" ")));
        all.add("/out/a.txt");
        Run r = create(all.toArray(String[]::new));
        assertThat(r.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(r.err()).startsWith("BFGCL0001E: ").contains(message);
        assertThat(dir.resolve("data")).doesNotExist();
    }
}
