package org.openmft.xml.log;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

import org.openmft.xml.AgentRef;

/**
 * IBM's NotAuthorized log message, published on {@code SYSTEM.FTE/Log/<agent>/NotAuthorized} when
 * {@code authorityChecking=true} refuses a request: root {@code <notAuthorized version ID agentRole>}
 * with {@code <action>not_authorized</action>}, the agent, {@code <originator><mqmdUserID>}, the
 * missing {@code <authority>} and {@code <status resultCode="53">} whose supplements are the
 * refusal and, when there was one, the refused request as received.
 *
 * @param version     the document version
 * @param id          the refused request's id (a transfer id for a transfer between agents)
 * @param agentRole   {@code sourceAgent} or {@code destinationAgent}
 * @param time        when it was refused
 * @param agent       the refusing agent
 * @param mqmdUserId  the user the queue manager validated for the request, or null
 * @param authority   IBM's name of the missing authority ({@code transfer}, {@code administration}, ...)
 * @param resultCode  53
 * @param supplements the refusal (BFGCH0083E ...), then the request text if any
 */
public record NotAuthorizedLog(String version, String id, String agentRole, Instant time, AgentRef agent,
        String mqmdUserId, String authority, int resultCode, List<String> supplements) {

    /** Validates. */
    public NotAuthorizedLog {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(agentRole, "agentRole");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(authority, "authority");
        supplements = List.copyOf(supplements);
    }
}
