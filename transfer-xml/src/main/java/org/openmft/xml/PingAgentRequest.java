package org.openmft.xml;

import java.util.Objects;

/**
 * Asks an agent whether it is alive: IBM's PingAgent.xsd document
 * {@code <pingAgent version=".."><originator>..</originator><agent agent="NAME" QMgr="QM"/><reply QMGR="QM">Q</reply></pingAgent>}
 * in namespace {@value #NAMESPACE}. The agent answers with a {@link Reply}. Immutable.
 *
 * @param version the schema version read, 1.00 to 6.00
 * @param originator who asked
 * @param agent the agent being pinged; not empty
 * @param agentQMgr its queue manager, or {@code null} when not given (empty also means null)
 * @param reply where to answer, or {@code null}
 */
public record PingAgentRequest(String version, Originator originator, String agent, String agentQMgr, ReplyTo reply)
        implements CommandDocument {

    /** Namespace of IBM's PingAgent.xsd; the root element is in it, its children are unqualified. */
    public static final String NAMESPACE = "http://www.ibm.com/xmlns/wmqfte/7.0.1/PingAgent";

    /** Validates; an empty {@code agentQMgr} becomes {@code null}. */
    public PingAgentRequest {
        version = Checks.version(version);
        Objects.requireNonNull(originator, "originator");
        agent = Checks.name(agent, "agent");
        agentQMgr = Checks.optionalName(agentQMgr, "QMgr");
    }
}
