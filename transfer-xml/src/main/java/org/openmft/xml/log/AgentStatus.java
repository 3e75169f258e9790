package org.openmft.xml.log;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An agent's status, published retained on {@code SYSTEM.FTE/Agents/<agent>} as a Java
 * {@code Properties} XML document (reference §5.1). Numbers are -1 and other values {@code null}
 * when unknown; times are kept to the millisecond. The document cannot carry characters outside the
 * Basic Multilingual Plane in a form {@code Properties.loadFromXML} reads, so
 * {@link PublicationWriter} replaces them. Immutable.
 *
 * @param agentName the agent ({@code agentName}); never {@code null}
 * @param description free text ({@code agentDescription}), or {@code null} (empty also means null)
 * @param version the product version ({@code agentVersion})
 * @param agentType {@code STANDARD} ({@code agentType})
 * @param osName the operating system ({@code agentOsName})
 * @param timeZone the agent's time zone id ({@code agentTimeZone})
 * @param hostName the host the agent runs on ({@code agentDeclaredHostName})
 * @param queueManager the agent queue manager ({@code queueManager})
 * @param queueManagerHost its host, or {@code null} in bindings mode ({@code queueManagerHost}; empty also means null)
 * @param queueManagerPort its port, or -1 in bindings mode ({@code queueManagerPort})
 * @param queueManagerChannel its channel, or {@code null} in bindings mode ({@code queueManagerChannel};
 *     empty also means null)
 * @param status READY, ACTIVE, STARTING, STOPPED ... ({@code AgentStatus})
 * @param publishTime when this status was published ({@code AgentStatusPublishTime})
 * @param startTime when the agent started ({@code AgentStartTime})
 * @param publishRateMinSeconds the longest gap between two publications ({@code agentStatusPublishRateMin})
 * @param maxSourceTransfers {@code maxSourceTransfers}
 * @param maxDestinationTransfers {@code maxDestinationTransfers}
 * @param maxQueuedTransfers {@code maxQueuedTransfers}
 * @param queuedTransfers transfers waiting at this agent as source ({@code QueuedTransfers})
 * @param sourceTransferStates transfer id to state, e.g. {@code RunningTransfer} ({@code SourceTransferStates},
 *     written one {@code id=State} a line); ids and states may not hold line breaks or surrounding
 *     whitespace, ids not {@code =}
 * @param destinationTransferStates transfer id to state ({@code DestinationTransferStates}), as above
 */
public record AgentStatus(String agentName, String description, String version, String agentType, String osName,
        String timeZone, String hostName, String queueManager, String queueManagerHost, int queueManagerPort,
        String queueManagerChannel, String status, Instant publishTime, Instant startTime, int publishRateMinSeconds,
        int maxSourceTransfers, int maxDestinationTransfers, int maxQueuedTransfers, int queuedTransfers,
        Map<String, String> sourceTransferStates, Map<String, String> destinationTransferStates) {

    /**
     * Validates, copies the maps keeping their order, turns empty optional strings into {@code null}
     * and truncates the times to milliseconds.
     *
     * @throws NullPointerException if {@code agentName} or a map is {@code null}
     * @throws IllegalArgumentException if a number is below -1, the port above 65535, or a transfer
     *     state cannot be written as an {@code id=State} line
     */
    public AgentStatus {
        Objects.requireNonNull(agentName, "agentName");
        description = emptyToNull(description);
        queueManagerHost = emptyToNull(queueManagerHost);
        queueManagerChannel = emptyToNull(queueManagerChannel);
        if (queueManagerPort < -1 || queueManagerPort > 65535) {
            throw new IllegalArgumentException("queueManagerPort must be -1 (bindings) or 0-65535, not "
                    + queueManagerPort);
        }
        publishTime = publishTime == null ? null : publishTime.truncatedTo(ChronoUnit.MILLIS);
        startTime = startTime == null ? null : startTime.truncatedTo(ChronoUnit.MILLIS);
        Statistics.atLeastMinusOne(publishRateMinSeconds, "publishRateMinSeconds");
        Statistics.atLeastMinusOne(maxSourceTransfers, "maxSourceTransfers");
        Statistics.atLeastMinusOne(maxDestinationTransfers, "maxDestinationTransfers");
        Statistics.atLeastMinusOne(maxQueuedTransfers, "maxQueuedTransfers");
        Statistics.atLeastMinusOne(queuedTransfers, "queuedTransfers");
        sourceTransferStates = states(sourceTransferStates, "sourceTransferStates");
        destinationTransferStates = states(destinationTransferStates, "destinationTransferStates");
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static Map<String, String> states(Map<String, String> states, String what) {
        Map<String, String> copy = new LinkedHashMap<>();
        Objects.requireNonNull(states, what).forEach((id, state) -> {
            Objects.requireNonNull(id, what + " id");
            Objects.requireNonNull(state, what + " state");
            if (id.isEmpty() || id.indexOf('=') >= 0 || !fitsOnALine(id)) {
                throw new IllegalArgumentException(what + ": transfer id \"" + id
                        + "\" must be non-empty, without '=', line breaks or surrounding whitespace");
            }
            if (!fitsOnALine(state)) {
                throw new IllegalArgumentException(what + ": state \"" + state + "\" of " + id
                        + " must be without line breaks or surrounding whitespace");
            }
            copy.put(id, state);
        });
        return Collections.unmodifiableMap(copy);
    }

    private static boolean fitsOnALine(String value) {
        return value.equals(value.strip()) && value.indexOf('\n') < 0 && value.indexOf('\r') < 0;
    }
}
