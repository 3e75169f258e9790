package org.openmft.client;

import java.time.Duration;

/**
 * A resource monitor as its agent's retained listing on the coordination queue manager describes
 * it (IBM's fteListMonitors, and {@code GET admin/mft/monitor} of IBM's REST API). Monitors are
 * created from a {@link MonitorSpec} ({@link MftClient#createMonitor}).
 *
 * @param agent the monitoring agent, upper case
 * @param name the monitor's name
 * @param queueMonitor whether it watches a queue ({@code fteCreateMonitor -mq}) rather than a directory
 * @param started whether it polls ({@code started}) or was stopped ({@code fteStopMonitor})
 * @param resource the directory or queue it watches
 * @param recursionLevel the subdirectory levels a directory monitor descends; 0 for none, and for a queue monitor
 * @param pollInterval how often it looks at its resource
 * @param batchSize the most trigger matches one transfer carries ({@code -bs})
 * @param description its description, or null
 * @param jobName the job name of the transfers it starts, or null
 */
public record MonitorInfo(String agent, String name, boolean queueMonitor, boolean started, String resource,
        int recursionLevel, Duration pollInterval, int batchSize, String description, String jobName) {
}
