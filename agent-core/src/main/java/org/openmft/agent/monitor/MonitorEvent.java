package org.openmft.agent.monitor;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openmft.xml.Originator;

/**
 * Something a resource monitor did, as IBM's monitor log ({@code <monitorLog>}, published on
 * {@code SYSTEM.FTE/Log/<agent>/Monitors/<monitor>/<referenceId>}) reports it. A poll that submits
 * several tasks reports one {@code triggerSatisfied} event per task. Immutable.
 *
 * @param monitorName the monitor
 * @param action IBM's action: {@code create}, {@code start}, {@code stop}, {@code delete},
 *     {@code triggerSatisfied}, {@code triggerFail}
 * @param time when
 * @param resultCode 0, or the MFT result code of a failure
 * @param supplements what happened, for people (the files that triggered, why a trigger failed)
 * @param originator who created the monitor (or asked for the action), or {@code null}
 * @param referenceId the create request's id (48 hex), IBM's {@code referenceId}, or {@code null}
 * @param transferIds for a satisfied trigger, the request id of the one task it submitted (for a
 *     transfer, its transfer id; IBM's {@code <references><taskRequest>}); empty otherwise
 * @param metadata for a satisfied trigger, the variables of the first trigger of its task's batch
 *     (IBM's {@code <originalMetaData>}: {@code FILENAME}, {@code FILEPATH}, {@code AGENTNAME} ...),
 *     keys in upper case; empty otherwise
 */
public record MonitorEvent(String monitorName, String action, Instant time, int resultCode, List<String> supplements,
        Originator originator, String referenceId, List<String> transferIds, Map<String, String> metadata) {
    /** Copies the lists and the metadata, keeping its order. */
    public MonitorEvent {
        supplements = List.copyOf(supplements);
        transferIds = List.copyOf(transferIds);
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /** An event without metadata. */
    public MonitorEvent(String monitorName, String action, Instant time, int resultCode, List<String> supplements,
            Originator originator, String referenceId, List<String> transferIds) {
        this(monitorName, action, time, resultCode, supplements, originator, referenceId, transferIds, Map.of());
    }
}
