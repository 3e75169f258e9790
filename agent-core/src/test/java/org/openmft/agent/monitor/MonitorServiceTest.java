package org.openmft.agent.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.transfer.files.SandboxPolicy;
import org.openmft.agent.transfer.files.SandboxRules;
import org.openmft.agent.transfer.protocol.TransferIds;
import org.openmft.agent.transfer.source.FakeClock;
import org.openmft.xml.MonitorDefinition;
import org.openmft.xml.RequestParser;

/** The service with an in-memory store and a fake clock: schedule, atomic saves, refusals. */
class MonitorServiceTest {
    @TempDir
    Path dir;

    /** The in-memory twin of the EVENT queue store; it can be told to fail. */
    static final class MemoryStore implements MonitorStore {
        final Map<String, MonitorRecord> records = new LinkedHashMap<>();
        final List<String> submitted = new ArrayList<>();
        boolean failing;

        @Override
        public List<MonitorRecord> load() {
            return List.copyOf(records.values());
        }

        @Override
        public List<String> save(MonitorRecord record, List<String> tasks) throws MonitorStoreException {
            if (failing) {
                throw new MonitorStoreException("the queue manager is away", null);
            }
            records.put(record.name(), record);
            List<String> ids = new ArrayList<>();
            for (String task : tasks) {
                ids.add("ID:task" + submitted.size());
                submitted.add(task);
            }
            return ids;
        }

        @Override
        public void delete(String name) {
            records.remove(name);
        }

        @Override
        public void close() {
        }
    }

    private final MemoryStore store = new MemoryStore();
    private final FakeClock clock = new FakeClock();

    private final List<MonitorEvent> events = new CopyOnWriteArrayList<>();

    private MonitorService service(Path sandbox) throws Exception {
        SandboxPolicy policy = SandboxPolicy.of(SandboxRules.parse(sandbox.toString()));
        AgentListener listener = new AgentListener() {
            @Override
            public void monitorAction(String agent, MonitorEvent event) {
                events.add(event);
            }
        };
        return new MonitorService(new MonitorService.Settings("SRC", "QM1", -1, true, 5, 10), store, policy, listener,
                clock, Thread::new);
    }

    private String monitor(Path in, String sourceAgent) {
        return "<m:monitor xmlns:m=\"" + MonitorDefinition.NAMESPACE + "\" version=\"6.00\"><name>drop</name>"
                + "<pollInterval units=\"seconds\">10</pollInterval><agent>SRC</agent><resources><directory>" + in
                + "</directory></resources><triggerMatch><conditions><allOf><condition><fileMatch><pattern>*.txt"
                + "</pattern></fileMatch></condition></allOf></conditions></triggerMatch><tasks><task><name/><transfer>"
                + "<request version=\"6.00\"><managedTransfer><originator><hostName>h</hostName><userID>u</userID>"
                + "</originator><sourceAgent agent=\"" + sourceAgent + "\"/><destinationAgent agent=\"DST\"/>"
                + "<transferSet><item><source><file>${FilePath}</file></source><destination type=\"file\">"
                + "<file>/out/${FileName}</file></destination></item></transferSet></managedTransfer></request>"
                + "</transfer></task></tasks><originator><hostName>h</hostName><userID>u</userID></originator>"
                + "</m:monitor>";
    }

    private CommandHandler.Outcome send(MonitorService s, String xml) throws Exception {
        return s.handle(new RequestParser().parse(xml), new CommandHandler.RequestContext("ID:1", null, null, "tester"));
    }

    @Test
    void pollsOnItsIntervalAndAFailedSaveChangesNothing() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        MonitorService s = service(dir);
        assertThat(send(s, monitor(in, "SRC")).reply().resultCode()).isZero();
        Files.writeString(in.resolve("a.txt"), "a");
        assertThat(s.pollDue()).isEqualTo(Duration.ofSeconds(5).toMillis());
        assertThat(store.submitted).singleElement().asString().contains(in.resolve("a.txt").toString());

        Files.writeString(in.resolve("b.txt"), "b");
        clock.advance(Duration.ofSeconds(9));
        s.pollDue();
        assertThat(store.submitted).as("not due yet").hasSize(1);

        clock.advance(Duration.ofSeconds(1));
        store.failing = true;
        s.pollDue();
        assertThat(store.submitted).as("nothing submitted while the store fails").hasSize(1);

        clock.advance(Duration.ofSeconds(10));
        store.failing = false;
        s.pollDue();
        assertThat(store.submitted).as("the failed poll is decided again, b.txt once").hasSize(2);
        assertThat(store.submitted.get(1)).contains(in.resolve("b.txt").toString());
        clock.advance(Duration.ofSeconds(10));
        s.pollDue();
        assertThat(store.submitted).hasSize(2);
        assertThat(store.records.get("DROP").history()).containsOnlyKeys(in.resolve("a.txt").toString(),
                in.resolve("b.txt").toString());
    }

    @Test
    void aPollLogsEachTaskItSubmitsWithItsBatchsFirstTriggerAndItsTransferId() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        MonitorService s = service(dir);
        assertThat(send(s, monitor(in, "SRC").replace("<agent>", "<batch maxSize=\"2\"/><agent>")).reply()
                .resultCode()).isZero();
        for (String name : List.of("a.txt", "b.txt", "c.txt")) {
            Files.writeString(in.resolve(name), name);
        }
        s.pollDue();
        assertThat(store.submitted).hasSize(2);
        List<MonitorEvent> fired = events.stream().filter(e -> e.action().equals("triggerSatisfied")).toList();
        assertThat(fired).hasSize(2);
        List<List<String>> batches = List.of(List.of("a.txt", "b.txt"), List.of("c.txt"));
        for (int i = 0; i < 2; i++) {
            MonitorEvent e = fired.get(i);
            // The directory lists in name order; a batch's log names its files and has its first one's variables.
            assertThat(e.supplements()).containsExactlyElementsOf(batches.get(i).stream()
                    .map(n -> in.resolve(n).toString()).toList());
            assertThat(e.metadata()).containsEntry("FILENAME", batches.get(i).get(0));
            assertThat(e.transferIds()).containsExactly(TransferIds.forRequest("ID:task" + i, "QM1"));
            assertThat(store.submitted.get(i)).contains(in.resolve(batches.get(i).get(0)).toString());
        }
    }

    @Test
    void refusalsStoreNothing() throws Exception {
        Path in = Files.createDirectories(dir.resolve("box/in"));
        MonitorService s = service(dir.resolve("box"));
        assertThat(send(s, monitor(dir, "SRC")).reply().resultCode())
                .as("outside the sandbox").isEqualTo(ResultCode.MONITOR_DIRECTORY_ACCESS.code());
        assertThat(send(s, monitor(Path.of("relative"), "SRC")).reply().resultCode())
                .isEqualTo(ResultCode.MONITOR_DIRECTORY_ACCESS.code());
        assertThat(send(s, monitor(in, "OTHER")).reply().resultCode())
                .isEqualTo(ResultCode.MONITOR_TASK_SOURCE_AGENT.code());
        assertThat(send(s, monitor(in, "SRC").replace("${FileName}", "${FileName{token=x}}")).reply().resultCode())
                .isEqualTo(ResultCode.MONITOR_VARIABLE_SYNTAX.code());
        assertThat(send(s, monitor(in, "SRC").replace("<agent>SRC</agent>", "<agent>DST</agent>")).reply()
                .resultCode()).isEqualTo(ResultCode.WRONG_AGENT.code());
        assertThat(send(s, monitor(in, "SRC").replace("<sourceAgent", "<schedule><submit timebase=\"UTC\">"
                + "2099-01-01T00:00</submit></schedule><sourceAgent")).reply().resultCode())
                .as("a scheduled task").isEqualTo(ResultCode.MALFORMED_XML.code());
        assertThat(store.records).isEmpty();
        assertThat(s.names()).isEmpty();
        assertThat(send(s, monitor(in, "SRC")).reply().resultCode()).isZero();
        assertThat(send(s, monitor(in, "SRC")).reply().resultCode()).isEqualTo(ResultCode.MONITOR_ALREADY_PRESENT.code());
        assertThat(send(s, "<m:stopMonitor xmlns:m=\"" + MonitorDefinition.NAMESPACE + "\" version=\"6.00\">"
                + "<name>nope</name><originator><hostName>h</hostName><userID>u</userID></originator></m:stopMonitor>")
                .reply().resultCode()).isEqualTo(ResultCode.MONITOR_MISSING.code());
        assertThat(send(s, "<m:stopMonitor xmlns:m=\"" + MonitorDefinition.NAMESPACE + "\" version=\"6.00\">"
                + "<name>drop</name><originator><hostName>h</hostName><userID>u</userID></originator></m:stopMonitor>")
                .reply().resultCode()).isZero();
        assertThat(store.records.get("DROP").started()).isFalse();
        Files.writeString(in.resolve("a.txt"), "a");
        s.pollDue();
        assertThat(store.submitted).as("a stopped monitor does not poll").isEmpty();
    }

    @Test
    void aTriggerFileThatListsFilesSubmitsOneRequestWithAnItemPerLineOnce() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        MonitorService s = service(dir);
        String listing = monitor(in, "SRC").replace("<pattern>*.txt</pattern>", "<pattern>*.trig</pattern>")
                .replace("</conditions></triggerMatch>", "</conditions><triggerContent/></triggerMatch>")
                .replace("<file>${FilePath}</file>", "<file>${contentSource}</file>")
                .replace("<file>/out/${FileName}</file>", "<file>/out/${contentDestination{token=-1}}</file>");
        assertThat(send(s, monitor(in, "SRC").replace("</conditions></triggerMatch>",
                "</conditions><triggerContent/></triggerMatch>")).reply().supplements())
                .as("a -tc task must place ${contentSource}").anyMatch(x -> x.contains("${contentSource}"));
        String call = listing.replaceAll("<request version=\"6.00\">.*</request>",
                java.util.regex.Matcher.quoteReplacement("<request version=\"6.00\">"
                + "<managedCall><originator><hostName>h</hostName><userID>u</userID></originator><agent agent=\"SRC\"/>"
                + "<transferSet><call><command name=\"load.sh\"><argument>${contentSource}</argument></command></call>"
                + "</transferSet></managedCall></request>"));
        assertThat(send(s, call).reply().supplements()).as("a -tc task is a transfer").anyMatch(
                x -> x.contains("not a managed call"));
        assertThat(send(s, listing).reply().resultCode()).isZero();

        Files.writeString(in.resolve("one.trig"), "/data/a.txt,/x/a1.txt\n/data/b.txt,/x/b1.txt\n");
        Files.writeString(in.resolve("bad.trig"), "/data/c.txt\n/data/d.txt,/x,/y\n");
        s.pollDue();
        assertThat(store.submitted).as("one request for the good trigger file, none for the bad one").singleElement()
                .asString().contains("<file>/data/a.txt</file>", "<file>/out/a1.txt</file>",
                        "<file>/data/b.txt</file>", "<file>/out/b1.txt</file>")
                .doesNotContain("/data/c.txt");
        assertThat(store.submitted.get(0).split("<item", -1)).as("an item per listed file").hasSize(3);
        assertThat(events).filteredOn(e -> e.action().equals("triggerFail")).singleElement().satisfies(e -> {
            assertThat(e.resultCode()).isEqualTo(ResultCode.MONITOR_TASK_FAILED.code());
            assertThat(e.supplements()).singleElement().asString().contains(in.resolve("bad.trig").toString(),
                    "line 2 has more than one comma");
        });
        // A line without a destination, where the task wants one: result 110 for that trigger file.
        Files.writeString(in.resolve("nodest.trig"), "/data/e.txt\n");
        clock.advance(Duration.ofSeconds(10));
        s.pollDue();
        assertThat(store.submitted).hasSize(1);
        assertThat(events).filteredOn(e -> e.action().equals("triggerFail")).last().satisfies(e -> assertThat(
                e.resultCode()).isEqualTo(ResultCode.MONITOR_VARIABLE_NOT_FOUND.code()));
        // Each trigger file is in the history: nothing triggers again until it changes.
        clock.advance(Duration.ofSeconds(10));
        s.pollDue();
        assertThat(store.submitted).hasSize(1);
        assertThat(store.records.get("DROP").history()).containsKeys(in.resolve("one.trig").toString(),
                in.resolve("bad.trig").toString());
    }
}
