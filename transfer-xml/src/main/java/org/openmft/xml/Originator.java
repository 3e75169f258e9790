package org.openmft.xml;

/**
 * The {@code <originator>} of a request: the host and user the requester claims to be. These are
 * not authenticated; the agent records them in logs and may add the MQMD user id it saw on the
 * message ({@code <mqmdUserID>}). Immutable.
 *
 * @param hostName the requesting host, as written; not empty
 * @param userId the requesting user ({@code <userID>}); not empty
 * @param mqmdUserId the user id from the message descriptor, or {@code null} when not given
 */
public record Originator(String hostName, String userId, String mqmdUserId) {

    /** Validates; an empty {@code mqmdUserId} becomes {@code null}. */
    public Originator {
        hostName = Checks.name(hostName, "hostName");
        userId = Checks.name(userId, "userID");
        mqmdUserId = Checks.optionalName(mqmdUserId, "mqmdUserID");
    }

    /**
     * An originator without an MQMD user id, as requesters write it.
     *
     * @param hostName the requesting host
     * @param userId the requesting user
     */
    public Originator(String hostName, String userId) {
        this(hostName, userId, null);
    }
}
