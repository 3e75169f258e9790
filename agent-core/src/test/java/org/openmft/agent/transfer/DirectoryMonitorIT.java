package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.ResultCode;
import org.openmft.agent.monitor.MonitorEvent;
import org.openmft.xml.DeleteMonitorRequest;
import org.openmft.xml.Reply;

/**
 * Directory monitors on a real agent and queue manager: a monitor with IBM's task (move
 * {@code ${FilePath}} to the destination) fires once per file, again for a changed file, for files
 * that landed while the agent was down (one log per submitted task, with its file's metadata and
 * its transfer's id), and keeps its history across the restart; a trigger file that lists files
 * ({@code -tc}) moves each of them in one transfer, once; refusals leave nothing behind.
 */
class DirectoryMonitorIT {
    @TempDir
    Path dir;

    private static String monitorXml(String name, Path in, Path out, String sourceAgent, String overwrite) {
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<monitor:monitor xmlns:monitor=\"http://www.ibm.com/xmlns/wmqfte/7.0.1/MonitorDefinition\""
                + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" version=\"6.00\"" + overwrite + ">"
                + "<name>" + name + "</name><pollInterval units=\"seconds\">1</pollInterval><batch maxSize=\"1\"/>"
                + "<agent>SRC</agent><resources><directory recursionLevel=\"0\">" + in + "</directory></resources>"
                + "<triggerMatch><conditions><allOf><condition><fileMatch><pattern>*.txt</pattern></fileMatch>"
                + "</condition></allOf></conditions></triggerMatch>"
                + "<tasks><task><name/><transfer><request version=\"6.00\" xsi:noNamespaceSchemaLocation=\"FileTransfer.xsd\">"
                + "<managedTransfer><originator><hostName>h</hostName><userID>tester</userID></originator>"
                + "<sourceAgent agent=\"" + sourceAgent + "\"/><destinationAgent agent=\"DST\"/>"
                + "<transferSet><item mode=\"binary\"><source disposition=\"leave\"><file>${FilePath}</file></source>"
                + "<destination type=\"file\" exist=\"overwrite\"><file>" + out + "/${FileName}</file></destination>"
                + "</item></transferSet></managedTransfer></request></transfer></task></tasks>"
                + "<originator><hostName>h</hostName><userID>tester</userID></originator></monitor:monitor>";
    }

    /** How often a file was named by a satisfied trigger. */
    private static long triggers(TransferHarness h, Path file) {
        return h.monitorEvents.stream().filter(e -> e.action().equals("triggerSatisfied"))
                .flatMap(e -> e.supplements().stream()).filter(s -> s.equals(file.toString())).count();
    }

    private static Reply create(TransferHarness h, String xml) throws Exception {
        try (TransferHarness.Submission s = h.submitText("SRC", xml)) {
            return s.ack;
        }
    }

    @Test
    void filesTriggerOnceAgainWhenChangedAndAfterARestart() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Path out = Files.createDirectories(dir.resolve("out"));
        try (TransferHarness h = new TransferHarness(dir, false)) {
            Map<String, String> sandbox = Map.of("sandboxRoot", dir.toString());
            h.agent("SRC", sandbox);
            h.agent("DST");
            Reply created = create(h, monitorXml("drop", in, out, "SRC", ""));
            assertThat(created.resultCode()).as("%s", created.supplements()).isZero();

            // A trigger file that lists files (-tc): one request, an item per listed file.
            Path lists = Files.createDirectories(dir.resolve("lists"));
            Path data = Files.createDirectories(dir.resolve("data"));
            Reply listing = create(h, monitorXml("list", lists, out, "SRC", "")
                    .replace("<pattern>*.txt</pattern>", "<pattern>*.trig</pattern>")
                    .replace("</conditions></triggerMatch>", "</conditions><triggerContent/></triggerMatch>")
                    .replace("${FilePath}", "${contentSource}").replace("${FileName}", "${contentDestination}"));
            assertThat(listing.resultCode()).as("%s", listing.supplements()).isZero();
            Files.writeString(data.resolve("x.dat"), "ex");
            Files.writeString(data.resolve("y.dat"), "why");
            Path trig = Files.writeString(lists.resolve("batch.trig"), data.resolve("x.dat") + ",x1.dat\n"
                    + data.resolve("y.dat") + ",y1.dat\n");

            Path a = Files.writeString(in.resolve("a.txt"), "one");
            Files.writeString(in.resolve("skip.bin"), "not matched");
            TransferHarness.await("a.txt arrives", 30, () -> contentIs(out.resolve("a.txt"), "one"));
            TransferHarness.await("both listed files arrive", 30, () -> contentIs(out.resolve("x1.dat"), "ex")
                    && contentIs(out.resolve("y1.dat"), "why"));
            assertThat(triggers(h, trig)).as("one trigger for the trigger file").isEqualTo(1);
            // A second file: once it has arrived, later polls have seen a.txt unchanged.
            Path b = Files.writeString(in.resolve("b.txt"), "bee");
            TransferHarness.await("b.txt arrives", 30, () -> contentIs(out.resolve("b.txt"), "bee"));
            assertThat(triggers(h, a)).as("an unchanged file triggers once").isEqualTo(1);
            assertThat(out.resolve("skip.bin")).doesNotExist();

            Files.writeString(a, "two");
            Files.setLastModifiedTime(a, FileTime.fromMillis(Files.getLastModifiedTime(a).toMillis() + 5_000));
            TransferHarness.await("the changed a.txt arrives", 30, () -> contentIs(out.resolve("a.txt"), "two"));
            assertThat(triggers(h, a)).as("a changed file triggers again").isEqualTo(2);

            // Files that land while the agent is down trigger after the restart; the others do not.
            h.stopImmediately("SRC");
            Path c = Files.writeString(in.resolve("c.txt"), "sea");
            Path d = Files.writeString(in.resolve("d.txt"), "dee");
            Path e = Files.writeString(in.resolve("e.txt"), "eee");
            h.monitorEvents.clear();
            h.agent("SRC", sandbox);
            TransferHarness.await("c.txt, d.txt and e.txt arrive after the restart", 30, () -> contentIs(
                    out.resolve("c.txt"), "sea") && contentIs(out.resolve("d.txt"), "dee")
                    && contentIs(out.resolve("e.txt"), "eee"));
            assertThat(triggers(h, c)).isEqualTo(1);
            // The trigger's variables, for the monitor log's <originalMetaData> (IBM's names).
            assertThat(h.monitorEvents.stream().filter(x -> x.supplements().contains(c.toString())).findFirst()
                    .orElseThrow().metadata()).containsEntry("FILENAME", "c.txt")
                    .containsEntry("FILEPATH", c.toString()).containsEntry("FILESIZE", "3")
                    .containsEntry("AGENTNAME", "SRC").containsKey("LASTMODIFIEDDATEUTC");
            // Batch size 1: one log per submitted task, each with its own file's metadata and the id
            // of the transfer it submitted (IBM's <references><taskRequest>).
            TransferHarness.await("their transfers end at the source", 30, () -> List.of(c, d, e).stream()
                    .allMatch(file -> h.sourceOutcomes.stream().anyMatch(o -> o.items().stream()
                            .anyMatch(i -> i.source().equals(file.toString())))));
            List<MonitorEvent> fired = h.monitorEvents.stream().filter(x -> x.action().equals("triggerSatisfied")
                    && x.monitorName().equalsIgnoreCase("drop")).toList();
            assertThat(fired).hasSize(3);
            for (Path file : List.of(c, d, e)) {
                MonitorEvent log = fired.stream().filter(x -> x.supplements().contains(file.toString())).findFirst()
                        .orElseThrow();
                assertThat(log.supplements()).containsExactly(file.toString());
                assertThat(log.metadata()).containsEntry("FILENAME", file.getFileName().toString());
                String transferId = h.sourceOutcomes.stream().filter(o -> o.items().stream()
                        .anyMatch(i -> i.source().equals(file.toString()))).findFirst().orElseThrow().transferId();
                assertThat(log.transferIds()).containsExactly(transferId);
            }
            assertThat(triggers(h, a)).as("the history survived the restart").isZero();
            assertThat(triggers(h, trig)).isZero();
            assertThat(triggers(h, b)).isZero();

            // Refusals, each with IBM's result code and nothing created.
            assertThat(create(h, monitorXml("drop", in, out, "SRC", "")).resultCode())
                    .isEqualTo(ResultCode.MONITOR_ALREADY_PRESENT.code());
            assertThat(create(h, monitorXml("outside", Path.of("/etc"), out, "SRC", "")).resultCode())
                    .isEqualTo(ResultCode.MONITOR_DIRECTORY_ACCESS.code());
            assertThat(create(h, monitorXml("other", in, out, "DST", "")).resultCode())
                    .isEqualTo(ResultCode.MONITOR_TASK_SOURCE_AGENT.code());
            assertThat(create(h, monitorXml("vars", in, out, "SRC", "").replace("${FileName}", "${FileStem}"))
                    .resultCode()).isEqualTo(ResultCode.MONITOR_VARIABLE_NOT_FOUND.code());
            Reply unknown;
            try (TransferHarness.Submission s = h.submit("SRC", new DeleteMonitorRequest("6.00", "other",
                    TransferHarness.ME, null))) {
                unknown = s.ack;
            }
            assertThat(unknown.resultCode()).as("the refused monitors were not created")
                    .isEqualTo(ResultCode.MONITOR_MISSING.code());
            // -f replaces, keeping the history (no -c): nothing triggers again.
            assertThat(create(h, monitorXml("drop", in, out, "SRC", " overwrite=\"true\"")).resultCode()).isZero();
            Reply deleted;
            try (TransferHarness.Submission s = h.submit("SRC", new DeleteMonitorRequest("6.00", "DROP",
                    TransferHarness.ME, null))) {
                deleted = s.ack;
            }
            assertThat(deleted.resultCode()).as("%s", deleted.supplements()).isZero();
            List<String> actions = h.monitorEvents.stream().map(MonitorEvent::action).toList();
            assertThat(actions).contains("create", "start", "triggerSatisfied", "stop", "delete");
            assertThat(triggers(h, a) + triggers(h, b) + triggers(h, c)).isEqualTo(1);
            assertThat(triggers(h, d) + triggers(h, e)).isEqualTo(2);
        }
    }

    private static boolean contentIs(Path file, String expected) {
        try {
            return Files.exists(file) && Files.readString(file).equals(expected);
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
