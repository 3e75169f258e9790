package org.openmft.xml;

/**
 * Forget a resource monitor's history, so its next poll triggers on everything it sees again
 * ({@code fteClearMonitorHistory}, IBM MQ 9.2). IBM does not publish the document this command
 * sends; OpenMFT uses {@code <monitor:clearMonitorHistory>} in Monitor.xsd's namespace, shaped as
 * {@code <deleteMonitor>} is. Immutable.
 *
 * @param version the version attribute read
 * @param name the monitor, stored upper case
 * @param originator who asked
 * @param reply where to answer, or {@code null}
 */
public record ClearMonitorHistoryRequest(String version, String name, Originator originator, ReplyTo reply)
        implements CommandDocument {
    /** Validates; the name becomes upper case. */
    public ClearMonitorHistoryRequest {
        version = Checks.version(version);
        name = MonitorDefinition.monitorName(name);
        java.util.Objects.requireNonNull(originator, "originator");
    }
}
