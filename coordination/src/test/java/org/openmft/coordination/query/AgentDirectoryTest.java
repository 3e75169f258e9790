package org.openmft.coordination.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.log.AgentStatus;

/** The staleness rule and the name patterns, against a fixed clock and a fixed list of statuses. */
class AgentDirectoryTest {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final Duration JITTER = Duration.ofMillis(3000);

    static AgentStatus status(String name, String state, Instant published, int rateMinSeconds) {
        return new AgentStatus(name, null, "0.1.0", "STANDARD", "Linux", "UTC", "host", "QM1", null, -1, null, state,
                published, NOW.minusSeconds(3600), rateMinSeconds, 25, 25, 1000, 0, Map.of(), Map.of());
    }

    static AgentDirectory directory(AgentStatus... statuses) {
        return new AgentDirectory(() -> new ArrayList<>(List.of(statuses)), JITTER, CLOCK);
    }

    @Test
    void aStatusWithinRateMinPlusJitterIsShownAsPublished() throws Exception {
        // 300 s + 3 s allowed: exactly at the limit is still current.
        AgentView v = directory(status("A", "READY", NOW.minusSeconds(303), 300)).agent("A").orElseThrow();
        assertThat(v.shownStatus()).isEqualTo("READY");
        assertThat(v.age()).isEqualTo(Duration.ofSeconds(303));
        assertThat(v.overdue()).isFalse();
    }

    @Test
    void anOverdueStatusIsShownAsUnknownButKeepsWhatWasPublished() throws Exception {
        AgentView v = directory(status("A", "ACTIVE", NOW.minusMillis(303_001), 300)).agent("A").orElseThrow();
        assertThat(v.shownStatus()).isEqualTo(AgentView.UNKNOWN);
        assertThat(v.publishedStatus()).isEqualTo("ACTIVE");
        assertThat(v.overdue()).isTrue();
        assertThat(v.age()).isEqualTo(Duration.ofMillis(303_001));
    }

    @Test
    void theAgentsOwnRateMinAndTheConfiguredJitterDecide() {
        AgentStatus fast = status("A", "READY", NOW.minusSeconds(10), 5);
        assertThat(AgentView.of(fast, NOW, Duration.ofSeconds(4)).shownStatus()).isEqualTo(AgentView.UNKNOWN);
        assertThat(AgentView.of(fast, NOW, Duration.ofSeconds(5)).shownStatus()).isEqualTo("READY");
        // No rate in the status: IBM's default of 300 s.
        AgentStatus noRate = status("A", "READY", NOW.minusSeconds(302), -1);
        assertThat(AgentView.allowedAge(noRate, JITTER)).isEqualTo(Duration.ofSeconds(303));
        assertThat(AgentView.of(noRate, NOW, JITTER).shownStatus()).isEqualTo("READY");
    }

    @Test
    void aStoppedAgentNeverGoesStale() throws Exception {
        AgentView v = directory(status("A", "STOPPED", NOW.minus(Duration.ofDays(30)), 300)).agent("a")
                .orElseThrow();
        assertThat(v.shownStatus()).isEqualTo("STOPPED");
        assertThat(v.overdue()).isFalse();
        assertThat(v.age()).isEqualTo(Duration.ofDays(30));
    }

    @Test
    void withoutAPublishTimeOrStatusTheAgentIsUnknown() {
        AgentView noTime = AgentView.of(status("A", "READY", null, 300), NOW, JITTER);
        assertThat(noTime.age()).isNull();
        assertThat(noTime.shownStatus()).isEqualTo(AgentView.UNKNOWN);
        AgentView noStatus = AgentView.of(status("A", null, NOW, 300), NOW, JITTER);
        assertThat(noStatus.shownStatus()).isEqualTo(AgentView.UNKNOWN);
        assertThat(noStatus.overdue()).isFalse();
    }

    @Test
    void anAgentClockAheadOfOursGivesANegativeAgeThatIsNotStale() {
        AgentView v = AgentView.of(status("A", "READY", NOW.plusSeconds(20), 300), NOW, JITTER);
        assertThat(v.age()).isEqualTo(Duration.ofSeconds(-20));
        assertThat(v.shownStatus()).isEqualTo("READY");
    }

    @Test
    void agentsAreSortedByNameAndFilteredByCaseInsensitivePatterns() throws Exception {
        AgentDirectory d = directory(status("PAY2", "READY", NOW, 300), status("AUDIT", "READY", NOW, 300),
                status("PAY1", "READY", NOW, 300), status("PAYROLL.X", "READY", NOW, 300));
        assertThat(d.agents(null)).extracting(AgentView::agentName)
                .containsExactly("AUDIT", "PAY1", "PAY2", "PAYROLL.X");
        assertThat(d.agents("pay*")).extracting(AgentView::agentName).containsExactly("PAY1", "PAY2", "PAYROLL.X");
        assertThat(d.agents("PAY?")).extracting(AgentView::agentName).containsExactly("PAY1", "PAY2");
        assertThat(d.agents("*.x")).extracting(AgentView::agentName).containsExactly("PAYROLL.X");
        assertThat(d.agents("pay1")).extracting(AgentView::agentName).containsExactly("PAY1");
        assertThat(d.agents("PAY")).isEmpty();
        assertThat(d.agents("  ")).hasSize(4);
        assertThat(d.agent("nobody")).isEmpty();
    }

    @Test
    void patternCharactersOtherThanWildcardsAreLiteral() {
        AgentNamePattern p = AgentNamePattern.of("A.B*");
        assertThat(p.matches("A.B1")).isTrue();
        assertThat(p.matches("AXB1")).as("'.' is not a regex wildcard").isFalse();
        assertThat(AgentNamePattern.of("[A]*").matches("[a]1")).isTrue();
        assertThat(AgentNamePattern.of("*").matches("ANY")).isTrue();
        assertThat(AgentNamePattern.of("A*B").matches("AB")).isTrue();
        assertThat(AgentNamePattern.of("A*B").matches("ABC")).isFalse();
        assertThat(AgentNamePattern.ALL.matches(null)).isFalse();
    }

    @Test
    void theTimeIsTakenFromTheClockOnEachReading() throws Exception {
        Instant[] now = {NOW};
        Clock moving = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        };
        AgentDirectory d = new AgentDirectory(() -> List.of(status("A", "READY", NOW, 60)), JITTER, moving);
        assertThat(d.agent("A").orElseThrow().shownStatus()).isEqualTo("READY");
        now[0] = NOW.plusSeconds(64);
        assertThat(d.agent("A").orElseThrow().shownStatus()).isEqualTo(AgentView.UNKNOWN);
    }

    @Test
    void aQueueManagerFailureReachesTheCaller() {
        AgentDirectory d = new AgentDirectory(() -> {
            throw new QueueManagerException("cannot connect to queue manager QMC", QueueManagerException.UNAVAILABLE);
        }, JITTER, CLOCK);
        assertThatThrownBy(() -> d.agents("*")).isInstanceOf(QueueManagerException.class).hasMessageContaining("QMC");
    }
}
