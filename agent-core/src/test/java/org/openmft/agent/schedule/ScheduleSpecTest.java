package org.openmft.agent.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

class ScheduleSpecTest {
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    /** 2026-12-01 15:20 in New York (20:20 UTC). */
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T20:20:00Z"), ZoneOffset.UTC);

    private static ScheduleSpec flags(String ss, String tb, String oi, String of, String oc, String es)
            throws ScheduleException {
        return ScheduleSpec.fromFlags(ss, tb, oi, of, oc, es, NEW_YORK, CLOCK);
    }

    @Test
    void aDateAndTimeOnTheAdministratorsClockCarriesItsZone() throws Exception {
        ScheduleSpec spec = flags("2026-12-24T09:00", null, "days", "2", "5", null);
        assertThat(spec).isEqualTo(new ScheduleSpec(TimeBase.ADMIN, NEW_YORK, LocalDateTime.parse("2026-12-24T09:00"),
                RepeatUnit.DAYS, 2, 5, null));
        Schedule s = spec.resolve(ZoneId.of("Asia/Tokyo"));
        assertThat(s.start().toInstant()).isEqualTo(Instant.parse("2026-12-24T14:00:00Z"));
        assertThat(s.occurrence(4)).isPresent();
        assertThat(s.occurrence(5)).isEmpty();
    }

    @Test
    void anHourAndMinuteIsItsNextOccurrence() throws Exception {
        assertThat(flags("16:00", null, null, null, null, null).submit()).isEqualTo(LocalDateTime.parse("2026-12-01T16:00"));
        assertThat(flags("15:20", null, null, null, null, null).submit()).as("this minute is not the past")
                .isEqualTo(LocalDateTime.parse("2026-12-01T15:20"));
        assertThat(flags("09:00", null, null, null, null, null).submit()).isEqualTo(LocalDateTime.parse("2026-12-02T09:00"));
        assertThat(flags("09:00", "UTC", null, null, null, null).submit()).as("20:20 on the UTC clock")
                .isEqualTo(LocalDateTime.parse("2026-12-02T09:00"));
        assertThat(flags("21:00", "utc", null, null, null, null).submit()).isEqualTo(LocalDateTime.parse("2026-12-01T21:00"));
    }

    @Test
    void theSourceTimeBaseIsResolvedOnTheSourceAgentsZone() throws Exception {
        ScheduleSpec spec = flags("2026-12-24T09:00", "source", "hours", null, null, "2026-12-24T17:00");
        assertThat(spec.timezone()).isNull();
        Schedule s = spec.resolve(ZoneId.of("Asia/Tokyo"));
        assertThat(s.start().toInstant()).isEqualTo(Instant.parse("2026-12-24T00:00:00Z"));
        assertThat(s.occurrence(8)).isPresent();
        assertThat(s.occurrence(9)).isEmpty();
    }

    @Test
    void badFlagsAreRefusedNamingTheFlag() {
        assertThatThrownBy(() -> flags("2026-11-30T09:00", null, null, null, null, null))
                .hasMessageContaining("-ss 2026-11-30T09:00 is in the past").hasMessageContaining("2026-12-01T15:20");
        assertThatThrownBy(() -> flags("tomorrow", null, null, null, null, null)).hasMessageContaining("-ss 'tomorrow'");
        assertThatThrownBy(() -> flags("25:00", null, null, null, null, null)).hasMessageContaining("-ss '25:00'");
        assertThatThrownBy(() -> flags(null, null, "days", null, null, null)).hasMessage("-oi needs a start time (-ss)");
        assertThatThrownBy(() -> flags("16:00", null, null, "2", null, null)).hasMessage("-of needs a repeat unit (-oi)");
        assertThatThrownBy(() -> flags("16:00", null, "fortnights", null, null, null))
                .hasMessageContaining("-oi is minutes, hours, days, weeks, months or years");
        assertThatThrownBy(() -> flags("16:00", "local", null, null, null, null))
                .hasMessageContaining("-tb is admin, source or UTC");
        assertThatThrownBy(() -> flags("16:00", null, "days", "0", null, null))
                .hasMessageContaining("-of is a whole number from 1 to 1000000, not '0'");
        assertThatThrownBy(() -> flags("16:00", null, "days", null, "-1", null)).hasMessageContaining("-oc is");
        assertThatThrownBy(() -> flags("16:00", null, "days", null, "3", "2026-12-31T00:00"))
                .hasMessageContaining("-oc and -es exclude each other");
        assertThatThrownBy(() -> flags("2026-12-24T09:00", null, "days", null, null, "2026-12-23T09:00"))
                .hasMessageContaining("-es 2026-12-23T09:00 is before the start 2026-12-24T09:00");
    }
}
