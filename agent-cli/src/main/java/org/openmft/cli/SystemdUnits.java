package org.openmft.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.openmft.agent.config.DataDirectory;
import org.openmft.agent.config.MessagingProvider;
import org.openmft.agent.qmgr.QueueManagerSettings;

/**
 * The systemd drop-ins of one agent or logger: what its properties say about restarts, sandboxes,
 * its queue manager and its database, added to the shipped templates {@code openmft-agent@.service}
 * and {@code openmft-logger@.service}.
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
    /** The template unit of loggers. */
    static final String LOGGER_TEMPLATE = "openmft-logger@.service";
    /** Debian's (and most distributions') unit of a local PostgreSQL server. */
    static final String POSTGRESQL_UNIT = "postgresql.service";

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
        queueManagerLink(unit, qmgr, link);
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

    /**
     * The drop-in for logger {@code logger}: the ordering after its queue manager's unit when that
     * queue manager is an embedded one of this host, and after PostgreSQL's when its database is on
     * this host. IBM's logger has no restart properties of its own; the template's limits stay.
     *
     * @param link              {@link QueueManagerLink#AFTER} or {@link QueueManagerLink#NONE}
     * @param localPostgresql   whether the logger's database is a PostgreSQL server on this host
     */
    static String loggerDropIn(String logger, Path source, String qmgr, QueueManagerLink link,
            boolean localPostgresql) {
        if (link == QueueManagerLink.HOSTS) {
            throw new IllegalArgumentException("a logger never hosts its queue manager");
        }
        StringBuilder unit = new StringBuilder();
        unit.append("# Written by 'mft logger unit ").append(logger).append("' from ").append(source).append('\n')
                .append("# (its queue manager and database): run it again after changing them.\n")
                .append("[Unit]\n");
        queueManagerLink(unit, qmgr, link);
        if (localPostgresql) {
            // Ordering only: the server may be managed elsewhere, and the logger retries its connection.
            unit.append("After=").append(POSTGRESQL_UNIT).append('\n');
        }
        return unit.toString();
    }

    /** Whether queue manager {@code qmgr} is an embedded one of data directory {@code dd}, so has a unit here. */
    static boolean localQueueManager(DataDirectory dd, MessagingProvider provider, String qmgr) {
        return provider == MessagingProvider.ARTEMIS
                && Files.exists(dd.qmgrDir(qmgr).resolve(QueueManagerSettings.FILE_NAME));
    }

    /** Whether a JDBC URL names a PostgreSQL server on this host (loopback or a unix socket). */
    static boolean localPostgresql(Optional<String> jdbcUrl) {
        if (jdbcUrl.isEmpty() || !jdbcUrl.get().startsWith("jdbc:postgresql:")) {
            return false;
        }
        String rest = jdbcUrl.get().substring("jdbc:postgresql:".length());
        if (!rest.startsWith("//")) {
            return true; // jdbc:postgresql:database is localhost:5432
        }
        String host = rest.substring(2).split("[:/?,]", 2)[0];
        return host.isEmpty() || host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]");
    }

    private static void queueManagerLink(StringBuilder unit, String qmgr, QueueManagerLink link) {
        switch (link) {
            case AFTER -> unit.append("Wants=openmft-qmgr@").append(qmgr).append(".service\n")
                    .append("After=openmft-qmgr@").append(qmgr).append(".service\n");
            case HOSTS -> unit.append("# A bindings agent in the foreground hosts queue manager ").append(qmgr)
                    .append(" itself.\nConflicts=openmft-qmgr@").append(qmgr).append(".service\n");
            case NONE -> { }
        }
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
