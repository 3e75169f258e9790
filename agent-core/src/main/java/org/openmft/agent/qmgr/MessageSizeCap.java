package org.openmft.agent.qmgr;

import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.ActiveMQExceptionType;
import org.apache.activemq.artemis.api.core.Message;
import org.apache.activemq.artemis.core.server.ServerSession;
import org.apache.activemq.artemis.core.server.plugin.ActiveMQServerMessagePlugin;
import org.apache.activemq.artemis.core.transaction.Transaction;

/**
 * IBM MQ's MAXMSGL for an embedded queue manager: a message a client sends over its address's
 * limit ({@link QueueManagerLimits}) is refused to the producer, whose send fails with a message
 * naming the address, the size and the limit, before it is routed to any queue. A large message
 * has been written to the large-message directory by then (Artemis streams it before
 * {@code beforeSend}); it is deleted with the refusal, and the disk limits bound what one send can
 * take meanwhile. Messages the broker moves itself (to the dead-letter queue, retained copies) are
 * not sends and not checked.
 *
 * <p>Thread-safety: stateless after construction; Artemis calls it on many threads.
 */
final class MessageSizeCap implements ActiveMQServerMessagePlugin {
    private final QueueManagerLimits limits;

    MessageSizeCap(QueueManagerLimits limits) {
        this.limits = limits;
    }

    /** Which limit applies to an address, and what it is called in a refusal. */
    record Limit(String kind, long maxBytes) {
    }

    Limit limitFor(String address) {
        if (address.startsWith("SYSTEM.FTE.DATA.")) {
            return new Limit("data queues (limits.dataMessageMaxBytes)", limits.dataMessageMaxBytes());
        }
        if (address.startsWith("SYSTEM.FTE.COMMAND.") || address.startsWith("SYSTEM.FTE.CMD.RJCT.")
                || address.startsWith("SYSTEM.FTE.LOG.CMD.") || address.startsWith("SYSTEM.FTE.LOG.RJCT.")) {
            return new Limit("command and reject queues (limits.commandMessageMaxBytes)",
                    limits.commandMessageMaxBytes());
        }
        return new Limit("this address (limits.messageMaxBytes)", limits.messageMaxBytes());
    }

    @Override
    public void beforeSend(ServerSession session, Transaction tx, Message message, boolean direct,
            boolean noAutoCreateQueue) throws ActiveMQException {
        String address = message.getAddress();
        if (address == null) {
            return;
        }
        Limit limit = limitFor(address);
        long size = message.getWholeMessageSize();
        if (size > limit.maxBytes()) {
            throw new ActiveMQException(ActiveMQExceptionType.GENERIC_EXCEPTION, "OpenMFT: a message of " + size
                    + " bytes to address " + address + " is refused: the queue manager's limit for " + limit.kind()
                    + " is " + limit.maxBytes() + " bytes (command queues " + limits.commandMessageMaxBytes()
                    + ", data queues " + limits.dataMessageMaxBytes() + ", other addresses "
                    + limits.messageMaxBytes() + ")");
        }
    }
}
