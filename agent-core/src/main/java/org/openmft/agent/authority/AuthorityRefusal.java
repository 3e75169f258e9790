package org.openmft.agent.authority;

/**
 * A request refused because its user lacks an authority, as IBM's NotAuthorized log message
 * ({@code SYSTEM.FTE/Log/<agent>/NotAuthorized}, result 53) tells it.
 *
 * @param requestId  the refused message's id (the transfer id for a START)
 * @param user       the user the queue manager validated for it, or null when it named none
 * @param authority  the authority that was missing
 * @param agentRole  {@code sourceAgent} or {@code destinationAgent}: the part the refusing agent played
 * @param supplement the refusal in words, {@code BFGCH0083E: ...}
 * @param request    the refused request as received, or null when it was no request document
 */
public record AuthorityRefusal(String requestId, String user, Authority authority, String agentRole,
        String supplement, String request) {

    /**
     * IBM's BFGCH0083E in words.
     *
     * @param user      the user, or null
     * @param authority the missing authority
     * @param agent     the agent asked to act
     * @param action    what was asked, such as {@code start a transfer}
     * @return the message
     */
    public static String message(String user, Authority authority, String agent, String action) {
        return "BFGCH0083E: " + (user == null ? "A request without a user validated by the queue manager"
                : "User " + user) + " does not have the authority (" + authority.ibmName().toUpperCase(java.util.Locale.ROOT)
                + ") required to " + action + " on agent " + agent + ": it needs " + authority.access().keyword()
                + " on " + authority.queue(agent) + ".";
    }
}
