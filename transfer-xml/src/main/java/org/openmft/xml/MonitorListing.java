package org.openmft.xml;

import java.util.Objects;

/**
 * One monitor as its agent publishes it, retained, on {@code SYSTEM.FTE/monitors/<agent>/<monitor>}
 * (IBM's MonitorList.xsd): {@code <monitor:monitorList version agent monitor>} holding
 * {@code <status state>}, {@code <configuration>} (description, resources, triggerMatch, tasks,
 * originator, job), {@code <pollInterval>} and {@code <batch>}. {@code fteListMonitors} reads it
 * back into the definition it lists and exports. Immutable.
 *
 * @param agent the monitoring agent
 * @param started whether the monitor polls ({@code state="started"}) or not ({@code "stopped"})
 * @param definition the monitor, as {@code fteCreateMonitor -ox} would write it
 */
public record MonitorListing(String agent, boolean started, MonitorDefinition definition) {
    /** {@code <status state>} of a started monitor. */
    public static final String STARTED = "started";
    /** {@code <status state>} of a stopped monitor. */
    public static final String STOPPED = "stopped";

    /** Checks for nulls. */
    public MonitorListing {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(definition, "definition");
    }

    /** @return the monitor's name */
    public String name() {
        return definition.name();
    }
}
