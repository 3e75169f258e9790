package org.openmft.xml;

import java.util.Objects;

/**
 * Start or stop a resource monitor without deleting it ({@code fteStartMonitor},
 * {@code fteStopMonitor}). IBM does not publish the document these commands send; OpenMFT uses
 * {@code <monitor:startMonitor>} and {@code <monitor:stopMonitor>} in Monitor.xsd's namespace,
 * shaped as {@code <deleteMonitor>} is. Immutable.
 *
 * @param version the version attribute read
 * @param start true to start, false to stop
 * @param name the monitor, stored upper case
 * @param originator who asked
 * @param reply where to answer, or {@code null}
 */
public record MonitorControlRequest(String version, boolean start, String name, Originator originator, ReplyTo reply)
        implements CommandDocument {
    /** Validates; the name becomes upper case. */
    public MonitorControlRequest {
        version = Checks.version(version);
        name = MonitorDefinition.monitorName(name);
        Objects.requireNonNull(originator, "originator");
    }

    /** @return the root element's local name */
    public String rootName() {
        return start ? "startMonitor" : "stopMonitor";
    }
}
