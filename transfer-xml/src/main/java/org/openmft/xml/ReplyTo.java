package org.openmft.xml;

/**
 * Where the agent sends replies to a request: {@code <reply QMGR="QM" detailed="true">QUEUE</reply>}.
 * Immutable.
 *
 * @param queue the reply queue name; not empty
 * @param qmgr the queue manager that owns it, or {@code null} for the agent's own (empty also means null)
 * @param detailed whether the requester asked for per-item results in the final reply
 */
public record ReplyTo(String queue, String qmgr, boolean detailed) {

    /** Validates; an empty {@code qmgr} becomes {@code null}. */
    public ReplyTo {
        queue = Checks.name(queue, "reply queue");
        qmgr = Checks.optionalName(qmgr, "QMGR");
    }
}
