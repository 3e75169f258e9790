package org.openmft.agent;

/**
 * A listener that passes every event to another one; subclasses override the events they also
 * want to see (and call {@code super}). Thread-safe when the delegate is.
 */
public abstract class ForwardingAgentListener implements AgentListener {

    /** The listener every event goes to. */
    protected abstract AgentListener delegate();

    @Override
    public void stateChanged(String agent, AgentState state) {
        delegate().stateChanged(agent, state);
    }

    @Override
    public void requestRejected(String agent, String messageId, int resultCode, String reason) {
        delegate().requestRejected(agent, messageId, resultCode, reason);
    }

    @Override
    public void notAuthorized(String agent, org.openmft.agent.authority.AuthorityRefusal refusal) {
        delegate().notAuthorized(agent, refusal);
    }

    @Override
    public void protocolMessageRejected(String agent, String queue, String type, String transferId, String sender,
            String reason) {
        delegate().protocolMessageRejected(agent, queue, type, transferId, sender, reason);
    }

    @Override
    public void transferPlanning(String agent, String transferId) {
        delegate().transferPlanning(agent, transferId);
    }

    @Override
    public void monitorAction(String agent, org.openmft.agent.monitor.MonitorEvent event) {
        delegate().monitorAction(agent, event);
    }

    @Override
    public void scheduleAction(String agent, org.openmft.agent.scheduler.ScheduleEvent event) {
        delegate().scheduleAction(agent, event);
    }

    @Override
    public void schedulesChanged(String agent, java.util.List<org.openmft.agent.scheduler.ScheduleEntry> schedules) {
        delegate().schedulesChanged(agent, schedules);
    }

    @Override
    public void monitorListChanged(String agent, String monitorName, org.openmft.xml.MonitorDefinition definition,
            boolean started) {
        delegate().monitorListChanged(agent, monitorName, definition, started);
    }

    @Override
    public void pinged(String agent, String originatorUser) {
        delegate().pinged(agent, originatorUser);
    }

    @Override
    public void connectionLost(String agent, String qmgr, String reason) {
        delegate().connectionLost(agent, qmgr, reason);
    }

    @Override
    public void connectionRestored(String agent, String qmgr) {
        delegate().connectionRestored(agent, qmgr);
    }

    @Override
    public void transferQueued(String agent, TransferInfo transfer, int queued) {
        delegate().transferQueued(agent, transfer, queued);
    }

    @Override
    public void transferStarted(String agent, Role role, TransferInfo transfer) {
        delegate().transferStarted(agent, role, transfer);
    }

    @Override
    public void transferResumed(String agent, Role role, TransferInfo transfer, String reason) {
        delegate().transferResumed(agent, role, transfer, reason);
    }

    @Override
    public void progress(String agent, String transferId, int item, long itemBytesSent, long bytesSent) {
        delegate().progress(agent, transferId, item, itemBytesSent, bytesSent);
    }

    @Override
    public void recovering(String agent, String transferId, String reason) {
        delegate().recovering(agent, transferId, reason);
    }

    @Override
    public void recovered(String agent, String transferId) {
        delegate().recovered(agent, transferId);
    }

    @Override
    public void itemCompleted(String agent, Role role, String transferId, ItemOutcome item) {
        delegate().itemCompleted(agent, role, transferId, item);
    }

    @Override
    public void checkpointed(String agent, String transferId, long nextSeq) {
        delegate().checkpointed(agent, transferId, nextSeq);
    }

    @Override
    public void resending(String agent, String transferId, long fromSeq, String reason) {
        delegate().resending(agent, transferId, fromSeq, reason);
    }

    @Override
    public void chunkResent(String agent, String transferId, long seq, int bytes) {
        delegate().chunkResent(agent, transferId, seq, bytes);
    }

    @Override
    public void chunkWritten(String agent, String transferId, int item, int bytes) {
        delegate().chunkWritten(agent, transferId, item, bytes);
    }

    @Override
    public void windowResized(String agent, String transferId, int chunks, long roundTripMicros,
            long bytesPerSecond) {
        delegate().windowResized(agent, transferId, chunks, roundTripMicros, bytesPerSecond);
    }

    @Override
    public void callCompleted(String agent, Role role, String transferId, String phase,
            org.openmft.xml.ProgramCall call, org.openmft.agent.calls.CallResult result) {
        delegate().callCompleted(agent, role, transferId, phase, call, result);
    }

    @Override
    public void managedCallStarted(String agent, String callId, org.openmft.xml.ManagedCallRequest request) {
        delegate().managedCallStarted(agent, callId, request);
    }

    @Override
    public void managedCallEnded(String agent, String callId, org.openmft.xml.ManagedCallRequest request,
            org.openmft.agent.calls.CallResult result, int resultCode, String supplement) {
        delegate().managedCallEnded(agent, callId, request, result, resultCode, supplement);
    }

    @Override
    public void transferEnded(String agent, Role role, TransferOutcome outcome) {
        delegate().transferEnded(agent, role, outcome);
    }
}
