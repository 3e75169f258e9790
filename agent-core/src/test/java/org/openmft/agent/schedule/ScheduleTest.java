package org.openmft.agent.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import org.junit.jupiter.api.Test;

class ScheduleTest {
    private static final ZoneId LONDON = ZoneId.of("Europe/London");

    private static ZonedDateTime london(String local) {
        return LocalDateTime.parse(local).atZone(LONDON);
    }

    @Test
    void aSingleRunIsDueFromItsStartAndThenOver() {
        Schedule once = Schedule.once(london("2026-12-01T21:00"));
        assertThat(once.due(0, london("2026-12-01T20:59").toInstant())).isEqualTo(new Due(-1, 0, 0, 0, false));
        Due due = once.due(0, london("2026-12-01T21:00").toInstant());
        assertThat(due).isEqualTo(new Due(0, 0, 0, 1, true));
        assertThat(once.due(1, london("2026-12-02T21:00").toInstant()).expired()).isTrue();
        assertThat(once.occurrence(1)).isEmpty();
    }

    @Test
    void minutesAndHoursAreElapsedTimeAcrossTheClockChange() {
        // Clocks go forward at 01:00 GMT on 29 March 2026: 00:30 GMT + 30 min is 01:00 GMT = 02:00 BST.
        Schedule s = new Schedule(london("2026-03-29T00:30"), new Repeat(RepeatUnit.MINUTES, 30, 0, null));
        assertThat(s.occurrence(1).orElseThrow()).isEqualTo(london("2026-03-29T02:00"));
        assertThat(Duration.between(s.occurrence(0).orElseThrow(), s.occurrence(1).orElseThrow()))
                .isEqualTo(Duration.ofMinutes(30));
    }

    @Test
    void daysAreCalendarTimeAndKeepTheLocalTimeAcrossTheClockChange() {
        Schedule s = new Schedule(london("2026-03-28T21:00"), new Repeat(RepeatUnit.DAYS, 1, 0, null));
        assertThat(s.occurrence(1).orElseThrow().toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-03-29T21:00"));
        assertThat(Duration.between(s.occurrence(0).orElseThrow(), s.occurrence(1).orElseThrow()))
                .isEqualTo(Duration.ofHours(23));
        // A local time the gap skips moves forward by the gap that day only.
        Schedule early = new Schedule(london("2026-03-28T01:30"), new Repeat(RepeatUnit.DAYS, 1, 0, null));
        assertThat(early.occurrence(1).orElseThrow().toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-03-29T02:30"));
        assertThat(early.occurrence(2).orElseThrow().toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-03-30T01:30"));
    }

    @Test
    void monthsCountFromTheStartSoTheDayOfMonthDoesNotDrift() {
        Schedule s = new Schedule(london("2027-01-31T06:00"), new Repeat(RepeatUnit.MONTHS, 1, 0, null));
        assertThat(s.occurrence(1).orElseThrow().toLocalDate()).hasToString("2027-02-28");
        assertThat(s.occurrence(2).orElseThrow().toLocalDate()).hasToString("2027-03-31");
        assertThat(s.occurrence(3).orElseThrow().toLocalDate()).hasToString("2027-04-30");
        Schedule weekly = new Schedule(london("2026-12-04T08:15"), new Repeat(RepeatUnit.WEEKS, 2, 0, null));
        assertThat(weekly.occurrence(3).orElseThrow()).isEqualTo(london("2027-01-15T08:15"));
    }

    @Test
    void aCountEndsTheScheduleAfterThatManyOccurrences() {
        Schedule s = new Schedule(london("2026-12-01T10:00"), new Repeat(RepeatUnit.HOURS, 2, 3, null));
        assertThat(s.occurrence(2)).contains(london("2026-12-01T14:00"));
        assertThat(s.occurrence(3)).isEmpty();
        assertThat(s.due(0, london("2026-12-01T10:00").toInstant())).isEqualTo(new Due(0, 0, 0, 1, false));
        assertThat(s.due(1, london("2026-12-01T11:59").toInstant())).isEqualTo(new Due(-1, 1, 0, 1, false));
        assertThat(s.due(1, london("2026-12-01T12:00").toInstant())).isEqualTo(new Due(1, 1, 0, 2, false));
        assertThat(s.due(2, london("2026-12-01T14:00").toInstant())).isEqualTo(new Due(2, 2, 0, 3, true));
    }

    @Test
    void anEndTimeEndsTheScheduleAndAnOccurrenceAtTheEndStillRuns() {
        Schedule s = new Schedule(london("2026-12-01T10:00"),
                new Repeat(RepeatUnit.DAYS, 1, 0, london("2026-12-03T10:00")));
        assertThat(s.occurrence(2)).contains(london("2026-12-03T10:00"));
        assertThat(s.occurrence(3)).isEmpty();
        assertThat(s.due(2, london("2026-12-03T10:00").toInstant()).expired()).isTrue();
    }

    @Test
    void missedOccurrencesAreSkippedAndOnlyTheLatestDueRuns() {
        Schedule s = new Schedule(london("2026-12-01T10:00"), new Repeat(RepeatUnit.HOURS, 1, 0, null));
        // Run at 10:00, then the agent was down until 13:30: 11:00 and 12:00 were missed, 13:00 runs.
        Due due = s.due(1, london("2026-12-01T13:30").toInstant());
        assertThat(due).isEqualTo(new Due(3, 1, 2, 4, false));
        assertThat(s.occurrence(due.next())).contains(london("2026-12-01T14:00"));
    }

    @Test
    void aLongOutageUnderAScheduleEveryMinuteIsDescribedAsOneRange() {
        Schedule s = new Schedule(london("2026-01-01T00:00"), new Repeat(RepeatUnit.MINUTES, 1, 0, null));
        Due due = s.due(1, london("2027-01-01T00:00:30").toInstant());
        long minutesInTheYear = 365L * 24 * 60;
        assertThat(due).isEqualTo(new Due(minutesInTheYear, 1, minutesInTheYear - 1, minutesInTheYear + 1, false));
    }

    @Test
    void missedOccurrencesBeyondTheCountRunTheLastOneThatExists() {
        Schedule s = new Schedule(london("2026-12-01T10:00"), new Repeat(RepeatUnit.MINUTES, 10, 5, null));
        assertThat(s.due(0, london("2026-12-02T00:00").toInstant())).isEqualTo(new Due(4, 0, 4, 5, true));
    }

    @Test
    void theFirstOccurrenceAtOrAfterAMomentIsExact() {
        Schedule s = new Schedule(london("2027-01-31T06:00"), new Repeat(RepeatUnit.MONTHS, 1, 0, null));
        assertThat(s.firstIndexAtOrAfter(london("2027-01-31T06:00").toInstant())).isZero();
        assertThat(s.firstIndexAtOrAfter(london("2027-01-31T06:01").toInstant())).isEqualTo(1);
        assertThat(s.firstIndexAtOrAfter(london("2027-02-28T06:00").toInstant())).isEqualTo(1);
        assertThat(s.firstIndexAtOrAfter(london("2027-02-28T06:01").toInstant())).isEqualTo(2);
        assertThat(s.firstIndexAtOrAfter(london("2037-03-01T00:00").toInstant())).isEqualTo(122);
    }
}
