package org.openmft.xml;

/**
 * {@code <monitor:deleteMonitor>} (Monitor.xsd): stop and delete a resource monitor, as
 * {@code fteDeleteMonitor} sends it. Immutable.
 *
 * @param version the version attribute read
 * @param name the monitor, stored upper case
 * @param originator who asked
 * @param reply where to answer, or {@code null}
 */
public record DeleteMonitorRequest(String version, String name, Originator originator, ReplyTo reply)
        implements CommandDocument {
    /** Validates; the name becomes upper case. */
    public DeleteMonitorRequest {
        version = Checks.version(version);
        name = MonitorDefinition.monitorName(name);
        java.util.Objects.requireNonNull(originator, "originator");
    }
}
