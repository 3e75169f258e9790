package org.openmft.xml.log;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;
import org.openmft.xml.TransferTrigger;

/**
 * One transfer log message, published on {@code SYSTEM.FTE/Log/<agent>/<transferId>} (reference
 * §5.2, IBM's TransferLog.xsd): root {@code <transaction version ID agentRole>}. Which fields are set
 * depends on the {@link #action()}:
 * <ul>
 * <li>started: agents, originator, job, {@code startTime}, {@code totalItems}, metadata;</li>
 * <li>progress: as started plus {@code index}, {@code bytesSent} and the finished {@code items};</li>
 * <li>completed and cancelled: result code, supplements, {@code bytesSent}, statistics;</li>
 * <li>malformed: result code 43 and the reason; agents and originator may be {@code null};</li>
 * <li>callStarted and callCompleted (a managed call): the agent that runs it in {@code sourceAgent}
 *     (written as IBM's {@code <agent>}), originator, job, metadata and the call, with its
 *     {@code <callResult>} and the result code once completed.</li>
 * </ul>
 * Times are kept to the millisecond, the precision the document carries. Immutable.
 *
 * @param version the schema version, {@code 6.00}
 * @param transferId the transfer id (48 hex characters), never {@code null}
 * @param agentRole {@code sourceAgent} or {@code destinationAgent}: the publisher's role
 * @param action what happened
 * @param time when it happened (the {@code <action time>})
 * @param sourceAgent the source agent, or {@code null}
 * @param destinationAgent the destination agent, or {@code null}
 * @param originator who asked, or {@code null}
 * @param jobName the job name, or {@code null}
 * @param startTime when the transfer started, or {@code null}
 * @param totalItems items in the whole transfer, or -1 when unknown
 * @param bytesSent bytes sent so far, or -1 when not stated
 * @param index position of the first of {@code items} in the transfer (progress only), or -1
 * @param items the items this progress message reports, empty for other actions
 * @param resultCode the transfer's result code, or {@code null} when the message carries no status
 * @param supplements the status supplements, possibly empty; must be empty when {@code resultCode} is {@code null}
 * @param statistics the statistics (completed only), or {@code null}
 * @param metadata the transfer's {@code metaDataSet}, possibly empty; its order is kept
 * @param calls the transfer's program calls that ran (completed and cancelled), in IBM's order; possibly empty
 * @param trigger the request's {@code <trigger>}, which a triggered transfer's {@code started} message
 *     carries, or {@code null}
 */
public record TransferLog(String version, String transferId, String agentRole, LogAction action, Instant time,
        AgentRef sourceAgent, AgentRef destinationAgent, Originator originator, String jobName, Instant startTime,
        int totalItems, long bytesSent, int index, List<LogItem> items, Integer resultCode, List<String> supplements,
        Statistics statistics, Map<String, String> metadata, List<LogCall> calls, TransferTrigger trigger) {

    /** The role a source agent publishes with. */
    public static final String SOURCE_AGENT = "sourceAgent";
    /** The role a destination agent publishes with. */
    public static final String DESTINATION_AGENT = "destinationAgent";

    /**
     * Validates, copies the collections (keeping the metadata's order) and truncates the times to
     * milliseconds.
     *
     * @throws NullPointerException if {@code version}, {@code transferId}, {@code agentRole},
     *     {@code action}, {@code time}, a collection or a collection element is {@code null}
     * @throws IllegalArgumentException if a count is below -1, or supplements are given without a result code
     */
    public TransferLog {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(transferId, "transferId");
        Objects.requireNonNull(agentRole, "agentRole");
        Objects.requireNonNull(action, "action");
        time = Objects.requireNonNull(time, "time").truncatedTo(ChronoUnit.MILLIS);
        startTime = startTime == null ? null : startTime.truncatedTo(ChronoUnit.MILLIS);
        Statistics.atLeastMinusOne(totalItems, "totalItems");
        Statistics.atLeastMinusOne(bytesSent, "bytesSent");
        Statistics.atLeastMinusOne(index, "index");
        items = List.copyOf(items);
        supplements = List.copyOf(supplements);
        if (resultCode == null && !supplements.isEmpty()) {
            throw new IllegalArgumentException("supplements need a resultCode: they are written inside <status>");
        }
        Map<String, String> copy = new LinkedHashMap<>();
        metadata.forEach((key, value) -> copy.put(Objects.requireNonNull(key, "metadata key"),
                Objects.requireNonNull(value, "metadata value")));
        metadata = Collections.unmodifiableMap(copy);
        calls = calls == null ? List.of() : List.copyOf(calls);
    }

    /** A log message without a trigger. */
    public TransferLog(String version, String transferId, String agentRole, LogAction action, Instant time,
            AgentRef sourceAgent, AgentRef destinationAgent, Originator originator, String jobName, Instant startTime,
            int totalItems, long bytesSent, int index, List<LogItem> items, Integer resultCode, List<String> supplements,
            Statistics statistics, Map<String, String> metadata, List<LogCall> calls) {
        this(version, transferId, agentRole, action, time, sourceAgent, destinationAgent, originator, jobName,
                startTime, totalItems, bytesSent, index, items, resultCode, supplements, statistics, metadata, calls,
                null);
    }

    /** A log message without program calls or trigger. */
    public TransferLog(String version, String transferId, String agentRole, LogAction action, Instant time,
            AgentRef sourceAgent, AgentRef destinationAgent, Originator originator, String jobName, Instant startTime,
            int totalItems, long bytesSent, int index, List<LogItem> items, Integer resultCode, List<String> supplements,
            Statistics statistics, Map<String, String> metadata) {
        this(version, transferId, agentRole, action, time, sourceAgent, destinationAgent, originator, jobName,
                startTime, totalItems, bytesSent, index, items, resultCode, supplements, statistics, metadata, List.of());
    }
}
