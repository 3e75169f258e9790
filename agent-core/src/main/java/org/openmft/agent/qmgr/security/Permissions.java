package org.openmft.agent.qmgr.security;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.activemq.artemis.core.security.Role;
import org.openmft.agent.authority.Authority;
import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.Publications;

/**
 * Who may do what on an embedded queue manager: Artemis security settings (address match to
 * roles and their permissions), computed from the roles that exist. In Artemis the most specific
 * matching setting applies entirely and nothing is inherited from broader ones, so every match
 * below lists all its roles; a permission left out is denied.
 *
 * <table>
 *   <caption>Roles and what they may do</caption>
 *   <tr><th>role</th><th>may</th></tr>
 *   <tr><td>{@value #ADMIN}</td><td>everything, everywhere (the owner's local commands, the
 *       queue manager's own host of bindings agents)</td></tr>
 *   <tr><td>{@code agent.<AGENT>}</td><td>consume, browse and send on its own COMMAND, DATA, REPLY,
 *       STATE, EVENT, CMD.RJCT, PUBLISH and HA queues, and create them; nobody else but the
 *       administrator may consume from them</td></tr>
 *   <tr><td>{@value #AGENT}</td><td>send to every agent's COMMAND, DATA and REPLY queues (transfers
 *       between agents); publish status and log records on {@code SYSTEM.FTE}; answer requesters on
 *       any other queue (creating it, as replies always could)</td></tr>
 *   <tr><td>{@value #REQUESTER}</td><td>put requests on agents' COMMAND queues; create, read and
 *       delete reply queues {@code WMQFTE.*} and temporary queues; read status and progress on
 *       {@code SYSTEM.FTE} through non-durable subscriptions; use queues outside {@code SYSTEM.*},
 *       {@code WMQFTE.*} and Artemis's own addresses</td></tr>
 *   <tr><td>{@code SYSTEM.FTE.AUTHxxx1.<AGENT>+browse} and {@code SYSTEM.FTE.AUTHAGT1.<AGENT>+put}</td>
 *       <td>IBM's authorities for {@code authorityChecking=true} ({@link Authority}): browse (or send) on that
 *       authority queue, which holds no message; {@link AuthorityStamper} asks for them</td></tr>
 *   <tr><td>{@value #LOGGER}</td><td>durable and non-durable subscriptions to {@code SYSTEM.FTE}
 *       (the transfer log); its {@code SYSTEM.FTE.LOG.*} command and reject queues</td></tr>
 *   <tr><td>{@value #CHANNEL}</td><td>send to {@code SYSTEM.CHANNEL.INBOUND}, where another queue
 *       manager's channel delivers (agents and requesters send to the transmission queues
 *       {@code SYSTEM.CHANNEL.XMIT.*})</td></tr>
 * </table>
 *
 * <p>Nobody but the administrator may send to {@code SYSTEM.OPENMFT.HOST} (which starts
 * bindings agents in the queue manager's process), touch other {@code SYSTEM.*} queues, the
 * dead-letter queue or Artemis's management addresses. Agent names may contain dots, which
 * Artemis's wildcards treat as word separators, so per-agent settings are exact matches.
 * Stateless and thread-safe.
 */
public final class Permissions {
    /** Everything. */
    public static final String ADMIN = "admin";
    /** Every agent's user. */
    public static final String AGENT = "agent";
    /** The prefix of an agent's own role, {@code agent.<AGENT>}. */
    public static final String AGENT_PREFIX = "agent.";
    /** Applications and people that request transfers. */
    public static final String REQUESTER = "requester";
    /** Loggers. */
    public static final String LOGGER = "logger";
    /** The logins of other queue managers' channels into this one. */
    public static final String CHANNEL = "channel";

    /** The roles that can be granted, for messages and help. */
    public static final String GRANTABLE = ADMIN + ", " + REQUESTER + ", " + LOGGER + ", " + CHANNEL + ", " + AGENT_PREFIX
            + "<AGENT>, and the authority roles SYSTEM.FTE.AUTH<xxx>1.<AGENT>+browse|put (authorityChecking)";

    /** Artemis's permissions, named as in its security settings. */
    enum Permission {
        SEND, CONSUME, CREATE_DURABLE_QUEUE, DELETE_DURABLE_QUEUE, CREATE_NON_DURABLE_QUEUE,
        DELETE_NON_DURABLE_QUEUE, MANAGE, BROWSE, CREATE_ADDRESS, DELETE_ADDRESS, VIEW, EDIT
    }

    private static final Set<Permission> ALL = EnumSet.allOf(Permission.class);
    private static final Set<Permission> OWN_QUEUE = EnumSet.of(Permission.SEND, Permission.CONSUME,
            Permission.BROWSE, Permission.CREATE_ADDRESS, Permission.CREATE_DURABLE_QUEUE);
    private static final Set<Permission> SEND = EnumSet.of(Permission.SEND);
    private static final Set<Permission> BROWSE_ONLY = EnumSet.of(Permission.BROWSE);
    private static final Set<Permission> SUBSCRIBE = EnumSet.of(Permission.CONSUME,
            Permission.CREATE_NON_DURABLE_QUEUE, Permission.DELETE_NON_DURABLE_QUEUE);
    private static final Set<Permission> DURABLE_SUBSCRIBE = EnumSet.of(Permission.CONSUME, Permission.BROWSE,
            Permission.CREATE_NON_DURABLE_QUEUE, Permission.DELETE_NON_DURABLE_QUEUE,
            Permission.CREATE_DURABLE_QUEUE, Permission.DELETE_DURABLE_QUEUE);
    private static final Set<Permission> REPLY_QUEUES = EnumSet.of(Permission.SEND, Permission.CONSUME,
            Permission.BROWSE, Permission.CREATE_ADDRESS, Permission.DELETE_ADDRESS, Permission.CREATE_DURABLE_QUEUE,
            Permission.DELETE_DURABLE_QUEUE);
    private static final Set<Permission> REPLY_SEND = EnumSet.of(Permission.SEND, Permission.CREATE_ADDRESS,
            Permission.CREATE_DURABLE_QUEUE);
    private static final Set<Permission> APPLICATION = EnumSet.of(Permission.SEND, Permission.CONSUME,
            Permission.BROWSE, Permission.CREATE_ADDRESS, Permission.CREATE_DURABLE_QUEUE,
            Permission.CREATE_NON_DURABLE_QUEUE, Permission.DELETE_NON_DURABLE_QUEUE);

    private Permissions() {
    }

    /**
     * Checks a role that may be granted: {@value #ADMIN}, {@value #REQUESTER}, {@value #LOGGER} or
     * {@code agent.<AGENT>} with a valid agent name (upper case).
     *
     * @param role the role
     * @return the role
     * @throws IllegalArgumentException naming the roles that exist
     */
    public static String validateRole(String role) {
        if (ADMIN.equals(role) || REQUESTER.equals(role) || LOGGER.equals(role) || CHANNEL.equals(role)) {
            return role;
        }
        if (Authority.parseRole(role).isPresent()) {
            return role;
        }
        if (role != null && role.startsWith(AGENT_PREFIX)) {
            String agent = role.substring(AGENT_PREFIX.length());
            try {
                if (QueueNames.validateAgentName(agent).equals(agent)) {
                    return role;
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("role '" + role + "' is not valid: " + e.getMessage());
            }
            throw new IllegalArgumentException("role '" + role + "' is not valid: agent names are upper case in"
                    + " roles (" + AGENT_PREFIX + agent.toUpperCase(java.util.Locale.ROOT) + ")");
        }
        throw new IllegalArgumentException("role '" + role + "' is not valid: the roles are " + GRANTABLE);
    }

    /**
     * The role of one agent.
     *
     * @param agent the agent name, any case
     * @return {@code agent.<AGENT>}
     */
    public static String agentRole(String agent) {
        return AGENT_PREFIX + QueueNames.validateAgentName(agent);
    }

    /**
     * The agents that have a role of their own among {@code roles}.
     *
     * @param roles role names
     * @return agent names, sorted
     */
    public static Set<String> agents(Set<String> roles) {
        Set<String> agents = new TreeSet<>();
        for (String role : roles) {
            try {
                Authority.parseRole(role).ifPresent(g -> agents.add(g.agent()));
            } catch (IllegalArgumentException e) {
                // A hand-edited authority role that names nothing valid: it grants nothing.
            }
            if (role.startsWith(AGENT_PREFIX)) {
                String agent = role.substring(AGENT_PREFIX.length());
                try {
                    if (QueueNames.validateAgentName(agent).equals(agent)) {
                        agents.add(agent);
                    }
                } catch (IllegalArgumentException e) {
                    // Not an agent role (a hand-edited file): it grants nothing.
                }
            }
        }
        return agents;
    }

    /**
     * The settings every queue manager has, whatever its agents.
     *
     * @return address match to roles, in no particular order
     */
    public static Map<String, Set<Role>> fixed() {
        Map<String, Set<Role>> s = new LinkedHashMap<>();
        s.put("#", roles(grant(ADMIN, ALL), grant(REQUESTER, APPLICATION), grant(AGENT, REPLY_SEND)));
        s.put("SYSTEM.#", roles(grant(ADMIN, ALL)));
        s.put("SYSTEM.FTE.#", roles(grant(ADMIN, ALL)));
        // Every agent's COMMAND, DATA and REPLY queues take what agents (and, for COMMAND, requesters)
        // send, whether or not the agent has a user of its own: an agent created before security
        // existed runs as the administrator and still receives transfers. Consuming needs the
        // agent's own exact setting below.
        s.put("SYSTEM.FTE.COMMAND.#", roles(grant(ADMIN, ALL), grant(AGENT, SEND), grant(REQUESTER, SEND)));
        s.put("SYSTEM.FTE.DATA.#", roles(grant(ADMIN, ALL), grant(AGENT, SEND)));
        s.put("SYSTEM.FTE.REPLY.#", roles(grant(ADMIN, ALL), grant(AGENT, SEND)));
        s.put(Publications.TOPIC, roles(grant(ADMIN, ALL), grant(AGENT, SEND), grant(LOGGER, DURABLE_SUBSCRIBE),
                grant(REQUESTER, SUBSCRIBE)));
        s.put("SYSTEM.FTE.LOG.#", roles(grant(ADMIN, ALL), grant(LOGGER, OWN_QUEUE)));
        s.put("WMQFTE.#", roles(grant(ADMIN, ALL), grant(REQUESTER, REPLY_QUEUES), grant(AGENT, REPLY_SEND)));
        // Channels: agents and requesters put on transmission queues (QUEUE@QMGR); only other queue
        // managers' channels deliver to the inbound address, which routes by InboundRouter's rules.
        s.put("SYSTEM.CHANNEL.#", roles(grant(ADMIN, ALL)));
        s.put("SYSTEM.CHANNEL.XMIT.#", roles(grant(ADMIN, ALL), grant(AGENT, SEND), grant(REQUESTER, SEND)));
        s.put(org.openmft.agent.messaging.Routing.INBOUND, roles(grant(ADMIN, ALL), grant(CHANNEL, SEND)));
        s.put("activemq.#", roles(grant(ADMIN, ALL)));
        s.put("$.artemis.internal.#", roles(grant(ADMIN, ALL)));
        return s;
    }

    /**
     * The exact settings of one agent's queues.
     *
     * @param agent the agent name (upper case)
     * @return queue name to roles
     */
    public static Map<String, Set<Role>> forAgent(String agent) {
        String own = agentRole(agent);
        Map<String, Set<Role>> s = new LinkedHashMap<>();
        s.put(QueueNames.command(agent), roles(grant(ADMIN, ALL), grant(own, OWN_QUEUE), grant(AGENT, SEND),
                grant(REQUESTER, SEND)));
        s.put(QueueNames.data(agent), roles(grant(ADMIN, ALL), grant(own, OWN_QUEUE), grant(AGENT, SEND)));
        s.put(QueueNames.reply(agent), roles(grant(ADMIN, ALL), grant(own, OWN_QUEUE), grant(AGENT, SEND)));
        for (String q : List.of(QueueNames.state(agent), QueueNames.event(agent), QueueNames.rejected(agent),
                QueueNames.publish(agent), QueueNames.ha(agent))) {
            s.put(q, roles(grant(ADMIN, ALL), grant(own, OWN_QUEUE)));
        }
        // The authority queues hold no message: only their settings count, checked by AuthorityStamper.
        // AUTHAGT1 takes two roles, one per access.
        for (Authority a : Authority.values()) {
            Set<Role> current = s.getOrDefault(a.queue(agent), Set.of());
            Set<Role> merged = new java.util.HashSet<>(current);
            merged.addAll(roles(grant(ADMIN, ALL), grant(a.role(agent), a.access() == Authority.Access.PUT
                    ? SEND : BROWSE_ONLY)));
            s.put(a.queue(agent), Set.copyOf(merged));
        }
        return s;
    }

    /**
     * All settings for a queue manager whose roles are {@code roles}.
     *
     * @param roles the role names in its roles file
     * @return address match to roles
     */
    public static Map<String, Set<Role>> all(Set<String> roles) {
        Map<String, Set<Role>> s = fixed();
        for (String agent : agents(roles)) {
            s.putAll(forAgent(agent));
        }
        return s;
    }

    private record Grant(String role, Set<Permission> permissions) {
    }

    private static Grant grant(String role, Set<Permission> permissions) {
        return new Grant(role, permissions);
    }

    private static Set<Role> roles(Grant... grants) {
        Set<Role> roles = new java.util.HashSet<>();
        for (Grant g : grants) {
            Set<Permission> p = g.permissions();
            roles.add(new Role(g.role(), p.contains(Permission.SEND), p.contains(Permission.CONSUME),
                    p.contains(Permission.CREATE_DURABLE_QUEUE), p.contains(Permission.DELETE_DURABLE_QUEUE),
                    p.contains(Permission.CREATE_NON_DURABLE_QUEUE), p.contains(Permission.DELETE_NON_DURABLE_QUEUE),
                    p.contains(Permission.MANAGE), p.contains(Permission.BROWSE),
                    p.contains(Permission.CREATE_ADDRESS), p.contains(Permission.DELETE_ADDRESS),
                    p.contains(Permission.VIEW), p.contains(Permission.EDIT)));
        }
        return Set.copyOf(roles);
    }
}
