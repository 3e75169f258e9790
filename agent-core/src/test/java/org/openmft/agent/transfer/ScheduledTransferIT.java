package org.openmft.agent.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openmft.agent.AgentListener;
import org.openmft.agent.ResultCode;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.command.CommandHandler;
import org.openmft.agent.scheduler.ScheduleEntry;
import org.openmft.agent.scheduler.ScheduleEvent;
import org.openmft.agent.scheduler.ScheduleService;
import org.openmft.agent.transfer.state.StateTag;
import org.openmft.xml.DeleteScheduledTransferRequest;
import org.openmft.xml.DestinationType;
import org.openmft.xml.Reply;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferTrigger;

/**
 * Scheduled and triggered transfers on a real queue manager: a trigger not met ends the transfer
 * with 42, one met runs it; a schedule's first occurrence runs as a transfer of its own carrying the
 * schedule's id; schedules are listed and deleted; and, with a clock the test moves, repeats, an
 * expiry after {@code expireCount}, and occurrences missed while the scheduler was down (skipped,
 * then one run) across a restart of the scheduler over the same EVENT queue.
 */
class ScheduledTransferIT {
    @TempDir
    Path dir;

    private static TransferRequest request(Path from, Path to, TransferSchedule schedule, TransferTrigger trigger) {
        TransferRequest r = TransferHarness.request("SRC", "DST", 0,
                TransferHarness.item(from.toString(), to.toString(), DestinationType.FILE));
        return new TransferRequest(r.version(), r.originator(), r.sourceAgent(), r.destinationAgent(), r.reply(),
                r.transferSet(), r.jobName(), schedule, trigger);
    }

    @Test
    void triggersDecideAndSchedulesRunListAndDelete() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Path out = Files.createDirectories(dir.resolve("out"));
        Path a = Files.writeString(in.resolve("a.txt"), "alpha");
        Path go = in.resolve("go.flag");
        try (TransferHarness h = new TransferHarness(dir, false)) {
            List<TransferInfo> queued = new CopyOnWriteArrayList<>();
            h.onQueued = queued::add;
            h.agent("SRC", Map.of("sandboxRoot", dir.toString()));
            h.agent("DST");
            TransferTrigger whenGo = new TransferTrigger(true, List.of(new TransferTrigger.FileExist("=", "exist",
                    go.toString())));

            Reply notMet;
            try (TransferHarness.Submission s = h.submit("SRC", request(a, out.resolve("a1.txt"), null, whenGo))) {
                notMet = s.awaitFinal(30);
            }
            assertThat(notMet.resultCode()).as("%s", notMet.supplements()).isEqualTo(ResultCode.TRIGGER_NOT_MET.code());
            assertThat(String.join(" ", notMet.supplements())).contains("trigger", go.toString(), "does not exist");
            assertThat(out.resolve("a1.txt")).doesNotExist();
            // Known to the publisher (log="yes"), so that its log says 42.
            assertThat(queued).anyMatch(i -> whenGo.equals(i.trigger()));

            // Outside the sandbox: the path is not looked at, the transfer fails.
            TransferTrigger outside = new TransferTrigger(true, List.of(new TransferTrigger.FileExist("!=", "exist",
                    "/etc/passwd")));
            try (TransferHarness.Submission s = h.submit("SRC", request(a, out.resolve("a2.txt"), null, outside))) {
                assertThat(s.awaitFinal(30).resultCode()).isEqualTo(ResultCode.FAILED.code());
            }

            Files.writeString(go, "");
            Reply met;
            try (TransferHarness.Submission s = h.submit("SRC", request(a, out.resolve("a3.txt"), null, whenGo))) {
                met = s.awaitFinal(30);
            }
            assertThat(met.resultCode()).as("%s", met.supplements()).isZero();
            assertThat(out.resolve("a3.txt")).hasContent("alpha");

            // A schedule due this minute runs at once, as a transfer of its own.
            LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MINUTES);
            TransferSchedule thisMinute = new TransferSchedule("UTC", null, now, null, 1, 0, null);
            Reply created;
            try (TransferHarness.Submission s = h.submit("SRC", request(a, out.resolve("s1.txt"), thisMinute, whenGo))) {
                created = s.ack;
            }
            assertThat(created.resultCode()).as("%s", created.supplements()).isZero();
            assertThat(created.supplements().get(0)).startsWith("Schedule 1 created on agent SRC");
            TransferHarness.await("the scheduled transfer", 30, () -> Files.exists(out.resolve("s1.txt")));
            TransferHarness.await("its queued event", 10, () -> queued.stream()
                    .anyMatch(i -> Long.valueOf(1).equals(i.scheduleLogId()) && whenGo.equals(i.trigger())));
            TransferHarness.await("the schedule expired", 10, () -> h.scheduleEvents.stream()
                    .anyMatch(e -> e.id() == 1 && e.action().equals("expire")));

            // Far ahead: listed, refused in the past, deleted once.
            TransferSchedule later = new TransferSchedule("UTC", null, now.plusYears(5), "days", 1, 0, null);
            try (TransferHarness.Submission s = h.submit("SRC", request(a, out.resolve("s2.txt"), later, null))) {
                assertThat(s.ack.resultCode()).isZero();
            }
            assertThat(h.schedules).extracting(ScheduleEntry::id).containsExactly(2L);
            TransferSchedule past = new TransferSchedule("UTC", null, now.minusHours(1), null, 1, 0, null);
            try (TransferHarness.Submission s = h.submit("SRC", request(a, out.resolve("s3.txt"), past, null))) {
                assertThat(s.ack.resultCode()).isEqualTo(ResultCode.COMMAND_UNSUCCESSFUL.code());
                assertThat(s.ack.supplements().get(0)).contains("<submit>", "in the past");
            }
            // The schedule survives a restart of its agent.
            h.stopImmediately("SRC");
            h.schedules = List.of();
            h.agent("SRC", Map.of("sandboxRoot", dir.toString()));
            TransferHarness.await("the schedule reloaded", 30, () -> h.schedules.size() == 1);
            for (int expected : new int[] {0, ResultCode.COMMAND_UNSUCCESSFUL.code()}) {
                try (TransferHarness.Submission s = h.submit("SRC", new DeleteScheduledTransferRequest("6.00",
                        TransferHarness.ME, 2, null))) {
                    assertThat(s.ack.resultCode()).as("%s", s.ack.supplements()).isEqualTo(expected);
                }
            }
            assertThat(h.schedules).isEmpty();
            assertThat(h.scheduleEvents).extracting(ScheduleEvent::action)
                    .containsSubsequence("submit", "expire", "submit", "delete");
        }
    }

    @Test
    void repeatsExpireAndSkipWhatWasMissedAcrossARestart() throws Exception {
        try (TransferHarness h = new TransferHarness(dir, false)) {
            // Its queues made, the agent stopped: the occurrences stay on its COMMAND queue to be counted.
            h.agent("SCH");
            h.stopImmediately("SCH");
            StateTag tag = StateTag.of(new byte[32]);
            List<ScheduleEvent> events = new CopyOnWriteArrayList<>();
            AgentListener listener = new AgentListener() {
                @Override
                public void scheduleAction(String agent, ScheduleEvent event) {
                    events.add(event);
                }
            };
            org.openmft.agent.transfer.source.FakeClock clock = new org.openmft.agent.transfer.source.FakeClock();
            Instant t0 = clock.instant();
            LocalDateTime start = LocalDateTime.ofInstant(t0, ZoneOffset.UTC);
            TransferRequest every = TransferHarness.request("SCH", "DST", 0, TransferHarness.item("/in/a", "/out/a",
                    DestinationType.FILE));
            CommandHandler.RequestContext context = new CommandHandler.RequestContext("ID:1", null, null);
            try (ScheduleService s = ScheduleService.forAgent("SCH", h.admin, tag, listener, clock, Thread::new)) {
                assertThat(s.handle(every.withSchedule(new TransferSchedule("UTC", null, start, "minutes", 1, 0, null)),
                        context).reply().resultCode()).isZero();
                assertThat(s.handle(every.withSchedule(new TransferSchedule("UTC", null, start, "minutes", 2, 2, null)),
                        context).reply().resultCode()).isZero();
                s.fireDue();
                assertThat(occurrences(h)).containsExactly(1L, 2L);
                clock.advance(Duration.ofMinutes(1));
                s.fireDue();
                clock.advance(Duration.ofMinutes(1));
                s.fireDue();
                // Schedule 2 ran at 0 and 2 minutes: its count reached, it expired.
                assertThat(occurrences(h)).containsExactly(1L, 2L, 1L, 1L, 2L);
                assertThat(s.list()).extracting(ScheduleEntry::id).containsExactly(1L);
                assertThat(events).filteredOn(e -> e.id() == 2).extracting(ScheduleEvent::action)
                        .containsExactly("submit", "expire");
            }
            // Down for 15 minutes: 14 occurrences missed, 10 logged one by one and one log for the rest;
            // the latest due runs once.
            clock.advance(Duration.ofMinutes(15));
            try (ScheduleService s = ScheduleService.forAgent("SCH", h.admin, tag, listener, clock, Thread::new)) {
                s.fireDue();
                assertThat(occurrences(h)).hasSize(6);
                List<ScheduleEvent> skipped = events.stream().filter(e -> e.action().equals("skipped")).toList();
                assertThat(skipped).hasSize(11);
                assertThat(skipped.get(0).occurrence().toInstant()).isEqualTo(t0.plus(Duration.ofMinutes(3)));
                assertThat(skipped.get(10).supplements().get(0)).startsWith("4 more transfers were skipped");
                assertThat(s.list().get(0).next().toInstant()).isEqualTo(t0.plus(Duration.ofMinutes(18)));
                assertThat(s.handle(new DeleteScheduledTransferRequest("6.00", TransferHarness.ME, 1, null), context)
                        .reply().resultCode()).isZero();
                assertThat(s.list()).isEmpty();
                // A new schedule after a restart does not reuse an id.
                assertThat(s.handle(every.withSchedule(new TransferSchedule("UTC", null, start.plusHours(1), null, 1, 0,
                        null)), context).reply().supplements().get(0)).startsWith("Schedule 3 created");
            }
        }
    }

    /** The schedule ids of the occurrences waiting on SCH's COMMAND queue, in order. */
    private static List<Long> occurrences(TransferHarness h) throws Exception {
        List<Long> ids = new ArrayList<>();
        try (Connection c = h.admin.connect()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            c.start();
            try (QueueBrowser b = s.createBrowser(s.createQueue("SYSTEM.FTE.COMMAND.SCH"))) {
                Enumeration<?> e = b.getEnumeration();
                while (e.hasMoreElements()) {
                    ids.add(Long.parseLong(((Message) e.nextElement()).getStringProperty("mftScheduleId")));
                }
            }
        }
        return ids;
    }
}
