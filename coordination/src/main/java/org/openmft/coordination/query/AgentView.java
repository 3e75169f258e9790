package org.openmft.coordination.query;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import org.openmft.xml.log.AgentStatus;

/**
 * An agent as the tools show it (reference §5.1): its last published status, how old that status
 * is, and the status to show. The status shown is the published one, except {@value #UNKNOWN} when
 * the publication is overdue: older than the agent's {@code agentStatusPublishRateMin} plus the
 * tool-side {@code agentStatusJitterTolerance} (an agent publishes at least that often while it
 * runs, so a late status means it ended without saying so, or cannot reach the coordination queue
 * manager), or without a publish time. A {@value #STOPPED} agent publishes no more, so its status
 * never goes stale. Immutable.
 *
 * @param status the last status the agent published
 * @param age how long ago it was published, by the reader's clock; negative when the agent's clock
 *     is ahead; {@code null} when the status carries no publish time
 * @param shownStatus the status to show: the published one, or {@value #UNKNOWN}
 */
public record AgentView(AgentStatus status, Duration age, String shownStatus) {

    /** Shown for an agent whose status is overdue. */
    public static final String UNKNOWN = "UNKNOWN";
    /** Published by an agent after a controlled stop; it never goes stale. */
    public static final String STOPPED = "STOPPED";
    /**
     * The publish interval assumed for a status that does not state its
     * {@code agentStatusPublishRateMin}: the property's default, in seconds.
     */
    public static final int DEFAULT_PUBLISH_RATE_MIN_SECONDS = 300;

    /** Checks that the status and the shown status are given. */
    public AgentView {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(shownStatus, "shownStatus");
    }

    /**
     * Applies the staleness rule.
     *
     * @param status the last published status
     * @param now the current time
     * @param jitterTolerance {@code agentStatusJitterTolerance}
     * @return the view
     */
    public static AgentView of(AgentStatus status, Instant now, Duration jitterTolerance) {
        Objects.requireNonNull(now, "now");
        Duration age = status.publishTime() == null ? null : Duration.between(status.publishTime(), now);
        String published = published(status);
        boolean overdue = age == null || age.compareTo(allowedAge(status, jitterTolerance)) > 0;
        return new AgentView(status, age, overdue && !STOPPED.equals(published) ? UNKNOWN : published);
    }

    /**
     * How old a status may be before it is overdue: the agent's {@code agentStatusPublishRateMin}
     * ({@value #DEFAULT_PUBLISH_RATE_MIN_SECONDS} s when the status does not say) plus the jitter
     * tolerance.
     *
     * @param status the status
     * @param jitterTolerance {@code agentStatusJitterTolerance}
     * @return the longest age at which the status is still current
     */
    public static Duration allowedAge(AgentStatus status, Duration jitterTolerance) {
        int rateMin = status.publishRateMinSeconds() > 0 ? status.publishRateMinSeconds()
                : DEFAULT_PUBLISH_RATE_MIN_SECONDS;
        return Duration.ofSeconds(rateMin).plus(Objects.requireNonNull(jitterTolerance, "jitterTolerance"));
    }

    /**
     * The agent's name.
     *
     * @return {@code agentName} of the status
     */
    public String agentName() {
        return status.agentName();
    }

    /**
     * The status the agent last published.
     *
     * @return its {@code AgentStatus}, or {@value #UNKNOWN} when it published none
     */
    public String publishedStatus() {
        return published(status);
    }

    private static String published(AgentStatus status) {
        return status.status() == null || status.status().isBlank() ? UNKNOWN : status.status();
    }

    /**
     * Whether the status shown differs from the one published because the publication is overdue.
     *
     * @return true when {@link #shownStatus} is {@value #UNKNOWN} but the agent published another
     */
    public boolean overdue() {
        return !shownStatus.equals(publishedStatus());
    }
}
