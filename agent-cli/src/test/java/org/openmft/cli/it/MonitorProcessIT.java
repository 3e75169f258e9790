package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory monitor run through IBM's commands on a real agent process: fteCreateMonitor's
 * export ({@code -ox}) imports ({@code -ix}) unchanged and fteListMonitors exports it again
 * byte for byte ({@code -ox}, {@code -od}); the agent is killed with {@code kill -9} while the
 * monitor is firing over a directory of files, files land while it is down, and after the restart
 * every file has triggered exactly once (counted by the destination files, whose names carry the
 * trigger's time stamp, so a second trigger of a file would leave a second file);
 * a schedule created before the kill is listed after it, unchanged;
 * fteClearMonitorHistory makes each trigger once more; fteStopMonitor shows in the listing, and
 * fteCleanAgent -ms removes the monitor and its listing. The one process-level monitor test, kept
 * cheap: small files, a one-second poll, one agent that sends to itself.
 */
class MonitorProcessIT {
    static final int BEFORE = 40;
    static final int WHILE_DOWN = 10;
    static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path data;
    Distribution mft;

    @AfterEach
    void tearDown() throws Exception {
        if (mft != null) {
            mft.close();
        }
    }

    @Test
    void aMonitorIsListedExportedAndTriggersEachFileOnceAcrossAKill9() throws Exception {
        mft = new Distribution(data).jvmOptions(Distribution.QUICK_START);
        int port = mft.createQueueManager("QM1");
        mft.mft("qmgr", "start", "QM1").expect(0);
        // A client agent: a process of its own, which kill -9 takes without the queue manager.
        mft.run("fteCreateAgent", "-agentName", "SRC", "-agentQMgr", "QM1", "-agentQMgrHost", "127.0.0.1",
                "-agentQMgrPort", String.valueOf(port), "--sandbox-dir", data.toString()).expect(0);
        mft.run("fteStartAgent", "SRC").expect(0);
        Path in = Files.createDirectories(data.resolve("in"));
        Path out = Files.createDirectories(data.resolve("out"));
        Path task = Files.writeString(data.resolve("task.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <request version="6.00">
                  <managedTransfer>
                    <originator><hostName>it</hostName><userID>tester</userID></originator>
                    <sourceAgent agent="SRC" QMgr="QM1"/>
                    <destinationAgent agent="SRC" QMgr="QM1"/>
                    <transferSet>
                      <item mode="binary">
                        <source disposition="leave"><file>${FilePath}</file></source>
                        <destination type="file" exist="overwrite"><file>%s/${FileName}.${CurrentTimeStamp}</file></destination>
                      </item>
                    </transferSet>
                  </managedTransfer>
                </request>
                """.formatted(out));

        // fteCreateMonitor -ox writes without sending; -ix sends that document unchanged.
        Path exported = data.resolve("drop.xml");
        mft.run("fteCreateMonitor", "-ma", "SRC", "-md", in.toString(), "-mn", "drop", "-mt", task.toString(),
                "-pi", "1", "-pu", "seconds", "-tr", "match,*.txt", "-ox", exported.toString()).expect(0);
        assertThat(mft.run("fteListMonitors").expect(0).output()).contains("BFGCL0014W");
        mft.run("fteCreateMonitor", "-ix", exported.toString()).expect(0);
        assertThat(mft.run("fteListMonitors").expect(0).output())
                .containsPattern("Agent Name:\\s+Monitor Name:\\s+Resource Type:")
                .containsPattern("SRC\\s+DROP\\s+Directory");
        assertThat(mft.run("fteListMonitors", "-ma", "S*", "-mn", "drop", "-v").expect(0).output())
                .containsPattern("Status:\\s+Started").containsPattern("Resource:\\s+" + in)
                .containsPattern("Poll interval:\\s+1 seconds").containsPattern("Batch size:\\s+1")
                .containsPattern("Condition:\\s+Match").containsPattern("Pattern:\\s+\\*\\.txt \\(wildcard\\)");
        assertThat(mft.run("fteListMonitors", "-mn", "OTHER").expect(0).output()).contains("BFGCL0014W");
        Path listed = data.resolve("listed.xml");
        mft.run("fteListMonitors", "-ma", "SRC", "-mn", "DROP", "-ox", listed.toString()).expect(0);
        assertThat(Files.readString(listed)).as("the listing exports what was imported").isEqualTo(
                Files.readString(exported));
        mft.run("fteListMonitors", "-od", data.resolve("all").toString()).expect(0);
        assertThat(Files.readString(data.resolve("all/DROP.xml"))).isEqualTo(Files.readString(exported));
        mft.run("fteCreateMonitor", "-ix", listed.toString(), "-f").expect(0);

        // A schedule (two years ahead) is kept across the kill -9 as well.
        String start = LocalDateTime.now(ZoneOffset.UTC).plusYears(2).format(DateTimeFormatter.ofPattern(
                "yyyy-MM-dd'T'HH:mm"));
        Matcher schedule = Pattern.compile("Schedule (\\d+) created on agent SRC").matcher(mft.run(
                "fteCreateTransfer", "-sa", "SRC", "-da", "SRC", "-dd", out.toString(), "-tb", "UTC", "-ss", start,
                "-oi", "days", "-oc", "5", "-jn", "NIGHTLY", in.resolve("sched.bin").toString()).expect(0).output());
        assertThat(schedule.find()).isTrue();

        // kill -9 while the monitor fires; files that land meanwhile trigger on the next poll.
        for (int i = 0; i < BEFORE; i++) {
            Files.writeString(in.resolve(String.format("a%02d.txt", i)), "a" + i);
        }
        Distribution.await("the first copies", WAIT, () -> copies(out).size() >= 5);
        long pid = mft.pid(Path.of("logs/QM1/agents/SRC"), "agent");
        assertThat(Distribution.alive(pid)).isTrue();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        Distribution.await("the agent to die", Duration.ofSeconds(30), () -> !Distribution.alive(pid));
        for (int i = 0; i < WHILE_DOWN; i++) {
            Files.writeString(in.resolve(String.format("b%02d.txt", i)), "b" + i);
        }
        mft.run("fteStartAgent", "SRC").expect(0);
        Distribution.await("a copy of every file", WAIT, () -> copies(out).size() == BEFORE + WHILE_DOWN);
        assertThat(copies(out).values()).as("each file triggered once").containsOnly(1L);
        assertThat(mft.run("fteListScheduledTransfers", "SRC").expect(0).output()).as("the schedule after kill -9")
                .contains("Schedule Identifier:     " + schedule.group(1), "Job Name:                NIGHTLY",
                        "Schedule Start Time:     " + start, "Repeat Interval:         days");

        // Stopped: the listing says so, and cleared history waits for the start.
        mft.run("fteStopMonitor", "-ma", "SRC", "-mn", "DROP").expect(0);
        Distribution.await("the listing to show the stop", WAIT, () -> mft.run("fteListMonitors", "-v").output()
                .matches("(?s).*Status:\\s+Stopped.*"));
        mft.run("fteClearMonitorHistory", "-ma", "SRC", "-mn", "DROP").expect(0);
        mft.run("fteStartMonitor", "-ma", "SRC", "-mn", "DROP").expect(0);
        Distribution.await("every file copied again", WAIT,
                () -> copies(out).values().stream().allMatch(n -> n >= 2) && copies(out).size() == BEFORE + WHILE_DOWN);
        assertThat(copies(out).values()).as("a cleared history triggers each file once more").containsOnly(2L);
        assertThat(mft.run("fteClearMonitorHistory", "-ma", "SRC", "-mn", "NONE").expect(1).output())
                .contains("result 104");

        // fteCleanAgent -ms removes the monitor and its listing; the restarted agent has none.
        mft.run("fteStopAgent", "-i", "SRC").expect(0);
        assertThat(mft.run("fteCleanAgent", "-ms", "-f", "SRC").expect(0).output()).contains("removed DROP");
        assertThat(mft.run("fteListMonitors").expect(0).output()).contains("BFGCL0014W");
        mft.run("fteStartAgent", "SRC").expect(0);
        assertThat(mft.run("fteDeleteMonitor", "-ma", "SRC", "-mn", "DROP").expect(1).output()).contains("result 104");
    }

    /** How many copies each source file has in {@code out}, by source name. */
    private static Map<String, Long> copies(Path out) {
        try (Stream<Path> files = Files.list(out)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.matches("[ab]\\d\\d\\.txt\\.\\d{8}T\\d{9}"))
                    .collect(Collectors.groupingBy(n -> n.substring(0, n.indexOf(".txt")), TreeMap::new,
                            Collectors.counting()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
