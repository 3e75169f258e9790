package org.openmft.agent.authority;

import java.util.Locale;
import java.util.Optional;

import org.openmft.agent.config.QueueNames;

/**
 * IBM MFT's authorities for {@code authorityChecking=true}: each is an access on one of an agent's
 * authority queues {@code SYSTEM.FTE.AUTH*.<agent>}, which never hold a message and exist only to
 * carry authority records (on IBM MQ, {@code setmqaut} or {@code SET AUTHREC}; on an embedded
 * queue manager, a role named {@code <queue>+<access>} that {@code mft qmgr user grant} gives a
 * user, see {@link #role}).
 *
 * <table>
 *   <caption>What each authority allows, on the agent asked to act</caption>
 *   <tr><th>authority</th><th>queue and access</th><th>allows</th></tr>
 *   <tr><td>{@link #TRANSFER}</td><td>AUTHTRN1 browse</td><td>start and cancel transfers, start managed
 *       calls</td></tr>
 *   <tr><td>{@link #SCHEDULE}</td><td>AUTHSCH1 browse</td><td>create and delete one's own scheduled
 *       transfers</td></tr>
 *   <tr><td>{@link #MONITOR}</td><td>AUTHMON1 browse</td><td>create and delete one's own resource
 *       monitors</td></tr>
 *   <tr><td>{@link #OPERATIONS}</td><td>AUTHOPS1 browse</td><td>delete other users' monitors and
 *       schedules</td></tr>
 *   <tr><td>{@link #ADMINISTRATION}</td><td>AUTHADM1 browse</td><td>stop the agent by message
 *       ({@code fteStopAgent})</td></tr>
 *   <tr><td>{@link #AGENT_SEND}</td><td>AUTHAGT1 put</td><td>a source agent's user sends this
 *       (destination) agent a transfer</td></tr>
 *   <tr><td>{@link #AGENT_RECEIVE}</td><td>AUTHAGT1 browse</td><td>a destination agent's user receives a
 *       transfer from this (source) agent</td></tr>
 * </table>
 */
public enum Authority {
    /** Start and cancel transfers. */
    TRANSFER("transfer", "AUTHTRN1", Access.BROWSE),
    /** Own scheduled transfers. */
    SCHEDULE("schedule", "AUTHSCH1", Access.BROWSE),
    /** Own resource monitors. */
    MONITOR("monitor", "AUTHMON1", Access.BROWSE),
    /** Other users' monitors and schedules. */
    OPERATIONS("operations", "AUTHOPS1", Access.BROWSE),
    /** Stop the agent by message. */
    ADMINISTRATION("administration", "AUTHADM1", Access.BROWSE),
    /** A source agent's user sends a transfer to this agent. */
    AGENT_SEND("agent", "AUTHAGT1", Access.PUT),
    /** A destination agent's user receives a transfer from this agent. */
    AGENT_RECEIVE("agent", "AUTHAGT1", Access.BROWSE);

    /** The access an authority needs on its queue, named as IBM MQ's {@code setmqaut} names it. */
    public enum Access {
        /** {@code +browse}. */
        BROWSE,
        /** {@code +put}. */
        PUT;

        /** As in {@code setmqaut}: {@code browse} or {@code put}. */
        public String keyword() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final String ibmName;
    private final String stem;
    private final Access access;

    Authority(String ibmName, String stem, Access access) {
        this.ibmName = ibmName;
        this.stem = stem;
        this.access = access;
    }

    /** The name IBM's messages and {@code <authority>} elements give it: {@code transfer}, {@code agent}, ... */
    public String ibmName() {
        return ibmName;
    }

    /** The access it needs. */
    public Access access() {
        return access;
    }

    /**
     * The authority queue of an agent.
     *
     * @param agent the agent name (any case)
     * @return {@code SYSTEM.FTE.AUTHxxx1.<AGENT>}
     */
    public String queue(String agent) {
        return "SYSTEM.FTE." + stem + "." + QueueNames.validateAgentName(agent);
    }

    /**
     * The role that grants this authority on an embedded queue manager: the queue's name and the
     * access, as in {@code setmqaut -n <queue> +<access>}.
     *
     * @param agent the agent name (any case)
     * @return for example {@code SYSTEM.FTE.AUTHTRN1.AGENT1+browse}
     */
    public String role(String agent) {
        return queue(agent) + "+" + access.keyword();
    }

    /** What a role of the form {@link #role} names. */
    public record Grant(Authority authority, String agent) {
    }

    /**
     * Reads a role of the form {@link #role}.
     *
     * @param role a role name
     * @return the authority and agent it grants, or empty when it is not an authority role
     * @throws IllegalArgumentException when it looks like one but names an access the queue does not
     *                                  take or an invalid agent name
     */
    public static Optional<Grant> parseRole(String role) {
        if (role == null || !role.startsWith("SYSTEM.FTE.AUTH")) {
            return Optional.empty();
        }
        int plus = role.lastIndexOf('+');
        int dot = role.indexOf('.', "SYSTEM.FTE.".length());
        if (plus < 0 || dot < 0 || dot > plus) {
            throw new IllegalArgumentException("role '" + role + "' is not valid: an authority role is an authority"
                    + " queue and an access, such as " + TRANSFER.role("AGENT1") + " or " + AGENT_SEND.role("AGENT1"));
        }
        String stem = role.substring("SYSTEM.FTE.".length(), dot);
        String agent = role.substring(dot + 1, plus);
        String access = role.substring(plus + 1);
        for (Authority a : values()) {
            if (a.stem.equals(stem) && a.access.keyword().equals(access)) {
                String valid;
                try {
                    valid = QueueNames.validateAgentName(agent);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("role '" + role + "' is not valid: " + e.getMessage());
                }
                if (!valid.equals(agent)) {
                    throw new IllegalArgumentException("role '" + role + "' is not valid: agent names are upper case"
                            + " in roles (" + a.role(valid) + ")");
                }
                return Optional.of(new Grant(a, agent));
            }
        }
        throw new IllegalArgumentException("role '" + role + "' is not valid: the authority roles are "
                + String.join(", ", java.util.Arrays.stream(values())
                        .map(a -> "SYSTEM.FTE." + a.stem + ".<AGENT>+" + a.access.keyword()).toList()));
    }
}
