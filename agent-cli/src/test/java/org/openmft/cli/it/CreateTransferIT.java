package org.openmft.cli.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.xml.AgentRef;
import org.openmft.xml.ChecksumMethod;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Disposition;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.ExistAction;
import org.openmft.xml.ItemDestination;
import org.openmft.xml.ItemSource;
import org.openmft.xml.Mode;
import org.openmft.xml.Originator;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSet;

/**
 * {@code fteCreateTransfer} through the real launcher, as IBM users' scripts call it, against one
 * embedded queue manager QM1 (coordination, commands and both agents, which run in its process).
 * One set-up serves all tests, each with its own directories, to keep the suite short.
 */
class CreateTransferIT {
    /** A bar redraw: {@code \r}, the bar, a percentage and a rate. */
    static final Pattern BAR = Pattern.compile("\r\\[[# ]{16}\\] +(\\d{1,3})% [^\r\n]* MB/s");

    @TempDir
    static Path data;
    static Distribution mft;

    @BeforeAll
    static void queueManagerAndAgents() {
        mft = new Distribution(data.resolve("mft")).jvmOptions(Distribution.QUICK_START.replace("-Xmx512m", "-Xmx256m"));
        int port = mft.createQueueManager("QM1");
        mft.run("fteCreateAgent", "-agentName", "AGENT1", "-agentQMgr", "QM1", "--sandbox-dir", data.toString())
                .expect(0);
        mft.run("fteCreateAgent", "-agentName", "AGENT2", "-agentQMgr", "QM1", "--sandbox-dir", data.toString())
                .expect(0);
        mft.mft("qmgr", "start", "QM1").expect(0);
        mft.run("fteStartAgent", "AGENT1").expect(0);
        mft.run("fteStartAgent", "AGENT2").expect(0);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (mft != null) {
            mft.close();
        }
    }

    static Path dir(String name) throws Exception {
        return Files.createDirectories(data.resolve(name));
    }

    @Test
    void theIbmScriptLineWorksUnchanged() throws Exception {
        Path in = dir("script/in");
        Path out = dir("script/out");
        for (String name : List.of("a.txt", "b.txt", "c.txt")) {
            Files.writeString(in.resolve(name), "contents of " + name + "\n");
        }
        Files.writeString(in.resolve("skip.log"), "not a .txt\n");
        Files.writeString(out.resolve("a.txt"), "old, to be overwritten\n");

        Distribution.Result r = mft.run("fteCreateTransfer", "-sa", "AGENT1", "-sm", "QM1", "-da", "AGENT2", "-dm",
                "QM1", "-dd", out.toString(), "-de", "overwrite", in + "/*.txt", "-w").expect(0);

        assertThat(r.output()).containsPattern("BFGCL0035I: Transfer request issued. The request ID is: [0-9a-f]{48}")
                .contains("[0] " + in.resolve("a.txt") + " -> " + out.resolve("a.txt"), "b.txt", "c.txt",
                        "BFGRP0032I")
                .doesNotContain("\r", "skip.log");
        assertThat(out.resolve("a.txt")).hasContent("contents of a.txt");
        assertThat(out.resolve("c.txt")).hasContent("contents of c.txt");
        try (Stream<Path> files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("a.txt", "b.txt",
                    "c.txt");
        }
    }

    @Test
    void theGeneratedRequestParsesBackAndCanBeSubmittedLater() throws Exception {
        Path in = dir("gt/in");
        Path out = dir("gt/out");
        Files.writeString(in.resolve("report.csv"), "a,b\n1,2\n");
        Path xml = data.resolve("gt/request.xml");

        Distribution.Result r = mft.run("fteCreateTransfer", "-sa", "agent1", "-da", "agent2", "-dm", "QM1", "-df",
                out.resolve("r.csv").toString(), "-sd", "delete", "-pr", "4", "-jn", "NIGHTLY", "-md", "batch=7",
                "-cs", "none", "-gt", xml.toString(), in.resolve("report.csv").toString()).expect(0);
        assertThat(r.output()).contains("nothing was sent").doesNotContain("BFGCL0035I");
        assertThat(out).isEmptyDirectory();

        TransferItem item = new TransferItem(Mode.BINARY, ChecksumMethod.NONE,
                new ItemSource(false, Disposition.DELETE, in.resolve("report.csv").toString(), null),
                new ItemDestination(DestinationType.FILE, ExistAction.ERROR, out.resolve("r.csv").toString(), null,
                        null));
        TransferRequest expected = new TransferRequest(DocumentWriter.VERSION,
                new Originator(InetAddress.getLocalHost().getHostName(), System.getProperty("user.name")),
                new AgentRef("AGENT1", null), new AgentRef("AGENT2", "QM1"), null,
                new TransferSet(4, null, Map.of("batch", "7"), List.of(item)), "NIGHTLY");
        assertThat(new RequestParser().parse(Files.readAllBytes(xml))).isEqualTo(expected);

        mft.mft("transfer", "submit", xml.toString(), "-w", "60").expect(0);
        assertThat(out.resolve("r.csv")).hasContent("a,b\n1,2");
        assertThat(in.resolve("report.csv")).doesNotExist();
    }

    @Test
    void aFailingTransferExitsWithItsResultCodeAndTheReason() throws Exception {
        Path in = dir("fail/in");
        Path out = dir("fail/out");
        Files.writeString(in.resolve("a.txt"), "new\n");
        Files.writeString(out.resolve("a.txt"), "already here\n");

        Distribution.Result exists = mft.run("fteCreateTransfer", "-sa", "AGENT1", "-da", "AGENT2", "-dd",
                out.toString(), in.resolve("a.txt").toString(), "-w", "60").expect(40);
        assertThat(exists.output()).contains("[1] " + in.resolve("a.txt"), "BFGIO0006E", "BFGRP0033E");
        assertThat(out.resolve("a.txt")).hasContent("already here");

        Distribution.Result missing = mft.run("fteCreateTransfer", "-sa", "AGENT1", "-da", "AGENT2", "-df",
                out.resolve("m.txt").toString(), in.resolve("missing.txt").toString(), "-w", "60").expect(40);
        assertThat(missing.output()).contains("BFGIO0001E", "missing.txt");

        // A wrong command line puts nothing on the queue: the agent never hears of it.
        Distribution.Result wrong = mft.run("fteCreateTransfer", "-sa", "AGENT1", "-da", "AGENT2", "-df",
                out.resolve("x").toString(), "-dd", out.toString(), in.resolve("a.txt").toString(), "-w", "60")
                .expect(1);
        assertThat(wrong.output().strip()).startsWith("BFGCL0001E: -df and -dd").doesNotContain("BFGCL0035I");
    }

    @Test
    void theProgressBarIsDrawnOnATerminal() throws Exception {
        boolean script = new File("/usr/bin/script").canExecute() || new File("/bin/script").canExecute();
        String ci = System.getenv("CI");
        if (!script && ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false")) {
            // In CI a skip must not pass for a pass (Debian's bsdutils, which is essential, has it).
            throw new AssertionError("CI is set and util-linux script (bsdutils) is missing: it gives the command"
                    + " a pseudo-terminal");
        }
        assumeTrue(script, "util-linux script gives the command a pseudo-terminal");
        Path in = dir("pty/in");
        Path out = dir("pty/out");
        Path big = in.resolve("big.bin");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            // Sparse: the test needs publications, not 300 MiB of writes to make the source.
            f.setLength(300L << 20);
            f.seek(12345);
            f.writeLong(42);
        }
        try {
            String command = String.join(" ", quote(bin("fteCreateTransfer")), "-sa", "AGENT1", "-da", "AGENT2",
                    "-dd", quote(out.toString()), quote(big.toString()), "-w", "120");
            ProcessBuilder pb = new ProcessBuilder("script", "-qfec", command, "/dev/null");
            pb.environment().put("OPENMFT_DATA", mft.dataDir().toString());
            pb.environment().put("BFG_JVM_PROPERTIES", "-Xmx256m");
            pb.environment().remove("OPENMFT_PROGRESS");
            pb.environment().remove("COLUMNS");
            Path log = data.resolve("pty/output.txt");
            pb.redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(new File("/dev/null"));
            Process p = pb.start();
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the command ends").isTrue();
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(output).isZero();

            Matcher m = BAR.matcher(output);
            int redraws = 0;
            int lastPercent = -1;
            while (m.find()) {
                redraws++;
                lastPercent = Integer.parseInt(m.group(1));
            }
            assertThat(redraws).as("bar redraws in:\n" + output).isGreaterThanOrEqualTo(1);
            assertThat(lastPercent).as(output).isEqualTo(100);
            assertThat(output).contains("big.bin", "300 MiB", "BFGRP0032I");
            assertThat(Files.size(out.resolve("big.bin"))).isEqualTo(300L << 20);
        } finally {
            Files.deleteIfExists(big);
            Files.deleteIfExists(out.resolve("big.bin"));
        }
    }

    @Test
    void withoutTheCoordinationQueueManagerTheOutcomeIsStillAwaited() throws Exception {
        Path in = dir("nocoord/in");
        Path out = dir("nocoord/out");
        Files.writeString(in.resolve("a.txt"), "alpha\n");
        // Configuration options QMX: commands through QM1, coordination on a port nobody listens on.
        mft.run("fteSetupCoordination", "-coordinationQMgr", "QMX", "-coordinationQMgrHost", "127.0.0.1",
                "-coordinationQMgrPort", String.valueOf(Distribution.freePort())).expect(0);
        mft.run("fteSetupCommands", "-p", "QMX", "-connectionQMgr", "QM1").expect(0);

        Distribution.Result r = mft.run("fteCreateTransfer", "-p", "QMX", "-sa", "AGENT1", "-da", "AGENT2", "-dd",
                out.toString(), in.resolve("a.txt").toString(), "-w", "60").expect(0);
        assertThat(r.output()).contains("Progress is unavailable", "QMX", "BFGCL0035I", "BFGRP0032I");
        assertThat(r.output().lines().filter(l -> l.contains("Progress is unavailable"))).hasSize(1);
        assertThat(out.resolve("a.txt")).hasContent("alpha");
    }

    @Test
    void schedulesAndTriggersFromTheCommandLine() throws Exception {
        Path in = dir("sched/in");
        Path out = dir("sched/out");
        Files.writeString(in.resolve("a.txt"), "alpha\n");
        Distribution.Result notMet = mft.run("fteCreateTransfer", "-sa", "AGENT1", "-da", "AGENT2", "-dd", out.toString(),
                "-tr", "file=exist," + in.resolve("go.flag"), in.resolve("a.txt").toString(), "-w", "60");
        assertThat(notMet.exitCode()).as(notMet.output()).isEqualTo(42);
        assertThat(notMet.output()).contains("trigger condition was not met", "go.flag does not exist");
        assertThat(out.resolve("a.txt")).doesNotExist();

        String start = java.time.LocalDateTime.now(java.time.ZoneOffset.UTC).plusYears(2)
                .format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm"));
        Distribution.Result created = mft.run("fteCreateTransfer", "-sa", "AGENT1", "-da", "AGENT2", "-dd",
                out.toString(), "-tb", "UTC", "-ss", start, "-oi", "days", "-of", "2", "-oc", "5", "-jn", "NIGHTLY",
                in.resolve("a.txt").toString()).expect(0);
        java.util.regex.Matcher id = java.util.regex.Pattern.compile("Schedule (\\d+) created on agent AGENT1")
                .matcher(created.output());
        assertThat(id.find()).as(created.output()).isTrue();
        java.util.concurrent.atomic.AtomicReference<String> listed = new java.util.concurrent.atomic.AtomicReference<>("");
        Distribution.await("the schedule listed", java.time.Duration.ofSeconds(30), () -> {
            listed.set(mft.run("fteListScheduledTransfers", "AGENT*").output());
            return listed.get().contains("Schedule Identifier:     " + id.group(1));
        });
        assertThat(listed.get()).contains("Job Name:                NIGHTLY", "Source Agent Name:       AGENT1",
                "Destination Agent Name:  AGENT2", "Schedule Start Time:     " + start, "Schedule Time Base:      UTC",
                "Repeat Interval:         days", "Repeat Frequency:        2",
                "Source File Name:             " + in.resolve("a.txt"));
        assertThat(mft.run("fteDeleteScheduledTransfer", "-agentName", "AGENT1", id.group(1)).expect(0).output())
                .contains("deleted from agent AGENT1");
        assertThat(mft.run("fteDeleteScheduledTransfer", "-agentName", "AGENT1", id.group(1)).exitCode()).isEqualTo(1);
        Distribution.await("the schedule gone from the list", java.time.Duration.ofSeconds(30),
                () -> mft.run("fteListScheduledTransfers").output().contains("No scheduled transfers match"));
    }

    private static String bin(String launcher) {
        return Path.of(System.getProperty("openmft.dist", "target/openmft"), "bin", launcher).toAbsolutePath()
                .toString();
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
