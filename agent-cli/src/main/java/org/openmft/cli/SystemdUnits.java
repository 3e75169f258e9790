package org.openmft.cli;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The systemd drop-in of one agent: what its {@code agent.properties} says about restarts and
 * sandboxes, added to the shipped template {@code openmft-agent@.service}.
 *
 * <p>IBM's process controller restarts an agent that ended unexpectedly up to
 * {@code maxRestartCount} times within {@code maxRestartInterval} seconds. systemd counts starts,
 * not restarts, in {@code StartLimitBurst} within {@code StartLimitIntervalSec}, so the burst is
 * the count plus one for the first start; when that first start is older than the window, systemd
 * allows one restart more than IBM would. A count of 0 is {@code Restart=no}. The template already
 * restarts only on failure and never after exit 78 (a configuration problem that a restart cannot
 * mend).
 */
final class SystemdUnits {
    /** The template unit of agents, as shipped in the distribution's {@code systemd} directory. */
    static final String AGENT_TEMPLATE = "openmft-agent@.service";

    private SystemdUnits() {
    }

    /** Where a hosting queue manager unit of this host comes in. */
    enum QueueManagerLink {
        /** The queue manager is elsewhere (or on IBM MQ): no ordering. */
        NONE,
        /** A client agent of an embedded queue manager of this data directory: start after it. */
        AFTER,
        /** A bindings agent: its foreground process hosts the queue manager, so its unit must not run. */
        HOSTS
    }

    /**
     * The drop-in for agent {@code agent}.
     *
     * @param source     the properties file it was made from, named in the drop-in's comment
     * @param sandboxes  sandboxRoot's entries (a leading ! excludes, and needs no access)
     */
    static String agentDropIn(String agent, Path source, int maxRestartCount, long maxRestartIntervalSeconds,
            String qmgr, QueueManagerLink link, List<String> sandboxes) {
        StringBuilder unit = new StringBuilder();
        unit.append("# Written by 'mft agent unit ").append(agent).append("' from ").append(source).append('\n')
                .append("# (maxRestartCount, maxRestartInterval, sandboxRoot): run it again after changing them.\n")
                .append("[Unit]\n")
                .append("StartLimitIntervalSec=").append(maxRestartIntervalSeconds).append('\n')
                .append("StartLimitBurst=").append(maxRestartCount + 1).append('\n');
        switch (link) {
            case AFTER -> unit.append("Wants=openmft-qmgr@").append(qmgr).append(".service\n")
                    .append("After=openmft-qmgr@").append(qmgr).append(".service\n");
            case HOSTS -> unit.append("# A bindings agent in the foreground hosts queue manager ").append(qmgr)
                    .append(" itself.\nConflicts=openmft-qmgr@").append(qmgr).append(".service\n");
            case NONE -> { }
        }
        unit.append("\n[Service]\n")
                .append("Restart=").append(maxRestartCount == 0 ? "no" : "on-failure").append('\n');
        for (String dir : sandboxes) {
            if (!dir.isBlank() && !dir.startsWith("!")) {
                // '-': a directory that does not exist (yet) does not stop the agent from starting.
                unit.append("ReadWritePaths=").append(quoted("-" + dir)).append('\n');
            }
        }
        return unit.toString();
    }

    /** sandboxRoot's entries, split as the agent splits them. */
    static List<String> sandboxEntries(Optional<String> sandboxRoot) {
        return sandboxRoot.map(s -> List.of(s.split(File.pathSeparator))).orElse(List.of());
    }

    private static String quoted(String path) {
        if (path.chars().noneMatch(c -> Character.isWhitespace(c) || c == '"' || c == '\\')) {
            return path;
        }
        return '"' + path.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
