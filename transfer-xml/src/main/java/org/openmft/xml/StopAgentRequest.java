package org.openmft.xml;

import java.util.Objects;

/**
 * Asks an agent to stop. IBM's own stop request is undocumented, so this is OpenMFT's format, in
 * no namespace:
 * {@code <stopAgent version=".." immediate="false"><originator>..</originator><agent agent="NAME"/><reply QMGR="QM">Q</reply></stopAgent>}.
 * IBM agents will not understand it. Immutable.
 *
 * @param version the schema version read, 1.00 to 6.00
 * @param originator who asked
 * @param agent the agent to stop; not empty
 * @param immediate true to stop now and leave transfers to recovery, false (the default) to let
 *     running transfers finish first
 * @param reply where to answer, or {@code null}
 */
public record StopAgentRequest(String version, Originator originator, String agent, boolean immediate, ReplyTo reply)
        implements CommandDocument {

    /** Validates. */
    public StopAgentRequest {
        version = Checks.version(version);
        Objects.requireNonNull(originator, "originator");
        agent = Checks.name(agent, "agent");
    }
}
