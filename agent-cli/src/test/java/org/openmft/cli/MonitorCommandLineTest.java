package org.openmft.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openmft.cli.MftCommandLineTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.cli.MftCommandLineTest.Run;
import org.openmft.xml.MonitorCondition;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.RequestParser;
import org.openmft.xml.TriggerContent;

/**
 * {@code fteCreateMonitor} without a queue manager: {@code -ox} writes IBM's document from IBM's
 * flags, {@code -ix} reads it back, and bad flags are refused with nothing written or sent.
 */
class MonitorCommandLineTest {
    @TempDir
    Path dir;

    private static final String TASK = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<request version=\"6.00\""
            + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"FileTransfer.xsd\">"
            + "<managedTransfer><originator><hostName>h</hostName><userID>u</userID></originator>"
            + "<sourceAgent agent=\"SRC\"/><destinationAgent agent=\"${FilePath{token=-2}}\"/>"
            + "<transferSet><item><source disposition=\"delete\"><file>${FilePath}</file></source>"
            + "<destination type=\"file\"><file>/out/${FileName}</file></destination></item></transferSet>"
            + "</managedTransfer></request>\n";

    private Run mft(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--data-dir";
        all[args.length + 1] = dir.resolve("data").toString();
        return run(all);
    }

    private MonitorDefinition read(Path file) throws Exception {
        return (MonitorDefinition) new RequestParser().parse(Files.readAllBytes(file));
    }

    @Test
    void helpNamesIbmsCommands() {
        assertThat(run("monitor", "--help").out()).contains("fteCreateMonitor", "fteDeleteMonitor", "fteStartMonitor",
                "fteStopMonitor");
        assertThat(run("monitor", "create", "--help").out()).contains("-md", "-mt", "-pi", "-pu", "-tr", "-ox", "-ix");
    }

    @Test
    void exportWritesIbmsDocumentAndImportReadsItBack() throws Exception {
        Path task = Files.writeString(dir.resolve("task.xml"), TASK);
        Path out = dir.resolve("m.xml");
        Run r = mft("monitor", "create", "-ma", "SRC", "-md", "/srv/in", "-mn", "invoices", "-mt", task.toString(),
                "-pi", "30", "-pu", "SECONDS", "-rl", "2", "-bs", "5", "-tr", "noSizeChange=3,inv_*.xml", "-x", "*.tmp",
                "-jn", "NIGHTLY", "-ox", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String xml = Files.readString(out);
        assertThat(xml).contains("<monitor:monitor xmlns:monitor=\"" + MonitorDefinition.NAMESPACE + "\"",
                "./Monitor.xsd", "<pollInterval units=\"seconds\">30</pollInterval>", "<batch maxSize=\"5\"/>",
                "<directory recursionLevel=\"2\">/srv/in</directory>", "<fileSizeSame polls=\"3\">",
                "${FilePath{token=-2}}");
        MonitorDefinition m = read(out);
        assertThat(m.name()).isEqualTo("INVOICES");
        assertThat(m.conditions()).containsExactly(new MonitorCondition.FileSizeSame(3,
                new MonitorCondition.FilePattern("inv_*.xml", false), new MonitorCondition.FilePattern("*.tmp", false)));
        assertThat(m.jobName()).isEqualTo("NIGHTLY");

        // -ix with overriding flags: the rest comes from the file unchanged.
        Path again = dir.resolve("again.xml");
        r = mft("monitor", "create", "-ix", out.toString(), "-pi", "2", "-tr", "fileSize>=5MB,*.zip", "-pt", "wildcard",
                "-f", "-c", "-ox", again.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        MonitorDefinition imported = read(again);
        assertThat(imported.pollInterval()).isEqualTo(new MonitorDefinition.PollInterval(2,
                MonitorDefinition.TimeUnit.SECONDS));
        assertThat(imported.conditions()).containsExactly(new MonitorCondition.FileSize(5, MonitorCondition.SizeUnit.MB,
                new MonitorCondition.FilePattern("*.zip", false), null));
        assertThat(imported.task()).isEqualTo(m.task());
        assertThat(imported.directory()).isEqualTo("/srv/in");
        assertThat(imported.overwrite() && imported.clearHistory()).isTrue();
    }

    @Test
    void aQueueMonitorIsWrittenWithItsConditionAndDefaults() throws Exception {
        Path task = Files.writeString(dir.resolve("task.xml"), TASK);
        Path out = dir.resolve("q.xml");
        Run r = mft("monitor", "create", "-ma", "SRC", "-mq", "APP.IN", "-mn", "orders", "-mt", task.toString(),
                "-tr", "completeGroups", "-dv", "destFileName=x.txt,kind=order", "-ox", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        MonitorDefinition m = read(out);
        assertThat(m.queue()).isEqualTo("APP.IN");
        assertThat(m.directory()).isNull();
        assertThat(m.conditions()).containsExactly(new MonitorCondition.CompleteGroups());
        assertThat(m.defaultVariables()).containsEntry("destFileName", "x.txt").containsEntry("kind", "order");
        Path plain = dir.resolve("p.xml");
        assertThat(mft("monitor", "create", "-ma", "SRC", "-mq", "APP.IN", "-mn", "o", "-mt", task.toString(), "-ox",
                plain.toString()).exitCode()).isZero();
        assertThat(read(plain).conditions()).as("queueNotEmpty is a queue's default trigger")
                .containsExactly(new MonitorCondition.QueueNotEmpty());
        Run fileTrigger = mft("monitor", "create", "-ma", "SRC", "-mq", "APP.IN", "-mn", "o", "-mt", task.toString(),
                "-tr", "match,*", "-ox", dir.resolve("bad.xml").toString());
        assertThat(fileTrigger.err()).contains("BFGCL0001E", "queue");
        assertThat(dir.resolve("bad.xml")).doesNotExist();
    }

    @Test
    void triggerContentFlagsAreExportedAndImportedUnchanged() throws Exception {
        Path task = Files.writeString(dir.resolve("task.xml"), TASK.replace("${FilePath}", "${contentSource}")
                .replace("/out/${FileName}", "${contentDestination}"));
        Path out = dir.resolve("tc.xml");
        Run r = mft("monitor", "create", "-ma", "SRC", "-md", "/srv/lists", "-mn", "lists", "-mt", task.toString(),
                "-tr", "match,*.trig", "-tc", "-tcr", "^(\\S+)\\s+(\\S+)$", "-tcc", "DESTSRC", "-ox", out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readString(out)).contains("<triggerContent><regex>^(\\S+)\\s+(\\S+)$</regex>"
                + "<captureOrder>destSrc</captureOrder></triggerContent>");
        MonitorDefinition m = read(out);
        assertThat(m.triggerContent()).isEqualTo(new TriggerContent("^(\\S+)\\s+(\\S+)$", true));
        // -ix keeps it; exporting again writes the same document.
        Path again = dir.resolve("again.xml");
        r = mft("monitor", "create", "-ix", out.toString(), "-ox", again.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(read(again).triggerContent()).isEqualTo(m.triggerContent());
        assertThat(Files.readString(again)).isEqualTo(Files.readString(out));
        // -tc alone: the default format.
        Path plain = dir.resolve("plain.xml");
        assertThat(mft("monitor", "create", "-ma", "SRC", "-md", "/srv/lists", "-mn", "p", "-mt", task.toString(),
                "-tr", "noSizeChange=2,*.trig", "-tc", "-ox", plain.toString()).exitCode()).isZero();
        assertThat(read(plain).triggerContent()).isEqualTo(new TriggerContent(null, false));

        // The flags' own mistakes; what the definition refuses (noMatch, groups) transfer-xml's tests cover.
        List<List<String>> bad = List.of(List.of("-tcr", "(.+)"), List.of("-tcc", "destSrc"),
                List.of("-tc", "-bs", "5"), List.of("-tc", "-tcr", "(.+)", "-tcc", "upwards"));
        for (List<String> flags : bad) {
            List<String> args = new java.util.ArrayList<>(List.of("monitor", "create", "-ma", "SRC", "-md", "/srv/in",
                    "-mn", "M", "-mt", task.toString(), "-ox", dir.resolve("bad.xml").toString()));
            args.addAll(flags);
            Run refused = mft(args.toArray(String[]::new));
            assertThat(refused.exitCode()).as("%s: %s", flags, refused.err()).isEqualTo(ExitCodes.FAILED);
            assertThat(refused.err()).as("%s", flags).contains("BFGCL0001E");
            assertThat(dir.resolve("bad.xml")).as("%s", flags).doesNotExist();
        }
    }

    @Test
    void badFlagsAreRefusedWithNothingWritten() throws Exception {
        Path task = Files.writeString(dir.resolve("task.xml"), TASK);
        Path out = dir.resolve("m.xml");
        List<List<String>> bad = List.of(
                List.of("-tr", "match,([", "-pt", "regex"),
                List.of("-tr", "sometimes,*"),
                List.of("-pt", "glob"),
                List.of("-pi", "0"),
                List.of("-pu", "weeks"),
                List.of("-mq", "IN.QUEUE"),
                List.of("-c"),
                List.of("-bs", "0"));
        for (List<String> flags : bad) {
            List<String> args = new java.util.ArrayList<>(List.of("monitor", "create", "-ma", "SRC", "-md", "/srv/in",
                    "-mn", "M", "-mt", task.toString(), "-ox", out.toString()));
            args.addAll(flags);
            Run r = mft(args.toArray(String[]::new));
            assertThat(r.exitCode()).as("%s: %s", flags, r.err()).isEqualTo(ExitCodes.FAILED);
            assertThat(r.err()).as("%s", flags).contains("BFGCL0001E");
            assertThat(out).as("%s", flags).doesNotExist();
        }
        Run noTask = mft("monitor", "create", "-ma", "SRC", "-md", "/srv/in", "-mn", "M", "-ox", out.toString());
        assertThat(noTask.err()).contains("missing -mt");
        Path schedule = Files.writeString(dir.resolve("s.xml"), TASK.replace("<sourceAgent", "<schedule/><sourceAgent"));
        Run scheduled = mft("monitor", "create", "-ma", "SRC", "-md", "/srv/in", "-mn", "M", "-mt", schedule.toString(),
                "-ox", out.toString());
        assertThat(scheduled.err()).contains("scheduled transfer");
        assertThat(out).doesNotExist();
    }
}
