package org.openmft.coordination.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openmft.agent.AgentListener.Role;
import org.openmft.agent.TransferInfo;
import org.openmft.agent.TransferOutcome;
import org.openmft.agent.config.AgentConfig;
import org.openmft.agent.scheduler.ScheduleEntry;
import org.openmft.agent.scheduler.ScheduleEvent;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferItem;
import org.openmft.xml.TransferRequest;
import org.openmft.xml.TransferSchedule;
import org.openmft.xml.TransferSet;
import org.openmft.xml.TransferTrigger;
import org.openmft.xml.log.ScheduleList;
import org.openmft.xml.log.SchedulePublications;

/** What the publisher makes of schedule events and of triggered and scheduled transfers. */
class AgentPublisherScheduleTest {
    private static final String ID = AgentPublisherTest.ID;
    private final PublicationBuffer buffer = new PublicationBuffer(1000);
    private final AgentPublisher publisher;

    AgentPublisherScheduleTest() throws Exception {
        publisher = new AgentPublisher(AgentConfig.from(Map.of("agentName", "SRC", "agentQMgr", "QMA"), Map.of()),
                buffer, new AgentPublisherTest.TestClock());
    }

    private static TransferRequest request() {
        return new TransferRequest("6.00", new Originator("h", "u"), new AgentRef("SRC", "QMA"), new AgentRef("DST", "QMA"),
                null, new TransferSet(0, null, Map.of(), List.of(new TransferItem(new org.openmft.xml.ItemSource("/in/a"),
                        new org.openmft.xml.ItemDestination(org.openmft.xml.DestinationType.FILE, "/out/a")))), "JOB",
                new TransferSchedule("UTC", null, LocalDateTime.of(2030, 1, 1, 2, 0), "days", 1, 3, null), null);
    }

    private List<Publication> drain() throws InterruptedException {
        return buffer.take(10_000, 0).stream().filter(p -> p.kind() != Publication.Kind.STATUS).toList();
    }

    @Test
    void scheduleLogsAndTheRetainedListGoToIbmsTopics() throws Exception {
        publisher.scheduleAction("SRC", new ScheduleEvent(3, "submit", Instant.parse("2029-12-31T00:00:00Z"), 0,
                List.of(), request(), null));
        ZonedDateTime start = ZonedDateTime.of(2030, 1, 1, 2, 0, 0, 0, ZoneOffset.UTC);
        publisher.schedulesChanged("SRC", List.of(new ScheduleEntry(3, request(), start, start.plusDays(1))));
        List<Publication> ps = drain();
        assertThat(ps).extracting(Publication::topic).containsExactly("SYSTEM.FTE/Log/SRC/3", "SYSTEM.FTE/Scheduler/SRC");
        assertThat(ps.get(0).kind()).isEqualTo(Publication.Kind.LOG);
        assertThat(ps.get(0).body()).contains("<schedulelog version=\"1.00\" ID=\"3\"", ">submit</action>");
        assertThat(ps.get(1).kind()).isEqualTo(Publication.Kind.LISTING);
        assertThat(ps.get(1).kind().retained()).isTrue();
        ScheduleList list = SchedulePublications.readList(ps.get(1).body().getBytes(StandardCharsets.UTF_8));
        assertThat(list.schedules()).singleElement().satisfies(e -> {
            assertThat(e.start()).isEqualTo("2030-01-01T02:00+0000");
            assertThat(e.next()).isEqualTo("2030-01-02T02:00+0000");
            assertThat(e.expireCount()).isEqualTo(3);
            assertThat(e.jobName()).isEqualTo("JOB");
        });
    }

    private static TransferInfo info(TransferTrigger trigger, Long scheduleId) {
        return new TransferInfo(ID, new AgentRef("SRC", "QMA"), new AgentRef("DST", "QMA"), new Originator("h", "u"),
                null, 0, Map.of(), Instant.parse("2026-11-22T10:00:00Z"), List.of(), 0, trigger, scheduleId);
    }

    @Test
    void startedLogCarriesTheScheduleAndTriggerAndAnUnmetTriggerLogsOnlyItsEnd() throws Exception {
        TransferTrigger trigger = new TransferTrigger(true, List.of(new TransferTrigger.FileExist("=", "exist", "/in/go")));
        publisher.transferQueued("SRC", info(trigger, 4L), 1);
        publisher.transferStarted("SRC", Role.SOURCE, info(trigger, 4L));
        List<Publication> started = drain();
        assertThat(started).singleElement().extracting(Publication::body).asString()
                .contains("<trigger log=\"yes\"><fileExist comparison=\"=\" value=\"exist\">/in/go</fileExist></trigger>",
                        "<scheduleLog ID=\"4\"/>", ">started</action>");

        publisher.transferQueued("SRC", info(trigger, null), 1);
        publisher.transferEnded("SRC", Role.SOURCE, new TransferOutcome(ID, 42, "not met", List.of(), Instant.now(),
                Instant.now()));
        List<Publication> ended = drain();
        assertThat(ended).singleElement().extracting(Publication::body).asString()
                .contains("<status resultCode=\"42\">").doesNotContain("started");
    }

    @Test
    void aSatisfiedTriggersMonitorLogCarriesItsVariablesAsOriginalMetadataAndItsTaskRequest() throws Exception {
        String task = "414d5120514d31202020202020202020000000000000a0c9";
        publisher.monitorAction("SRC", new org.openmft.agent.monitor.MonitorEvent("MON1", "triggerSatisfied",
                Instant.parse("2026-11-22T10:00:00Z"), 0, List.of("/in/a.txt"), new Originator("h", "u"), ID,
                List.of(task), Map.of("FILENAME", "a.txt")));
        assertThat(drain()).singleElement().extracting(Publication::body).asString().contains(">triggerSatisfied<",
                "<monitorMetaData><originalMetaData><metaData key=\"FILENAME\">a.txt</metaData></originalMetaData>"
                        + "</monitorMetaData>", "<references><createRequest>" + ID + "</createRequest><taskRequest>"
                        + task + "</taskRequest></references>");
    }
}
