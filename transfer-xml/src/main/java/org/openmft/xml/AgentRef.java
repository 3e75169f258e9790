package org.openmft.xml;

/**
 * An agent and the queue manager it connects to, as in {@code <sourceAgent agent="A" QMgr="QM"/>}.
 * Immutable.
 *
 * @param agent the agent name; not empty. Written as given (IBM upper-cases names on creation,
 *     so documents normally carry upper case)
 * @param qmgr the agent's queue manager, or {@code null} when not given (empty also means null)
 */
public record AgentRef(String agent, String qmgr) {

    /** Validates; an empty {@code qmgr} becomes {@code null}. */
    public AgentRef {
        agent = Checks.name(agent, "agent");
        qmgr = Checks.optionalName(qmgr, "QMgr");
    }
}
