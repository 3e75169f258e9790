package org.openmft.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;

import org.junit.jupiter.api.Test;

/**
 * A schedule becomes IBM's {@code <schedule>} element; wrong combinations are named; a request
 * document keeps everything it carries (schedule, trigger, program calls) through the client.
 */
class ScheduleTest {
    private static TransferSpec.Builder transfer() {
        return TransferSpec.builder().sourceAgent("A1").destinationAgent("A2").file("/out/a", "/in/a");
    }

    @Test
    void aRepeatingScheduleIsWrittenAsIbmsScheduleElement() {
        Schedule s = Schedule.at(LocalDateTime.parse("2030-01-01T02:00:42")).timeBase(Schedule.TimeBase.UTC)
                .every(2, Schedule.Unit.DAYS).occurrences(30).build();
        assertThat(s.start()).isEqualTo(LocalDateTime.parse("2030-01-01T02:00"));
        assertThat(s.repeats()).isTrue();
        TransferSpec spec = transfer().schedule(s).build();
        assertThat(spec.scheduled()).isTrue();
        assertThat(spec.toXml()).contains("<schedule>", "timebase=\"UTC\"", ">2030-01-01T02:00</submit>",
                "interval=\"days\">2</frequency>", "<expireCount>30</expireCount>");
        assertThat(TransferSpec.fromXml(spec.toXml()).toXml()).isEqualTo(spec.toXml());
        assertThat(spec.withSchedule(null).scheduled()).isFalse();
    }

    @Test
    void theAdministratorsZoneTravelsWithTheRequest() {
        Schedule s = Schedule.at(LocalDateTime.parse("2030-06-01T21:00")).adminZone(java.time.ZoneId.of(
                "Europe/Paris")).build();
        assertThat(transfer().schedule(s).build().toXml()).contains("timebase=\"admin\"",
                "timezone=\"Europe/Paris\"").doesNotContain("<repeat>");
    }

    @Test
    void wrongCombinationsAreNamed() {
        LocalDateTime start = LocalDateTime.parse("2030-01-01T02:00");
        assertThatThrownBy(() -> Schedule.at(start).occurrences(3).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("every(frequency, unit)");
        assertThatThrownBy(() -> Schedule.at(start).every(1, Schedule.Unit.HOURS).occurrences(3)
                .until(start.plusDays(1)).build()).hasMessageContaining("expireTime").hasMessageContaining("expireCount");
        assertThatThrownBy(() -> Schedule.at(start).every(0, Schedule.Unit.HOURS).build())
                .hasMessageContaining("frequency 0");
        assertThatThrownBy(() -> Schedule.at(start).every(1, Schedule.Unit.HOURS).until(start.minusDays(1)).build())
                .hasMessageContaining("before the start");
    }

    @Test
    void fteCreateTransfersFlagsAreReadAsTheCommandReadsThem() {
        Schedule s = Schedule.fromFlags("2099-12-31T23:59", "UTC", "weeks", "2", null, "2100-06-01T00:00");
        assertThat(s.repeats()).isTrue();
        assertThat(transfer().schedule(s).build().toXml()).contains("interval=\"weeks\">2</frequency>",
                "<expireTime>2100-06-01T00:00</expireTime>");
        assertThatThrownBy(() -> Schedule.fromFlags("2000-01-01T00:00", "UTC", null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-ss").hasMessageContaining("past");
        assertThatThrownBy(() -> Schedule.fromFlags("12:00", "moon", null, null, null, null))
                .hasMessageContaining("-tb");
        assertThatThrownBy(() -> Schedule.fromFlags("2099-01-01T00:00", null, null, null, "3", null))
                .hasMessageContaining("-oc needs a repeat unit (-oi)");
    }

    @Test
    void aDocumentKeepsItsScheduleTriggerAndProgramCalls() {
        String xml = transfer().schedule(Schedule.at(LocalDateTime.parse("2099-01-01T00:00"))
                .timeBase(Schedule.TimeBase.SOURCE).build()).build().toXml()
                .replace("<transferSet priority=\"0\">", "<trigger log=\"no\"><fileExist comparison=\"=\""
                        + " value=\"exist\">/out/ready</fileExist></trigger><transferSet priority=\"0\"><preSourceCall>"
                        + "<command name=\"check.sh\" successRC=\"0\"><argument>x</argument></command></preSourceCall>");
        RequestDocument document = RequestDocument.fromXml(xml);
        assertThat(document.scheduled()).isTrue();
        assertThat(document.managedCall()).isFalse();
        assertThat(document.agent()).isEqualTo("A1");
        assertThat(document.toXml()).contains("timebase=\"source\"", "<trigger", "/out/ready", "check.sh");
        assertThat(TransferSpec.fromXml(xml).toXml()).isEqualTo(document.toXml());
    }
}
