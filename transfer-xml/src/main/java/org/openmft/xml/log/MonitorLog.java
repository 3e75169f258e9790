package org.openmft.xml.log;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.openmft.xml.AgentRef;
import org.openmft.xml.Originator;

/**
 * IBM's monitor log message (MonitorLog.xsd), published on
 * {@code SYSTEM.FTE/Log/<agent>/Monitors/<monitor>/<referenceId>} when a resource monitor is
 * created, started, stopped or deleted, or its trigger is satisfied or fails: root
 * {@code <monitorLog version monitorName referenceId>} with {@code <originator>},
 * {@code <references><createRequest>} (and, for a satisfied trigger, {@code <taskRequest>}: the id
 * of the task request it submitted), {@code <action time>}, {@code <monitorAgent agent QMgr>}
 * and {@code <status resultCode>} with supplements, and for a satisfied trigger the
 * {@code <monitorMetaData>}: the {@code <originalMetaData>} the monitor substituted into its task
 * and the {@code <updatedMetaData>} monitor exits left, each of {@code <metaData key="K">V</metaData>}.
 * A trigger that submits several tasks (a batch size smaller than the files that triggered) logs
 * once per task, each log with that task's request id and metadata. Immutable.
 *
 * @param version the document version
 * @param monitorName the monitor
 * @param referenceId the create request's id (48 hex), or {@code null}
 * @param originator who created the monitor, or {@code null}
 * @param action {@code create}, {@code start}, {@code stop}, {@code delete}, {@code triggerSatisfied},
 *     {@code triggerFail}
 * @param time when
 * @param agent the monitoring agent
 * @param resultCode 0 or the failure's result code
 * @param supplements what happened, for people
 * @param originalMetadata the {@code <originalMetaData>} items in order, possibly empty
 * @param updatedMetadata the {@code <updatedMetaData>} items in order, possibly empty
 * @param taskRequestId the request id (48 hex) of the task a satisfied trigger submitted (its
 *     {@code <references><taskRequest>}; for a transfer, its transfer id), or {@code null}
 */
public record MonitorLog(String version, String monitorName, String referenceId, Originator originator, String action,
        Instant time, AgentRef agent, int resultCode, List<String> supplements, Map<String, String> originalMetadata,
        Map<String, String> updatedMetadata, String taskRequestId) {
    /** Validates, and copies the lists and maps (keeping the maps' order). */
    public MonitorLog {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(monitorName, "monitorName");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(agent, "agent");
        supplements = List.copyOf(supplements);
        originalMetadata = ordered(originalMetadata);
        updatedMetadata = ordered(updatedMetadata);
    }

    /** A monitor log without metadata. */
    public MonitorLog(String version, String monitorName, String referenceId, Originator originator, String action,
            Instant time, AgentRef agent, int resultCode, List<String> supplements) {
        this(version, monitorName, referenceId, originator, action, time, agent, resultCode, supplements, Map.of(),
                Map.of());
    }

    /** A monitor log without a task request. */
    public MonitorLog(String version, String monitorName, String referenceId, Originator originator, String action,
            Instant time, AgentRef agent, int resultCode, List<String> supplements, Map<String, String> originalMetadata,
            Map<String, String> updatedMetadata) {
        this(version, monitorName, referenceId, originator, action, time, agent, resultCode, supplements,
                originalMetadata, updatedMetadata, null);
    }

    private static Map<String, String> ordered(Map<String, String> items) {
        Map<String, String> copy = new LinkedHashMap<>();
        Objects.requireNonNull(items, "metadata").forEach((key, value) -> copy.put(
                Objects.requireNonNull(key, "metadata key"), Objects.requireNonNull(value, "metadata value")));
        return Collections.unmodifiableMap(copy);
    }
}
