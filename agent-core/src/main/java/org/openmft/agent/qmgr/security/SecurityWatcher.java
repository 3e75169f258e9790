package org.openmft.agent.qmgr.security;

import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.activemq.artemis.core.security.Role;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.core.server.ServerSession;
import org.apache.activemq.artemis.core.settings.HierarchicalRepository;
import org.apache.activemq.artemis.spi.core.protocol.RemotingConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a running queue manager follow its users and roles files, which commands change while it
 * runs ({@code mft qmgr user}, {@code fteCreateAgent}, {@code fteDeleteAgent}): every
 * {@value #PERIOD_MILLIS} ms it looks at the files, and when they changed it
 * <ul>
 *   <li>adds the security settings of agents that got a role ({@code agent.<AGENT>}) and removes
 *       those of agents that lost it (Artemis then drops its authorization cache);</li>
 *   <li>closes the connections of users that were removed, got a new password or whose roles
 *       changed: Artemis keeps a logged-in session's roles for as long as the session lives, so without
 *       this a removed agent would go on consuming from its queues, and an agent granted an authority
 *       ({@code SYSTEM.FTE.AUTHAGT1.<AGENT>+put}) would not hold it until it happened to reconnect.
 *       Their clients reconnect, and a removed user's new login is refused;</li>
 *   <li>empties Artemis's caches of logins and permission checks, so that a removed user's cached
 *       login does not let it in again.</li>
 * </ul>
 * New logins read the files themselves ({@link PropertiesLogin}). So a removed user loses access
 * within about {@value #PERIOD_MILLIS} ms (and, should this scan fail, within Artemis's
 * {@code securityInvalidationInterval}, see {@code EmbeddedQueueManager}).
 *
 * <p>Once a change is applied, it is marked as such ({@link QueueManagerUsers#markApplied}), so that
 * the command that made it can wait for it ({@link QueueManagerUsers#awaitApplied}) and an agent
 * started right after {@code fteCreateAgent} finds its permissions in place.
 *
 * <p>{@link #run} is called by the broker's scheduled pool, and by the queue manager's own process
 * when it changed the files itself; calls are serialised. It catches everything so that one
 * failure never ends the schedule.
 */
public final class SecurityWatcher implements Runnable {
    /** How often the files are looked at, in milliseconds. */
    public static final long PERIOD_MILLIS = 500;
    private static final Logger log = LoggerFactory.getLogger(SecurityWatcher.class);

    private final String qmgrName;
    private final QueueManagerUsers users;
    private final ActiveMQServer server;
    private String stamp;
    private Map<String, Set<String>> known;
    private Map<String, String> hashes;
    private Set<String> agents;

    /**
     * @param users   the queue manager's users
     * @param server  the running broker
     * @param agents  the agents whose settings the broker was configured with
     */
    public SecurityWatcher(String qmgrName, QueueManagerUsers users, ActiveMQServer server, Set<String> agents)
            throws IOException {
        this.qmgrName = qmgrName;
        this.users = users;
        this.server = server;
        this.stamp = ""; // the first run marks the files as applied
        this.known = users.users();
        this.hashes = hashes();
        this.agents = new HashSet<>(agents);
    }

    private Map<String, String> hashes() throws IOException {
        java.util.Properties p = new java.util.Properties();
        if (Files.isRegularFile(users.usersFile())) {
            try (var in = Files.newInputStream(users.usersFile())) {
                p.load(in);
            }
        }
        Map<String, String> result = new HashMap<>();
        p.forEach((k, v) -> result.put(k.toString(), v.toString()));
        return result;
    }

    @Override
    public synchronized void run() {
        try {
            String now = users.stamp();
            if (now.equals(stamp)) {
                return;
            }
            apply(users.users(), hashes());
            stamp = now;
            users.markApplied(now);
        } catch (Exception e) {
            log.warn("Queue manager {}: cannot apply a change of its users or roles ({}): {}", qmgrName,
                    users.directory(), e.toString());
        }
    }

    private void apply(Map<String, Set<String>> nowUsers, Map<String, String> nowHashes) {
        Set<String> roles = new HashSet<>();
        nowUsers.values().forEach(roles::addAll);
        Set<String> nowAgents = Permissions.agents(roles);
        HierarchicalRepository<Set<Role>> repository = server.getSecurityRepository();
        for (String agent : nowAgents) {
            if (!agents.contains(agent)) {
                Permissions.forAgent(agent).forEach(repository::addMatch);
                log.info("Queue manager {}: agent {} has roles now (its own or authorities); only its own user may"
                        + " consume from its queues", qmgrName, agent);
            }
        }
        for (String agent : agents) {
            if (!nowAgents.contains(agent)) {
                Permissions.forAgent(agent).keySet().forEach(repository::removeMatch);
                log.info("Queue manager {}: agent {} has no roles any more; only the administrator may use its queues",
                        qmgrName, agent);
            }
        }
        agents = new HashSet<>(nowAgents);
        Set<String> changed = new HashSet<>();
        for (Map.Entry<String, Set<String>> e : known.entrySet()) {
            String user = e.getKey();
            if (!nowUsers.containsKey(user) || !nowUsers.get(user).equals(e.getValue())
                    || !Objects.equals(hashes.get(user), nowHashes.get(user))) {
                changed.add(user);
            }
        }
        known = nowUsers;
        hashes = nowHashes;
        // Artemis caches logins for securityInvalidationInterval: a removed user's cached login would
        // still let it in until then.
        if (server.getSecurityStore() instanceof org.apache.activemq.artemis.core.security.impl.SecurityStoreImpl store) {
            store.invalidateAuthenticationCache();
            store.invalidateAuthorizationCache();
        }
        for (String user : changed) {
            int closed = closeConnections(user);
            log.info("Queue manager {}: user {} was {}; {} of its connections closed", qmgrName, user,
                    nowUsers.containsKey(user) ? "changed" : "removed", closed);
        }
    }

    /** Fails every connection that has a session of {@code user}, as Artemis's closeConnectionsForUser does. */
    private int closeConnections(String user) {
        Set<String> ids = new HashSet<>();
        for (ServerSession s : server.getSessions()) {
            if (user.equals(s.getUsername())) {
                ids.add(String.valueOf(s.getConnectionID()));
            }
        }
        int closed = 0;
        for (RemotingConnection c : server.getRemotingService().getConnections()) {
            if (ids.contains(String.valueOf(c.getID()))) {
                server.getRemotingService().removeConnection(c.getID());
                c.fail(new org.apache.activemq.artemis.api.core.ActiveMQSecurityException("user " + user
                        + " was removed or changed on queue manager " + qmgrName));
                closed++;
            }
        }
        return closed;
    }
}
