package org.openmft.xml;

import java.util.Objects;

/**
 * A new managed transfer: {@code <request version="..."><managedTransfer>...</managedTransfer></request>}
 * from IBM's FileTransfer.xsd, with its program calls ({@link TransferSet#calls()}) and its optional
 * {@code <schedule>} and {@code <trigger>}. A managed call is a {@link ManagedCallRequest}. Immutable.
 *
 * @param version the schema version read, 1.00 to 6.00
 * @param originator who asked
 * @param sourceAgent the agent that reads the files
 * @param destinationAgent the agent that writes them
 * @param reply where to send replies, or {@code null} when the requester wants none
 * @param transferSet the items and their shared settings
 * @param jobName the {@code <job><name>} shown in logs, or {@code null} (empty also means null)
 * @param schedule when to run it, or {@code null} to run it now
 * @param trigger the condition it runs on, or {@code null}
 * @param scheduleLogId the schedule this transfer is an occurrence of, or {@code null}: not part of
 *     the request document, set by the source agent for its own schedules' occurrences so that the
 *     {@code started} transfer log carries IBM's {@code <scheduleLog ID>}
 */
public record TransferRequest(
        String version,
        Originator originator,
        AgentRef sourceAgent,
        AgentRef destinationAgent,
        ReplyTo reply,
        TransferSet transferSet,
        String jobName,
        TransferSchedule schedule,
        TransferTrigger trigger,
        Long scheduleLogId) implements CommandDocument {

    /** Validates; only {@code reply} and {@code jobName} may be {@code null}. */
    public TransferRequest {
        version = Checks.version(version);
        Objects.requireNonNull(originator, "originator");
        Objects.requireNonNull(sourceAgent, "sourceAgent");
        Objects.requireNonNull(destinationAgent, "destinationAgent");
        Objects.requireNonNull(transferSet, "transferSet");
        jobName = Checks.optionalName(jobName, "job name");
    }

    /** A transfer to run now, on no condition. */
    public TransferRequest(String version, Originator originator, AgentRef sourceAgent, AgentRef destinationAgent,
            ReplyTo reply, TransferSet transferSet, String jobName) {
        this(version, originator, sourceAgent, destinationAgent, reply, transferSet, jobName, null, null);
    }

    /** A transfer as a request document gives it. */
    public TransferRequest(String version, Originator originator, AgentRef sourceAgent, AgentRef destinationAgent,
            ReplyTo reply, TransferSet transferSet, String jobName, TransferSchedule schedule, TransferTrigger trigger) {
        this(version, originator, sourceAgent, destinationAgent, reply, transferSet, jobName, schedule, trigger, null);
    }

    /** This request answering {@code newReply} (null: no reply element). */
    public TransferRequest withReply(ReplyTo newReply) {
        return new TransferRequest(version, originator, sourceAgent, destinationAgent, newReply, transferSet, jobName,
                schedule, trigger, scheduleLogId);
    }

    /** This request as an occurrence of schedule {@code id}. */
    public TransferRequest withScheduleLogId(Long id) {
        return new TransferRequest(version, originator, sourceAgent, destinationAgent, reply, transferSet, jobName,
                schedule, trigger, id);
    }

    /** This request with another schedule (null: run it when it arrives). */
    public TransferRequest withSchedule(TransferSchedule newSchedule) {
        return new TransferRequest(version, originator, sourceAgent, destinationAgent, reply, transferSet, jobName,
                newSchedule, trigger, scheduleLogId);
    }

    /** This request as asked by {@code newOriginator}. */
    public TransferRequest withOriginator(Originator newOriginator) {
        return new TransferRequest(version, newOriginator, sourceAgent, destinationAgent, reply, transferSet, jobName,
                schedule, trigger, scheduleLogId);
    }
}
