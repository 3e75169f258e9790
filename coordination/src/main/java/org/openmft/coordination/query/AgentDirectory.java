package org.openmft.coordination.query;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.openmft.agent.config.CoordinationConfig;
import org.openmft.agent.messaging.QueueManagerConnector;
import org.openmft.agent.qmgr.QueueManagerException;
import org.openmft.xml.log.AgentStatus;

/**
 * The agents known to a coordination queue manager, from the status each one publishes retained
 * on {@code SYSTEM.FTE/Agents/<agent>} (reference §5.1), as fteListAgents and fteShowAgentDetails
 * show them: sorted by name, each with the age of its status and the status to show
 * ({@link AgentView#of}: {@value AgentView#UNKNOWN} when overdue).
 *
 * <p>Every call reads the statuses afresh through a short-lived non-durable subscription, which
 * takes about {@link #QUIET} after the last retained publication arrives, or {@link #FIRST_WAIT}
 * when there is none. "Now" is the injected clock's, so a clock skew between the agents' hosts and
 * this one adds to or takes from the ages (IBM's tools ask the queue manager for its time; the JMS
 * timestamp Artemis stamps is the sender's clock, which would not help).
 *
 * <p>Thread-safe: instances hold no connection between calls.
 */
public final class AgentDirectory {
    /** How long to wait for the first retained status before concluding there is none. */
    public static final Duration FIRST_WAIT = Duration.ofSeconds(2);
    /** The silence after which all retained statuses have arrived. */
    public static final Duration QUIET = Duration.ofMillis(300);
    /** The longest one reading may take, however many agents keep publishing. */
    public static final Duration READ_LIMIT = Duration.ofSeconds(30);

    /** Where the statuses come from; a fixed list in tests. */
    @FunctionalInterface
    interface StatusSource {
        /** The newest status of each agent, in any order. */
        List<AgentStatus> read() throws QueueManagerException;
    }

    private final StatusSource source;
    private final Duration jitterTolerance;
    private final Clock clock;

    AgentDirectory(StatusSource source, Duration jitterTolerance, Clock clock) {
        this.source = Objects.requireNonNull(source, "source");
        this.jitterTolerance = Objects.requireNonNull(jitterTolerance, "jitterTolerance");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A directory reading from a coordination queue manager.
     *
     * @param coordination a connector to the coordination queue manager (its provider decides how
     *     publications are subscribed to)
     * @param jitterTolerance {@code agentStatusJitterTolerance}
     * @param clock the time ages are measured against
     * @return the directory
     */
    public static AgentDirectory of(QueueManagerConnector coordination, Duration jitterTolerance, Clock clock) {
        return new AgentDirectory(new RetainedStatusReader(coordination, FIRST_WAIT, QUIET, READ_LIMIT),
                jitterTolerance, clock);
    }

    /**
     * A directory reading from the coordination queue manager of a {@code coordination.properties},
     * with its {@code agentStatusJitterTolerance}, as a command connects (a bindings Artemis queue
     * manager of this host is reached through its loopback listener).
     *
     * @param config the coordination configuration
     * @param qmgrsDirectory where this host's embedded queue managers are defined
     * @param clock the time ages are measured against
     * @return the directory
     * @throws QueueManagerException (exit code 75) when a bindings coordination queue manager is not
     *     defined on this host
     */
    public static AgentDirectory forCoordination(CoordinationConfig config, Path qmgrsDirectory, Clock clock)
            throws QueueManagerException {
        return of(QueueManagerConnector.forCommand(config.endpoint(), qmgrsDirectory, null),
                config.agentStatusJitterTolerance(), clock);
    }

    /**
     * The agents whose names match a pattern.
     *
     * @param pattern an fteListAgents pattern ({@code *}, {@code ?}), {@code null} or blank for all
     * @return the agents sorted by name; empty when none matches
     * @throws QueueManagerException (exit code 75) when the coordination queue manager cannot be
     *     reached or read
     */
    public List<AgentView> agents(String pattern) throws QueueManagerException {
        AgentNamePattern names = AgentNamePattern.of(pattern);
        List<AgentStatus> statuses = source.read();
        Instant now = clock.instant();
        return statuses.stream()
                .filter(s -> names.matches(s.agentName()))
                .map(s -> AgentView.of(s, now, jitterTolerance))
                .sorted(Comparator.comparing(AgentView::agentName, String.CASE_INSENSITIVE_ORDER)
                        .thenComparing(AgentView::agentName))
                .toList();
    }

    /**
     * One agent.
     *
     * @param agentName the agent's name, any case
     * @return the agent, or empty when it has no status on the coordination queue manager
     * @throws QueueManagerException (exit code 75) when the coordination queue manager cannot be
     *     reached or read
     */
    public Optional<AgentView> agent(String agentName) throws QueueManagerException {
        Objects.requireNonNull(agentName, "agentName");
        List<AgentStatus> statuses = source.read();
        Instant now = clock.instant();
        return statuses.stream()
                .filter(s -> s.agentName().equalsIgnoreCase(agentName.strip()))
                .findFirst()
                .map(s -> AgentView.of(s, now, jitterTolerance));
    }

    /**
     * The jitter tolerance this directory applies.
     *
     * @return {@code agentStatusJitterTolerance}
     */
    public Duration jitterTolerance() {
        return jitterTolerance;
    }
}
