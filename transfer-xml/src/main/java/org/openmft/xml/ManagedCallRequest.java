package org.openmft.xml;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A managed call: {@code <request version="..."><managedCall>...</managedCall></request>} from IBM's
 * FileTransfer.xsd, which asks one agent to run a program and move no data. Its shape:
 * <pre>{@code
 * <managedCall>
 *   <originator><hostName>...</hostName><userID>...</userID></originator>
 *   <agent agent="AGENT" QMgr="QM"/>
 *   <reply QMGR="QM">QUEUE</reply>                     (optional)
 *   <transferSet priority="0">                          (priority optional)
 *     <metaDataSet><metaData key="k">v</metaData></metaDataSet>   (optional)
 *     <call><command name="..." successRC="0"><argument>...</argument></command></call>
 *   </transferSet>
 *   <job><name>...</name></job>                          (optional)
 * </managedCall>
 * }</pre>
 * The agent runs the call as it runs a transfer's calls (within its {@code commandPath}, with the
 * call's retries and success codes) and logs it as {@code callStarted} and {@code callCompleted}.
 * Immutable.
 *
 * @param version    the schema version read, 1.00 to 6.00
 * @param originator who asked
 * @param agent      the agent that runs the call
 * @param reply      where to send replies, or {@code null}
 * @param priority   0 to {@value TransferSet#MAX_PRIORITY}, as a transfer's
 * @param metadata   the {@code <metaDataSet>} entries in order (empty when none)
 * @param call       what to run
 * @param jobName    the {@code <job><name>}, or {@code null}
 */
public record ManagedCallRequest(String version, Originator originator, AgentRef agent, ReplyTo reply, int priority,
        Map<String, String> metadata, ProgramCall call, String jobName) implements CommandDocument {

    /** Validates; only {@code reply} and {@code jobName} may be {@code null}. */
    public ManagedCallRequest {
        version = Checks.version(version);
        Objects.requireNonNull(originator, "originator");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(call, "call");
        if (priority < 0 || priority > TransferSet.MAX_PRIORITY) {
            throw new IllegalArgumentException("priority " + priority + " is out of range 0-" + TransferSet.MAX_PRIORITY);
        }
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata == null ? Map.of() : metadata));
        jobName = Checks.optionalName(jobName, "job name");
    }
}
