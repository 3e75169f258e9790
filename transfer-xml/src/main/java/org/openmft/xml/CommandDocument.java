package org.openmft.xml;

/**
 * A document that can arrive on an agent's command queue ({@code SYSTEM.FTE.COMMAND.<agent>}):
 * a transfer request, a managed call, a cancel, a ping, a stop, or a resource monitor's create, delete, start or
 * stop (Monitor.xsd). Read them with {@link RequestParser}, write
 * them with {@link DocumentWriter}. All implementations are immutable records, safe to share
 * between threads.
 */
public sealed interface CommandDocument permits TransferRequest, CancelRequest, PingAgentRequest, StopAgentRequest,
        MonitorDefinition, DeleteMonitorRequest, MonitorControlRequest, ClearMonitorHistoryRequest,
        DeleteScheduledTransferRequest, ManagedCallRequest {

    /**
     * The schema version the document was read with, such as {@code "6.00"}; always between
     * 1.00 and 6.00. {@link DocumentWriter} writes {@value DocumentWriter#VERSION} whatever it is.
     *
     * @return the version attribute of the root element
     */
    String version();

    /**
     * Who asked: host and user as the requester stated them.
     *
     * @return the originator, never {@code null}
     */
    Originator originator();
}
