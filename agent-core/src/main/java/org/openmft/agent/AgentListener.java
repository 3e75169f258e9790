package org.openmft.agent;

/**
 * Receives what an agent does, as typed events. Coordination publishes them; tests assert on them;
 * logs are for people. Every method has a no-op default so a listener implements only what it
 * needs. Methods are called on agent threads and must return quickly and not throw.
 */
public interface AgentListener {
    /** A listener that ignores everything. */
    AgentListener NONE = new AgentListener() {
    };

    /** The agent moved to another state. */
    default void stateChanged(String agent, AgentState state) {
    }

    /**
     * A command message was refused: unparseable, hostile, for another agent, or otherwise invalid.
     *
     * @param messageId  the JMS message id of the refused message
     * @param resultCode the MFT result code given (43 malformed, 4 wrong agent, ...)
     * @param reason     what was wrong, naming the element or value
     */
    default void requestRejected(String agent, String messageId, int resultCode, String reason) {
    }

    /**
     * A request was refused because its user lacks an authority ({@code authorityChecking=true},
     * result 53); published as IBM's NotAuthorized log message.
     */
    default void notAuthorized(String agent, org.openmft.agent.authority.AuthorityRefusal refusal) {
    }

    /**
     * An agent-to-agent message was dropped before it changed anything: not from the agent its
     * transfer belongs to (a wrong or missing tag, another user), an invalid transfer id, a damaged
     * chunk. Logged and counted by the agent too.
     *
     * @param queue      the queue it came from
     * @param type       its protocol type, as sent (may be anything)
     * @param transferId its transfer id, as sent (may be anything)
     * @param sender     the user the queue manager validated for it, or null
     * @param reason     why it was dropped
     */
    default void protocolMessageRejected(String agent, String queue, String type, String transferId, String sender,
            String reason) {
    }

    /**
     * An accepted request is being planned (its wildcards and directories expanded), on the agent's
     * planner thread, not the command thread; {@link #transferQueued} or {@link #transferEnded}
     * follows.
     */
    default void transferPlanning(String agent, String transferId) {
    }

    /** A ping was answered. */
    /**
     * A resource monitor was created, started, stopped or deleted, or its trigger was satisfied or
     * failed: what IBM publishes as a monitor log.
     */
    default void monitorAction(String agent, org.openmft.agent.monitor.MonitorEvent event) {
    }

    /**
     * A schedule was submitted, deleted, expired, or an occurrence skipped: what IBM publishes as a
     * schedule log.
     */
    default void scheduleAction(String agent, org.openmft.agent.scheduler.ScheduleEvent event) {
    }

    /** The agent's schedules changed: what IBM publishes, retained, as the ScheduleList. */
    default void schedulesChanged(String agent, java.util.List<org.openmft.agent.scheduler.ScheduleEntry> schedules) {
    }

    /**
     * A resource monitor's listing changed: it was created, replaced, started or stopped, or the
     * agent started with it; or it was deleted ({@code definition} null). What IBM keeps as a
     * retained publication on {@code SYSTEM.FTE/monitors/<agent>/<monitor>} for fteListMonitors.
     *
     * @param monitorName the monitor
     * @param definition the monitor, or {@code null} when it was deleted
     * @param started whether it polls
     */
    default void monitorListChanged(String agent, String monitorName, org.openmft.xml.MonitorDefinition definition,
            boolean started) {
    }

    default void pinged(String agent, String originatorUser) {
    }

    /**
     * The connection to the queue manager was lost; the agent is reconnecting.
     *
     * @param reason the provider's description, with its reason code
     */
    default void connectionLost(String agent, String qmgr, String reason) {
    }

    /** The connection to the queue manager is back. */
    default void connectionRestored(String agent, String qmgr) {
    }

    /** Which side of a transfer an event is about. */
    enum Role {
        /** The agent reading the files. */
        SOURCE,
        /** The agent writing them. */
        DESTINATION
    }

    /**
     * A transfer request was accepted and queued at the source.
     *
     * @param transfer what the request asked for and the files planned
     * @param queued   how many transfers now wait at this agent
     */
    default void transferQueued(String agent, TransferInfo transfer, int queued) {
    }

    /**
     * A transfer started moving data (source) or was accepted (destination).
     *
     * @param transfer the transfer; at a destination without originator and planned files
     */
    default void transferStarted(String agent, Role role, TransferInfo transfer) {
    }

    /**
     * A transfer the agent was running when it stopped or lost its queue manager was taken back at
     * its next start, and is recovering: it resynchronises with its peer and continues from the
     * last checkpoint. Nothing was published as started again. By default: {@link #transferStarted}
     * then {@link #recovering}.
     */
    default void transferResumed(String agent, Role role, TransferInfo transfer, String reason) {
        transferStarted(agent, role, transfer);
        recovering(agent, transfer.transferId(), reason);
    }

    /**
     * Data moved: the destination acknowledged more chunks. Called often (every window); listeners
     * throttle.
     *
     * @param item          the index of the item being sent
     * @param itemBytesSent bytes of that item sent so far
     * @param bytesSent     bytes of the whole transfer sent so far
     */
    default void progress(String agent, String transferId, int item, long itemBytesSent, long bytesSent) {
    }

    /**
     * The transfer went into recovery: the destination stopped answering. It resumes by itself
     * ({@link #recovered}) or fails with 69 when the recovery timeout passes.
     */
    default void recovering(String agent, String transferId, String reason) {
    }

    /** A recovering transfer is moving again. */
    default void recovered(String agent, String transferId) {
    }

    /** An item finished, successfully or not. */
    default void itemCompleted(String agent, Role role, String transferId, ItemOutcome item) {
    }

    /**
     * The destination made the data durable and recorded a checkpoint.
     *
     * @param nextSeq the sequence number a resumed transfer continues from
     */
    default void checkpointed(String agent, String transferId, long nextSeq) {
    }

    /**
     * Chunks are being resent from {@code fromSeq}: after a lost acknowledgement, a gap, or a
     * resynchronisation.
     */
    default void resending(String agent, String transferId, long fromSeq, String reason) {
    }

    /**
     * A chunk went to the destination again: its number was sent before in this run of the
     * transfer (after a gap, a lost acknowledgement or a resynchronisation). Called on the source
     * transfer's thread for each such chunk; must be cheap.
     *
     * @param seq   the chunk's number
     * @param bytes its data bytes
     */
    default void chunkResent(String agent, String transferId, long seq, int bytes) {
    }

    /**
     * Data of an item was written at the destination (a chunk, in order, once). Called on the
     * destination's dispatcher thread for each chunk; must be cheap.
     *
     * @param item  the item's index
     * @param bytes the chunk's data bytes
     */
    default void chunkWritten(String agent, String transferId, int item, int bytes) {
    }

    /**
     * The source's flow-control window changed size ({@code openmft.adaptiveWindow}): it follows
     * the bandwidth-delay product of the path to the destination, never below the fixed window.
     * Called when it changes by a quarter or more, or comes back to the fixed window.
     *
     * @param chunks          chunks that may be unacknowledged now
     * @param roundTripMicros the path's delay as measured (its smallest recent round trip)
     * @param bytesPerSecond  the smoothed rate the destination acknowledges
     */
    default void windowResized(String agent, String transferId, int chunks, long roundTripMicros,
            long bytesPerSecond) {
    }

    /**
     * A program call of a transfer ended (or was refused). The source agent hears of its own calls
     * and of the destination's (from their CALL_RESULT); the destination of its own.
     *
     * @param role    the agent's role in the transfer
     * @param phase   the call's element name: {@code preSourceCall}, {@code postSourceCall},
     *                {@code preDestinationCall} or {@code postDestinationCall}
     * @param call    what was to run
     * @param result  what came of it
     */
    default void callCompleted(String agent, Role role, String transferId, String phase,
            org.openmft.xml.ProgramCall call, org.openmft.agent.calls.CallResult result) {
    }

    /**
     * A managed call ({@code <managedCall>}) starts running on this agent.
     *
     * @param callId  its id (the request's, as a transfer's: 48 hex characters)
     * @param request what it runs and who asked
     */
    default void managedCallStarted(String agent, String callId, org.openmft.xml.ManagedCallRequest request) {
    }

    /**
     * A managed call ended.
     *
     * @param result     how its program ran
     * @param resultCode the request's result: 0 when the call succeeded, else 40
     * @param supplement what to say about it, or null
     */
    default void managedCallEnded(String agent, String callId, org.openmft.xml.ManagedCallRequest request,
            org.openmft.agent.calls.CallResult result, int resultCode, String supplement) {
    }

    /** A transfer ended: completed, failed, or cancelled. */
    default void transferEnded(String agent, Role role, TransferOutcome outcome) {
    }
}
