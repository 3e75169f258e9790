package org.openmft.agent.transfer.source;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;

import javax.jms.JMSException;
import javax.jms.Message;
import javax.jms.Session;

import org.openmft.agent.config.QueueNames;
import org.openmft.agent.messaging.ConsumerLoop;
import org.openmft.agent.transfer.protocol.ProtocolCodec;

/**
 * The source's dispatcher: one thread serves {@code SYSTEM.FTE.REPLY.<agent>}, copies each
 * destination answer out of its message and hands it to the running transfer it is for.
 */
public final class ReplyDispatcher {
    private final String agentName;
    private final SourceScheduler scheduler;
    private final ConsumerLoop loop;

    /** @param session the dispatcher's own session */
    public ReplyDispatcher(String agentName, Session session, SourceScheduler scheduler, ThreadFactory threads)
            throws JMSException {
        this.agentName = agentName;
        this.scheduler = scheduler;
        String queue = QueueNames.reply(agentName);
        this.loop = new ConsumerLoop(agentName, queue, session.createConsumer(session.createQueue(queue)),
                this::handle, threads, "replies");
    }

    /** Starts serving (the connection must be started too). */
    public void start() {
        loop.start();
    }

    private void handle(Message m) throws JMSException {
        if (ProtocolCodec.versionOkOrWarn(m, agentName)) {
            scheduler.deliver(ProtocolCodec.transferId(m), ProtocolCodec.readControl(m));
        }
    }

    /** Stops serving. @return whether its thread ended within {@code wait} */
    public boolean close(Duration wait) {
        return loop.close(wait);
    }
}
