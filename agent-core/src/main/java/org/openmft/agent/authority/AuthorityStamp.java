package org.openmft.agent.authority;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.jms.JMSException;
import jakarta.jms.Message;

import org.openmft.agent.config.QueueNames;

/**
 * How an embedded queue manager tells an agent which authorities the sender of a message holds:
 * two message properties that the queue manager writes on every message sent to an agent's
 * COMMAND queue (and on the START and START_OK of the agent-to-agent protocol), after removing
 * whatever the sender put there, so no client can claim an authority. The queue manager decides
 * with its own security store (the sender's login, its roles and the security settings of the
 * {@code SYSTEM.FTE.AUTH*.<agent>} addresses), as IBM MQ decides an alternate-user open of those
 * queues. See {@code AuthorityStamper} in the queue manager.
 *
 * <p>Stateless.
 */
public final class AuthorityStamp {
    /** Comma-separated {@link Authority} names the sender holds, written by the queue manager only. */
    public static final String AUTHORITIES_PROPERTY = "OPENMFT_AUTHORITIES";
    /** The agent whose authority queues {@link #AUTHORITIES_PROPERTY} is about. */
    public static final String AGENT_PROPERTY = "OPENMFT_AUTHORITIES_AGENT";
    /** The agent-to-agent message type property ({@code mftType} of the protocol). */
    static final String TYPE_PROPERTY = "mftType";

    private static final Set<Authority> REQUESTS = EnumSet.of(Authority.TRANSFER, Authority.SCHEDULE,
            Authority.MONITOR, Authority.OPERATIONS, Authority.ADMINISTRATION);

    private AuthorityStamp() {
    }

    /**
     * What the queue manager evaluates for one message.
     *
     * @param agent       whose authority queues
     * @param authorities which authorities
     */
    public record Target(String agent, Set<Authority> authorities) {
    }

    /**
     * Which authorities the queue manager evaluates for a message sent to {@code address}: a request
     * on {@code SYSTEM.FTE.COMMAND.<agent>} gets every request authority on that agent; a START on
     * {@code SYSTEM.FTE.DATA.<agent>} gets {@link Authority#AGENT_SEND} on the destination; a START_OK
     * on {@code SYSTEM.FTE.REPLY.<agent>} gets {@link Authority#AGENT_RECEIVE} on the source. Other
     * messages get none.
     *
     * @param address the address the message is sent to
     * @param type    its {@value #TYPE_PROPERTY} property, or null
     * @return the target, or null for none
     */
    public static Target target(String address, String type) {
        if (address == null) {
            return null;
        }
        if (address.startsWith("SYSTEM.FTE.COMMAND.")) {
            return forAgent(address.substring("SYSTEM.FTE.COMMAND.".length()), REQUESTS);
        }
        if (address.startsWith("SYSTEM.FTE.DATA.") && "START".equals(type)) {
            return forAgent(address.substring("SYSTEM.FTE.DATA.".length()), EnumSet.of(Authority.AGENT_SEND));
        }
        if (address.startsWith("SYSTEM.FTE.REPLY.") && "START_OK".equals(type)) {
            return forAgent(address.substring("SYSTEM.FTE.REPLY.".length()), EnumSet.of(Authority.AGENT_RECEIVE));
        }
        return null;
    }

    private static Target forAgent(String agent, Set<Authority> authorities) {
        try {
            String valid = QueueNames.validateAgentName(agent);
            return valid.equals(agent) ? new Target(agent, authorities) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The user the queue manager validated for a message ({@code JMSXUserID}, blank-padded on IBM MQ).
     *
     * @param message a received message
     * @return the user, or null when it has none
     */
    public static String sender(Message message) throws JMSException {
        String user = message.getStringProperty("JMSXUserID");
        return user == null || user.isBlank() ? null : user.strip();
    }

    /**
     * Writes a set of authorities as the property value.
     *
     * @param authorities the authorities held
     * @return their names, comma-separated (empty for none)
     */
    public static String encode(Set<Authority> authorities) {
        return authorities.stream().map(Enum::name).sorted().collect(Collectors.joining(","));
    }

    /**
     * The authorities the queue manager says the sender of {@code message} holds on {@code agent}'s
     * authority queues. A message the queue manager did not stamp for that agent holds none.
     *
     * @param message a received message
     * @param agent   the agent (any case)
     * @return the authorities, possibly empty
     */
    public static Set<Authority> held(Message message, String agent) throws JMSException {
        Set<Authority> held = EnumSet.noneOf(Authority.class);
        if (!QueueNames.validateAgentName(agent).equals(message.getStringProperty(AGENT_PROPERTY))) {
            return held;
        }
        String value = message.getStringProperty(AUTHORITIES_PROPERTY);
        if (value == null || value.isEmpty()) {
            return held;
        }
        for (String name : value.split(",")) {
            for (Authority a : Authority.values()) {
                if (a.name().equals(name)) {
                    held.add(a);
                }
            }
        }
        return held;
    }
}
