package org.openmft.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.Agent;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.config.QueueManagerEndpoint;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ArtemisQueueAdmin;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.EmbeddedQueueManager;
import org.openmft.agent.qmgr.QueueManagerSettings;
import org.openmft.coordination.publish.CoordinationPublisher;
import org.openmft.xml.DocumentWriter;
import org.openmft.xml.Originator;

/**
 * The client API against a real embedded Artemis queue manager and two real agents in this JVM:
 * the agents run in bindings mode and publish to the same queue manager, which the client reaches
 * over TCP with the administrator's credentials file, as an application on another host would
 * (with {@code connectionQMgrHost} and a credentials file).
 */
class MftClientIT {
    private static final String QM = "QM1";

    @TempDir
    Path dir;
    EmbeddedQueueManager qmgr;
    int port;
    final List<Agent> agents = new ArrayList<>();
    final List<CoordinationPublisher> publishers = new ArrayList<>();
    MftClient client;

    @BeforeEach
    void start() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        qmgr = EmbeddedQueueManager.start(new QueueManagerSettings(QM, dir.resolve("qm1"), "127.0.0.1", port));
        String credentials = qmgr.users().administratorCredentialsFile().toString();
        Map<String, String> coordination = Map.of("coordinationQMgr", QM, "coordinationQMgrHost", "127.0.0.1",
                "coordinationQMgrPort", String.valueOf(port), "coordinationQMgrAuthenticationCredentialsFile",
                credentials);
        agent("SRC", coordination);
        agent("DST", coordination);
        client = MftClient.connect(ClientSettings.fromProperties(Map.of("connectionQMgr", QM, "connectionQMgrHost",
                "127.0.0.1", "connectionQMgrPort", String.valueOf(port), "connectionQMgrAuthenticationCredentialsFile",
                credentials), coordination));
    }

    private void agent(String name, Map<String, String> coordination) throws Exception {
        Files.createDirectories(dir.resolve("cmds"));
        Map<String, String> raw = new HashMap<>(Map.of("agentName", name, "agentQMgr", QM, "agentQMgrPort",
                String.valueOf(port), "immediateShutdownTimeout", "5", "transferRoot", dir.toString(),
                "agentStatusPublishRateLimit", "1", "agentStatusPublishRateMin", "2", "commandPath",
                dir.resolve("cmds").toString()));
        AgentConfig config = AgentConfig.from(raw, Map.of());
        CoordinationPublisher publisher = CoordinationPublisher.create(config, CoordinationConfig.from(coordination,
                Map.of()), dir.resolve("qmgrs"), Clock.systemUTC());
        Agent agent = new Agent(config, QueueManagerConnector.forAgent(config.endpoint(), null), publisher,
                dir.resolve("state-" + name));
        agent.start();
        publisher.start();
        agents.add(agent);
        publishers.add(publisher);
    }

    @AfterEach
    void stop() {
        client.close();
        agents.forEach(Agent::close);
        publishers.forEach(p -> p.close(Duration.ofSeconds(1)));
        qmgr.close();
    }

    @Test
    void submitAwaitFollowCancelListPingMonitorsAndStop() throws Exception {
        // Agents: both publish READY.
        await("both agents READY", 30, () -> client.agents(null).stream()
                .filter(a -> a.status().equals("READY")).count() == 2);
        assertThat(client.agents("S*")).extracting(AgentInfo::name).containsExactly("SRC");
        assertThat(client.agent("dst")).hasValueSatisfying(a -> assertThat(a.queueManager()).isEqualTo(QM));
        assertThat(client.agent("NOBODY")).isEmpty();
        // The status fields fteListAgents and fteShowAgentDetails print.
        assertThat(client.agent("SRC")).hasValueSatisfying(a -> {
            assertThat(a.bindings()).isTrue();
            assertThat(a.publishRateMinSeconds()).isEqualTo(2);
            assertThat(a.agentType()).isNotBlank();
            assertThat(a.osName()).isNotBlank();
            assertThat(a.startTime()).isNotNull().isBeforeOrEqualTo(a.publishTime());
            assertThat(a.maxQueuedTransfers()).isPositive();
            assertThat(a.overdue()).isFalse();
        });

        // A transfer built with the builder, awaited, with its progress followed.
        Path source = dir.resolve("in/data.bin");
        Files.createDirectories(source.getParent());
        byte[] bytes = new byte[8 << 20];
        new Random(7).nextBytes(bytes);
        Files.write(source, bytes);
        Path target = dir.resolve("out/data.bin");
        Files.createDirectories(target.getParent());
        List<ProgressEvent> events = new CopyOnWriteArrayList<>();
        TransferSpec spec = TransferSpec.builder().sourceAgent("src").destinationAgent("DST")
                .file(source.toString(), target.toString()).checksum(Checksum.SHA_256).ifExists(IfExists.OVERWRITE)
                .priority(3).jobName("CLIENT.IT").metadata("team", "payments").build();
        TransferOutcome outcome;
        Collecting eager = new Collecting(Long.MAX_VALUE);
        Collecting slow = new Collecting(1);
        try (TransferHandle transfer = client.submit(spec, events::add)) {
            assertThat(transfer.transferId()).matches("[0-9a-f]{48}");
            transfer.progress().subscribe(eager);
            transfer.progress().subscribe(slow);
            outcome = transfer.await(Duration.ofSeconds(120)).orElseThrow();
            assertThat(outcome.transferId()).isEqualTo(transfer.transferId());
        }
        // The publisher completes with the outcome; the slow subscriber (one event asked for until
        // now) finds at most the buffer's newest events waiting, then the end.
        await("the eager subscriber completed", 10, () -> eager.completed);
        slow.subscription.request(Long.MAX_VALUE);
        await("the slow subscriber completed", 10, () -> slow.completed);
        assertThat(eager.items).as("events of the publisher").isNotEmpty()
                .allSatisfy(e -> assertThat(e.transferId()).isEqualTo(outcome.transferId()));
        assertThat(eager.items.get(eager.items.size() - 1)).isEqualTo(events.get(events.size() - 1));
        assertThat(slow.items).hasSizeLessThanOrEqualTo(1 + TransferHandle.PROGRESS_BUFFER)
                .last().isEqualTo(events.get(events.size() - 1));
        assertThat(eager.items.get(eager.items.size() - 1).bytesPerSecond()).isPositive();
        assertThat(outcome.succeeded()).as("outcome %s", outcome).isTrue();
        assertThat(outcome.items()).singleElement().satisfies(i -> {
            assertThat(i.resultCode()).isZero();
            assertThat(i.source()).endsWith("in/data.bin");
        });
        assertThat(Files.readAllBytes(target)).isEqualTo(bytes);
        assertThat(events).as("progress events").isNotEmpty().allSatisfy(e -> {
            assertThat(e.transferId()).isEqualTo(outcome.transferId());
            assertThat(e.sourceAgent()).isEqualTo("SRC");
            assertThat(e.bytes()).isLessThanOrEqualTo(bytes.length);
        });

        // A transfer to an agent that never starts (its queues exist) waits at the source: cancelled.
        new ArtemisQueueAdmin(direct()).createQueues(QueueNames.agentQueues("ASLEEP"));
        try (TransferHandle stuck = client.submit(TransferSpec.builder().sourceAgent("SRC").destinationAgent("ASLEEP")
                .file(source.toString(), dir.resolve("out/never.bin").toString()).build())) {
            await("the stuck transfer listed", 30, () -> client.transfers().stream()
                    .anyMatch(t -> t.transferId().equalsIgnoreCase(stuck.transferId()) && t.agent().equals("SRC")));
            CancelOutcome cancelled = client.cancel("SRC", null, stuck.transferId(), Duration.ofSeconds(60));
            assertThat(cancelled.message()).isNotBlank();
            assertThat(cancelled.ended()).isTrue();
            assertThat(stuck.await(Duration.ofSeconds(60)).orElseThrow().resultCode()).isEqualTo(41);
        }
        assertThat(dir.resolve("out/never.bin")).doesNotExist();

        // Cancelling what the agent does not know: IBM's BFGCL0039E, code 1.
        assertThatThrownBy(() -> client.cancel("SRC", "0".repeat(48)))
                .isInstanceOfSatisfying(MftClientException.class, e -> assertThat(e.code()).isEqualTo(1))
                .hasMessageContaining("BFGCL0039E");
        // An agent without a COMMAND queue: BFGCL0014E before anything is sent.
        assertThatThrownBy(() -> client.send(TransferSpec.builder().sourceAgent("GHOST").destinationAgent("DST")
                .file(source.toString(), target.toString()).build()))
                .isInstanceOfSatisfying(MftClientException.class, e -> assertThat(e.code()).isEqualTo(1))
                .hasMessageContaining("BFGCL0014E");

        documentsAndSchedules(source, bytes);
        pingListMonitorsAndStop();
    }

    /**
     * Part of the test above: request documents submitted as they are (a transfer and a managed
     * call, awaited as {@code mft transfer submit -w} does), and scheduled transfers created,
     * listed, run and deleted.
     */
    private void documentsAndSchedules(Path source, byte[] bytes) throws Exception {
        // A transfer document with what fteCreateTransfer -gt writes, sent whole and awaited.
        Path fromDocument = dir.resolve("out/document.bin");
        RequestDocument transfer = RequestDocument.fromXml(TransferSpec.builder().sourceAgent("SRC")
                .destinationAgent("DST").file(source.toString(), fromDocument.toString()).jobName("DOC.IT")
                .metadata("k", "v").build().toXml());
        assertThat(transfer.managedCall()).isFalse();
        assertThat(transfer.agent()).isEqualTo("SRC");
        try (TransferHandle handle = client.submit(transfer, null)) {
            assertThat(handle.await(Duration.ofSeconds(60)).orElseThrow().resultCode()).isZero();
        }
        assertThat(Files.readAllBytes(fromDocument)).isEqualTo(bytes);

        // A managed call document, as IBM documents it: the agent runs the program, the outcome is 0.
        Path cmds = dir.resolve("cmds");
        Path mark = dir.resolve("called.txt");
        Path script = cmds.resolve("mark.sh");
        Files.writeString(script, "#!/bin/sh\necho \"$1\" > " + mark + "\n");
        Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        RequestDocument call = RequestDocument.fromXml("<?xml version=\"1.0\" encoding=\"UTF-8\"?><request"
                + " version=\"1.00\"><managedCall><originator><hostName>example.com.</hostName><userID>mqm</userID>"
                + "</originator><agent agent=\"SRC\" QMgr=\"" + QM + "\"/><transferSet><call><command name=\"mark.sh\""
                + " successRC=\"0\"><argument>called</argument></command></call></transferSet></managedCall></request>");
        assertThat(call.managedCall()).isTrue();
        try (TransferHandle handle = client.submit(call, null)) {
            assertThat(handle.await(Duration.ofSeconds(60)).orElseThrow().resultCode()).isZero();
        }
        assertThat(Files.readString(mark)).isEqualTo("called\n");
        // Documents that are not requests, or not these two, are refused before anything is sent.
        assertThatThrownBy(() -> RequestDocument.fromXml("<request version=\"6.00\"><managedTransfer>"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("not a valid request: ");
        assertThatThrownBy(() -> RequestDocument.fromXml(new DocumentWriter().write(
                new org.openmft.xml.DeleteScheduledTransferRequest("6.00", new Originator("h", "u"), 5, null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nor a managed call");

        // A schedule far ahead is listed with IBM's fields, then deleted; deleting it again is refused.
        TransferSpec nightly = TransferSpec.builder().sourceAgent("SRC").destinationAgent("DST")
                .file(source.toString(), dir.resolve("out/never-scheduled.bin").toString()).jobName("NIGHTLY")
                .schedule(Schedule.at(java.time.LocalDateTime.parse("2099-01-01T02:00"))
                        .timeBase(Schedule.TimeBase.UTC).every(1, Schedule.Unit.DAYS).occurrences(30).build())
                .build();
        long later = client.createSchedule(nightly);
        await("schedule " + later + " listed", 30, () -> client.schedules("s*").stream().anyMatch(s -> s.id() == later));
        assertThat(client.schedules("SRC")).filteredOn(s -> s.id() == later).singleElement().satisfies(s -> {
            assertThat(s.sourceAgent()).isEqualTo("SRC");
            assertThat(s.destinationAgent()).isEqualTo("DST");
            assertThat(s.jobName()).isEqualTo("NIGHTLY");
            assertThat(s.timeBase()).isEqualTo("UTC");
            assertThat(s.start()).startsWith("2099-01-01T02:00");
            assertThat(s.interval()).isEqualTo("days");
            assertThat(s.occurrences()).isEqualTo(30);
            assertThat(s.items()).singleElement().satisfies(i -> assertThat(i.source()).isEqualTo(source.toString()));
        });
        // One due now runs at once, on the source agent's own.
        Path scheduled = dir.resolve("out/scheduled.bin");
        long now = client.createSchedule(TransferSpec.builder().sourceAgent("SRC").destinationAgent("DST")
                .file(source.toString(), scheduled.toString()).build().withSchedule(Schedule.at(
                        java.time.LocalDateTime.now(java.time.ZoneOffset.UTC)).timeBase(Schedule.TimeBase.UTC).build()));
        assertThat(now).isNotEqualTo(later);
        await("the scheduled transfer's file", 60, () -> Files.exists(scheduled) && Files.size(scheduled) == bytes.length);
        assertThat(client.deleteSchedule("src", null, later)).contains("deleted");
        assertThatThrownBy(() -> client.deleteSchedule("SRC", null, later))
                .isInstanceOfSatisfying(MftClientException.class, e -> assertThat(e.code()).isEqualTo(1))
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> client.deleteSchedule("SRC", null, 0))
                .isInstanceOfSatisfying(MftClientException.class, e -> assertThat(e.code()).isEqualTo(1))
                .hasMessageContaining("BFGCL0001E");
        assertThatThrownBy(() -> client.createSchedule(TransferSpec.builder().sourceAgent("SRC").destinationAgent("DST")
                .file(source.toString(), scheduled.toString()).build())).isInstanceOf(IllegalArgumentException.class);
        await("schedule " + later + " no longer listed", 30, () -> client.schedules("SRC").stream()
                .noneMatch(s -> s.id() == later));
    }

    /** Part of the test above, on the same queue manager and agents (one broker start for both). */
    private void pingListMonitorsAndStop() throws Exception {
        // Ping: an agent that runs answers; ASLEEP, whose queues exist but which does not run, does
        // not (code 2); one without queues is refused before anything is sent (code 1).
        PingResult ping = client.ping("src", null, Duration.ofSeconds(30));
        assertThat(ping.agent()).isEqualTo("SRC");
        assertThat(ping.queueManager()).isEqualTo(QM);
        assertThat(ping.roundTrip()).isPositive();
        assertThatThrownBy(() -> client.ping("ASLEEP", null, Duration.ofMillis(500)))
                .isInstanceOfSatisfying(MftClientException.class, e -> assertThat(e.code()).isEqualTo(2))
                .hasMessage("BFGCL0214I: agent ASLEEP didn't respond to ping after 0.5 seconds.");
        assertThatThrownBy(() -> client.ping("GHOST", null, Duration.ofSeconds(1)))
                .isInstanceOfSatisfying(MftClientException.class, e -> assertThat(e.code()).isEqualTo(1))
                .hasMessageContaining("SYSTEM.FTE.COMMAND.GHOST");

        monitors();

        // Stop: the agent confirms, and stops; a stopped agent no longer answers a ping.
        client.stopAgent("dst", null, true, Duration.ofSeconds(30));
        assertThat(agents.get(1).awaitStopped(Duration.ofSeconds(30))).isTrue();
        assertThatThrownBy(() -> client.ping("DST", null, Duration.ofMillis(500)))
                .isInstanceOfSatisfying(MftClientException.class, e -> assertThat(e.code()).isEqualTo(2));
    }

    /** A connector to the queue manager as its agents have (bindings: this JVM's embedded broker). */
    private QueueManagerConnector direct() throws Exception {
        return QueueManagerConnector.forAgent(new QueueManagerEndpoint(MessagingProvider.ARTEMIS, QM, null, port,
                "SYSTEM.DEF.SVRCONN"), null);
    }

    /**
     * Part of the test above: a directory monitor built and listed; the refusals of a duplicate and
     * of an agent without queues; a monitor read from its document that moves a dropped file once,
     * is stopped and started, and deleted.
     */
    private void monitors() throws Exception {
        Path watched = Files.createDirectories(dir.resolve("watched"));
        MonitorSpec watcher = MonitorSpec.builder().agent("src").name("watcher").directory(watched.toString())
                .recursionLevel(2).pollInterval(Duration.ofMinutes(5)).batchSize(3).trigger("match,*.trigger")
                .task(TransferSpec.builder().sourceAgent("SRC").destinationAgent("DST")
                        .file("${FilePath}", dir.resolve("out/${FileName}").toString()).build())
                .build();
        client.createMonitor(watcher, null);
        await("monitor WATCHER listed", 30, () -> !client.monitors("s*").isEmpty());
        assertThat(client.monitors("S*")).singleElement().satisfies(m -> {
            assertThat(m.agent()).isEqualTo("SRC");
            assertThat(m.name()).isEqualTo("WATCHER");
            assertThat(m.queueMonitor()).isFalse();
            assertThat(m.started()).isTrue();
            assertThat(m.resource()).isEqualTo(watched.toString());
            assertThat(m.recursionLevel()).isEqualTo(2);
            assertThat(m.pollInterval()).isEqualTo(Duration.ofMinutes(5));
            assertThat(m.batchSize()).isEqualTo(3);
        });
        assertThat(client.monitors("DST")).isEmpty();
        assertThatThrownBy(() -> client.createMonitor(watcher, null)).as("a duplicate without replace")
                .isInstanceOfSatisfying(MftClientException.class, e -> {
                    assertThat(e.code()).isEqualTo(1);
                    assertThat(e.resultCode()).hasValue(105);
                }).hasMessageContaining("BFGCL0252E").hasMessageContaining("WATCHER");
        assertThatThrownBy(() -> client.createMonitor(MonitorSpec.fromXml(watcher.toXml().replace("<agent>SRC",
                "<agent>GHOST")), null)).isInstanceOfSatisfying(MftClientException.class,
                        e -> assertThat(e.code()).isEqualTo(1)).hasMessageContaining("BFGCL0014E");

        // From its document (fteCreateMonitor -ix): a dropped file is moved once.
        Path drop = Files.createDirectories(dir.resolve("drop"));
        Files.createDirectories(dir.resolve("moved"));
        String document = MonitorSpec.builder().agent("SRC").name("DROP").directory(drop.toString())
                .pollInterval(Duration.ofSeconds(1)).trigger("match,*.txt")
                .task(TransferSpec.builder().sourceAgent("SRC").destinationAgent("DST").ifExists(IfExists.OVERWRITE)
                        .file("${FilePath}", dir.resolve("moved/${FileName}.${CurrentTimeStamp}").toString()).build())
                .build().toXml();
        assertThat(document).contains("<pollInterval units=\"seconds\">1</pollInterval>");
        client.createMonitor(MonitorSpec.fromXml(document), null);
        Files.writeString(drop.resolve("a.txt"), "dropped");
        await("the dropped file moved", 60, () -> copies(dir.resolve("moved")).size() == 1);
        assertThat(Files.readString(copies(dir.resolve("moved")).get(0))).isEqualTo("dropped");

        client.stopMonitor("src", null, "drop");
        await("DROP listed stopped", 30, () -> client.monitors("SRC").stream()
                .anyMatch(m -> m.name().equals("DROP") && !m.started()));
        client.startMonitor("SRC", null, "DROP");
        await("DROP listed started", 30, () -> client.monitors("SRC").stream()
                .anyMatch(m -> m.name().equals("DROP") && m.started()));
        // The file, left in place, triggered once; a cleared history makes it trigger once more.
        client.clearMonitorHistory("SRC", null, "DROP");
        await("the file moved again", 60, () -> copies(dir.resolve("moved")).size() == 2);
        client.deleteMonitor("SRC", null, "DROP");
        await("DROP no longer listed", 30, () -> client.monitors("SRC").stream().noneMatch(m -> m.name().equals("DROP")));
        assertThat(copies(dir.resolve("moved"))).as("once, and once after the history was cleared").hasSize(2);
        assertThatThrownBy(() -> client.stopMonitor("SRC", null, "DROP"))
                .isInstanceOfSatisfying(MftClientException.class, e -> assertThat(e.resultCode()).hasValue(104))
                .hasMessageContaining("BFGDM0042E");
    }

    /** The copies of a.txt in {@code moved}: each trigger writes one, named after its time stamp. */
    private static List<Path> copies(Path moved) throws java.io.IOException {
        try (java.util.stream.Stream<Path> files = Files.list(moved)) {
            return files.filter(p -> p.getFileName().toString().startsWith("a.txt.")).toList();
        }
    }

    /** A subscriber of a transfer's progress that asks for {@code first} events, then for what the test says. */
    static final class Collecting implements java.util.concurrent.Flow.Subscriber<ProgressEvent> {
        final List<ProgressEvent> items = new CopyOnWriteArrayList<>();
        final long first;
        volatile java.util.concurrent.Flow.Subscription subscription;
        volatile boolean completed;

        Collecting(long first) {
            this.first = first;
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            s.request(first);
        }

        @Override
        public void onNext(ProgressEvent item) {
            items.add(item);
        }

        @Override
        public void onError(Throwable t) {
            throw new AssertionError("progress failed", t);
        }

        @Override
        public void onComplete() {
            completed = true;
        }
    }

    @FunctionalInterface
    interface Condition {
        boolean holds() throws Exception;
    }

    static void await(String what, long seconds, Condition condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }
}
